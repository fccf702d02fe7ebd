//! Builders for sample models that look like Nintendo's files: chunk order INF1, VTX1, EVP1, DRW1,
//! JNT1, SHP1, MAT3, (MDL3), TEX1; the `SVR3` tag; padding with "This is padding data to align";
//! DRW1 with rigid joints first and every envelope twice; primitives padded to 32 per matrix group.
//! MAT3 holds [`materials`] deduplicated as Nintendo's tools do, TEX1 holds [`textures`] in every
//! GX format; MDL3 is regenerated from both. Joint bounds are fitted to the vertices each joint
//! moves ([`Bmd::fit_joint_bounds`], J3D-046).

use gx::dl::{Opcode, PrimitiveBuf, VertexDesc};
use gx::vtx::{Attr, AttrType, CompCount, CompType, Components, Value, VertexFormat};

use crate::Pad;
use crate::drw1::Drw1;
use crate::evp1::{Envelope, Evp1, Mtx34};
use crate::file::{Bmd, Chunk, MAGIC_BDL4, MAGIC_BMD3, SVR3_TAG};
use crate::inf1::{Inf1, LoaderFlags, NodeKind, SceneNode};
use crate::jnt1::{Jnt1, Joint};
use crate::mat3::{
    AlphaCompare, Blend, ColorChannel, Fog, IndMatrix, IndOrder, IndScale, IndTevStage,
    IndirectEntry, Mat3, Material, NbtScale, SwapMode, SwapTable, TevOrder, TevStage, TexCoordGen,
    TexMatrix, ZMode, cull,
};
use crate::nametab::NameTable;
use crate::shp1::{GroupSpec, IndexAttr, ShapeMatrixType, ShapeSpec, Shp1};
use crate::tex1::{BtiHeader, Segment, Tex1, Texture, TextureSet};
use crate::vtx1::{AttrFormat, Vtx1};

/// A joint to build: local translation, parent and name.
#[derive(Debug, Clone, PartialEq)]
pub struct JointSpec {
    /// Name.
    pub name: String,
    /// Parent joint index (parents come first).
    pub parent: Option<usize>,
    /// Local translation.
    pub translation: [f32; 3],
}

/// Everything a model builder needs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelSpec {
    /// True for a BDL (adds MDL3).
    pub bdl: bool,
    /// Joints.
    pub joints: Vec<JointSpec>,
    /// Envelopes as (joint, weight) pairs.
    pub envelopes: Vec<Vec<(u16, f32)>>,
    /// Joints used rigidly (DRW1 joint entries, in order).
    pub rigid: Vec<u16>,
    /// Vertex arrays.
    pub arrays: Vec<(VertexFormat, Vec<Value>)>,
    /// Shapes and the joint each hangs under in the hierarchy.
    pub shapes: Vec<(ShapeSpec, usize)>,
}

fn translate(t: [f32; 3]) -> Mtx34 {
    [
        [1.0, 0.0, 0.0, t[0]],
        [0.0, 1.0, 0.0, t[1]],
        [0.0, 0.0, 1.0, t[2]],
    ]
}

