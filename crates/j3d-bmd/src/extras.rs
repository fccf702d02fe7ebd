//! The typed JSON a glTF export carries under `extras.j3d` so that an import rebuilds the same
//! model: what glTF has no place for (TEV setups, texture formats and sampler words, joint flags,
//! shape matrix types and vertex descriptors, vertex quantisation). Never bytes of the original:
//! everything here is a typed value (schema in `docs/J3D-GLTF.md`). Each level is optional; an
//! import of a plain glTF file works without any of it.

use serde::{Deserialize, Serialize};

use crate::mat3::Material;
use crate::tex1::BtiHeader;

/// Schema version written by the exporter.
pub const VERSION: u32 = 1;

/// Document-level extras (`extras.j3d` of the glTF document).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelExtras {
    /// Schema version ([`VERSION`]).
    pub version: u32,
    /// The model was a BDL (MDL3 display lists).
    pub bdl: bool,
    /// INF1 loader flags.
    pub loader_flags: u16,
    /// TEX1 in order: materials refer to these indices.
    pub textures: Vec<TextureExtras>,
    /// VTX1 attribute formats (quantisation of positions, normals, colours, texture coordinates).
    pub vertex_formats: Vec<VertexFormatExtras>,
}

/// One TEX1 texture: its header and where its pixels are in the glTF file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TextureExtras {
    /// TEX1 name.
    pub name: String,
    /// glTF image index holding level 0's pixels.
    pub image: Option<usize>,
    /// The header (format, sampler words, LOD, mip count); offsets are derived on writing.
    pub header: BtiHeader,
    /// Palette colours (RGBA8) of an indexed texture, in palette order.
    pub palette: Vec<[u8; 4]>,
}

/// One VTX1 attribute format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VertexFormatExtras {
    /// GX attribute (9 POS, 10 NRM, 11–12 CLR, 13–20 TEX).
    pub attr: u32,
    /// Component count selector.
    pub count: u32,
    /// Component type.
    pub ty: u32,
    /// Fixed-point fraction bits.
    pub frac: u8,
}

/// Per-node extras (`extras.j3d` of a joint's node).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct JointExtras {
    /// JNT1 matrix type / flags word.
    pub matrix_type: u16,
    /// Parent scale inheritance: 0 follow, 1 ignore.
    pub scale_compensate: u8,
    /// The stored scale, s16 angles and translation: used while the node's transform still
    /// equals them (glTF's float TRS cannot hold the s16 angles exactly).
    pub srt: Option<([f32; 3], [i16; 3], [f32; 3])>,
    /// The stored bounding-sphere radius and box: kept while the joint's vertices fit in them.
    pub bounds: Option<(f32, [f32; 6])>,
}

/// Per-material extras (`extras.j3d` of a glTF material).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MaterialExtras {
    /// MAT3 index (copies of one material, e.g. an untextured variant, share it).
    pub index: usize,
    /// The resolved material: TEV, channels, tex gens, blend …; `textures` are TEX1 indices into
    /// [`ModelExtras::textures`].
    pub material: Material,
}

/// Per-mesh extras (`extras.j3d` of a glTF mesh).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ShapeExtras {
    /// SHP1 index.
    pub index: usize,
    /// Shape matrix type (0 single, 1 billboard, 2 Y billboard, 3 multi).
    pub matrix_type: u8,
    /// Vertex descriptor in display-list order: (attribute, 1 direct / 2 index8 / 3 index16).
    pub attrs: Vec<(u32, u32)>,
    /// Joint the shape hangs under in INF1.
    pub joint: Option<u16>,
    /// Position of the shape among INF1's shape nodes (its draw order).
    pub draw: Option<usize>,
}

/// Reads `extras.j3d` of a glTF object's extras as `T` (`None` when absent or not of that shape).
pub fn read<T: for<'de> Deserialize<'de>>(extras: Option<&serde_json::Value>) -> Option<T> {
    let v = extras?.get("j3d")?;
    serde_json::from_value(v.clone()).ok()
}

/// `{"j3d": value}` as extras.
pub fn wrap<T: Serialize>(value: &T) -> Option<serde_json::Value> {
    serde_json::to_value(value)
        .ok()
        .map(|v| serde_json::json!({ "j3d": v }))
}

