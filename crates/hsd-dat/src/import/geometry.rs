//! DObjs and PObjs: each glTF mesh becomes one DObj under its owner joint with one PObj per
//! part (consecutive meshes our export recorded from one DObj go back into one). A mesh whose
//! vertices all follow one joint is a rigid PObj (an envelope PObj under a holder joint when
//! that joint is also a deformer); the others are envelope PObjs over their
//! recorded palette, or palettes of at most [`MAX_PALETTE`] weight sets (triangles split
//! greedily into parts that fit). Every vertex is stored as the inverse of the matrix the
//! runtime draws it with (the joint's world matrix, or the slot's envelope matrix with the
//! weight-1.0 short-circuit and the owner's coord) applied to its glTF position, so it lands
//! where glTF put it. As HAL's compiler does, the model has one array per attribute format,
//! and descriptor lists and envelope arrays with equal contents are shared; values are stored
//! in the quantisation our export recorded, and its display-list-ordered triangles give back
//! their draw commands ([`gx::strip::in_order`]).

use std::collections::{BTreeSet, HashMap, HashSet};

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
use crate::flags::{JointFlags, PObjFlags};
use crate::mesh::{coord_in, cross, direction, envelope_matrix, normal};
use crate::model::Target;
use crate::types::{DObj, PObj};

/// What the geometry adds to the skeleton.
pub(super) struct Geometry {
    /// Per joint: `Some(envelope)` when it owns a mesh (with envelopes or rigid).
    pub owners: Vec<Option<bool>>,
    /// Per joint: its first DObj.
    pub dobjs: Vec<Option<Target>>,
    /// Per joint: the glTF material of each of its DObjs, in list order (what a MatAnim list
    /// parallels).
    pub materials: Vec<Vec<Option<usize>>>,
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
    /// The DObj our export recorded the mesh's PObj in.
    dobj: Option<usize>,
    cull: Option<u16>,
    /// The deformer carrying every vertex when a holder joint under it owns the mesh.
    held: Option<usize>,
    /// The joints of the envelope palette our export recorded: the import writes the palette
    /// as recorded, slots no vertex uses included, so each needs an inverse bind matrix.
    listed: Vec<usize>,
}

/// Weight rounding steps tried in turn while the PObjs stay too many: none, then ever coarser
/// (a Blender body of 7,574 vertices with automatic weights: 1,438 PObjs as they are, 535 at
/// 1 %, 323 at 5 %, 151 at 10 %).
const WEIGHT_STEPS: [Option<f32>; 8] = [
    None,
    Some(0.01),
    Some(0.025),
    Some(0.05),
    Some(0.1),
    Some(0.125),
    Some(0.2),
    Some(0.25),
];

/// How the import fits a model whose meshes, as given, need [`crate::POBJ_WARN`] PObjs or
/// more (the game crashes on load at about [`crate::POBJ_CRASH`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitted {
    /// PObjs the meshes needed as given.
    pub pobjs: usize,
    /// Meshes joined into others: plain meshes (no extras of ours) of one material and the
    /// same attributes become one, since every mesh is at least one PObj (seed 003's prep
    /// script joins a rip's many meshes).
    pub joined: usize,
    /// The step every vertex weight was rounded to, when joining was not enough (each
    /// PObj's palette holds 10 weight sets).
    pub weight_step: Option<f32>,
}

/// How [`geometry`] should fit the scene's meshes (see [`Fitted`]): joined when they need too
/// many PObjs as given, their weights rounded by the first of [`WEIGHT_STEPS`] that brings
/// them under [`crate::POBJ_WARN`] when that is not enough (the last if none does); `None`
/// when they fit as given. Counted as [`geometry`] splits them, before anything is built.
pub(super) fn fit(scene: &Scene, skel: &Skeleton) -> Option<Fitted> {
    let pobjs = |meshes: &[std::borrow::Cow<'_, gx::scene::Mesh>], step: Option<f32>| -> usize {
        meshes
            .iter()
            .map(|m| {
                let s = skin(m, skel, step);
                // A rigid mesh is one PObj, and so is one with a palette our export
                // recorded (its real model's PObj): only plain envelope meshes are split.
                if s.rigid.is_some() || !s.listed.is_empty() {
                    return 1;
                }
                let keys: Vec<Vec<(usize, u32)>> = s.weights.iter().map(key).collect();
                let n = m.positions.len();
                let tris: Vec<[u32; 3]> = m
                    .triangles
                    .iter()
                    .filter(|t| t.iter().all(|&i| (i as usize) < n))
                    .copied()
                    .collect();
                palettes(&tris, &keys).len().max(1)
            })
            .sum()
    };
    let given = pobjs(&parts(scene, &[]), None);
    if given < crate::POBJ_WARN {
        return None;
    }
    let targets = join_targets(scene);
    let joined = parts(scene, &targets);
    let step = WEIGHT_STEPS
        .iter()
        .copied()
        .find(|&s| pobjs(&joined, s) < crate::POBJ_WARN)
        .unwrap_or(WEIGHT_STEPS.last().copied().flatten());
    Some(Fitted {
        pobjs: given,
        joined: targets.iter().flatten().count(),
        weight_step: step,
    })
}

/// For each mesh, the earlier mesh it joins: a plain mesh (no extras of ours, every vertex
/// skinned) joins the first plain mesh of its [`gx::scene::Mesh::layout`].
fn join_targets(scene: &Scene) -> Vec<Option<usize>> {
    let mut first: HashMap<gx::scene::MeshLayout, usize> = HashMap::new();
    scene
        .meshes
        .iter()
        .enumerate()
        .map(|(i, m)| {
            if m.extras.is_some() || m.skin.len() != m.positions.len() {
                return None;
            }
            let at = *first.entry(m.layout()).or_insert(i);
            (at != i).then_some(at)
        })
        .collect()
}