/// Assembles a model from a spec.
pub fn assemble(spec: &ModelSpec) -> Bmd {
    // World translations (joints carry translation only) give the inverse bind matrices.
    let mut world: Vec<[f32; 3]> = Vec::with_capacity(spec.joints.len());
    for j in &spec.joints {
        let p = j
            .parent
            .and_then(|p| world.get(p))
            .copied()
            .unwrap_or([0.0; 3]);
        world.push([
            p[0] + j.translation[0],
            p[1] + j.translation[1],
            p[2] + j.translation[2],
        ]);
    }
    // Scene: joint tree; each shape as material → shape under its joint.
    fn node(spec: &ModelSpec, j: usize) -> SceneNode {
        let mut children: Vec<SceneNode> = spec
            .shapes
            .iter()
            .enumerate()
            .filter(|(_, (_, owner))| *owner == j)
            .map(|(i, _)| SceneNode {
                kind: NodeKind::MATERIAL,
                index: (i % MATERIAL_COUNT) as u16,
                children: vec![SceneNode {
                    kind: NodeKind::SHAPE,
                    index: i as u16,
                    children: vec![],
                }],
            })
            .collect();
        children.extend(
            spec.joints
                .iter()
                .enumerate()
                .filter(|(_, c)| c.parent == Some(j))
                .map(|(c, _)| node(spec, c)),
        );
        SceneNode {
            kind: NodeKind::JOINT,
            index: j as u16,
            children,
        }
    }
    let roots: Vec<SceneNode> = spec
        .joints
        .iter()
        .enumerate()
        .filter(|(_, j)| j.parent.is_none())
        .map(|(i, _)| node(spec, i))
        .collect();

    let mut shp = Shp1::default();
    for (s, _) in &spec.shapes {
        let _ = shp.push_shape(s.clone());
    }
    let mut vtx = Vtx1 {
        formats: vec![AttrFormat::terminator()],
        buffers: vec![],
        pad: Pad::Nintendo,
        align: 32,
    };
    for (f, values) in &spec.arrays {
        let _ = vtx.set(*f, values);
    }
    let mut inf = Inf1 {
        flags: LoaderFlags::BASIC,
        marker: 0xFFFF,
        matrix_group_count: shp.matrix_data.len() as u32,
        vertex_count: vtx.len(Attr::POS) as u32,
        nodes: vec![],
        pad: Pad::Nintendo,
    };
    inf.set_tree(&roots);
    let evp = Evp1 {
        marker: 0xFFFF,
        envelopes: spec
            .envelopes
            .iter()
            .map(|p| Envelope { pairs: p.clone() })
            .collect(),
        ibms: if spec.envelopes.is_empty() {
            vec![]
        } else {
            world.iter().map(|w| translate(w.map(|x| -x))).collect()
        },
        pad: Pad::Nintendo,
        aligns: Evp1::uniform_aligns(1),
    };
    let drw = Drw1::nintendo(&spec.rigid, spec.envelopes.len() as u16);
    let joints = spec
        .joints
        .iter()
        .map(|j| Joint::at(j.translation))
        .collect();
    let jnt = Jnt1::new(
        joints,
        Some(NameTable::new(
            spec.joints.iter().map(|j| j.name.as_bytes()),
        )),
    );
    let mut chunks = vec![
        Chunk::Inf1(inf),
        Chunk::Vtx1(vtx),
        Chunk::Evp1(evp),
        Chunk::Drw1(drw),
        Chunk::Jnt1(jnt),
        Chunk::Shp1(shp),
        Chunk::Mat3(Mat3::from_materials(&materials()).unwrap_or_default()),
    ];
    if spec.bdl {
        let (set, _) = textures();
        chunks.push(Chunk::Mdl3(
            crate::mdl3::Mdl3::from_materials(&materials(), &set).unwrap_or_default(),
        ));
    }
    chunks.push(Chunk::Tex1(tex1()));
    let mut model = Bmd {
        magic: if spec.bdl { *MAGIC_BDL4 } else { *MAGIC_BMD3 },
        tag: SVR3_TAG,
        chunks,
        stale_size: None,
        stale_count: None,
        trailing: vec![],
    };
    // Joint bounds hold the vertices each joint moves (J3D-046); a spec whose geometry does not
    // decode keeps zero bounds.
    let _ = model.fit_joint_bounds();
    model
}

fn f3(x: f32, y: f32, z: f32) -> Value {
    Value::Float(Components::new(&[x, y, z]))
}

fn fmt(attr: Attr, count: CompCount, ty: CompType, frac: u8) -> VertexFormat {
    VertexFormat {
        attr,
        count,
        ty,
        frac,
    }
}

fn ia(attr: Attr, ty: AttrType) -> IndexAttr {
    IndexAttr { attr, ty }
}

/// A grid of `(cols + 1) × (rows + 1)` positions (f32) in the XZ plane.
fn grid_positions(cols: usize, rows: usize) -> Vec<Value> {
    (0..=rows)
        .flat_map(|r| (0..=cols).map(move |c| f3(c as f32 * 10.0, 0.0, r as f32 * 10.0)))
        .collect()
}

/// One triangle strip per grid row `r`: vertices alternate between rows r and r+1. `extra`
/// produces the other per-vertex values (after POS) from the position index.
fn strip_row(
    desc: &VertexDesc,
    cols: usize,
    r: usize,
    extra: impl Fn(u32) -> Vec<u32>,
) -> PrimitiveBuf {
    let mut p = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
    for c in 0..=cols {
        for rr in [r, r + 1] {
            let pos = (rr * (cols + 1) + c) as u32;
            let mut vals = extra(pos);
            vals.insert(0, pos);
            // PNMTXIDX, when present, comes first and is part of `extra`'s output.
            if desc.entries().first().map(|e| e.attr) == Some(Attr::PNMTXIDX) {
                vals.swap(0, 1);
            }
            p.push(desc, &vals);
        }
    }
    p
}

