//! Lays a fresh archive out from the owned model the way sysdolphin's compiler orders the data
//! section (seed 003, reference §6): vertex buffers → display lists → structs by phase
//! (materials, envelopes, vertex descriptors, geometry, skeleton, animations) → image pixels →
//! palettes (LUT and struct interleaved) → scene tail → bound box, with vertex buffers, image
//! data, palettes and envelope lists content-deduplicated and the relocation table rebuilt in
//! address order.
//!
//! Within a phase blocks keep their model order (a stable sort), so an archive already in
//! compiler order comes back unchanged, except for the sub-orders re-derived from the graph:
//! image pixels in their Image structs' order, each palette LUT before its struct, and the
//! bone-animation regrouping, the scene tail's bands. The other sub-orders of the seed (per-MObj
//! material order, reverse texture chains, material-animation bands, the envelope interleave)
//! are not re-derived.

use std::collections::HashMap;

use gcio::{Diagnostic, Result};

use crate::anim::{AnimNode, TreeKind};
use crate::graph::Kind;
use crate::model::{Block, Dat, Loc, Target};
use crate::types::{AnimJoint, Camera, CameraSet, FObj, Light, LightSet, SceneData};

/// A region of the compiled data section, in layout order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Vertex attribute arrays.
    VertexBuffers,
    /// GX display lists.
    DisplayLists,
    /// MObj, Material, TObj, Image, PixelEngine, TEV, LOD.
    Materials,
    /// Envelope lists.
    Envelopes,
    /// Vertex descriptor lists.
    VertexDescriptors,
    /// PObj, DObj, shape sets.
    Geometry,
    /// Joints, matrices, constraints.
    Skeleton,
    /// AObj/FObj/keyframes and every animation joint tree.
    Animation,
    /// Image pixel data.
    ImagePixels,
    /// Palette LUTs and structs.
    Palettes,
    /// Scene, lights, cameras, fog, model sets.
    Scene,
    /// The bound box (last).
    BoundBox,
}

impl Phase {
    /// Every phase in layout order.
    pub const ALL: [Phase; 12] = [
        Phase::VertexBuffers,
        Phase::DisplayLists,
        Phase::Materials,
        Phase::Envelopes,
        Phase::VertexDescriptors,
        Phase::Geometry,
        Phase::Skeleton,
        Phase::Animation,
        Phase::ImagePixels,
        Phase::Palettes,
        Phase::Scene,
        Phase::BoundBox,
    ];

    /// The phase of a node kind; `None` for kinds that sit with their neighbour (pointer arrays,
    /// strings).
    pub fn of(kind: Kind) -> Option<Phase> {
        use Kind as K;
        Some(match kind {
            K::VertexArray => Phase::VertexBuffers,
            K::DisplayList => Phase::DisplayLists,
            K::MObj | K::Material | K::PixelEngine | K::TObj | K::Image | K::TexLod | K::Tev => {
                Phase::Materials
            }
            K::Envelope => Phase::Envelopes,
            K::VtxDesc => Phase::VertexDescriptors,
            K::PObj | K::DObj | K::ShapeSet => Phase::Geometry,
            K::Joint | K::Matrix | K::Vec3 | K::Spline | K::ParticleList | K::RObj | K::IkHint => {
                Phase::Skeleton
            }
            K::AObj
            | K::FObj
            | K::KeyframeData
            | K::AnimJoint
            | K::MatAnimJoint
            | K::MatAnim
            | K::TexAnim
            | K::RenderAnim
            | K::ShapeAnimJoint
            | K::ShapeAnimDObj
            | K::ShapeAnim
            | K::RObjAnimJoint => Phase::Animation,
            K::ImageData => Phase::ImagePixels,
            K::Palette | K::PaletteData => Phase::Palettes,
            K::BoundBox => Phase::BoundBox,
            K::SceneData
            | K::ModelSet
            | K::CameraSet
            | K::Camera
            | K::CameraAnim
            | K::LightSet
            | K::Light
            | K::LightAnim
            | K::LightAttn
            | K::LightPoint
            | K::LightSpot
            | K::WObj
            | K::WObjAnim
            | K::FogSet
            | K::Fog
            | K::FogAdj => Phase::Scene,
            K::PointerArray | K::String => return None,
        })
    }

