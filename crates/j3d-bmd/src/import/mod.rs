//! Import: a glTF model ([`gx::scene::Scene`], read by [`gx::scene::Scene::from_glb`]) becomes a
//! J3D model laid out as Nintendo's tools lay it out (chunk order, `SVR3` tag, padding sentence,
//! DRW1 with rigid joints first): joints from the nodes, shapes from the meshes, materials and
//! textures from our export's typed extras or a standard setup, MDL3 for a BDL. The result is
//! written, read back and validated; an import whose output has validator errors fails with them.
//!
//! ```no_run
//! let glb = std::fs::read("model.glb")?;
//! let imported = j3d_bmd::import::from_glb(&glb, &j3d_bmd::import::ImportOptions::default())?;
//! std::fs::write("model.bmd", imported.bytes)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod geometry;
mod material;
mod skeleton;

use gcio::{Error, Result, Severity};
use gx::scene::Scene;
use gx::tex::TexFormat;

use crate::extras::{self, ModelExtras};
use crate::file::{Bmd, Chunk, MAGIC_BDL4, MAGIC_BMD3, SVR3_TAG};
use crate::inf1::{Inf1, LoaderFlags, NodeKind, SceneNode};
use crate::mat3::Mat3;
use crate::mdl3::Mdl3;

pub use material::TextureReport;

/// How to import.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportOptions {
    /// Write a BDL (MDL3 display lists generated from the materials) instead of a BMD.
    pub bdl: bool,
    /// Texture format for images without a recorded one (default: chosen per image by
    /// [`gx::tex::choose_format`]).
    pub texture_format: Option<TexFormat>,
    /// Mip levels for textures without a recorded header (0 or 1: none).
    pub mipmaps: u32,
}

/// An imported model.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The model.
    pub model: Bmd,
    /// Its bytes, read back and validated.
    pub bytes: Vec<u8>,
    /// Texture notes (CMPR blocks that could not be re-encoded exactly).
    pub textures: TextureReport,
    /// Validator findings below error level.
    pub findings: Vec<gcio::Diagnostic>,
}

/// Reads a `.glb` / `.gltf` and imports it (see [`import`]).
pub fn from_glb(data: &[u8], opts: &ImportOptions) -> Result<Imported> {
    import(&Scene::from_glb(data)?, opts)
}

/// Imports `scene`: one joint per node, one shape per mesh, materials and textures from our
/// export's extras or made to look like the glTF material.
pub fn import(scene: &Scene, opts: &ImportOptions) -> Result<Imported> {
    let model: ModelExtras = extras::read(scene.extras.as_ref()).unwrap_or_default();
    let mut skel = skeleton::skeleton(scene)?;
    let mats = material::materials(scene, &model, opts)?;
    let geo = geometry::geometry(scene, &skel, &model)?;

    // INF1 as Nintendo's tools lay it out: under each joint its shapes (in the recorded draw
    // order, else by material) as a chain of material → shape nodes, each opening the next, and
    // the child joints inside the last shape.
    let joint_count = skel.parents.len();
    let mut under: Vec<Vec<(Option<usize>, u16, u16)>> = vec![Vec::new(); joint_count];
    for (s, &(mesh, joint, draw)) in geo.shapes.iter().enumerate() {
        let material = mats.of_mesh.get(mesh).copied().unwrap_or(0);
        let at = usize::from(joint).min(joint_count.saturating_sub(1));
        if let Some(list) = under.get_mut(at) {
            list.push((draw, material, crate::chunk::u16_of(s, "shape index")?));
        }
    }
    for list in &mut under {
        list.sort_by_key(|&(draw, material, shape)| (draw.unwrap_or(usize::MAX), material, shape));
    }
    let roots: Vec<SceneNode> = (0..joint_count)
        .filter(|&j| skel.parents.get(j).copied().flatten().is_none())
        .map(|j| joint_node(j, &skel.parents, &under, 0))
        .collect::<Result<_>>()?;
    let recorded_bounds = std::mem::take(&mut skel.bounds);
    let bdl = opts.bdl || model.bdl;
    let mut inf = Inf1 {
        flags: if model.version > 0 {
            LoaderFlags::from_bits_retain(model.loader_flags)
        } else {
            LoaderFlags::BASIC
        },
        marker: 0xFFFF,
        matrix_group_count: geo.shp1.matrix_data.len() as u32,
        vertex_count: geo.position_count as u32,
        nodes: vec![],
        pad: crate::Pad::Nintendo,
    };
    inf.set_tree(&roots);
    let mut chunks = vec![
        Chunk::Inf1(inf),
        Chunk::Vtx1(geo.vtx1),
        Chunk::Evp1(geo.evp1),
        Chunk::Drw1(geo.drw1),
        Chunk::Jnt1(skel.jnt1),
        Chunk::Shp1(geo.shp1),
        Chunk::Mat3(Mat3::from_materials(&mats.materials)?),
    ];
    if bdl {
        chunks.push(Chunk::Mdl3(Mdl3::from_materials(
            &mats.materials,
            &mats.tex1.set,
        )?));
    }
    chunks.push(Chunk::Tex1(mats.tex1));
    let mut bmd = Bmd {
        magic: if bdl { *MAGIC_BDL4 } else { *MAGIC_BMD3 },
        tag: SVR3_TAG,
        chunks,
        stale_size: None,
        stale_count: None,
        trailing: vec![],
    };
    set_bounds(&mut bmd, &recorded_bounds)?;
    let bytes = bmd.write()?;
    // What we wrote must read back typed and check without errors.
    if Bmd::parse(&bytes)?.write()? != bytes {
        return Err(Error::message(
            "the imported model does not read back as written",
        ));
    }
    let (errors, findings): (Vec<_>, Vec<_>) = crate::validate(&bytes)
        .into_iter()
        .partition(|d| d.severity == Severity::Error);
    if !errors.is_empty() {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        return Err(Error::message(format!(
            "the imported model has validator errors:\n{}",
            list.join("\n")
        )));
    }
    Ok(Imported {
        model: bmd,
        bytes,
        textures: mats.report,
        findings,
    })
}