/// A skinned BMD: three chained joints, two envelopes, a multi-matrix shape with PNMTXIDX whose
/// rows are split into three matrix groups (the later ones reuse slots with 0xFFFF), a grid of
/// 8 × 6 quads (96 triangles, 6 strips of 18 vertices).
pub fn skinned_bmd() -> Bmd {
    let (cols, rows) = (8, 6);
    let attrs = vec![
        ia(Attr::PNMTXIDX, AttrType::DIRECT),
        ia(Attr::POS, AttrType::INDEX16),
        ia(Attr::NRM, AttrType::INDEX8),
        ia(Attr::TEX0, AttrType::INDEX16),
    ];
    let desc = crate::shp1::vertex_desc(attrs.clone()).unwrap_or_default();
    // DRW1: rigid joints 0, 1, 2 → entries 0..3; envelopes 0, 1 → entries 3, 4 (duplicates 5, 6).
    let groups_rows: [(std::ops::Range<usize>, Vec<u16>); 3] = [
        (0..2, vec![0, 3, 1]),
        (2..4, vec![0xFFFF, 4, 2]),
        (4..6, vec![2, 0xFFFF]),
    ];
    let groups = groups_rows
        .iter()
        .map(|(rows_, matrices)| GroupSpec {
            drw: matrices.iter().copied().find(|&m| m != 0xFFFF).unwrap_or(0),
            matrices: matrices.clone(),
            prims: rows_
                .clone()
                .map(|r| {
                    strip_row(&desc, cols, r, |pos| {
                        vec![3 * (pos % 3).min(matrices.len() as u32 - 1), 0, pos]
                    })
                })
                .collect(),
        })
        .collect();
    let n = (cols + 1) * (rows + 1);
    let uv: Vec<Value> = (0..n)
        .map(|i| {
            Value::Float(Components::new(&[
                (i % (cols + 1)) as f32 / cols as f32,
                (i / (cols + 1)) as f32 / rows as f32,
            ]))
        })
        .collect();
    let spec = ModelSpec {
        bdl: false,
        joints: vec![
            JointSpec {
                name: "root".into(),
                parent: None,
                translation: [0.0; 3],
            },
            JointSpec {
                name: "spine".into(),
                parent: Some(0),
                translation: [0.0, 0.0, 20.0],
            },
            JointSpec {
                name: "head".into(),
                parent: Some(1),
                translation: [0.0, 0.0, 20.0],
            },
        ],
        envelopes: vec![vec![(0, 0.5), (1, 0.5)], vec![(1, 0.25), (2, 0.75)]],
        rigid: vec![0, 1, 2],
        arrays: vec![
            (
                fmt(Attr::POS, CompCount::POS_XYZ, CompType::F32, 0),
                grid_positions(cols, rows),
            ),
            (
                fmt(Attr::NRM, CompCount::NRM_XYZ, CompType::S16, 14),
                vec![f3(0.0, 1.0, 0.0)],
            ),
            (fmt(Attr::TEX0, CompCount::TEX_ST, CompType::S16, 8), uv),
        ],
        shapes: vec![(
            ShapeSpec {
                matrix_type: ShapeMatrixType::MULTI,
                attrs,
                groups,
                radius: 80.0,
                bbox: [0.0, 0.0, 0.0, 80.0, 0.0, 60.0],
            },
            0,
        )],
    };
    assemble(&spec)
}

fn rigid_shape(
    matrix_type: ShapeMatrixType,
    drw: u16,
    cols: usize,
    rows: usize,
    attrs: Vec<IndexAttr>,
    extra: impl Fn(u32) -> Vec<u32>,
) -> ShapeSpec {
    let desc = crate::shp1::vertex_desc(attrs.clone()).unwrap_or_default();
    let prims = (0..rows)
        .map(|r| strip_row(&desc, cols, r, &extra))
        .collect();
    ShapeSpec {
        matrix_type,
        attrs,
        groups: vec![GroupSpec {
            drw,
            matrices: vec![drw],
            prims,
        }],
        radius: 50.0,
        bbox: [0.0, 0.0, 0.0, 40.0, 0.0, 40.0],
    }
}

/// A rigid BDL: one joint, a single-matrix shape (4 × 4 quads as strips) and a fan cap.
pub fn rigid_bdl() -> Bmd {
    let attrs = vec![
        ia(Attr::POS, AttrType::INDEX16),
        ia(Attr::CLR0, AttrType::INDEX8),
    ];
    let mut shape = rigid_shape(ShapeMatrixType::SINGLE, 0, 4, 4, attrs.clone(), |_| vec![0]);
    let desc = crate::shp1::vertex_desc(attrs).unwrap_or_default();
    let mut fan = PrimitiveBuf::new(Opcode::TRIANGLE_FAN);
    for p in [0u32, 1, 6, 5] {
        fan.push(&desc, &[p, 0]);
    }
    if let Some(g) = shape.groups.first_mut() {
        g.prims.push(fan);
    }
    assemble(&ModelSpec {
        bdl: true,
        joints: vec![JointSpec {
            name: "world_root".into(),
            parent: None,
            translation: [0.0, 5.0, 0.0],
        }],
        envelopes: vec![],
        rigid: vec![0],
        arrays: vec![
            (
                fmt(Attr::POS, CompCount::POS_XYZ, CompType::S16, 2),
                grid_positions(4, 4),
            ),
            (
                fmt(Attr::CLR0, CompCount::CLR_RGBA, CompType::RGBA8, 0),
                vec![Value::Color([255, 200, 0, 255])],
            ),
        ],
        shapes: vec![(shape, 0)],
    })
}