/// The meshes as [`geometry`] builds them: each mesh with a target appended to it
/// ([`join_targets`]; none when `targets` is empty), then every mesh cut into parts within
/// GX's bounds: a 16-bit index reaches 65,536 values of an array, and a PObj's display list
/// ends within 2 MiB.
fn parts<'a>(
    scene: &'a Scene,
    targets: &[Option<usize>],
) -> Vec<std::borrow::Cow<'a, gx::scene::Mesh>> {
    use std::borrow::Cow;
    let mut meshes: Vec<Cow<'a, gx::scene::Mesh>> =
        scene.meshes.iter().map(Cow::Borrowed).collect();
    for (i, t) in targets.iter().enumerate() {
        if let (Some(t), Some(m)) = (t, scene.meshes.get(i))
            && let Some(into) = meshes.get_mut(*t)
        {
            into.to_mut().append(m);
        }
    }
    let mut out = Vec::new();
    for (i, m) in meshes.into_iter().enumerate() {
        if targets.get(i).is_some_and(Option::is_some) {
            continue;
        }
        match m {
            Cow::Borrowed(b) => out.extend(b.split(MAX_VALUES, MAX_TRIANGLES)),
            Cow::Owned(o) => out.extend(
                o.split(MAX_VALUES, MAX_TRIANGLES)
                    .into_iter()
                    .map(|p| Cow::Owned(p.into_owned())),
            ),
        }
    }
    out
}

/// Builds every mesh into `b`; adds holder joints to `skel` where needed. With `fitted`, the
/// meshes are joined and their weights rounded as it says ([`fit`]).
pub(super) fn geometry(
    b: &mut Builder,
    scene: &Scene,
    skel: &mut Skeleton,
    joints: &[Target],
    mats: &mut Materials<'_>,
    fitted: Option<&Fitted>,
) -> Result<Geometry> {
    // A larger mesh becomes parts that fit GX's bounds (PObjs of one DObj), and the arrays
    // are chunked ([`Arrays::add`]).
    let targets = match fitted {
        Some(f) if f.joined > 0 => join_targets(scene),
        _ => Vec::new(),
    };
    let meshes = parts(scene, &targets);
    let step = fitted.and_then(|f| f.weight_step);
    let mut skinned: Vec<Skinned> = meshes.iter().map(|m| skin(m, skel, step)).collect();
    // A joint our export recorded as SKELETON stays a deformer (with its inverse bind matrix)
    // unless an envelope mesh records it as its owner: HAL's compiler keeps SKELETON on the
    // owner of a rigid mesh (Melee trophies), which the runtime draws with the joint's matrix
    // alone.
    for j in 0..skel.parent.len() {
        let recorded = skel.recorded.get(j).copied().flatten();
        if recorded.is_some_and(|f| f.contains(JointFlags::SKELETON))
            && skinned
                .iter()
                .all(|s| s.recorded != Some(j) || s.rigid.is_some())
            && let Some(d) = skel.deformer.get_mut(j)
        {
            *d = true;
        }
    }
    for s in skinned.iter().filter(|s| s.rigid.is_none()) {
        for j in s
            .weights
            .iter()
            .flatten()
            .map(|e| e.0)
            .chain(s.listed.iter().copied())
        {
            if let Some(d) = skel.deformer.get_mut(j) {
                *d = true;
            }
        }
    }
    // A mesh weighted 100 % to a deformer and recording no owner (seed 003: the single-bone
    // shortcut would make the deformer its owner) is an envelope mesh whose every vertex
    // weighs 1.0 on the deformer, held by a holder joint under it. When the deformer's rest
    // matrix is singular (a zero scale hides it) the runtime could not invert it for the
    // holder's coord: the mesh is owned like any envelope mesh instead (no coord through it).
    for s in &mut skinned {
        if let Some(j) = s.rigid
            && s.recorded.is_none()
            && skel.deformer.get(j).copied().unwrap_or(false)
        {
            s.rigid = None;
            s.held = skel.world.get(j).and_then(inverse).map(|_| j);
        }
    }
    let mut holder = None;
    let mut holders: HashMap<usize, usize> = HashMap::new();
    let mut prepared = Vec::with_capacity(meshes.len());
    for (m, s) in meshes.iter().zip(&skinned) {
        let (owner, link) = match s.rigid {
            Some(j) => {
                let owner = s.recorded.unwrap_or(j);
                (owner, (owner != j).then_some(j))
            }
            None => {
                let free = |j: usize| !skel.deformer.get(j).copied().unwrap_or(true);
                let owner = match (s.recorded.filter(|&j| free(j)), s.held) {
                    (Some(j), _) => j,
                    // Coincident with the deformer (identity SRT), weighted by nothing.
                    (None, Some(j)) => *holders.entry(j).or_insert_with(|| {
                        skel.push(Some(j), ([0.0; 3], [1.0; 3], [0.0; 3]), None, false)
                    }),
                    (None, None) if free(0) => 0,
                    (None, None) => *holder.get_or_insert_with(|| {
                        skel.push(Some(0), ([0.0; 3], [1.0; 3], [0.0; 3]), None, false)
                    }),
                };
                (owner, None)
            }
        };
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
        let p = prepare(m, s, skel, owner, uv_sets, mats.bump(m.material))?;
        prepared.push((owner, link, cull, mobj, p));
    }
    let mut targets = joints.to_vec();
    while targets.len() < skel.parent.len() {
        targets.push(b.slot::<crate::types::Joint<Target>>());
    }
    // The arrays hold each mesh's values as a run, the runs in HAL's backward walk — joints in
    // pre-order, each joint's DObjs and their PObjs last to first (TyBSword, TyDaisy) — and a
    // value several meshes use in the run of the last of them in that walk (its first user in
    // mesh order: TyBSword's PObj 2 reads only values inside PObj 1's run, TyDaisy's PObj 7
    // only values of joint 1's PObj 45), as descriptors and envelopes are placed (rule 3).
    // So the values are numbered forward in mesh order, each mesh's new ones last to first,
    // and the arrays turned round; then they are written, and each mesh's PObjs over them.
    let mut walk: Vec<usize> = (0..prepared.len()).collect();
    walk.sort_by_key(|&i| (prepared.get(i).map_or(0, |p| p.0), std::cmp::Reverse(i)));
    let mut arrays = Arrays::default();
    for &i in walk.iter().rev() {
        if let Some(p) = prepared.get_mut(i) {
            p.4.fill(&mut arrays);
        }
    }
    arrays.turn_round();
    for p in &mut prepared {
        p.4.turn_round(&arrays);
    }
    let blocks = arrays.write(b);
    let (mut lists, mut envelopes) = (HashMap::new(), HashMap::new());
    // Per owner, its DObjs.
    let mut dobjs: Vec<Vec<Pending>> = Vec::new();
    let mut owners: Vec<Option<bool>> = Vec::new();
    let mut pobjs = 0;
    for (((owner, link, cull, mobj, p), s), m) in prepared.into_iter().zip(&skinned).zip(&meshes) {
        let parts = emit(
            b,
            &p,
            &arrays,
            &blocks,
            &mut lists,
            &mut envelopes,
            &targets,
            link,
            cull,
        )?;
        pobjs += parts.len();
        if parts.is_empty() {
            continue;
        }
        if dobjs.len() <= owner {
            dobjs.resize_with(owner + 1, Vec::new);
            owners.resize(owner + 1, None);
        }
        if let Some(list) = dobjs.get_mut(owner) {
            // Meshes our export recorded from one DObj go back into one, in order.
            match list.last_mut() {
                Some((Some(d), _, ps, _)) if s.dobj == Some(*d) => ps.extend(parts),
                _ => list.push((s.dobj, mobj, parts, m.material)),
            }
        }
        if let Some(o) = owners.get_mut(owner) {
            *o = Some(o.unwrap_or(false) || s.rigid.is_none());
        }
    }
    owners.resize(skel.parent.len(), None);
    let materials = dobjs
        .iter()
        .map(|list| list.iter().map(|d| d.3).collect())
        .collect();
    let heads = dobjs
        .into_iter()
        .map(|list| {
            let mut next = None;
            for (_, mobj, parts, _) in list.into_iter().rev() {
                let mut first = None;
                for mut p in parts.into_iter().rev() {
                    p.next = first;
                    first = Some(b.put(&p));
                }
                next = Some(b.put(&DObj {
                    class_name: None,
                    next,
                    mobj: Some(mobj),
                    pobj: first,
                }));
            }
            next
        })
        .collect();
    Ok(Geometry {
        owners,
        dobjs: heads,
        materials,
        pobjs,
    })
}

