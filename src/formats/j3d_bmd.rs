//! J3D models (BMD/BDL/BMT): the crate's contract (`j3d_bmd::BmdFormat`: the
//! `J3D2bmd`/`J3D2bdl`/`J3D2bmt` magic, parse, write, the J3D-* validator) presented with `info`
//! (the chunks, joints, shapes, vertex counts, materials and textures), survey facts on chunk
//! coverage, `convert model.bdl model.obj` (the geometry, one group per shape, with a material
//! library and PNG textures) and `convert model.bdl model.glb` (a glTF 2.0 binary: meshes,
//! joints, skin, PNG base-colour textures, and the companion animations).

use std::fmt::Write as _;

#[cfg(feature = "convert")]
use gcio::FileFormat;
use gcio::Result;
use j3d_bmd::{Bmd, BmdFormat, Chunk, parse_with};

#[cfg(feature = "convert")]
use crate::export::scene_files;
#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, companion_files, extension_of, file_stem};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The J3D model format's presentation.
pub struct J3dBmd;

/// The registry entry.
pub static ENTRY: Registered<BmdFormat, J3dBmd> = Registered::new(J3dBmd);

impl Present<BmdFormat> for J3dBmd {
    /// The view (made under the same limits as the model) for the geometry and chunk offsets,
    /// the model for what is typed.
    fn info(&self, data: &Input<'_>, model: &Bmd) -> Result<Info> {
        let v = parse_with(data, data.limits())?;
        let mesh = j3d_bmd::geometry(&v);
        let mut text = format!(
            "{} ({} chunks, {} bytes)\n",
            String::from_utf8_lossy(&v.magic()),
            v.chunks().len(),
            data.len()
        );
        let mut chunks = Vec::new();
        let typed_count = model
            .chunks
            .iter()
            .filter(|c| !matches!(c, Chunk::Raw(_)))
            .count();
        let _ = writeln!(text, "typed chunks: {typed_count} / {}", model.chunks.len());
        for (c, m) in v.chunks().iter().zip(&model.chunks) {
            let typed = !matches!(m, Chunk::Raw(_));
            let why = (!typed)
                .then(|| Chunk::raw_reason_with(c, data.limits()))
                .flatten();
            let _ = writeln!(
                text,
                "  {} at {:#x}, {:#x} bytes{}",
                c.name(),
                c.offset(),
                c.data.len(),
                why.as_ref()
                    .map_or_else(String::new, |w| format!(" (raw: {w})"))
            );
            chunks.push(serde_json::json!({"magic": c.name(), "offset": c.offset(), "size": c.data.len(), "typed": typed, "raw_reason": why}));
        }
        let mut joints = Vec::new();
        if let Some(Ok(j)) = v.jnt1() {
            let names = j.names().and_then(|n| n.ok());
            let mut list = Vec::new();
            for i in 0..j.len() {
                let name = names.as_ref().and_then(|n| n.name(i)).unwrap_or_default();
                joints.push(serde_json::json!({"index": i, "name": name}));
                list.push(name);
            }
            let _ = writeln!(text, "joints: {} [{}]", j.len(), list.join(", "));
        }
        let mut attrs = Vec::new();
        if let Some(Ok(x)) = v.vtx1() {
            let mut list = Vec::new();
            for f in x
                .formats()
                .map_while(|f| f.ok())
                .take_while(|f| f.format.attr.0 != 0xFF)
            {
                let a = f.format.attr;
                let n = model.vtx1().map_or(0, |m| m.len(a));
                let name = a.name().map_or_else(|| a.0.to_string(), str::to_owned);
                list.push(format!("{name} {n}"));
                attrs.push(serde_json::json!({"attribute": name, "type": f.format.ty.0, "count": f.format.count.0, "frac": f.format.frac, "entries": n}));
            }
            let _ = writeln!(text, "vertex data: {}", list.join(", "));
        }
        let mut shapes = Vec::new();
        if let Ok(mesh) = &mesh {
            for s in &mesh.shapes {
                shapes.push(serde_json::json!({"index": s.index, "matrix_type": s.matrix_type.0, "vertices": s.vertices.len(), "triangles": s.triangles.len()}));
                let _ = writeln!(
                    text,
                    "shape {}: matrix type {}, {} vertices, {} triangles",
                    s.index,
                    s.matrix_type.0,
                    s.vertices.len(),
                    s.triangles.len()
                );
            }
        }
        if let Err(e) = &mesh {
            let _ = writeln!(text, "geometry: {e}");
        }
        let materials: Vec<String> = model
            .mat3()
            .map(|m| {
                m.materials()
                    .iter()
                    .map(|x| String::from_utf8_lossy(&x.name).into_owned())
                    .collect()
            })
            .unwrap_or_default();
        if !materials.is_empty() {
            let _ = writeln!(
                text,
                "materials: {} [{}]",
                materials.len(),
                materials.join(", ")
            );
        }
        let textures: Vec<serde_json::Value> = model
            .tex1()
            .map(|t| {
                t.set
                    .textures
                    .iter()
                    .enumerate()
                    .map(|(i, x)| {
                        let name = t.names.as_ref().and_then(|n| n.name(i)).unwrap_or_default();
                        serde_json::json!({"name": name, "format": x.header.format, "width": x.header.width, "height": x.header.height, "levels": x.header.image_count.max(1)})
                    })
                    .collect()
            })
            .unwrap_or_default();
        if !textures.is_empty() {
            let _ = writeln!(text, "textures: {}", textures.len());
        }
        let json = serde_json::json!({
            "magic": String::from_utf8_lossy(&v.magic()),
            "materials": materials,
            "textures": textures,
            "chunks": chunks,
            "joints": joints,
            "vertex_attributes": attrs,
            "shapes": shapes,
            "vertices": mesh.as_ref().map_or(0, |m| m.vertex_count()),
            "triangles": mesh.as_ref().map_or(0, |m| m.triangle_count()),
        });
        Ok(Info { text, json })
    }