/// A BMD with a billboard and a Y-billboard shape over one joint.
pub fn billboard_bmd() -> Bmd {
    let attrs = vec![
        ia(Attr::POS, AttrType::INDEX8),
        ia(Attr::TEX0, AttrType::INDEX8),
    ];
    let a = rigid_shape(ShapeMatrixType::BILLBOARD, 0, 1, 1, attrs.clone(), |p| {
        vec![p]
    });
    let b = rigid_shape(ShapeMatrixType::Y_BILLBOARD, 0, 1, 1, attrs, |p| vec![p]);
    let quad = vec![
        f3(-10.0, 0.0, 0.0),
        f3(10.0, 0.0, 0.0),
        f3(-10.0, 20.0, 0.0),
        f3(10.0, 20.0, 0.0),
    ];
    let uv = [[0.0, 1.0], [1.0, 1.0], [0.0, 0.0], [1.0, 0.0]]
        .map(|t| Value::Float(Components::new(&t)))
        .to_vec();
    assemble(&ModelSpec {
        bdl: false,
        joints: vec![JointSpec {
            name: "bb".into(),
            parent: None,
            translation: [0.0; 3],
        }],
        envelopes: vec![],
        rigid: vec![0],
        arrays: vec![
            (fmt(Attr::POS, CompCount::POS_XYZ, CompType::F32, 0), quad),
            (fmt(Attr::TEX0, CompCount::TEX_ST, CompType::U8, 0), uv),
        ],
        shapes: vec![(a, 0), (b, 0)],
    })
}

/// A BMD whose one shape uses every VTX1 attribute (POS, NRM, CLR0, CLR1, TEX0..7) with every
/// component type (u8, s8, u16, s16, f32; RGBA8 colours as both games require) and both index
/// sizes.
pub fn all_attributes_bmd() -> Bmd {
    let n = 9usize; // 3 × 3 grid
    let mut arrays = vec![
        (
            fmt(Attr::POS, CompCount::POS_XYZ, CompType::S16, 3),
            grid_positions(2, 2),
        ),
        (
            fmt(Attr::NRM, CompCount::NRM_XYZ, CompType::S8, 6),
            vec![f3(0.0, 1.0, 0.0), f3(0.0, -1.0, 0.0)],
        ),
        (
            fmt(Attr::CLR0, CompCount::CLR_RGBA, CompType::RGBA8, 0),
            vec![
                Value::Color([255, 0, 0, 255]),
                Value::Color([0, 255, 0, 128]),
            ],
        ),
        (
            fmt(Attr::CLR1, CompCount::CLR_RGB, CompType::RGBA8, 0),
            vec![Value::Color([1, 2, 3, 255])],
        ),
    ];
    let types = [
        CompType::U8,
        CompType::S8,
        CompType::U16,
        CompType::S16,
        CompType::F32,
        CompType::U8,
        CompType::S16,
        CompType::F32,
    ];
    for (t, ty) in (0u8..8).zip(types) {
        let vals = (0..n)
            .map(|i| {
                Value::Float(Components::new(&[
                    (i % 3) as f32 * 0.5,
                    (i / 3) as f32 * 0.5,
                ]))
            })
            .collect();
        let count = if t == 7 {
            CompCount::TEX_S
        } else {
            CompCount::TEX_ST
        };
        arrays.push((fmt(Attr::tex(t), count, ty, 2), vals));
    }
    let mut attrs = vec![
        ia(Attr::POS, AttrType::INDEX16),
        ia(Attr::NRM, AttrType::INDEX8),
        ia(Attr::CLR0, AttrType::INDEX8),
        ia(Attr::CLR1, AttrType::INDEX16),
    ];
    attrs.extend((0..8).map(|t| {
        ia(
            Attr::tex(t),
            if t % 2 == 0 {
                AttrType::INDEX16
            } else {
                AttrType::INDEX8
            },
        )
    }));
    let shape = rigid_shape(ShapeMatrixType::SINGLE, 0, 2, 2, attrs, |p| {
        let mut v = vec![p % 2, p % 2, 0];
        v.extend(std::iter::repeat_n(p, 8));
        v
    });
    assemble(&ModelSpec {
        bdl: false,
        joints: vec![JointSpec {
            name: "center".into(),
            parent: None,
            translation: [0.0; 3],
        }],
        envelopes: vec![],
        rigid: vec![0],
        arrays,
        shapes: vec![(shape, 0)],
    })
}

/// A large rigid model for benchmarks: a `cols × rows` grid (2 · cols · rows triangles) as one
/// multi-matrix shape with PNMTXIDX, 16 rows per matrix group. `cols + 1` times `rows + 1` must
/// stay below 65,536 positions.
pub fn grid_bmd(cols: usize, rows: usize) -> Bmd {
    let attrs = vec![
        ia(Attr::PNMTXIDX, AttrType::DIRECT),
        ia(Attr::POS, AttrType::INDEX16),
        ia(Attr::NRM, AttrType::INDEX8),
    ];
    let desc = crate::shp1::vertex_desc(attrs.clone()).unwrap_or_default();
    let groups = (0..rows)
        .step_by(16)
        .map(|r0| GroupSpec {
            drw: 0,
            matrices: vec![0, 1],
            prims: (r0..(r0 + 16).min(rows))
                .map(|r| strip_row(&desc, cols, r, |p| vec![3 * (p % 2), 0]))
                .collect(),
        })
        .collect();
    assemble(&ModelSpec {
        bdl: false,
        joints: vec![
            JointSpec {
                name: "a".into(),
                parent: None,
                translation: [0.0; 3],
            },
            JointSpec {
                name: "b".into(),
                parent: Some(0),
                translation: [0.0, 1.0, 0.0],
            },
        ],
        envelopes: vec![],
        rigid: vec![0, 1],
        arrays: vec![
            (
                fmt(Attr::POS, CompCount::POS_XYZ, CompType::F32, 0),
                grid_positions(cols, rows),
            ),
            (
                fmt(Attr::NRM, CompCount::NRM_XYZ, CompType::S16, 14),
                vec![f3(0.0, 1.0, 0.0)],
            ),
        ],
        shapes: vec![(
            ShapeSpec {
                matrix_type: ShapeMatrixType::MULTI,
                attrs,
                groups,
                radius: 1.0,
                bbox: [0.0; 6],
            },
            0,
        )],
    })
}