/// A DObj being gathered: the DObj our export recorded, its MObj, PObjs and glTF material.
type Pending = (Option<usize>, Target, Vec<PObj<Target>>, Option<usize>);

/// A mesh's vertex weights (normalised, merged per joint; a mesh without skin follows its node
/// or the root) and whether one joint carries it all.
fn skin(m: &gx::scene::Mesh, skel: &Skeleton, step: Option<f32>) -> Skinned {
    let x = extras::read::<MeshExtras>(m.extras.as_ref());
    let recorded = x
        .as_ref()
        .and_then(|x| x.joint)
        .filter(|&j| j < skel.from_nodes)
        .map(|j| skel.of_node(j));
    let fallback = m.node.map_or(0, |n| skel.of_node(n));
    let weights: Vec<Weights> = (0..m.positions.len())
        .map(|v| {
            let pairs: Vec<(usize, f32)> = m
                .skin
                .get(v)
                .into_iter()
                .flatten()
                .map(|&(j, x)| (usize::from(j), x))
                .collect();
            normalised(&pairs, skel, fallback, step)
        })
        .collect();
    // A recorded envelope PObj (its descriptor has PNMTXIDX) stays one when its owner is no
    // joint it weights, even if one joint carries every vertex.
    let envelope = x
        .as_ref()
        .is_some_and(|x| x.vtx.iter().any(|e| e[0] == Attr::PNMTXIDX.0))
        && recorded.is_some_and(|o| weights.iter().flatten().all(|e| e.0 != o));
    let rigid = match weights.first() {
        _ if envelope => None,
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
        dobj: x.as_ref().and_then(|x| x.dobj),
        listed: x.as_ref().map_or_else(Vec::new, |x| {
            x.palette
                .iter()
                .flatten()
                .filter(|e| e.0 < skel.from_nodes)
                .map(|e| skel.of_node(e.0))
                .collect()
        }),
        cull: x.map(|x| x.cull),
        held: None,
    }
}

