//! Geometry: scene meshes → VTX1 arrays, EVP1 envelopes, DRW1 draw matrices and SHP1 shapes.
//!
//! Every vertex gets a draw matrix: one joint at full weight (rigid; stored in that joint's space)
//! or an envelope of weighted joints (stored in model space, placed through EVP1's inverse bind
//! matrices). DRW1 lists the rigid joints first, then every envelope twice, as Nintendo's tools
//! do. A shape whose vertices share one draw matrix is a single-matrix shape; any other shape is
//! a multi-matrix shape whose triangles are cut into matrix groups of at most ten draw matrices
//! (the GX position-matrix memory), each drawn with PNMTXIDX. Attribute values are deduplicated
//! model-wide in first-use order and quantised as [`choose_format`] decides.

use std::collections::HashMap;

use gcio::{Error, Result};
use gx::dl::{PrimitiveBuf, VertexDesc};
use gx::mtx::{Mtx34, apply, inverse};
use gx::scene::Scene;
use gx::vtx::{Attr, AttrType, CompCount, CompType, Components, Value, VertexFormat};

use super::extras::{self, ModelExtras, ShapeExtras};
use super::skeleton::Skeleton;
use crate::Pad;
use crate::bounds::Bounds;
use crate::drw1::Drw1;
use crate::evp1::{Envelope, Evp1};
use crate::shp1::{GroupSpec, IndexAttr, ShapeMatrixType, ShapeSpec, Shp1};
use crate::vtx1::{AttrFormat, Vtx1};

/// GX position-matrix slots a matrix group may load.
const GROUP_MATRICES: usize = 10;

/// Values an INDEX16 attribute can address: 0..=0xFFFE (GX skips a vertex whose position index
/// is all ones, 0xFFFF / 0xFF).
const MAX_VALUES: usize = 0xFFFF;

/// A vertex's draw matrix: a joint, or an envelope (joint, weight) list sorted by joint.
#[derive(Debug, Clone, PartialEq)]
enum Matrix {
    Joint(u16),
    Envelope(Vec<(u16, f32)>),
}

/// The built geometry chunks and, per shape, the joint it hangs under and its scene mesh.
pub(super) struct Geometry {
    pub vtx1: Vtx1,
    pub evp1: Evp1,
    pub drw1: Drw1,
    pub shp1: Shp1,
    /// Per shape: (scene mesh index, INF1 parent joint, recorded draw order).
    pub shapes: Vec<(usize, u16, Option<usize>)>,
    pub position_count: usize,
}

/// One attribute's distinct values in first-use order.
#[derive(Default)]
struct Pool {
    values: Vec<Vec<f32>>,
    index: HashMap<Vec<u32>, u32>,
}

impl Pool {
    fn add(&mut self, v: &[f32]) -> u32 {
        let key: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
        let next = self.values.len() as u32;
        *self.index.entry(key).or_insert_with(|| {
            self.values.push(v.to_vec());
            next
        })
    }
}

/// A vertex in the display list: its DRW1 index and (attribute, array index) pairs.
type Indexed = (usize, Vec<(Attr, u32)>);

/// A vertex as stored: attribute values after quantisation.
struct StoredVertex {
    matrix: usize,
    attrs: Vec<(Attr, Vec<f32>)>,
}

/// The attributes of a model, in display-list order, with the formats they are stored in.
struct Layout {
    formats: Vec<VertexFormat>,
}

