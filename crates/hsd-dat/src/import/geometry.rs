//! DObjs and PObjs: each glTF mesh becomes one DObj under its owner joint with one PObj per
//! part. A mesh whose vertices all follow one joint is a rigid PObj; the others are envelope
//! PObjs whose palettes hold at most [`MAX_PALETTE`] weight sets (triangles are split greedily
//! into parts that fit). Every vertex is stored as the inverse of the matrix the runtime draws
//! it with (the joint's world matrix, or the slot's envelope matrix with the weight-1.0
//! short-circuit and the owner's coord) applied to its glTF position, so it lands where glTF
//! put it.

use std::collections::{BTreeSet, HashMap};

use gcio::{Error, Result};
use gx::dl::{PrimitiveBuf, VertexDesc};
use gx::mtx::{Mtx34, apply, inverse};
use gx::scene::Scene;
use gx::vtx::{Attr, AttrType, CompCount, CompType, VertexFormat};

use super::Skeleton;
use super::material::{Materials, UV_SETS};
use crate::MAX_PALETTE;
use crate::build::Builder;
use crate::build::parts::{display_list, vtx};
use crate::extras::{self, MeshExtras};
use crate::flags::PObjFlags;
use crate::mesh::{coord_in, envelope_matrix};
use crate::model::Target;
use crate::types::{DObj, PObj};

/// What the geometry adds to the skeleton.
pub(super) struct Geometry {
    /// Per joint: `Some(envelope)` when it owns a mesh (with envelopes or rigid).
    pub owners: Vec<Option<bool>>,
    /// Per joint: its first DObj.
    pub dobjs: Vec<Option<Target>>,
    /// PObjs written.
    pub pobjs: usize,
}

/// One vertex's weights: (joint, weight), sorted by joint, summing to 1.
type Weights = Vec<(usize, f32)>;

/// A mesh's skinning, decided before owners are.
struct Skinned {
    weights: Vec<Weights>,
    /// The one joint every vertex follows, when there is one.
    rigid: Option<usize>,
    /// The owner our export recorded.
    recorded: Option<usize>,
    cull: Option<u16>,
}

/// Builds every mesh into `b`; adds holder joints to `skel` where needed.
pub(super) fn geometry(
    b: &mut Builder,
    scene: &Scene,
    skel: &mut Skeleton,
    joints: &[Target],
    mats: &mut Materials<'_>,
) -> Result<Geometry> {
    let skinned: Vec<Skinned> = scene.meshes.iter().map(|m| skin(m, skel)).collect();
    for s in skinned.iter().filter(|s| s.rigid.is_none()) {
        for w in &s.weights {
            for &(j, _) in w {
                if let Some(d) = skel.deformer.get_mut(j) {
                    *d = true;
                }
            }
        }
    }
    let mut holder = None;
    let mut dobjs: Vec<Vec<DObj<Target>>> = Vec::new();
    let mut owners: Vec<Option<bool>> = Vec::new();
    let mut pobjs = 0;
    let mut targets = joints.to_vec();
    for (m, s) in scene.meshes.iter().zip(&skinned) {
        let (owner, link) = match s.rigid {
            Some(j) => {
                let owner = s.recorded.unwrap_or(j);
                (owner, (owner != j).then_some(j))
            }
            None => {
                let free = |j: usize| !skel.deformer.get(j).copied().unwrap_or(true);
                let owner = match s.recorded.filter(|&j| free(j)) {
                    Some(j) => j,
                    None if free(0) => 0,
                    None => *holder.get_or_insert_with(|| {
                        skel.push(Some(0), ([0.0; 3], [1.0; 3], [0.0; 3]), None)
                    }),
                };
                (owner, None)
            }
        };
        while targets.len() < skel.parent.len() {
            targets.push(b.slot::<crate::types::Joint<Target>>());
        }
        let cull = s.cull.map_or_else(
            || {
                let double = m
                    .material
                    .and_then(|i| scene.materials.get(i))
                    .is_some_and(|x| x.double_sided);
                if double {
                    PObjFlags::empty()
                } else {
                    PObjFlags::CULLBACK
                }
            },
            PObjFlags::from_bits_truncate,
        ) & (PObjFlags::CULLBACK | PObjFlags::CULLFRONT);
        let uv_sets = mats.uv_sets(m.material);
        let mobj = mats.mobj(b, m.material)?;
        let parts = mesh(b, m, s, skel, &targets, owner, link, cull, uv_sets)?;
        pobjs += parts.len();
        let mut next = None;
        for p in parts.into_iter().rev() {
            let mut p = p;
            p.next = next;
            next = Some(b.put(&p));
        }
        if let Some(first) = next {
            if dobjs.len() <= owner {
                dobjs.resize_with(owner + 1, Vec::new);
                owners.resize(owner + 1, None);
            }
            if let Some(list) = dobjs.get_mut(owner) {
                list.push(DObj {
                    class_name: None,
                    next: None,
                    mobj: Some(mobj),
                    pobj: Some(first),
                });
            }
            if let Some(o) = owners.get_mut(owner) {
                *o = Some(o.unwrap_or(false) || s.rigid.is_none());
            }
        }
    }
    owners.resize(skel.parent.len(), None);
    let heads = dobjs
        .into_iter()
        .map(|list| {
            let mut next = None;
            for mut d in list.into_iter().rev() {
                d.next = next;
                next = Some(b.put(&d));
            }
            next
        })
        .collect();
    Ok(Geometry {
        owners,
        dobjs: heads,
        pobjs,
    })
}