/// Adds the extras of `view` to the scene [`crate::to_scene`] made of it, from the MAT3 and TEX1
/// it parsed and the scene image of each texture (`images`): the document's [`ModelExtras`],
/// [`JointExtras`] per node, [`MaterialExtras`] per material, [`ShapeExtras`] per mesh.
#[cfg(feature = "export")]
pub(crate) fn annotate(
    scene: &mut gx::scene::Scene,
    view: &crate::BmdView<'_>,
    mat3: Option<&crate::mat3::Mat3>,
    tex1: Option<&crate::tex1::Tex1>,
    images: &[Option<usize>],
) -> gcio::Result<()> {
    use crate::inf1::NodeKind;
    let mut model = ModelExtras {
        version: VERSION,
        bdl: view.is_bdl(),
        ..ModelExtras::default()
    };
    if let Some(inf) = view.inf1().transpose()? {
        model.loader_flags = inf.flags().bits();
    }
    if let Some(vtx) = view.vtx1().transpose()? {
        for f in vtx.formats().map_while(|f| f.ok()) {
            let f = f.format;
            if f.attr != gx::vtx::Attr::NULL {
                model.vertex_formats.push(VertexFormatExtras {
                    attr: f.attr.0,
                    count: f.count.0,
                    ty: f.ty.0,
                    frac: f.frac,
                });
            }
        }
    }
    if let Some(tex1) = tex1 {
        for (i, t) in tex1.set.textures.iter().enumerate() {
            let image = images.get(i).copied().flatten();
            let palette = tex1
                .set
                .palette(i)
                .and_then(|p| {
                    gx::tex::Palette::new(gx::tex::PaletteFormat(t.header.palette_format), p)
                        .colors()
                        .ok()
                })
                .unwrap_or_default();
            let mut header = t.header;
            header.image_offset = 0;
            header.palette_offset = 0;
            model.textures.push(TextureExtras {
                name: tex1
                    .names
                    .as_ref()
                    .and_then(|n| n.name(i))
                    .unwrap_or_default(),
                image,
                header,
                palette,
            });
        }
    }
    scene.extras = wrap(&model);
    if let Some(jnt) = view.jnt1().transpose()? {
        for (i, node) in scene.nodes.iter_mut().enumerate().take(jnt.len()) {
            let j = jnt.joint(i)?;
            node.extras = wrap(&JointExtras {
                matrix_type: j.matrix_type,
                scale_compensate: j.scale_compensate,
                srt: Some((j.scale, j.rotation, j.translation)),
                bounds: Some((j.radius, j.bbox)),
            });
        }
    }
    if let Some(mat3) = mat3 {
        for (index, (m, gm)) in mat3
            .materials()
            .into_iter()
            .zip(&mut scene.materials)
            .enumerate()
        {
            gm.extras = wrap(&MaterialExtras { index, material: m });
        }
    }
    // Shapes: matrix type, descriptor and the joint each hangs under in INF1.
    let mut joint_of = std::collections::HashMap::new();
    if let Some(inf) = view.inf1().transpose()? {
        let mut stack: Vec<Option<u16>> = vec![None];
        let mut last = None;
        for n in inf.nodes().map_while(|n| n.ok()) {
            match n.kind {
                NodeKind::OPEN => stack.push(last),
                NodeKind::CLOSE => {
                    stack.pop();
                }
                NodeKind::JOINT => last = Some(n.index),
                NodeKind::SHAPE => {
                    let parent = stack.iter().rev().flatten().next().copied();
                    let draw = joint_of.len();
                    joint_of.insert(usize::from(n.index), (parent, draw));
                    last = None;
                }
                _ => last = None,
            }
        }
    }
    if let Some(shp) = view.shp1().transpose()? {
        for mesh in &mut scene.meshes {
            let Some(index) = mesh
                .name
                .strip_prefix("shape_")
                .and_then(|s| s.parse::<usize>().ok())
            else {
                continue;
            };
            let shape = shp.shape(index)?;
            let attrs = shp
                .shape_attrs(index)?
                .map_while(|a| a.ok())
                .take_while(|a| a.attr != gx::vtx::Attr::NULL)
                .map(|a| (a.attr.0, a.ty.0))
                .collect();
            mesh.extras = wrap(&ShapeExtras {
                index,
                matrix_type: shape.matrix_type,
                attrs,
                joint: joint_of.get(&index).and_then(|j| j.0),
                draw: joint_of.get(&index).map(|j| j.1),
            });
        }
    }
    Ok(())
}