    /// Chunk coverage: `chunks` and `chunks typed` (their ratio is the typed share), and one
    /// `raw chunk MAGIC` per chunk the owned model keeps as bytes.
    fn facts(&self, data: &Input<'_>, _model: &Bmd) -> Vec<(String, u64)> {
        let Ok(v) = parse_with(data, data.limits()) else {
            return Vec::new();
        };
        let mut typed = 0;
        let mut facts = Vec::new();
        for c in v.chunks() {
            if Chunk::raw_reason_with(c, data.limits()).is_some() {
                facts.push((format!("raw chunk {}", c.name()), 1));
            } else {
                typed += 1;
            }
        }
        facts.push(("chunks".to_owned(), v.chunks().len() as u64));
        facts.push(("chunks typed".to_owned(), typed));
        facts
    }

    #[cfg(feature = "convert")]
    /// `model.bdl model.glb`: glTF 2.0 binary; `model.bdl y.obj`: `y.obj`, `y.mtl` and
    /// `y_img<i>.png` per distinct texture ([`j3d_bmd::to_scene`]); each companion animation
    /// left out is noted with why.
    fn convert_noting(
        &self,
        job: &Conversion<'_>,
        notices: &mut Notices,
    ) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        if matches!(extension_of(from).as_str(), "glb" | "gltf")
            && matches!(extension_of(to).as_str(), "bmd" | "bdl")
        {
            return import(job, notices).map(Some);
        }
        if BmdFormat::detect(input).is_none() || !matches!(extension_of(to).as_str(), "obj" | "glb")
        {
            return Ok(None);
        }
        let mut scene = j3d_bmd::to_scene(&parse_with(input, limits)?)?;
        add_animations(&mut scene, job, notices)?;
        scene_files(&scene, to, &file_stem(from)).map(Some)
    }

    /// `anim`: the J3D animations a `.glb` export carries ([`crate::Companions`]: `anim:NAME` each).
    fn companions(&self) -> &'static [&'static str] {
        &["anim"]
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        j3d_bmd::build::samples()
    }
}

/// Option keys `convert x.glb y.bdl` takes.
#[cfg(feature = "convert")]
const IMPORT_KEYS: [&str; 2] = ["texfmt", "mipmaps"];