/// A mesh's vertex weights (normalised, merged per joint; a mesh without skin follows its node
/// or the root) and whether one joint carries it all.
fn skin(m: &gx::scene::Mesh, skel: &Skeleton) -> Skinned {
    let x = extras::read::<MeshExtras>(m.extras.as_ref());
    let recorded = x
        .and_then(|x| x.joint)
        .filter(|&j| j < skel.from_nodes)
        .map(|j| skel.of_node(j));
    let fallback = m.node.map_or(0, |n| skel.of_node(n));
    let weights: Vec<Weights> = (0..m.positions.len())
        .map(|v| {
            let mut w: Weights = Vec::new();
            for &(j, x) in m.skin.get(v).into_iter().flatten() {
                let j = usize::from(j);
                if x > 0.0 && x.is_finite() && j < skel.from_nodes {
                    let j = skel.of_node(j);
                    match w.iter_mut().find(|e| e.0 == j) {
                        Some(e) => e.1 += x,
                        None => w.push((j, x)),
                    }
                }
            }
            let sum: f32 = w.iter().map(|e| e.1).sum();
            if w.is_empty() || sum <= 0.0 {
                return vec![(fallback, 1.0)];
            }
            w.sort_by_key(|e| e.0);
            if let [(j, _)] = w[..] {
                return vec![(j, 1.0)];
            }
            w.iter().map(|&(j, x)| (j, x / sum)).collect()
        })
        .collect();
    let rigid = match weights.first() {
        Some(first) if first.len() == 1 && weights.iter().all(|w| w == first) => {
            first.first().map(|e| e.0)
        }
        None => Some(fallback),
        _ => None,
    };
    Skinned {
        weights,
        rigid,
        recorded,
        cull: x.map(|x| x.cull),
    }
}

/// A PObj's triangles and its palette (weight-set keys, slot order).
type Part = (Vec<[u32; 3]>, Vec<Vec<(usize, u32)>>);

/// A weight set as a hashable key.
fn key(w: &Weights) -> Vec<(usize, u32)> {
    w.iter().map(|&(j, x)| (j, x.to_bits())).collect()
}