/// The bytes of the broken variant called `name` (see [`broken_variants`]).
pub fn broken_variant(name: &str) -> Option<Vec<u8>> {
    broken_variants()
        .into_iter()
        .find(|(_, n, _)| *n == name)
        .map(|(_, _, bytes)| bytes)
}

/// Broken variants for validator tests, each violating exactly one rule: (rule id, name, bytes).
pub fn broken_variants() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let mut out = Vec::new();
    // J3D-061: the last matrix group loses its padding.
    let mut m = skinned_bmd();
    if let Some(g) = m.shp1_mut().and_then(|s| s.groups.last_mut()) {
        g.tail = crate::Tail::Bytes(vec![]);
    }
    out.push((
        "J3D-061",
        "missing_primitive_padding",
        m.write().unwrap_or_default(),
    ));
    // J3D-062: the first matrix group declares 32 bytes (of zeros) more than its padded primitives.
    let mut m = skinned_bmd();
    if let Some(g) = m.shp1_mut().and_then(|s| s.groups.first_mut()) {
        let used: usize = g.prims.iter().map(|p| 3 + p.data.len()).sum();
        g.tail = crate::Tail::Bytes(vec![0; crate::chunk::pad_len(used) + 32]);
    }
    out.push((
        "J3D-062",
        "group_size_past_padding",
        m.write().unwrap_or_default(),
    ));
    // J3D-046: the spine joint's box stops 10 units short of its vertices in +X.
    let mut m = skinned_bmd();
    if let Some(j) = m.jnt1_mut().and_then(|j| j.joints.get_mut(1)) {
        j.bbox[3] -= 10.0;
    }
    out.push((
        "J3D-046",
        "joint_bounds_too_small",
        m.write().unwrap_or_default(),
    ));
    // J3D-081: material 0's MDL3 packet loads a konst colour MAT3 does not hold.
    let mut m = rigid_bdl();
    if let Some(v) = m
        .mdl3_mut()
        .and_then(|d| d.packets.first_mut())
        .and_then(|p| {
            p.commands.iter_mut().find_map(|c| match c {
                crate::Command::Bp {
                    reg: 0xE0..=0xE7,
                    value,
                } if *value & 1 << 23 != 0 => Some(value),
                _ => None,
            })
        })
    {
        *v ^= 1;
    }
    out.push((
        "J3D-081",
        "mdl3_konst_differs",
        m.write().unwrap_or_default(),
    ));
    // J3D-063: a group loads 11 matrices.
    let mut m = skinned_bmd();
    if let Some(s) = m.shp1_mut() {
        let start = s.weights.len() as u32;
        s.weights.extend([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0]);
        if let Some(d) = s.matrix_data.first_mut() {
            *d = crate::MatrixData {
                drw: 0,
                count: 11,
                start,
            };
        }
    }
    out.push(("J3D-063", "eleven_matrices", m.write().unwrap_or_default()));
    // J3D-064: the shape's first group starts with 0xFFFF.
    let mut m = skinned_bmd();
    if let Some(w) = m.shp1_mut().and_then(|s| s.weights.first_mut()) {
        *w = 0xFFFF;
    }
    out.push((
        "J3D-064",
        "group_starts_with_ffff",
        m.write().unwrap_or_default(),
    ));
    // J3D-027: one position index past the POS buffer.
    let mut m = rigid_bdl();
    if let Some(p) = m
        .shp1_mut()
        .and_then(|s| s.groups.first_mut())
        .and_then(|g| g.prims.first_mut())
        .and_then(|p| p.data.get_mut(0..2))
    {
        p.copy_from_slice(&500u16.to_be_bytes());
    }
    out.push((
        "J3D-027",
        "index_past_buffer",
        m.write().unwrap_or_default(),
    ));
    // J3D-076: a material samples texture 99 of 12.
    let mut m = skinned_bmd();
    if let Some(t) = m
        .mat3_mut()
        .and_then(|m| m.tables.textures.as_mut())
        .and_then(|t| t.first_mut())
    {
        *t = 99;
    }
    out.push((
        "J3D-076",
        "texture_number_past_tex1",
        m.write().unwrap_or_default(),
    ));
    // J3D-079: a header's image offset points past TEX1.
    let mut m = skinned_bmd();
    if let Some(t) = m.tex1_mut().and_then(|t| t.set.textures.get_mut(4)) {
        t.image = None;
        t.header.image_offset = 0x10_0000;
    }
    out.push(("J3D-079", "image_past_tex1", m.write().unwrap_or_default()));
    out
}