    /// Alignment the compiler gives blocks of this phase: 32 for GX buffers, 4 otherwise.
    fn align(self) -> u32 {
        match self {
            Phase::VertexBuffers | Phase::DisplayLists | Phase::ImagePixels | Phase::Palettes => 32,
            _ => 4,
        }
    }
}

/// The phase of every block of `dat` (blocks no typed node starts in inherit the previous
/// block's phase), and the byte size the typed node gives (0 when unknown).
pub fn block_phases(dat: &Dat) -> Result<Vec<(Phase, u32)>> {
    let bytes = dat.write()?;
    let a = crate::parse(&bytes)?;
    let g = a.graph();
    let mut at: HashMap<u32, (Phase, u32)> = HashMap::with_capacity(g.nodes.len());
    for n in &g.nodes {
        if let Some(p) = Phase::of(n.kind) {
            at.entry(n.offset).or_insert((p, n.size));
        }
    }
    let (offsets, _) = dat.layout()?;
    let mut prev = Phase::Materials;
    Ok(offsets
        .iter()
        .map(|o| match at.get(o) {
            Some(&(p, size)) => {
                prev = p;
                (p, size)
            }
            None => (prev, 0),
        })
        .collect())
}

/// The bone-animation sub-order (reference §6.2 phase 6) as (group, position) per block: for each
/// AnimJoint tree, each animated joint's keyframe buffers, then its FObjs, then its AObj (joints
/// in pre-order), then the AnimJoint structs in pre-order, root first. A group is keyed by its
/// lowest block index, so trees keep their model order.
fn anim_joint_order(dat: &Dat) -> Result<HashMap<usize, (usize, usize)>> {
    let bytes = dat.write()?;
    let a = crate::parse(&bytes)?;
    let g = a.graph();
    let (offsets, _) = dat.layout()?;
    let block_at = |off: u32| offsets.binary_search(&off).ok();
    let nodes: Vec<u32> = g
        .nodes
        .iter()
        .filter(|n| n.kind == Kind::AnimJoint)
        .map(|n| n.offset)
        .collect();
    let mut inner = std::collections::HashSet::new();
    for &o in &nodes {
        if let Ok(x) = a.read::<AnimJoint>(o) {
            inner.extend(x.child);
            inner.extend(x.next);
        }
    }
    let mut out = HashMap::new();
    for &root in nodes.iter().filter(|o| !inner.contains(*o)) {
        let Ok(tree) = a.anim_tree(root, TreeKind::Joint) else {
            continue;
        };
        let (mut data, mut joints) = (Vec::new(), Vec::new());
        let mut stack: Vec<&AnimNode> = tree.iter().rev().collect();
        while let Some(n) = stack.pop() {
            joints.push(n.offset);
            for anim in n.slots.iter().filter_map(|s| s.animation.as_ref()) {
                for t in &anim.tracks {
                    if let Ok(Some(d)) = a.read::<FObj>(t.offset).map(|f| f.data) {
                        data.push(d);
                    }
                }
                data.extend(anim.tracks.iter().map(|t| t.offset));
                data.push(anim.offset);
            }
            stack.extend(n.children.iter().rev());
        }
        let blocks: Vec<usize> = data
            .iter()
            .chain(&joints)
            .filter_map(|&o| block_at(o))
            .collect();
        let Some(&group) = blocks.iter().min() else {
            continue;
        };
        for (pos, b) in blocks.into_iter().enumerate() {
            out.entry(b).or_insert((group, pos));
        }
    }
    Ok(out)
}