/// Weights of scene nodes as joint weights: merged per joint, sorted by joint, summing to 1
/// (one joint: exactly 1.0); `fallback` alone when none is positive. With `step`, rounded to
/// its multiples (largest remainders first, so they still sum to 1; a weight rounding to 0
/// dropped): fewer distinct weight sets, so fewer palettes and PObjs (seed 003's 10 % steps).
fn normalised(
    pairs: &[(usize, f32)],
    skel: &Skeleton,
    fallback: usize,
    step: Option<f32>,
) -> Weights {
    let mut w: Weights = Vec::new();
    for &(j, x) in pairs {
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
    let w: Weights = w.iter().map(|&(j, x)| (j, x / sum)).collect();
    match step.filter(|s| *s > 0.0 && *s < 1.0) {
        Some(s) => quantised(&w, s),
        None => w,
    }
}

/// Splits an envelope mesh's triangles into parts whose palettes hold at most
/// [`MAX_PALETTE`] weight sets (`keys`: each vertex's). Each part grows from the first
/// triangle left, taking next the triangle that adds the fewest sets its palette lacks
/// (none first: what the palette already draws), earliest first among equals, until none
/// fits; its triangles keep their order. Taking the triangles in order instead cuts a part
/// wherever the next one does not fit: a Blender body with automatic weights (7,574
/// vertices) needed 1,507 PObjs that way, far past the 240 the game loads.
fn palettes(tris: &[[u32; 3]], keys: &[Vec<(usize, u32)>]) -> Vec<Part> {
    // Each distinct weight set as a number, each triangle's sets, each set's triangles.
    let mut ids: HashMap<&Vec<(usize, u32)>, usize> = HashMap::new();
    let mut key_of: Vec<&Vec<(usize, u32)>> = Vec::new();
    let sets: Vec<Vec<usize>> = tris
        .iter()
        .map(|t| {
            let mut s: Vec<usize> = t
                .iter()
                .filter_map(|&i| keys.get(i as usize))
                .map(|k| {
                    *ids.entry(k).or_insert_with(|| {
                        key_of.push(k);
                        key_of.len() - 1
                    })
                })
                .collect();
            s.sort_unstable();
            s.dedup();
            s
        })
        .collect();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); key_of.len()];
    for (t, s) in sets.iter().enumerate() {
        for &k in s {
            if let Some(u) = users.get_mut(k) {
                u.push(t);
            }
        }
    }
    let mut taken = vec![false; tris.len()];
    // Per triangle: the part that last counted its missing sets, and that count.
    let mut seen: Vec<usize> = vec![usize::MAX; tris.len()];
    let mut missing: Vec<usize> = vec![0; tris.len()];
    let mut first_left = 0;
    let mut parts: Vec<Part> = Vec::new();
    while let Some(seed) =
        (first_left..tris.len()).find(|&t| !taken.get(t).copied().unwrap_or(true))
    {
        first_left = seed;
        let part = parts.len();
        let mut in_palette: Vec<usize> = Vec::new();
        // Candidates by missing count (0 ..= 3), earliest triangle first.
        let mut buckets: [BTreeSet<usize>; 4] = Default::default();
        let mut chosen = Vec::new();
        let count = |t: usize, pal: &[usize]| {
            sets.get(t)
                .map_or(0, |s| s.iter().filter(|k| !pal.contains(k)).count())
        };
        if let Some(m) = missing.get_mut(seed) {
            *m = count(seed, &in_palette);
        }
        if let Some(s) = seen.get_mut(seed) {
            *s = part;
        }
        if let Some(b) = buckets.get_mut(missing.get(seed).copied().unwrap_or(0).min(3)) {
            b.insert(seed);
        }
        loop {
            let room = MAX_PALETTE.saturating_sub(in_palette.len());
            let near = buckets
                .iter_mut()
                .take(room.min(3) + 1)
                .find_map(BTreeSet::pop_first);
            // Nothing sharing a set fits: the first triangle left, if it does (pieces with
            // sets of their own, a joined rip's, fill one palette).
            let Some(t) = near.or_else(|| {
                (first_left..tris.len())
                    .find(|&t| !taken.get(t).copied().unwrap_or(true))
                    .filter(|&t| count(t, &in_palette) <= room)
            }) else {
                break;
            };
            if let Some(x) = taken.get_mut(t) {
                *x = true;
            }
            chosen.push(t);
            for &k in sets.get(t).into_iter().flatten() {
                if in_palette.contains(&k) {
                    continue;
                }
                in_palette.push(k);
                // Every triangle using the new set misses one set fewer.
                for &u in users.get(k).into_iter().flatten() {
                    if taken.get(u).copied().unwrap_or(true) {
                        continue;
                    }
                    let before = missing.get(u).copied().unwrap_or(0);
                    let now = if seen.get(u) == Some(&part) {
                        if let Some(b) = buckets.get_mut(before.min(3)) {
                            b.remove(&u);
                        }
                        before.saturating_sub(1)
                    } else {
                        count(u, &in_palette)
                    };
                    if let Some(s) = seen.get_mut(u) {
                        *s = part;
                    }
                    if let Some(m) = missing.get_mut(u) {
                        *m = now;
                    }
                    if let Some(b) = buckets.get_mut(now.min(3)) {
                        b.insert(u);
                    }
                }
            }
        }
        chosen.sort_unstable();
        let slots = in_palette
            .iter()
            .filter_map(|&k| key_of.get(k).map(|k| (*k).clone()))
            .collect();
        parts.push((
            chosen
                .iter()
                .filter_map(|&t| tris.get(t).copied())
                .collect(),
            slots,
        ));
    }
    parts
}

/// Weights summing to 1 rounded to multiples of `step`: each floored, the units left over
/// going to the largest remainders; zeros dropped.
fn quantised(w: &Weights, step: f32) -> Weights {
    let units = (1.0 / step).round() as u32;
    let scaled: Vec<f32> = w.iter().map(|e| e.1 * units as f32).collect();
    let mut q: Vec<u32> = scaled.iter().map(|x| x.floor() as u32).collect();
    let mut order: Vec<usize> = (0..w.len()).collect();
    order.sort_by(|&a, &b| {
        let r = |i: usize| scaled.get(i).map_or(0.0, |x| x - x.floor());
        r(b).total_cmp(&r(a)).then(a.cmp(&b))
    });
    let left = units.saturating_sub(q.iter().sum());
    for &i in order.iter().take(left as usize) {
        if let Some(x) = q.get_mut(i) {
            *x += 1;
        }
    }
    let out: Weights = w
        .iter()
        .zip(&q)
        .filter(|(_, n)| **n > 0)
        .map(|(e, &n)| (e.0, n as f32 / units as f32))
        .collect();
    match out[..] {
        [(j, _)] => vec![(j, 1.0)],
        _ => out,
    }
}

/// A PObj's triangles and its palette (weight-set keys, slot order).
type Part = (Vec<[u32; 3]>, Vec<Vec<(usize, u32)>>);

/// A weight set as a hashable key.
fn key(w: &Weights) -> Vec<(usize, u32)> {
    w.iter().map(|&(j, x)| (j, x.to_bits())).collect()
}

/// `GX_TEXMTX0`, the first texture matrix slot a TEXnMTXIDX names.
const TEXMTX0: u32 = 30;

/// One mesh ready to be written once every array is complete.
struct Prepared {
    /// Descriptor entries in list order.
    attrs: Vec<(Attr, Source)>,
    /// Per entry, each vertex's index into its array (empty for matrix indices and until
    /// [`Prepared::fill`]).
    index: Vec<Vec<u32>>,
    /// Per entry, the encoded value of each vertex, until [`Prepared::fill`] moves them into
    /// the model's arrays.
    values: Vec<Option<(VertexFormat, Vec<Vec<u8>>)>>,
    /// Each vertex's weight-set key.
    keys: Vec<Vec<(usize, u32)>>,
    /// Triangles and palette of each PObj.
    parts: Vec<Part>,
    /// The recorded palette's envelope arrays (joint, weight bits), slot by slot, when the
    /// mesh is one PObj over it.
    exact: Option<Vec<Vec<(usize, u32)>>>,
    envelope: bool,
    /// Whether our export recorded the mesh's descriptor (its triangles are then in display-list
    /// order).
    recorded: bool,
    name: String,
}