/// Joint `j`: its shapes as a chain of material → shape nodes, its child joints inside the last
/// (depth bounded by the joint count).
fn joint_node(
    j: usize,
    parents: &[Option<usize>],
    shapes: &[Vec<(Option<usize>, u16, u16)>],
    depth: usize,
) -> Result<SceneNode> {
    if depth > parents.len() {
        return Err(Error::message("joint hierarchy loops"));
    }
    let mut inner = Vec::new();
    for c in (0..parents.len()).filter(|&c| parents.get(c).copied().flatten() == Some(j)) {
        inner.push(joint_node(c, parents, shapes, depth + 1)?);
    }
    for &(_, material, shape) in shapes.get(j).into_iter().flatten().rev() {
        inner = vec![SceneNode {
            kind: NodeKind::MATERIAL,
            index: material,
            children: vec![SceneNode {
                kind: NodeKind::SHAPE,
                index: shape,
                children: inner,
            }],
        }];
    }
    Ok(SceneNode {
        kind: NodeKind::JOINT,
        index: crate::chunk::u16_of(j, "joint index")?,
        children: inner,
    })
}

/// Joint bounds: the recorded ones while the joint's vertices fit in them (a joint Nintendo's
/// tools left at zero keeps zero while it moves no vertex), else fitted to the vertices.
fn set_bounds(bmd: &mut Bmd, recorded: &[Option<(f32, [f32; 6])>]) -> Result<()> {
    let bytes = bmd.write()?;
    let fitted = crate::bounds::fit_joint_bounds(&crate::parse(&bytes)?)?;
    let Some(jnt) = bmd.jnt1_mut() else {
        return Ok(());
    };
    for (i, joint) in jnt.joints.iter_mut().enumerate() {
        let fit = fitted.get(i).copied().flatten();
        let kept = recorded
            .get(i)
            .copied()
            .flatten()
            .filter(|(radius, bbox)| match &fit {
                None => true,
                Some(f) => {
                    let tol = 1e-3
                        * bbox
                            .iter()
                            .fold(radius.abs().max(1.0), |m, v| m.max(v.abs()));
                    let (lo, hi) = bbox.split_at(3);
                    let (flo, fhi) = f.bbox.split_at(3);
                    f.radius <= radius + tol
                        && flo.iter().zip(lo).all(|(a, b)| *a >= b - tol)
                        && fhi.iter().zip(hi).all(|(a, b)| *a <= b + tol)
                }
            });
        match (kept, fit) {
            (Some((radius, bbox)), _) => (joint.radius, joint.bbox) = (radius, bbox),
            (None, Some(f)) => (joint.radius, joint.bbox) = (f.radius, f.bbox),
            (None, None) => {}
        }
    }
    Ok(())
}