/// The scene tail's sub-order (seed 003, "Scene tail — cracked"): per `scene_data` root, the
/// leaves first — each light's WObjs (position, interest), parameter struct and Light, in reverse
/// LightSet order, then the camera's WObjs (eye, interest, up) and Camera — then the containers:
/// ModelSets forward, the CameraSet, the LightSets in reverse order; SceneData last. Where the
/// two pointer arrays go is not stated; they are put right before SceneData (models, then
/// lights), where the compiler-order sample has them.
fn scene_order(dat: &Dat) -> Result<HashMap<usize, (usize, usize)>> {
    let bytes = dat.write()?;
    let a = crate::parse(&bytes)?;
    let (offsets, _) = dat.layout()?;
    let max = a.limits().max_elements.min(1 << 16);
    let array = |tbl: Option<u32>| -> Result<Vec<u32>> {
        let mut v = Vec::new();
        if let Some(t) = tbl {
            for i in 0..max {
                let at = u32::try_from(i).ok().and_then(|i| t.checked_add(4 * i));
                match at.map(|at| a.pointer(at)).transpose()?.flatten() {
                    Some(p) => v.push(p),
                    None => break,
                }
            }
        }
        Ok(v)
    };
    let mut out = HashMap::new();
    for root in a.roots().filter(|r| r.kind() == crate::RootKind::SceneData) {
        let sd: SceneData = a.read(root.offset)?;
        let models = array(sd.models)?;
        let sets = array(sd.lights)?;
        let mut list: Vec<u32> = Vec::new();
        for &set in sets.iter().rev() {
            if let Some(l) = a.read::<LightSet>(set)?.desc {
                let light: Light = a.read(l)?;
                list.extend(
                    [light.position, light.interest, light.param]
                        .into_iter()
                        .flatten(),
                );
                list.push(l);
            }
        }
        let camera = sd.camera.map(|c| a.read::<CameraSet>(c)).transpose()?;
        if let Some(c) = camera.and_then(|c| c.desc) {
            let cam: Camera = a.read(c)?;
            list.extend([cam.eye, cam.interest, cam.up].into_iter().flatten());
            list.push(c);
        }
        list.extend(&models);
        list.extend(sd.camera);
        list.extend(sets.iter().rev());
        list.extend(sd.models);
        list.extend(sd.lights);
        list.push(root.offset);
        let blocks: Vec<usize> = list
            .iter()
            .filter_map(|o| offsets.binary_search(o).ok())
            .collect();
        let Some(&group) = blocks.iter().min() else {
            continue;
        };
        for (pos, b) in blocks.into_iter().enumerate() {
            out.entry(b).or_insert((group, pos));
        }
    }
    Ok(out)
}

/// Model-level checks before writing: the part-1 validator on the laid-out bytes, which covers
/// what a fresh build can get wrong (palette slots per PObj HSD-008, envelope joints without an
/// IBM HSD-010, mesh owners without render-pass flags HSD-018).
pub fn check(dat: &Dat) -> Result<Vec<Diagnostic>> {
    let bytes = dat.write()?;
    Ok(crate::parse(&bytes)?.validate())
}