/// The generated samples: (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = [
        ("skinned.bmd", skinned_bmd()),
        ("rigid.bdl", rigid_bdl()),
        ("billboard.bmd", billboard_bmd()),
        ("all_attributes.bmd", all_attributes_bmd()),
    ]
    .into_iter()
    .filter_map(|(n, m)| Some((n.to_string(), m.write().ok()?)))
    .collect();
    v.extend(broken_variants().into_iter().map(|(_, n, b)| {
        let ext = if b.get(4..7) == Some(b"bdl") {
            "bdl"
        } else {
            "bmd"
        };
        (format!("broken/{n}.{ext}"), b)
    }));
    v
}

/// The [`textures`] as standalone `.bti` files: (`NAME.bti`, bytes), one per texture.
pub fn bti_samples() -> Vec<(String, Vec<u8>)> {
    let (set, names) = textures();
    (0..set.textures.len())
        .filter_map(|i| {
            let t = set.textures.get(i)?;
            let b = crate::Bti::new(t.header, set.image(i)?, set.palette(i))
                .write()
                .ok()?;
            Some((format!("{}.bti", names.name(i)?), b))
        })
        .collect()
}

/// Number of materials [`materials`] returns.
pub const MATERIAL_COUNT: usize = 3;

fn tev_stage(color_in: [u8; 4], alpha_in: [u8; 4], reg: u8) -> TevStage {
    TevStage {
        mode: 0xFF,
        color_in,
        color_op: 0,
        color_bias: 0,
        color_scale: 0,
        color_clamp: 1,
        color_reg: reg,
        alpha_in,
        alpha_op: 0,
        alpha_bias: 0,
        alpha_scale: 0,
        alpha_clamp: 1,
        alpha_reg: reg,
        pad: 0xFF,
    }
}

fn tex_matrix(scale: f32, rotation: i16) -> TexMatrix {
    let mut effect = [0.0; 16];
    for i in 0..4 {
        if let Some(x) = effect.get_mut(i * 5) {
            *x = 1.0;
        }
    }
    TexMatrix {
        projection: 0,
        info: 0x80,
        pad: 0xFFFF,
        center: [0.5, 0.5, 0.0],
        scale: [scale, scale],
        rotation,
        pad2: 0xFFFF,
        translation: [0.0, 0.0],
        effect,
    }
}