pub(super) fn geometry(scene: &Scene, skel: &Skeleton, model: &ModelExtras) -> Result<Geometry> {
    let joint_count = skel.world.len();
    let inverse_world: Vec<Mtx34> = skel
        .world
        .iter()
        .map(|w| inverse(w).unwrap_or(gx::mtx::IDENTITY))
        .collect();
    // Meshes in SHP1 order: by the shape index our export recorded, others after in scene order.
    let mut order: Vec<(usize, Option<ShapeExtras>)> = scene
        .meshes
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.triangles.is_empty() && !m.positions.is_empty())
        .map(|(i, m)| (i, extras::read::<ShapeExtras>(m.extras.as_ref())))
        .collect();
    order.sort_by_key(|(i, x)| (x.as_ref().map_or(usize::MAX, |x| x.index), *i));

    // Draw matrices per vertex, in first-use order.
    let mut rigid: Vec<u16> = Vec::new();
    let mut envelopes: Vec<Vec<(u16, f32)>> = Vec::new();
    let mut matrices: Vec<Vec<Matrix>> = Vec::with_capacity(order.len());
    for &(m, _) in &order {
        let mesh = scene
            .meshes
            .get(m)
            .ok_or_else(|| Error::message("mesh index"))?;
        let mut per_vertex = Vec::with_capacity(mesh.positions.len());
        for i in 0..mesh.positions.len() {
            let skin =
                mesh.skin
                    .get(i)
                    .copied()
                    .unwrap_or([(0, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)]);
            let mut pairs: Vec<(u16, f32)> = skin
                .iter()
                .filter(|p| p.1 > 0.0 && usize::from(p.0) < joint_count)
                .copied()
                .collect();
            pairs.sort_by_key(|p| p.0);
            quantise_weights(&mut pairs);
            let matrix = match pairs.as_slice() {
                [] => Matrix::Joint(0),
                [(j, _)] => Matrix::Joint(*j),
                _ => Matrix::Envelope(pairs),
            };
            match &matrix {
                Matrix::Joint(j) if !rigid.contains(j) => rigid.push(*j),
                Matrix::Envelope(e) if !envelopes.contains(e) => envelopes.push(e.clone()),
                _ => {}
            }
            per_vertex.push(matrix);
        }
        matrices.push(per_vertex);
    }
    let drw_of = |m: &Matrix| -> usize {
        match m {
            Matrix::Joint(j) => rigid.iter().position(|r| r == j).unwrap_or(0),
            Matrix::Envelope(e) => rigid.len() + envelopes.iter().position(|x| x == e).unwrap_or(0),
        }
    };

    // Stored attribute values: rigid vertices in their joint's space, envelopes in model space.
    let mut stored: Vec<Vec<StoredVertex>> = Vec::with_capacity(order.len());
    let mut raw: HashMap<Attr, Vec<Vec<f32>>> = HashMap::new();
    for (&(m, _), mats) in order.iter().zip(&matrices) {
        let mesh = scene
            .meshes
            .get(m)
            .ok_or_else(|| Error::message("mesh index"))?;
        let mut verts = Vec::with_capacity(mesh.positions.len());
        for (i, (p, matrix)) in mesh.positions.iter().zip(mats).enumerate() {
            let space = match matrix {
                Matrix::Joint(j) => inverse_world.get(usize::from(*j)),
                Matrix::Envelope(_) => None,
            };
            let mut attrs = Vec::new();
            let pos = space.map_or(*p, |s| apply(s, *p));
            attrs.push((Attr::POS, pos.to_vec()));
            if let Some(n) = mesh.normals.get(i) {
                let n = space.map_or(*n, |s| {
                    let (a, o) = (apply(s, *n), apply(s, [0.0; 3]));
                    normalise([a[0] - o[0], a[1] - o[1], a[2] - o[2]])
                });
                attrs.push((Attr::NRM, n.to_vec()));
            }
            for (k, set) in mesh.colors.iter().enumerate().take(2) {
                if let Some(c) = set.get(i) {
                    attrs.push((
                        Attr(Attr::CLR0.0 + k as u32),
                        c.iter().map(|&x| f32::from(x)).collect(),
                    ));
                }
            }
            for (k, set) in mesh.uvs.iter().enumerate().take(8) {
                if let Some(uv) = set.get(i) {
                    attrs.push((Attr::tex(k as u8), uv.to_vec()));
                }
            }
            for (a, v) in &attrs {
                raw.entry(*a).or_default().push(v.clone());
            }
            verts.push(StoredVertex {
                matrix: drw_of(matrix),
                attrs,
            });
        }
        stored.push(verts);
    }

    // Formats, then quantised values pooled per attribute.
    let mut attrs: Vec<Attr> = raw.keys().copied().collect();
    attrs.sort_by_key(|a| a.0);
    let layout = Layout {
        formats: attrs
            .iter()
            .map(|&a| choose_format(a, raw.get(&a).map_or(&[][..], Vec::as_slice), model))
            .collect(),
    };
    let mut pools: HashMap<Attr, Pool> = HashMap::new();
    let mut vtx1 = Vtx1 {
        formats: vec![AttrFormat::terminator()],
        buffers: vec![],
        pad: Pad::Nintendo,
        align: 32,
    };
    let mut indexed: Vec<Vec<Indexed>> = Vec::with_capacity(stored.len());
    for verts in &stored {
        let mut out = Vec::with_capacity(verts.len());
        for v in verts {
            let mut ix = Vec::with_capacity(v.attrs.len());
            for (a, vals) in &v.attrs {
                let f = layout.format(*a);
                let q = quantise(&f, vals).unwrap_or_else(|| vals.clone());
                ix.push((*a, pools.entry(*a).or_default().add(&q)));
            }
            out.push((v.matrix, ix));
        }
        indexed.push(out);
    }
    for f in &layout.formats {
        let pool = pools.remove(&f.attr).unwrap_or_default();
        if pool.values.len() > MAX_VALUES {
            return Err(Error::message(format!(
                "attribute {} has {} distinct values; J3D indexes at most {MAX_VALUES} per model",
                attr_name(f.attr),
                pool.values.len()
            )));
        }
        let values: Vec<Value> = pool
            .values
            .iter()
            .map(|v| {
                if f.attr.is_color() {
                    let c = v.iter().map(|&x| x as u8).collect::<Vec<u8>>();
                    Value::Color([0, 1, 2, 3].map(|k| c.get(k).copied().unwrap_or(0xFF)))
                } else {
                    Value::Float(Components::new(v))
                }
            })
            .collect();
        vtx1.set(*f, &values)?;
    }
    let position_count = vtx1.len(Attr::POS);

    // Shapes.
    let mut shp1 = Shp1::default();
    let mut shapes = Vec::with_capacity(order.len());
    for ((&(m, ref x), verts), mats) in order.iter().zip(&indexed).zip(&matrices) {
        let mesh = scene
            .meshes
            .get(m)
            .ok_or_else(|| Error::message("mesh index"))?;
        let first = verts.first().map_or(0, |v| v.0);
        let single = verts.iter().all(|v| v.0 == first);
        let matrix_type = match x.as_ref().map(|x| ShapeMatrixType(x.matrix_type)) {
            Some(t) if single && t != ShapeMatrixType::MULTI => t,
            _ if single => ShapeMatrixType::SINGLE,
            _ => ShapeMatrixType::MULTI,
        };
        let mut list: Vec<IndexAttr> = Vec::new();
        if matrix_type == ShapeMatrixType::MULTI {
            list.push(IndexAttr {
                attr: Attr::PNMTXIDX,
                ty: AttrType::DIRECT,
            });
        }
        let present: Vec<Attr> = verts
            .first()
            .map(|v| v.1.iter().map(|p| p.0).collect())
            .unwrap_or_default();
        for a in &present {
            let count = vtx1.len(*a);
            let wanted = x
                .as_ref()
                .and_then(|x| x.attrs.iter().find(|p| p.0 == a.0).map(|p| AttrType(p.1)));
            let ty = match wanted {
                Some(AttrType::INDEX8) if count < 0x100 => AttrType::INDEX8,
                _ => AttrType::INDEX16,
            };
            list.push(IndexAttr { attr: *a, ty });
        }
        let desc = crate::shp1::vertex_desc(list.iter().copied())?;
        let groups = if matrix_type == ShapeMatrixType::MULTI {
            multi_groups(&mesh.triangles, verts, &desc)?
        } else {
            let drw = crate::chunk::u16_of(first, "draw matrix")?;
            let tris: Vec<[u32; 3]> = mesh.triangles.clone();
            vec![GroupSpec {
                drw,
                matrices: vec![drw],
                prims: primitives(&tris, |v| vertex_values(verts, v, None), &desc),
            }]
        };
        let bounds = Bounds::fit(stored_positions(&stored, shapes.len()));
        let (radius, bbox) = bounds.map_or((0.0, [0.0; 6]), |b| (b.radius, b.bbox));
        shp1.push_shape(ShapeSpec {
            matrix_type,
            attrs: list,
            groups,
            radius,
            bbox,
        })?;
        let joint = x
            .as_ref()
            .and_then(|x| x.joint)
            .unwrap_or_else(|| main_joint(mats));
        shapes.push((m, joint, x.as_ref().and_then(|x| x.draw)));
    }
    let evp1 = Evp1 {
        marker: 0xFFFF,
        envelopes: envelopes
            .iter()
            .map(|p| Envelope { pairs: p.clone() })
            .collect(),
        ibms: if envelopes.is_empty() {
            vec![]
        } else {
            inverse_world
        },
        pad: Pad::Nintendo,
        aligns: Evp1::uniform_aligns(1),
    };
    let drw1 = Drw1::nintendo(
        &rigid,
        crate::chunk::u16_of(envelopes.len(), "envelope count")?,
    );
    Ok(Geometry {
        vtx1,
        evp1,
        drw1,
        shp1,
        shapes,
        position_count,
    })
}