/// The PObjs of one mesh (links unset).
#[allow(clippy::too_many_arguments)]
fn mesh(
    b: &mut Builder,
    m: &gx::scene::Mesh,
    s: &Skinned,
    skel: &Skeleton,
    joints: &[Target],
    owner: usize,
    link: Option<usize>,
    cull: PObjFlags,
    uv_sets: usize,
) -> Result<Vec<PObj<Target>>> {
    let world = &skel.world;
    let ibm: Vec<Option<Mtx34>> = world
        .iter()
        .zip(&skel.deformer)
        .map(|(w, &d)| if d { inverse(w) } else { None })
        .collect();
    let coord = coord_in(
        |j| skel.parent.get(j).copied().flatten(),
        |j| skel.deformer.get(j).copied().unwrap_or(false),
        world,
        owner,
    );
    // The inverse of the matrix each vertex is drawn with.
    let mut inverses: HashMap<Vec<(usize, u32)>, Mtx34> = HashMap::new();
    let mut stored = Vec::with_capacity(m.positions.len());
    let mut normals = Vec::with_capacity(m.normals.len());
    for (v, p) in m.positions.iter().enumerate() {
        let w = s.weights.get(v).cloned().unwrap_or_default();
        let inv = match inverses.get(&key(&w)) {
            Some(i) => *i,
            None => {
                let mtx = match s.rigid {
                    Some(j) => world.get(j).copied().unwrap_or(gx::mtx::IDENTITY),
                    None => envelope_matrix(&w, world, &ibm, coord.as_ref()),
                };
                let i = inverse(&mtx).ok_or_else(|| {
                    Error::message(format!(
                        "mesh {}: the matrix of joints {:?} is singular (a zero scale), so its vertices cannot be stored",
                        m.name,
                        w.iter().map(|e| e.0).collect::<Vec<_>>()
                    ))
                })?;
                inverses.insert(key(&w), i);
                i
            }
        };
        stored.push(apply(&inv, *p));
        if let Some(n) = m.normals.get(v) {
            let (t, o) = (apply(&inv, *n), apply(&inv, [0.0; 3]));
            let d = [t[0] - o[0], t[1] - o[1], t[2] - o[2]];
            let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            normals.push(if len > 1e-12 {
                d.map(|x| x / len)
            } else {
                [0.0, 1.0, 0.0]
            });
        }
    }
    // Each TEXCOORD_n as TEXn: the sets the material reads (zeros where glTF has none) and
    // every other set with a non-zero coordinate (an all-zero one is glTF's filler for a gap).
    let n = m.positions.len();
    let uvs: Vec<(usize, Vec<[f32; 2]>)> = (0..UV_SETS)
        .filter_map(|k| match m.uvs.get(k).filter(|u| u.len() == n) {
            Some(u) if k < uv_sets || u.iter().flatten().any(|&x| x != 0.0) => Some((k, u.clone())),
            _ if k < uv_sets => Some((k, vec![[0.0; 2]; n])),
            _ => None,
        })
        .collect();
    let colors = m.colors.first().filter(|c| c.len() == m.positions.len());
    let has_n = normals.len() == m.positions.len() && !normals.is_empty();

    // Attribute arrays, deduplicated by stored value.
    let extent = |vals: &[f32]| vals.iter().fold(1.0f32, |a, x| a.max(x.abs()));
    let flat: Vec<f32> = stored.iter().flatten().copied().collect();
    let pos_f = VertexFormat::fitting(Attr::POS, CompCount::POS_XYZ, &flat, 1e-5 * extent(&flat));
    let mut attrs: Vec<(VertexFormat, Array)> =
        vec![(pos_f, Array::new(pos_f, stored.iter().map(|p| p.to_vec())))];
    if has_n {
        let flat: Vec<f32> = normals.iter().flatten().copied().collect();
        let f = VertexFormat::fitting(Attr::NRM, CompCount::NRM_XYZ, &flat, 1e-4);
        attrs.push((f, Array::new(f, normals.iter().map(|n| n.to_vec()))));
    }
    if let Some(c) = colors {
        let f = VertexFormat {
            attr: Attr::CLR0,
            count: CompCount::CLR_RGBA,
            ty: CompType::RGBA8,
            frac: 0,
        };
        attrs.push((f, Array::colors(f, c)));
    }
    for (k, u) in &uvs {
        let flat: Vec<f32> = u.iter().flatten().copied().collect();
        let attr = Attr::tex(*k as u8);
        let f = VertexFormat::fitting(attr, CompCount::TEX_ST, &flat, 1e-6 * extent(&flat));
        attrs.push((f, Array::new(f, u.iter().map(|x| x.to_vec()))));
    }
    let envelope = s.rigid.is_none();
    let mut desc = VertexDesc::new();
    let mut list = Vec::new();
    if envelope {
        desc.push(Attr::PNMTXIDX, AttrType::DIRECT)?;
        list.push(vtx(Attr::PNMTXIDX.0, AttrType::DIRECT.0, 0, 0, 0, 0, None));
    }
    for (f, a) in &attrs {
        let kind = if a.values.len() <= 256 {
            AttrType::INDEX8
        } else {
            AttrType::INDEX16
        };
        if a.values.len() > 65536 {
            return Err(Error::message(format!(
                "mesh {}: more than 65,536 distinct values of one attribute",
                m.name
            )));
        }
        desc.push(f.attr, kind)?;
        let size = f.element_size().unwrap_or(4);
        let bytes: Vec<u8> = a.values.iter().flatten().copied().collect();
        let at = b.bytes(bytes, 32);
        list.push(vtx(
            f.attr.0,
            kind.0,
            f.count.0,
            f.ty.0,
            f.frac,
            size as u16,
            Some(at),
        ));
    }
    let vtx_list = b.vtx_list(&list);

    // Parts: triangles in order, a new part when the palette would pass the limit.
    let mut parts: Vec<Part> = Vec::new();
    for t in &m.triangles {
        if t.iter().any(|&i| i as usize >= m.positions.len()) {
            continue;
        }
        let keys: BTreeSet<Vec<(usize, u32)>> = t
            .iter()
            .map(|&i| key(s.weights.get(i as usize).map_or(&Vec::new(), |w| w)))
            .collect();
        let fits = |slots: &Vec<Vec<(usize, u32)>>| {
            !envelope
                || slots.len() + keys.iter().filter(|k| !slots.contains(k)).count() <= MAX_PALETTE
        };
        if parts.last().is_none_or(|(_, slots)| !fits(slots)) {
            parts.push((Vec::new(), Vec::new()));
        }
        if let Some((tris, slots)) = parts.last_mut() {
            if envelope {
                for k in keys {
                    if !slots.contains(&k) {
                        slots.push(k);
                    }
                }
            }
            tris.push(*t);
        }
    }
    if parts.is_empty() {
        // A mesh without triangles (our export of an empty PObj) keeps its PObj and material.
        parts.push((Vec::new(), Vec::new()));
    }
    let mut out = Vec::new();
    for (tris, slots) in parts {
        let mut prims = Vec::new();
        for p in gx::strip::stripify(&tris) {
            let mut buf = PrimitiveBuf::new(p.op);
            for &i in &p.indices {
                let mut values = Vec::with_capacity(attrs.len() + 1);
                if envelope {
                    let k = key(s.weights.get(i as usize).map_or(&Vec::new(), |w| w));
                    let slot = slots.iter().position(|x| *x == k).unwrap_or(0);
                    values.push(3 * slot as u32);
                }
                for (_, a) in &attrs {
                    values.push(a.index.get(i as usize).copied().unwrap_or(0));
                }
                buf.push(&desc, &values);
            }
            prims.push(buf);
        }
        let (dl, n_display) = display_list(&prims, &desc)?;
        let dl = b.bytes(dl, 32);
        let link = if envelope {
            let mut arrays = Vec::new();
            for k in &slots {
                let w: Vec<(Target, f32)> = k
                    .iter()
                    .filter_map(|&(j, x)| joints.get(j).map(|t| (*t, f32::from_bits(x))))
                    .collect();
                arrays.push(b.envelope(&w));
            }
            Some(b.ptr_array(&arrays))
        } else {
            link.and_then(|j| joints.get(j).copied())
        };
        let flags = if envelope {
            PObjFlags::ENVELOPE | cull
        } else {
            cull
        };
        out.push(PObj {
            class_name: None,
            next: None,
            vtx_desc: Some(vtx_list),
            flags,
            n_display,
            display_list: Some(dl),
            link,
        });
    }
    Ok(out)
}

/// One attribute's distinct encoded values and each vertex's index into them.
struct Array {
    values: Vec<Vec<u8>>,
    index: Vec<u32>,
}

impl Array {
    fn new(f: VertexFormat, items: impl Iterator<Item = Vec<f32>>) -> Array {
        Array::from_bytes(items.map(|v| {
            let mut out = Vec::new();
            let _ = f.encode(&v, &mut out);
            out
        }))
    }

    fn colors(f: VertexFormat, c: &[[u8; 4]]) -> Array {
        Array::from_bytes(c.iter().map(|&c| {
            let mut out = Vec::new();
            let _ = f.encode_color(c, &mut out);
            out
        }))
    }

    fn from_bytes(items: impl Iterator<Item = Vec<u8>>) -> Array {
        let mut seen: HashMap<Vec<u8>, u32> = HashMap::new();
        let mut a = Array {
            values: Vec::new(),
            index: Vec::new(),
        };
        for bytes in items {
            let next = a.values.len() as u32;
            let i = *seen.entry(bytes.clone()).or_insert_with(|| {
                a.values.push(bytes);
                next
            });
            a.index.push(i);
        }
        a
    }
}