/// `convert model.glb model.bdl|bmd` ([`j3d_bmd::import`]): `-o texfmt=NAME` for images without a
/// recorded format, `-o mipmaps=N` levels; notes the CMPR blocks that could not come back
/// exactly.
#[cfg(feature = "convert")]
fn import(job: &Conversion<'_>, notices: &mut Notices) -> Result<Outputs> {
    use j3d_bmd::gx::tex::TexFormat;
    crate::format::check_option_keys(job.opts, &IMPORT_KEYS, "glTF to J3D")?;
    let texture_format = match job.opts.get("texfmt") {
        Some(name) => Some(
            TexFormat::from_name(name)
                .ok_or_else(|| gcio::Error::message(format!("unknown texture format {name:?}")))?,
        ),
        None => None,
    };
    let mipmaps = match job.opts.get("mipmaps") {
        Some(n) => n
            .parse()
            .map_err(|_| gcio::Error::message(format!("mipmaps={n:?} is not a count")))?,
        None => 1,
    };
    let opts = j3d_bmd::import::ImportOptions {
        bdl: extension_of(job.to) == "bdl",
        texture_format,
        mipmaps,
    };
    let imported = j3d_bmd::import::import(&crate::format::read_scene(job, notices)?, &opts)?;
    for (name, blocks) in &imported.textures.inexact_blocks {
        notices.push(format!(
            "{}: texture {name}: {blocks} CMPR blocks re-encoded approximately",
            job.from
        ));
    }
    for (name, size, stored) in &imported.textures.resized {
        let what = format!("texture {name}");
        notices.push(crate::format::resized_notice(
            job.from, &what, *size, *stored,
        ));
    }
    Ok(crate::format::one_file(job.to, imported.bytes))
}

/// J3D animations for a `.glb` export: the companion files under `anim` (`anim:NAME`, one per
/// animation, named by NAME's file stem: `gcf convert --anim FILE`, repeatable; a Yaz0-compressed
/// file is decompressed), sampled at option `fps` frames per second (default 60, the rate
/// Galaxy's game loop advances them). An animation that does not parse, does not fit the model
/// (a warning of `j3d_anim::bind::check_binding`: joint or shape count, no material found) or
/// cannot be sampled is left out with a notice naming it; the model (`job.input`) is still
/// exported.
#[cfg(feature = "convert")]
fn add_animations(
    scene: &mut gx::scene::Scene,
    job: &Conversion<'_>,
    notices: &mut Notices,
) -> Result<()> {
    let anims = companion_files(job.companions, "anim");
    if anims.is_empty() {
        return Ok(());
    }
    let invalid = |m: String| gcio::Error::without_offset(gcio::ErrorKind::Invalid(m));
    if extension_of(job.to) != "glb" {
        return Err(invalid("animations are written to .glb only".into()));
    }
    let fps = match job.opts.get("fps") {
        Some(f) => f
            .parse::<f32>()
            .ok()
            .filter(|x| x.is_finite() && *x > 0.0)
            .ok_or_else(|| invalid(format!("fps={f}: not a positive number")))?,
        None => 60.0,
    };
    let target = j3d_anim::Target::from_model_with(job.input, job.limits)?;
    for (path, data) in anims {
        let data = match rarc::layer::payload_with(data, 4, job.limits) {
            Ok(Some(inner)) => std::borrow::Cow::Owned(inner),
            _ => std::borrow::Cow::Borrowed(data),
        };
        let added = j3d_anim::Anim::parse_with(&data, job.limits).and_then(|anim| {
            let misfit: Vec<String> = j3d_anim::bind::check_binding(&anim, &target)
                .into_iter()
                .filter(|d| d.severity >= gcio::Severity::Warning)
                .map(|d| d.message)
                .collect();
            if !misfit.is_empty() {
                return Err(invalid(format!(
                    "does not fit the model: {}",
                    misfit.join("; ")
                )));
            }
            j3d_anim::export::add_to_scene(scene, &anim, &file_stem(path), fps)
        });
        if let Err(e) = added {
            notices.push(format!("{path}: animation left out: {e}"));
        }
    }
    Ok(())
}
