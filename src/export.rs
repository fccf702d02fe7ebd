//! Files the conversions write and read: PNG images (`x.bti ⇄ x.png`) through the workspace's one
//! PNG codec (`gx::png`), and exported models (`x.dat`/`x.bmd` → `.glb`, `.obj` + `.mtl` + PNGs)
//! through the shared scene writers (`gx::scene`).

use std::path::Path;

use gcio::Result;
use gx::scene::Scene;
use gx::tex::Image;

use crate::{extension, io_error};

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| io_error(path, e))
}

/// Writes an RGBA8 image as a PNG file.
pub fn write_png(path: &Path, img: &Image) -> Result<()> {
    write(path, &gx::png::encode(img)?)
}

/// Reads a PNG (any colour type, 8 or 16 bits) into an RGBA8 image.
pub fn read_png(path: &Path, data: &[u8]) -> Result<Image> {
    gx::png::decode(data).map_err(|e| e.context(path.display().to_string()))
}

/// Writes a model scene to `to`: a `.glb` file; or `name.obj` with `name.mtl` and one
/// `name_img<i>.png` per distinct image beside it; or, when `to` is a directory (or has no
/// extension), those files as `to/<stem>.*`.
pub fn write_scene(scene: &Scene, to: &Path, stem: &str) -> Result<()> {
    let ext = extension(to);
    if ext == "glb" {
        return write(to, &scene.to_glb()?);
    }
    let obj = if ext == "obj" {
        to.to_path_buf()
    } else {
        to.join(format!("{stem}.obj"))
    };
    let dir = obj.parent().unwrap_or(Path::new("."));
    if !dir.as_os_str().is_empty() {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    }
    let name = obj
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(stem)
        .to_owned();
    let png = |i: usize| format!("{name}_img{i}.png");
    for (i, img) in scene.images().iter().enumerate() {
        write_png(&dir.join(png(i)), img)?;
    }
    let mtl = format!("{name}.mtl");
    write(&dir.join(&mtl), scene.to_mtl(png).as_bytes())?;
    write(&obj, scene.to_obj(Some(&mtl)).as_bytes())
}