/// Where a descriptor entry's values come from.
#[derive(Clone, Copy)]
enum Source {
    /// A direct matrix index (PNMTXIDX: 3 × the palette slot; TEXnMTXIDX: `GX_TEXMTX0` (30)
    /// plus that, as HAL writes it), with the recorded component count and type words.
    Matrix([u32; 2]),
    /// An index into array [`Arrays::list`]`[.0]`, with the recorded attribute type.
    Array(usize, Option<AttrType>),
    /// Values not yet in an array ([`Prepared::fill`]), with the recorded attribute type.
    Pending(Option<AttrType>),
    /// Values in the display list itself (GX_DIRECT), as the descriptor records a colour:
    /// each vertex's bytes stay in [`Prepared::values`].
    Direct,
}

impl Prepared {
    /// Each array index as it is once [`Arrays::turn_round`] has reversed the arrays.
    fn turn_round(&mut self, arrays: &Arrays) {
        for (entry, index) in self.attrs.iter().zip(&mut self.index) {
            if let Source::Array(a, _) = entry.1
                && let Some((_, array)) = arrays.list.get(a)
            {
                let last = array.values.len().saturating_sub(1) as u32;
                for i in index.iter_mut() {
                    *i = last.saturating_sub(*i);
                }
            }
        }
    }

    /// Adds the mesh's values to the model's arrays (new ones at the end, last to first).
    fn fill(&mut self, arrays: &mut Arrays) {
        for ((entry, index), values) in self
            .attrs
            .iter_mut()
            .zip(&mut self.index)
            .zip(&mut self.values)
        {
            if let Source::Pending(t) = entry.1 {
                // A recorded direct colour stays in the display list (20XX's PlCaRe keeps one
                // inline; an array in its place moved every later block).
                let inline = values.as_ref().is_some_and(|(f, _)| {
                    t == Some(AttrType::DIRECT)
                        && f.attr.is_color()
                        && f.element_size().is_some_and(|n| n <= 4)
                });
                if inline {
                    entry.1 = Source::Direct;
                } else if let Some((f, bytes)) = values.take() {
                    let (array, idx) = arrays.add(f, bytes);
                    entry.1 = Source::Array(array, t);
                    *index = idx;
                }
            }
        }
    }
}

/// How far, relative to the extent, a value that came from the file may come back off its grid
/// point and still be taken for it: float noise through a joint chain (3e-5 on 20XX's trophies)
/// and a hundredth of the same-model tolerance (1e-3), so snapping never moves a vertex visibly.
const GRID_NOISE: f32 = 1e-4;

/// A recorded descriptor entry's format for `attr` when it can store `flat` (values of
/// `width` components) without overflow and, but for normals, each within `tol` of its value,
/// and its attribute type. Positions and coordinates that came from the file come back on the
/// format's grid up to float noise (`noise`, at most a quarter step); in another space (an
/// owner the import changed) they do not, and take the rule's format instead of being rounded
/// to a grid chosen for other values — on a coarse grid (S8 with 5 fraction bits: a quarter
/// step is 0.008) such values can fall within a quarter step by chance.
/// Normals come back made unit (glTF's), within the format's own step of the stored values.
fn recorded_format(
    recorded: &[[u32; 5]],
    attr: Attr,
    flat: &[f32],
    width: usize,
    (tol, noise): (f32, f32),
) -> Option<(VertexFormat, AttrType)> {
    let e = recorded.iter().find(|e| e[0] == attr.0)?;
    let f = VertexFormat {
        attr,
        count: CompCount(e[2]),
        ty: CompType(e[3]),
        frac: u8::try_from(e[4]).ok()?,
    };
    if attr.is_color() {
        f.encode_color([0; 4], &mut Vec::new())?;
        return Some((f, AttrType(e[1])));
    }
    // A normal entry stores what the mesh brings: XYZ, or NBT (nine values) from its tangents.
    let n = f.components()?;
    let normal = attr == Attr::NRM || attr == Attr::NBT;
    if (normal && n != width) || f.frac > 15 {
        return None;
    }
    let range = match f.ty {
        CompType::U8 => 0.0..=255.0,
        CompType::S8 => -128.0..=127.0,
        CompType::U16 => 0.0..=65535.0,
        CompType::S16 => -32768.0..=32767.0,
        CompType::F32 => f32::MIN..=f32::MAX,
        _ => return None,
    };
    let scale = f32::from(f.frac).exp2();
    let fits = flat.chunks(n.max(1)).all(|c| {
        c.len() == n
            && c.iter().all(|v| {
                let q = (v * scale).round();
                range.contains(&q)
                    && (f.ty == CompType::F32
                        || normal
                        || (q / scale - v).abs() <= tol.max(noise.min(0.25 / scale)))
            })
    });
    fits.then_some((f, AttrType(e[1])))
}

/// Vertex `v`'s binormal and tangent as stored (through `inv`, beside the stored normal
/// `n`): the tangent from `_TANGENT` when the mesh has it (its length is the bump strength),
/// else `TANGENT`'s unit direction; the binormal from `_BINORMAL`, else `cross(n, t) · w` as
/// glTF defines it.
fn stored_nbt(
    m: &gx::scene::Mesh,
    v: usize,
    inv: &Mtx34,
    n: [f32; 3],
    t: [f32; 4],
) -> [[f32; 3]; 2] {
    let t3 = match m.stored_tangents.get(v) {
        Some(x) if m.stored_tangents.len() == m.positions.len() => direction(inv, *x),
        _ => normal(inv, [t[0], t[1], t[2]]),
    };
    let b = match m.binormals.get(v) {
        Some(x) if m.binormals.len() == m.positions.len() => direction(inv, *x),
        _ => cross(n, t3).map(|x| x * t[3]),
    };
    [b, t3]
}