/// Lays `dat` out afresh in compiler order (see the module doc). The result writes a valid
/// archive that re-parses to the same pointer graph (up to merged duplicates).
pub fn compile(dat: &Dat) -> Result<Dat> {
    let phases = block_phases(dat)?;
    let n = dat.blocks.len();
    // Image pixels follow the address order of their Image structs; each palette LUT sits just
    // before its Palette struct (reference §6.1): both keyed by their first referrer.
    let mut referrer = vec![usize::MAX; n];
    for (i, b) in dat.blocks.iter().enumerate() {
        for q in &b.pointers {
            if let Target::In(l) = q.target
                && let Some(r) = referrer.get_mut(l.block)
            {
                *r = (*r).min(i);
            }
        }
    }
    let phase = |i: usize| phases.get(i).map_or(Phase::Materials, |p| p.0);
    let anim = anim_joint_order(dat)?;
    let scene = scene_order(dat)?;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| {
        let by_referrer = referrer.get(i).copied().filter(|&r| r != usize::MAX);
        if let (Phase::Animation, Some(&(group, pos))) = (phase(i), anim.get(&i)) {
            return (Phase::Animation, group, pos);
        }
        if let Some(&(group, pos)) = scene.get(&i) {
            return (Phase::Scene, group, pos);
        }
        match (phase(i), by_referrer) {
            (Phase::ImagePixels, Some(r)) => (Phase::ImagePixels, r, 0),
            (Phase::Palettes, Some(r))
                if dat.blocks.get(i).is_some_and(|b| b.pointers.is_empty()) =>
            {
                (Phase::Palettes, r, 0)
            }
            (p, _) => (p, i, 1),
        }
    });
    // Content dedup of pointer-free buffers and of envelope lists (bytes + pointer targets).
    let mut survivor: Vec<usize> = (0..dat.blocks.len()).collect();
    type ContentKey<'a> = (Phase, &'a [u8], Vec<(u32, Target)>);
    let mut seen: HashMap<ContentKey<'_>, usize> = HashMap::new();
    for &i in &order {
        let (Some(b), Some(&(p, _))) = (dat.blocks.get(i), phases.get(i)) else {
            continue;
        };
        let dedup = match p {
            Phase::VertexBuffers | Phase::ImagePixels | Phase::Palettes => b.pointers.is_empty(),
            Phase::Envelopes => true,
            _ => false,
        };
        if dedup {
            let ptrs = b.pointers.iter().map(|q| (q.at, q.target)).collect();
            let first = *seen.entry((p, &b.bytes, ptrs)).or_insert(i);
            if let Some(s) = survivor.get_mut(i) {
                *s = first;
            }
        }
    }
    let kept: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| survivor.get(i) == Some(&i))
        .collect();
    let mut new_index = vec![0usize; dat.blocks.len()];
    for (n, &i) in kept.iter().enumerate() {
        if let Some(x) = new_index.get_mut(i) {
            *x = n;
        }
    }
    let remap_block = |i: usize| {
        let s = survivor.get(i).copied().unwrap_or(i);
        new_index.get(s).copied().unwrap_or(0)
    };
    let remap = |t: Target| match t {
        Target::In(l) => Target::In(Loc {
            block: remap_block(l.block),
            offset: l.offset,
        }),
        other => other,
    };
    let mut blocks = Vec::with_capacity(kept.len());
    for &i in &kept {
        let (Some(b), Some(&(p, size))) = (dat.blocks.get(i), phases.get(i)) else {
            continue;
        };
        let mut bytes = b.bytes.clone();
        // Drop the old layout's trailing padding (zeros past the struct); alignment recreates it.
        let end = (size as usize).next_multiple_of(4);
        if size > 0
            && end < bytes.len()
            && bytes.get(end..).is_some_and(|t| t.iter().all(|&x| x == 0))
        {
            bytes.truncate(end);
        }
        let mut nb = Block::new(bytes, p.align());
        nb.pointers = b
            .pointers
            .iter()
            .map(|q| crate::model::Pointer {
                at: q.at,
                target: remap(q.target),
            })
            .collect();
        blocks.push(nb);
    }
    let mut out = Dat {
        blocks,
        relocations: Vec::new(),
        ..dat.clone()
    };
    for r in &mut out.roots {
        r.target = remap(r.target);
    }
    for e in &mut out.externs {
        for l in &mut e.chain {
            l.block = remap_block(l.block);
        }
    }
    // Colosseum/XD pad the data section to 16 (Melee files are only 4-aligned): keep whichever
    // convention the model's layout follows.
    let (_, before) = dat.layout()?;
    let (_, after) = out.layout()?;
    if before % 16 == 0
        && let Some(last) = out.blocks.last_mut()
    {
        let pad = after.checked_next_multiple_of(16).map_or(0, |n| n - after);
        last.bytes.resize(last.bytes.len() + pad as usize, 0);
    }
    Ok(out)
}