/// Sample materials in the style of retail files: an opaque one with two TEV stages and a konst
/// colour, an alpha-tested one with fog, swap tables and a texture matrix, and a translucent one
/// with four TEV stages and indirect texturing; colours, channels and stages are shared between
/// them so deduplication has work to do. Texture numbers index [`textures`].
pub fn materials() -> Vec<Material> {
    let chan = ColorChannel {
        enable: 0,
        mat_src: 1,
        light_mask: 0,
        diffuse_fn: 0,
        attn_fn: 2,
        amb_src: 0,
        pad: 0xFFFF,
    };
    let lit = ColorChannel {
        enable: 1,
        mat_src: 0,
        light_mask: 1,
        diffuse_fn: 2,
        attn_fn: 1,
        ..chan
    };
    let gen0 = TexCoordGen {
        ty: 1,
        src: 4,
        matrix: 0x3C,
        pad: 0xFF,
    };
    let gen1 = TexCoordGen {
        src: 5,
        matrix: 30,
        ..gen0
    };
    let order = |tc: u8, map: u8, ch: u8| TevOrder {
        tex_coord: tc,
        tex_map: map,
        channel: ch,
        pad: 0xFF,
    };
    let swap = SwapMode {
        ras_sel: 0,
        tex_sel: 0,
        pad: 0xFFFF,
    };
    let identity_swap = SwapTable {
        r: 0,
        g: 1,
        b: 2,
        a: 3,
    };
    let zmode = ZMode {
        test: 1,
        func: 3,
        write: 1,
        pad: 0xFF,
    };
    let opaque_alpha = AlphaCompare {
        comp0: 7,
        ref0: 0,
        op: 0,
        comp1: 7,
        ref1: 0,
        pad: [0xFF; 3],
    };
    let no_blend = Blend {
        mode: 0,
        src: 1,
        dst: 0,
        logic: 3,
    };
    let nbt = NbtScale {
        enable: 0,
        pad: [0xFF; 3],
        scale: [1.0; 3],
    };
    let base = Material {
        mode: 1,
        cull: Some(cull::BACK),
        chan_count: Some(1),
        z_comp_loc: Some(1),
        z_mode: Some(zmode),
        dither: Some(1),
        alpha_compare: Some(opaque_alpha),
        blend: Some(no_blend),
        nbt_scale: Some(nbt),
        konst_color_sel: [0x0C; 16],
        konst_alpha_sel: [0x1C; 16],
        unknown: [0xFF; 0x18],
        ..Material::default()
    };
    let mut mats = vec![];
    // Opaque: texture × vertex colour, then × konst colour 0.
    let mut m = Material {
        name: b"body_mat".to_vec(),
        tex_gen_count: Some(1),
        tev_count: Some(2),
        ..base.clone()
    };
    m.mat_colors[0] = Some([0xFF, 0xFF, 0xFF, 0xFF]);
    m.amb_colors[0] = Some([0x32, 0x32, 0x32, 0x32]);
    m.channels[0] = Some(chan);
    m.channels[1] = Some(chan);
    m.tex_gens[0] = Some(gen0);
    m.textures[0] = Some(0);
    m.konst_colors[0] = Some([0xFF, 0x80, 0x40, 0xFF]);
    m.konst_color_sel[1] = 0x0C;
    m.tev_orders[0] = Some(order(0, 0, 4));
    m.tev_orders[1] = Some(order(0xFF, 0xFF, 0xFF));
    m.tev_stages[0] = Some(tev_stage([0xF, 8, 10, 0xF], [7, 4, 5, 7], 0));
    m.tev_stages[1] = Some(tev_stage([0xF, 0, 14, 0xF], [7, 0, 6, 7], 0));
    m.tev_colors = [Some([0, 0, 0, 0xFF]); 4];
    m.swap_modes[0] = Some(swap);
    m.swap_modes[1] = Some(swap);
    m.swap_tables = [Some(identity_swap); 4];
    mats.push(m.clone());
    // Alpha-tested leaves with fog, a scrolled and rotated texture and a green-channel swap.
    let mut a = Material {
        name: b"leaf_mat".to_vec(),
        mode: 2,
        cull: Some(cull::NONE),
        tex_gen_count: Some(2),
        tev_count: Some(3),
        alpha_compare: Some(AlphaCompare {
            comp0: 6,
            ref0: 0x80,
            op: 0,
            comp1: 3,
            ref1: 0xFF,
            pad: [0xFF; 3],
        }),
        fog: Some(Fog {
            ty: 2,
            enable: 0,
            center: 320,
            start_z: 1000.0,
            end_z: 20000.0,
            near_z: 10.0,
            far_z: 100000.0,
            color: [0x80, 0x90, 0xC0, 0xFF],
            adj: [
                0x100, 0x102, 0x107, 0x10E, 0x118, 0x124, 0x133, 0x145, 0x15A, 0x172,
            ],
        }),
        ..m.clone()
    };
    a.channels[0] = Some(lit);
    a.lights[0] = Some([0xFF, 0xF0, 0xE0, 0xFF]);
    a.tex_gens[1] = Some(gen1);
    a.tex_mtx[0] = Some(tex_matrix(2.0, 0x2000));
    a.textures[1] = Some(1);
    a.konst_colors[1] = Some([0x20, 0xFF, 0x20, 0x80]);
    a.konst_alpha_sel[2] = 0x1D;
    a.tev_orders[2] = Some(order(1, 1, 0xFF));
    a.tev_stages[2] = Some(tev_stage([0xF, 0, 8, 0xF], [7, 0, 4, 7], 0));
    a.swap_modes[2] = Some(SwapMode { tex_sel: 1, ..swap });
    a.swap_tables[1] = Some(SwapTable {
        r: 1,
        g: 1,
        b: 1,
        a: 3,
    });
    mats.push(a);
    // Translucent water: four stages, indirect offsets from a C8 wave map.
    let mut w = Material {
        name: b"water_mat".to_vec(),
        mode: 4,
        tex_gen_count: Some(3),
        tev_count: Some(4),
        z_mode: Some(ZMode { write: 0, ..zmode }),
        blend: Some(Blend {
            mode: 1,
            src: 4,
            dst: 5,
            logic: 3,
        }),
        ..m.clone()
    };
    w.tex_gens[1] = Some(gen1);
    w.tex_gens[2] = Some(gen0);
    w.tex_mtx[0] = Some(tex_matrix(2.0, 0x2000));
    w.tex_mtx[1] = Some(tex_matrix(0.5, -0x1000));
    w.textures[1] = Some(2);
    w.textures[2] = Some(3);
    w.konst_colors[2] = Some([0x40, 0x80, 0xFF, 0x90]);
    w.konst_colors[3] = Some([0xFF, 0xFF, 0xFF, 0x40]);
    w.tev_colors[1] = Some([-0x100, 0x80, 0x3FF, 0xFF]);
    for s in 2..4 {
        if let (Some(o), Some(t), Some(sw)) = (
            w.tev_orders.get_mut(s),
            w.tev_stages.get_mut(s),
            w.swap_modes.get_mut(s),
        ) {
            *o = Some(order(s as u8 - 1, s as u8 - 1, 4));
            *t = Some(tev_stage([0xF, 0, 8, 0xF], [7, 0, 4, 7], 1));
            *sw = Some(swap);
        }
    }
    let mut ind = IndirectEntry {
        enable: 1,
        stage_count: 1,
        pad: 0xFFFF,
        orders: [IndOrder {
            tex_coord: 2,
            tex_map: 3,
            pad: 0xFFFF,
        }; 4],
        matrices: [IndMatrix {
            matrix: [0.5, 0.0, 0.0, 0.0, 0.5, 0.0],
            exponent: 1,
            pad: [0xFF; 3],
        }; 3],
        scales: [IndScale {
            s: 0,
            t: 0,
            pad: 0xFFFF,
        }; 4],
        stages: [IndTevStage {
            pad: [0xFF; 3],
            ..IndTevStage::default()
        }; 16],
    };
    if let Some(st) = ind.stages.get_mut(2) {
        *st = IndTevStage {
            stage: 0,
            format: 0,
            bias: 3,
            matrix: 1,
            wrap_s: 0,
            wrap_t: 0,
            add_prev: 0,
            utc_lod: 0,
            alpha: 0,
            pad: [0xFF; 3],
        };
    }
    w.indirect = Some(ind);
    mats.push(w);
    let disabled = IndirectEntry {
        stage_count: 0,
        enable: 0,
        ..ind
    };
    for m in mats.iter_mut().filter(|m| m.indirect.is_none()) {
        m.indirect = Some(disabled);
    }
    mats
}