impl Layout {
    fn format(&self, a: Attr) -> VertexFormat {
        self.formats
            .iter()
            .find(|f| f.attr == a)
            .copied()
            .unwrap_or_default()
    }
}

fn attr_name(a: Attr) -> String {
    match a {
        Attr::POS => "POS".into(),
        Attr::NRM => "NRM".into(),
        _ if a.is_color() => format!("CLR{}", a.0 - Attr::CLR0.0),
        _ => a
            .tex_index()
            .map_or(format!("attribute {}", a.0), |t| format!("TEX{t}")),
    }
}

fn normalise(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 1e-12 { v.map(|x| x / len) } else { v }
}

/// Weights rounded to hundredths, as the retail envelopes hold them (0.3/0.7, 0.2/0.8 …), so
/// near-equal envelopes are shared; a pair that rounds to 0 is dropped and the largest weight
/// takes the rounding so the sum stays 1.
fn quantise_weights(pairs: &mut Vec<(u16, f32)>) {
    for p in pairs.iter_mut() {
        p.1 = (p.1 * 100.0).round() / 100.0;
    }
    pairs.retain(|p| p.1 > 0.0);
    let rest: f32 = pairs.iter().map(|p| p.1).sum::<f32>();
    if let Some(max) = pairs.iter_mut().max_by(|a, b| a.1.total_cmp(&b.1)) {
        let others = rest - max.1;
        max.1 = ((1.0 - others) * 100.0).round() / 100.0;
    }
}

