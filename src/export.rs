//! Files the conversions make and read, in memory: PNG images (`x.bti ⇄ x.png`) through the
//! workspace's one PNG codec (`gx::png`), and exported models (`x.dat`/`x.bmd` → `.glb`, `.obj` +
//! `.mtl` + PNGs) through the shared scene writers (`gx::scene`). The caller writes them.

use gcio::Result;
use gx::scene::Scene;
use gx::tex::Image;

use crate::{Outputs, extension_of, file_name, is_folder_name};

/// An RGBA8 image as PNG bytes.
pub fn png(img: &Image) -> Result<Vec<u8>> {
    gx::png::encode(img)
}

/// Reads a PNG (any colour type, 8 or 16 bits) named `name` into an RGBA8 image.
pub fn read_png(name: &str, data: &[u8]) -> Result<Image> {
    gx::png::decode(data).map_err(|e| e.context(name.to_owned()))
}

/// A model scene as the files `to` asks for ([`Outputs`]): a `.glb` file; or `name.obj` with
/// `name.mtl` and one `name_img<i>.png` per distinct image beside it; or, when `to` names a
/// folder ([`is_folder_name`]), those files as `<stem>.*` inside it.
pub fn scene_files(scene: &Scene, to: &str, stem: &str) -> Result<Outputs> {
    let ext = extension_of(to);
    if ext == "glb" {
        return Ok(vec![(file_name(to), scene.to_glb()?)]);
    }
    let name = if is_folder_name(to) {
        stem.to_owned()
    } else {
        let file = file_name(to);
        file.strip_suffix(".obj")
            .or_else(|| file.strip_suffix(".OBJ"))
            .unwrap_or(&file)
            .to_owned()
    };
    let png_name = |i: usize| format!("{name}_img{i}.png");
    let mut out = Vec::new();
    for (i, img) in scene.images().iter().enumerate() {
        out.push((png_name(i), png(img)?));
    }
    let mtl = format!("{name}.mtl");
    out.push((mtl.clone(), scene.to_mtl(png_name).into_bytes()));
    out.push((format!("{name}.obj"), scene.to_obj(Some(&mtl)).into_bytes()));
    Ok(out)
}