/// Deterministic image bytes (a diagonal gradient with some noise), valid for every GX format.
fn pattern(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).max(1);
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            ((i / 3) as u8).wrapping_add((x & 0x0F) as u8)
        })
        .collect()
}

/// A header for `format` at `size` with `mips` levels (LOD fields as Nintendo's tools set them).
pub fn bti_header(format: u8, size: u16, mips: u8) -> BtiHeader {
    BtiHeader {
        format,
        alpha: u8::from(matches!(format, 0x2 | 0x3 | 0x5 | 0x6)),
        width: size,
        height: size,
        wrap_s: 1,
        wrap_t: 1,
        mipmap: u8::from(mips > 1),
        min_filter: if mips > 1 { 5 } else { 1 },
        mag_filter: 1,
        max_lod: ((mips.max(1) - 1) * 8) as i8,
        image_count: mips.max(1),
        ..BtiHeader::default()
    }
}

/// Sample textures: every GX format (the colour-indexed ones with IA8, RGB565 and RGB5A3
/// palettes), mip chains, and a second header sharing the first one's image with other wrap
/// modes. The first four are the ones [`materials`] use.
pub fn textures() -> (TextureSet, NameTable) {
    let mut set = TextureSet::default();
    let mut names = Vec::new();
    // (name, format, size, mips, palette format and entry count)
    type Spec = (&'static str, u8, u16, u8, Option<(u8, u16)>);
    let formats: [Spec; 11] = [
        ("body_cmpr", 0xE, 32, 3, None),
        ("leaf_rgb5a3", 0x5, 16, 2, None),
        ("water_ia8", 0x3, 16, 1, None),
        ("wave_c8", 0x9, 16, 1, Some((1, 256))),
        ("mask_i4", 0x0, 16, 2, None),
        ("spec_i8", 0x1, 16, 1, None),
        ("glow_ia4", 0x2, 16, 1, None),
        ("sky_rgb565", 0x4, 8, 1, None),
        ("hud_rgba8", 0x6, 8, 2, None),
        ("eye_c4", 0x8, 16, 1, Some((0, 16))),
        ("skin_c14x2", 0xA, 8, 1, Some((2, 64))),
    ];
    for (i, (name, format, size, mips, pal)) in formats.into_iter().enumerate() {
        let mut h = bti_header(format, size, mips);
        let opts = gx::tex::EncodeOptions {
            palette_format: gx::tex::PaletteFormat(pal.map_or(2, |p| p.0)),
            max_palette_entries: pal.map(|p| usize::from(p.1)),
        };
        // A test pattern with alpha where the format keeps it, encoded through gx::tex.
        let encoded = gx::tex::Image::test_pattern(u32::from(size), u32::from(size), h.alpha != 0)
            .map(|img| img.mip_chain(u32::from(mips)))
            .and_then(|levels| gx::tex::encode_mips(gx::tex::TexFormat(format), &levels, &opts))
            .unwrap_or_else(|_| gx::tex::Encoded {
                data: pattern(h.image_size().unwrap_or(0), i as u32 + 1),
                palette: vec![],
            });
        if let Some((pf, _)) = pal {
            (h.palette_enable, h.palette_format, h.palette_count) =
                (1, pf, encoded.palette_entries() as u16);
        }
        let palette = pal.map(|_| encoded.palette.as_slice());
        set.push(h, &encoded.data, palette);
        names.push(name);
    }
    // Same image as the first texture, mirrored wrap: stored once (J3D-074).
    let first = set.textures.first().cloned();
    if let Some(t) = first {
        set.textures.push(Texture {
            header: BtiHeader {
                wrap_s: 2,
                wrap_t: 2,
                ..t.header
            },
            ..t
        });
        names.push("body_cmpr_mirror");
    }
    (set, NameTable::new(names))
}

/// TEX1 with [`textures`] (headers, then image data, then the name table).
pub fn tex1() -> Tex1 {
    let (mut set, names) = textures();
    set.segments.push(Segment::Names);
    Tex1 {
        marker: 0xFFFF,
        set,
        names: Some(names),
        empty_offset: 0,
        names_align: 0,
        pad: Pad::Nintendo,
    }
}