/// The joint most of a shape's vertices hang on (its INF1 parent when nothing says otherwise).
fn main_joint(mats: &[Matrix]) -> u16 {
    let mut count: HashMap<u16, usize> = HashMap::new();
    for m in mats {
        let j = match m {
            Matrix::Joint(j) => *j,
            Matrix::Envelope(e) => e
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map_or(0, |p| p.0),
        };
        *count.entry(j).or_default() += 1;
    }
    count
        .into_iter()
        .max_by_key(|&(j, n)| (n, std::cmp::Reverse(j)))
        .map_or(0, |p| p.0)
}

fn stored_positions(
    stored: &[Vec<StoredVertex>],
    shape: usize,
) -> impl Iterator<Item = [f32; 3]> + '_ {
    stored.get(shape).into_iter().flatten().filter_map(|v| {
        v.attrs
            .iter()
            .find(|a| a.0 == Attr::POS)
            .map(|a| [a.1.first(), a.1.get(1), a.1.get(2)].map(|x| x.copied().unwrap_or(0.0)))
    })
}

/// The format an attribute is stored in: the exported model's when it holds every value within
/// 1e-4 of the attribute's extent (so a model comes back with its quantisation), else the
/// smallest lossless one ([`VertexFormat::fitting`]: fixed point where every value is exact,
/// else f32; RGBA8 colours).
fn choose_format(attr: Attr, values: &[Vec<f32>], model: &ModelExtras) -> VertexFormat {
    let count = if attr == Attr::POS {
        CompCount::POS_XYZ
    } else if attr == Attr::NRM {
        CompCount::NRM_XYZ
    } else if attr.is_color() {
        CompCount::CLR_RGBA
    } else {
        CompCount::TEX_ST
    };
    if let Some(f) = model.vertex_formats.iter().find(|f| f.attr == attr.0) {
        let f = VertexFormat {
            attr,
            count: CompCount(f.count),
            ty: CompType(f.ty),
            frac: f.frac,
        };
        if holds(&f, values) {
            return f;
        }
    }
    if attr.is_color() {
        return VertexFormat {
            attr,
            count,
            ty: CompType::RGBA8,
            frac: 0,
        };
    }
    let flat: Vec<f32> = values.iter().flatten().copied().collect();
    VertexFormat::fitting(attr, count, &flat, 0.0)
}