/// Computes one mesh's stored values and splits its triangles into PObjs.
fn prepare(
    m: &gx::scene::Mesh,
    s: &Skinned,
    skel: &Skeleton,
    owner: usize,
    uv_sets: usize,
    bump: bool,
) -> Result<Prepared> {
    let world = &skel.drawn();
    let ibm: Vec<Option<Mtx34>> = (0..world.len())
        .map(|j| {
            skel.deformer
                .get(j)
                .copied()
                .unwrap_or(false)
                .then(|| skel.inverse_bind(j))
                .flatten()
        })
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
    let mut nbt = Vec::with_capacity(m.tangents.len());
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
                        "mesh {}: the bind-pose matrix of joints {:?} is singular (a zero scale, and no invertible glTF inverse bind matrix), so its vertices cannot be stored",
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
            normals.push(normal(&inv, *n));
        }
        if let (Some(_), Some(n), Some(t)) = (m.normals.get(v), normals.last(), m.tangents.get(v)) {
            nbt.push(stored_nbt(m, v, &inv, *n, *t));
        }
    }
    let x = extras::read::<MeshExtras>(m.extras.as_ref()).unwrap_or_default();
    let recorded = x.vtx;
    // Each TEXCOORD_n as TEXn: with a recorded descriptor the sets it lists; else the sets the
    // material reads (zeros where glTF has none) and every other set with a non-zero
    // coordinate (an all-zero one is glTF's filler for a gap).
    let n = m.positions.len();
    let listed = |k: usize| recorded.iter().any(|e| e[0] == Attr::tex(k as u8).0);
    let wanted = |k: usize, u: Option<&Vec<[f32; 2]>>| {
        if recorded.is_empty() {
            k < uv_sets || u.is_some_and(|u| u.iter().flatten().any(|&x| x != 0.0))
        } else {
            listed(k)
        }
    };
    let uvs: Vec<(usize, Vec<[f32; 2]>)> = (0..UV_SETS)
        .filter_map(|k| {
            let u = m.uvs.get(k).filter(|u| u.len() == n);
            wanted(k, u).then(|| (k, u.cloned().unwrap_or_else(|| vec![[0.0; 2]; n])))
        })
        .collect();
    let colors = m.colors.first().filter(|c| c.len() == n);
    let has_n = normals.len() == n && !normals.is_empty();
    // NBT normals (normal, binormal, tangent: what GX's emboss bump texgens read) where the
    // mesh has tangents and either its recorded descriptor stores them or, without one, its
    // material bump-maps; GX_VA_NBT as HAL writes it unless the record says NRM.
    let nbt_attr = recorded
        .iter()
        .find(|e| e[0] == Attr::NBT.0 || (e[0] == Attr::NRM.0 && e[2] == CompCount::NRM_NBT.0))
        .map(|e| Attr(e[0]))
        .or_else(|| (recorded.is_empty() && bump).then_some(Attr::NBT));
    let envelope = s.rigid.is_none();

    // Each attribute in its recorded format, else the rule's.
    let extent = |vals: &[f32]| vals.iter().fold(1.0f32, |a, x| a.max(x.abs()));
    let mut have: Vec<(VertexFormat, Option<AttrType>, Vec<Vec<u8>>)> = Vec::new();
    let mut float = |attr: Attr, count: CompCount, tol: f32, items: Vec<Vec<f32>>| {
        let flat: Vec<f32> = items.iter().flatten().copied().collect();
        let width = items.first().map_or(0, Vec::len);
        let (tol, noise) = (tol * extent(&flat), GRID_NOISE * extent(&flat));
        let (f, t) = match recorded_format(&recorded, attr, &flat, width, (tol, noise)) {
            Some((f, t)) => (f, Some(t)),
            None => (VertexFormat::fitting(attr, count, &flat, tol), None),
        };
        // A normal takes the grid point along its direction: the value it was stored as.
        let direction = attr == Attr::NRM || attr == Attr::NBT;
        let bytes = items
            .iter()
            .map(|v| {
                let mut out = Vec::new();
                match v.as_slice() {
                    [x, y, z, rest @ ..] if direction => {
                        let _ = f.encode(
                            &[&f.grid_direction([*x, *y, *z])[..], rest].concat(),
                            &mut out,
                        );
                    }
                    _ => {
                        let _ = f.encode(v, &mut out);
                    }
                }
                out
            })
            .collect();
        have.push((f, t, bytes));
    };
    float(
        Attr::POS,
        CompCount::POS_XYZ,
        1e-5,
        stored.iter().map(|p| p.to_vec()).collect(),
    );
    if has_n {
        // Unit vectors: the tolerance is absolute.
        let (attr, count, flat): (Attr, CompCount, Vec<Vec<f32>>) = match nbt_attr {
            Some(a) if nbt.len() == n => (
                a,
                CompCount::NRM_NBT,
                normals
                    .iter()
                    .zip(&nbt)
                    .map(|(n, [b, t])| [*n, *b, *t].concat())
                    .collect(),
            ),
            _ => (
                Attr::NRM,
                CompCount::NRM_XYZ,
                normals.iter().map(|x| x.to_vec()).collect(),
            ),
        };
        let extent_free = 1e-4 / extent(&flat.iter().flatten().copied().collect::<Vec<_>>());
        float(attr, count, extent_free, flat);
    }
    for (k, u) in &uvs {
        float(
            Attr::tex(*k as u8),
            CompCount::TEX_ST,
            1e-6,
            u.iter().map(|x| x.to_vec()).collect(),
        );
    }
    if let Some(c) = colors {
        let rgba8 = VertexFormat {
            attr: Attr::CLR0,
            count: CompCount::CLR_RGBA,
            ty: CompType::RGBA8,
            frac: 0,
        };
        let (f, t) = recorded_format(&recorded, Attr::CLR0, &[], 4, (0.0, 0.0))
            .map_or((rgba8, None), |(f, t)| (f, Some(t)));
        let bytes = c
            .iter()
            .map(|&c| {
                let mut out = Vec::new();
                let _ = f.encode_color(c, &mut out);
                out
            })
            .collect();
        have.push((f, t, bytes));
    }
    let mut attrs = Vec::new();
    let mut index = Vec::new();
    // Matrix indices: PNMTXIDX on envelope meshes, and the recorded direct TEXnMTXIDX.
    let words = |a: Attr| {
        recorded
            .iter()
            .find(|e| e[0] == a.0)
            .map_or([0; 2], |e| [e[2], e[3]])
    };
    if envelope {
        attrs.push((Attr::PNMTXIDX, Source::Matrix(words(Attr::PNMTXIDX))));
        index.push(Vec::new());
    }
    for e in recorded.iter().filter(|e| {
        (Attr::TEX0MTXIDX.0..=Attr::TEX7MTXIDX.0).contains(&e[0]) && e[1] == AttrType::DIRECT.0
    }) {
        attrs.push((Attr(e[0]), Source::Matrix([e[2], e[3]])));
        index.push(Vec::new());
    }
    let mut values = vec![None; attrs.len()];
    for (f, t, bytes) in have {
        attrs.push((f.attr, Source::Pending(t)));
        index.push(Vec::new());
        values.push(Some((f, bytes)));
    }
    // List order: the recorded one, then the rest in GX attribute order (matrix index first).
    let rank = |a: Attr| {
        recorded
            .iter()
            .position(|e| e[0] == a.0)
            .unwrap_or(recorded.len() + a.0 as usize)
    };
    let mut order: Vec<usize> = (0..attrs.len()).collect();
    order.sort_by_key(|&i| attrs.get(i).map_or(usize::MAX, |a| rank(a.0)));
    let attrs: Vec<(Attr, Source)> = order
        .iter()
        .filter_map(|&i| attrs.get(i).copied())
        .collect();
    let index: Vec<Vec<u32>> = order
        .iter()
        .filter_map(|&i| index.get(i).cloned())
        .collect();
    let values = order
        .iter()
        .map(|&i| values.get_mut(i).and_then(Option::take))
        .collect();
    let keys: Vec<Vec<(usize, u32)>> = (0..n)
        .map(|i| key(s.weights.get(i).map_or(&Vec::new(), |w| w)))
        .collect();

    // The recorded palette, when every vertex's weights are one of its slots: one PObj with
    // the slots in the recorded order and the recorded weights (HAL's envelope order).
    let slot_keys: Vec<Vec<(usize, u32)>> = x
        .palette
        .iter()
        .map(|slot| key(&normalised(slot, skel, 0, None)))
        .collect();
    let exact = (envelope
        && !x.palette.is_empty()
        && x.palette.len() <= MAX_PALETTE
        && keys.iter().all(|k| slot_keys.contains(k)))
    .then(|| {
        x.palette
            .iter()
            .map(|slot| {
                slot.iter()
                    .filter(|e| e.0 < skel.from_nodes)
                    .map(|&(j, w)| (skel.of_node(j), w.to_bits()))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    });
    let valid = |t: &&[u32; 3]| t.iter().all(|&i| (i as usize) < n);
    let mut parts: Vec<Part> = Vec::new();
    if exact.is_some() {
        parts.push((
            m.triangles.iter().filter(valid).copied().collect(),
            slot_keys,
        ));
    }
    if exact.is_none() {
        let tris: Vec<[u32; 3]> = m.triangles.iter().filter(valid).copied().collect();
        if envelope {
            parts = palettes(&tris, &keys);
        } else if !tris.is_empty() {
            parts.push((tris, Vec::new()));
        }
    }
    if parts.is_empty() {
        // A mesh without triangles (our export of an empty PObj) keeps its PObj and material.
        parts.push((Vec::new(), Vec::new()));
    }
    Ok(Prepared {
        attrs,
        index,
        values,
        keys,
        parts,
        exact,
        envelope,
        recorded: !recorded.is_empty(),
        name: m.name.clone(),
    })
}

/// A descriptor list's identity: per entry attribute, type, array and, for values without
/// one (matrix indices, direct colours), the component count, type and fraction bits.
type ListKey = Vec<(u32, u32, Option<usize>, [u32; 3])>;

/// The PObjs of one prepared mesh (links unset), over the written arrays; descriptor lists
/// with the same entries (`lists`) and envelope arrays with the same weights (`envelopes`) are
/// shared.
#[allow(clippy::too_many_arguments)]
fn emit(
    b: &mut Builder,
    p: &Prepared,
    arrays: &Arrays,
    blocks: &[Target],
    lists: &mut HashMap<ListKey, Target>,
    envelopes: &mut HashMap<Vec<(usize, u32)>, Target>,
    joints: &[Target],
    link: Option<usize>,
    cull: PObjFlags,
) -> Result<Vec<PObj<Target>>> {
    let mut desc = VertexDesc::new();
    let mut entries = Vec::new();
    let mut list_key = Vec::new();
    for (k, &(attr, source)) in p.attrs.iter().enumerate() {
        let (a, recorded) = match source {
            Source::Matrix([cnt, ty]) => {
                desc.push(attr, AttrType::DIRECT)?;
                entries.push(vtx(attr.0, AttrType::DIRECT.0, cnt, ty, 0, 0, None));
                list_key.push((attr.0, AttrType::DIRECT.0, None, [cnt, ty, 0]));
                continue;
            }
            Source::Direct => {
                if let Some(Some((f, _))) = p.values.get(k) {
                    desc.push_direct(*f)?;
                    // The stride of an inline value reads nothing; HAL writes 4 (PlCaRe).
                    let size = 4;
                    let d = AttrType::DIRECT.0;
                    entries.push(vtx(attr.0, d, f.count.0, f.ty.0, f.frac, size, None));
                    let words = [f.count.0, f.ty.0, u32::from(f.frac)];
                    list_key.push((attr.0, d, None, words));
                }
                continue;
            }
            Source::Array(a, t) => (a, t),
            Source::Pending(_) => continue,
        };
        let Some((f, values)) = arrays.list.get(a) else {
            continue;
        };
        let len = values.values.len();
        if len > MAX_VALUES {
            return Err(Error::message(format!(
                "mesh {}: more than 65,536 distinct values of one attribute",
                p.name
            )));
        }
        let rule = if len <= 256 {
            AttrType::INDEX8
        } else {
            AttrType::INDEX16
        };
        let kind = match recorded {
            Some(AttrType::INDEX16) => AttrType::INDEX16,
            Some(AttrType::INDEX8) if len <= 256 => AttrType::INDEX8,
            _ => rule,
        };
        desc.push(attr, kind)?;
        let size = f.element_size().unwrap_or(4);
        entries.push(vtx(
            attr.0,
            kind.0,
            f.count.0,
            f.ty.0,
            f.frac,
            size as u16,
            blocks.get(a).copied(),
        ));
        list_key.push((attr.0, kind.0, Some(a), [0; 3]));
    }
    let vtx_list = *lists
        .entry(list_key)
        .or_insert_with(|| b.vtx_list(&entries));
    let mut out = Vec::new();
    for (tris, slots) in &p.parts {
        let mut prims = Vec::new();
        // Our export's triangles are in display-list order: its strips come back as they were.
        let strips = if p.recorded {
            gx::strip::in_order(tris)
        } else {
            gx::strip::stripify(tris)
        };
        for prim in strips {
            let mut buf = PrimitiveBuf::new(prim.op);
            for &i in &prim.indices {
                let values: Vec<u32> = p
                    .index
                    .iter()
                    .zip(&p.attrs)
                    .zip(&p.values)
                    .map(|((idx, (attr, source)), direct)| match source {
                        Source::Matrix(_) => {
                            let k = p.keys.get(i as usize);
                            let slot = slots.iter().position(|x| Some(x) == k).unwrap_or(0);
                            let base = if *attr == Attr::PNMTXIDX { 0 } else { TEXMTX0 };
                            base + 3 * slot as u32
                        }
                        Source::Direct => direct
                            .as_ref()
                            .and_then(|(_, v)| v.get(i as usize))
                            .map_or(0, |b| b.iter().fold(0, |w, &x| w << 8 | u32::from(x))),
                        Source::Array(..) | Source::Pending(_) => {
                            idx.get(i as usize).copied().unwrap_or(0)
                        }
                    })
                    .collect();
                buf.push(&desc, &values);
            }
            prims.push(buf);
        }
        let (dl, n_display) = display_list(&prims, &desc)?;
        let dl = b.bytes(dl, 32);
        let link = if p.envelope {
            let mut arrays = Vec::new();
            for (i, k) in slots.iter().enumerate() {
                // The recorded weights when there are, else the normalised ones.
                let k = p.exact.as_ref().and_then(|e| e.get(i)).unwrap_or(k);
                // Each weight set once per model: PObjs that share one share its array.
                let at = *envelopes.entry(k.clone()).or_insert_with(|| {
                    let w: Vec<(Target, f32)> = k
                        .iter()
                        .filter_map(|&(j, x)| joints.get(j).map(|t| (*t, f32::from_bits(x))))
                        .collect();
                    b.envelope(&w)
                });
                arrays.push(at);
            }
            Some(b.ptr_array(&arrays))
        } else {
            link.and_then(|j| joints.get(j).copied())
        };
        let flags = if p.envelope {
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

/// The most values one array holds: a 16-bit index reaches 65,536.
const MAX_VALUES: usize = 1 << 16;

/// The most triangles of one PObj: drawn as separate triangles, each vertex with every
/// descriptor entry (a matrix index per slot, 16-bit indices for the rest: about 35 bytes),
/// they stay within the 2 MiB a display list's `n_display` reaches.
const MAX_TRIANGLES: usize = 16_384;

/// The model's vertex arrays: one per attribute format (more when one would pass
/// [`MAX_VALUES`]), shared by every mesh that stores the attribute in it (HAL's compiler
/// writes one array per attribute for the whole model, every
/// texture coordinate set in one), each value once, in the run of its first user, numbered
/// last to first until [`Arrays::turn_round`].
#[derive(Default)]
struct Arrays {
    list: Vec<(VertexFormat, Array)>,
}

impl Arrays {
    /// Adds `items` (encoded values, one per vertex) to the array of format `f`; returns the
    /// array and each vertex's index in it.
    fn add(&mut self, f: VertexFormat, items: Vec<Vec<u8>>) -> (usize, Vec<u32>) {
        // Every texture coordinate set shares one array (HAL's TEX1 reads TEX0's).
        let family = |f: &VertexFormat| {
            let tex = (Attr::TEX0.0..=Attr::TEX7.0).contains(&f.attr.0);
            (if tex { Attr::TEX0 } else { f.attr }, f.count, f.ty, f.frac)
        };
        // The family's last array, or a new one when the mesh's new values would take it
        // past what an index reaches.
        let last = self.list.iter().rposition(|(g, _)| family(g) == family(&f));
        let fits = |a: &Array| {
            let mut fresh = HashSet::new();
            a.values.len()
                + items
                    .iter()
                    .filter(|v| !a.seen.contains_key(*v) && fresh.insert(*v))
                    .count()
                <= MAX_VALUES
        };
        let at = match last {
            Some(i) if self.list.get(i).is_some_and(|(_, a)| fits(a)) => i,
            _ => {
                self.list.push((f, Array::default()));
                self.list.len() - 1
            }
        };
        let index = match self.list.get_mut(at) {
            Some((_, a)) => {
                // The new values in first-use order, numbered last to first (turned round
                // with the array, they come back in this order).
                let mut fresh: Vec<&Vec<u8>> = Vec::new();
                let mut met = HashSet::new();
                for v in &items {
                    if !a.seen.contains_key(v) && met.insert(v) {
                        fresh.push(v);
                    }
                }
                for v in fresh.into_iter().rev() {
                    a.index(v.clone());
                }
                items.into_iter().map(|v| a.index(v)).collect()
            }
            None => Vec::new(),
        };
        (at, index)
    }

    /// Reverses every array (after the last [`Arrays::add`]): each mesh's run of values then
    /// stands in the backward walk, in its own vertex order.
    fn turn_round(&mut self) {
        for (_, a) in &mut self.list {
            a.values.reverse();
            a.seen.clear();
        }
    }

    /// Writes every array; their targets in [`Arrays::list`] order. Only 4-aligned here: the
    /// compile re-parses this layout, where the padding before a 32-aligned block would stay
    /// with the array before it (an array has no typed size to trim it to), and gives every
    /// array its 32-byte start itself — so the array it places last ends unpadded, as HAL's
    /// do (TyBancho's TEX array: 344 bytes, the first Image right after it).
    fn write(&self, b: &mut Builder) -> Vec<Target> {
        self.list
            .iter()
            .map(|(_, a)| b.bytes(a.values.iter().flatten().copied().collect(), 4))
            .collect()
    }
}

/// One attribute's distinct encoded values, in first-use order.
#[derive(Default)]
struct Array {
    values: Vec<Vec<u8>>,
    seen: HashMap<Vec<u8>, u32>,
}

impl Array {
    /// The index of `bytes`, added when new.
    fn index(&mut self, bytes: Vec<u8>) -> u32 {
        let next = self.values.len() as u32;
        *self.seen.entry(bytes).or_insert_with_key(|v| {
            self.values.push(v.clone());
            next
        })
    }
}