/// Whether `f` keeps every value (colours exactly, others within 1e-4 of the extent).
fn holds(f: &VertexFormat, values: &[Vec<f32>]) -> bool {
    if f.element_size().is_none() || f.components().is_none() {
        return false;
    }
    if f.attr.is_color() {
        return values.iter().all(|v| quantise(f, v).as_ref() == Some(v));
    }
    let extent = values
        .iter()
        .flatten()
        .fold(0.0f32, |m, x| m.max(x.abs()))
        .max(1.0);
    values.iter().all(|v| {
        quantise(f, v).is_some_and(|q| q.iter().zip(v).all(|(a, b)| (a - b).abs() <= 1e-4 * extent))
    })
}

/// `v` as stored in format `f` and read back; `None` when `f` cannot hold it (out of range).
fn quantise(f: &VertexFormat, v: &[f32]) -> Option<Vec<f32>> {
    let mut bytes = Vec::new();
    if f.attr.is_color() {
        let c = [0, 1, 2, 3].map(|k| v.get(k).map_or(0xFF, |&x| x.clamp(0.0, 255.0) as u8));
        let d = f
            .encode_color(c, &mut bytes)
            .and_then(|_| f.decode_color(&bytes))?;
        return Some(d.iter().map(|&x| f32::from(x)).collect());
    }
    let c = f.encode(v, &mut bytes).and_then(|_| f.decode(&bytes))?;
    (c.as_slice().len() == v.len() && !saturated(f, v, c.as_slice())).then(|| c.as_slice().to_vec())
}

/// True when a fixed-point encoding clamped a value (so the format cannot hold it).
fn saturated(f: &VertexFormat, v: &[f32], q: &[f32]) -> bool {
    let step = if f.ty == CompType::F32 {
        return false;
    } else {
        1.0 / (1u32 << f.frac.min(31)) as f32
    };
    v.iter().zip(q).any(|(a, b)| (a - b).abs() > step)
}

/// Display-list values of vertex `v`: PNMTXIDX (when `slot` is given), then attribute indices.
fn vertex_values(verts: &[Indexed], v: u32, slot: Option<u32>) -> Vec<u32> {
    let mut out = Vec::new();
    out.extend(slot.map(|s| s * 3));
    if let Some((_, ix)) = verts.get(v as usize) {
        out.extend(ix.iter().map(|p| p.1));
    }
    out
}

/// Strips (and a list of leftover triangles) for `tris`, each vertex written by `values`.
fn primitives(
    tris: &[[u32; 3]],
    values: impl Fn(u32) -> Vec<u32>,
    desc: &VertexDesc,
) -> Vec<PrimitiveBuf> {
    gx::strip::stripify(tris)
        .into_iter()
        .map(|p| {
            let mut buf = PrimitiveBuf::new(p.op);
            for v in &p.indices {
                buf.push(desc, &values(*v));
            }
            buf
        })
        .collect()
}

/// Triangles cut into matrix groups of at most [`GROUP_MATRICES`] draw matrices, in order.
fn multi_groups(tris: &[[u32; 3]], verts: &[Indexed], desc: &VertexDesc) -> Result<Vec<GroupSpec>> {
    let drw = |v: u32| verts.get(v as usize).map_or(0, |x| x.0);
    let mut groups: Vec<(Vec<usize>, Vec<[u32; 3]>)> = Vec::new();
    let mut current: (Vec<usize>, Vec<[u32; 3]>) = (Vec::new(), Vec::new());
    for t in tris {
        let mut need: Vec<usize> = t.iter().map(|&v| drw(v)).collect();
        need.sort_unstable();
        need.dedup();
        let new = need.iter().filter(|d| !current.0.contains(d)).count();
        if current.0.len() + new > GROUP_MATRICES {
            groups.push(std::mem::take(&mut current));
        }
        for d in need {
            if !current.0.contains(&d) {
                current.0.push(d);
            }
        }
        current.1.push(*t);
    }
    if !current.1.is_empty() {
        groups.push(current);
    }
    groups
        .into_iter()
        .map(|(slots, tris)| {
            let matrices = slots
                .iter()
                .map(|&d| crate::chunk::u16_of(d, "draw matrix"))
                .collect::<Result<Vec<u16>>>()?;
            let slot = |v: u32| {
                let d = drw(v);
                slots.iter().position(|&s| s == d).unwrap_or(0) as u32
            };
            Ok(GroupSpec {
                drw: matrices.first().copied().unwrap_or(0),
                prims: primitives(&tris, |v| vertex_values(verts, v, Some(slot(v))), desc),
                matrices,
            })
        })
        .collect()
}
