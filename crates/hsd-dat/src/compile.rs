//! Lays a fresh archive out from the owned model the way sysdolphin's compiler orders the data
//! section (docs/HSD-ORDER.md): vertex buffers → display lists → structs by phase
//! (materials, envelopes, vertex descriptors, geometry, skeleton, animations) → image pixels →
//! palettes (LUT and struct interleaved) → scene tail → bound box, with vertex buffers, image
//! data, palettes and envelope lists content-deduplicated and the relocation table rebuilt in
//! address order.
//!
//! That is Colosseum/XD's compiler ([`Order::ColosseumXd`]); Melee's and Chibi-Robo's
//! ([`Order::Melee`], module `melee`) lays each root out as a band of its own, keeps display
//! lists with their PObjs, writes the skeleton in pre-order and merges nothing. [`compile`] uses
//! the order the model's layout follows ([`detect`]: exact on compiled archives, the layout
//! signals of [`Order::detect`] otherwise); [`compile_as`] chooses.
//!
//! The order is derived from the typed graph alone (see `Emit` for every rule and the choices
//! made where the observed layouts do not decide), so `compile_listed` with a chosen order and texture list is
//! canonical: any block order of the same model compiles to the same bytes, and an archive
//! already in compiler order comes back unchanged (`compile` too, as a compiled archive detects
//! the order it was laid out in). The one input besides the graph is Melee's texture list
//! ([`TextureList`]): `compile` and `compile_as` take the one the archive records (its pixel
//! blocks in file order), so in Melee order they keep the input's texture order.
//! Nothing the layout decides feeds back into the order, so compiling a compiled archive returns
//! it unchanged, malformed graphs included: the graph is typed with every block followed by zero
//! padding rather than by its neighbour (`typing_layout`), a relocated word a struct reads as a
//! number (a flag or count holding a pointer: its value is an address) reads as zero, blocks
//! without a phase inherit the phase their predecessor ends up in, and a leading block nothing
//! points at stays first.
//! Blocks the graph does not type (unknown structs) keep their model order after the placed
//! blocks of their phase. A block that starts inside the bytes an earlier block's struct or
//! buffer spans (a keyframe stream a second FObj reads from its middle) moves with it, at its
//! distance (`Runs`), and every compile re-reads its result and refuses one that validates
//! worse than its input ([`verify`]). The one documented sub-order that is not reproduced is the internal
//! order of the deduplicated envelope lists, which no observation pins down.

use std::collections::HashMap;

use gcio::{Diagnostic, Limits, Result};

use crate::field::Struct;
use crate::flags::PObjKind;
use crate::graph::{FastMap, FastSet, Graph, Kind};
use crate::model::{Block, Dat, Loc, Target};
use crate::roots::RootKind;
use crate::types::{
    AObj, AnimJoint, Camera, CameraSet, DObj, FObj, Image, Joint, JointData, Light, LightSet, MObj,
    MatAnim, MatAnimJoint, ModelSet, PObj, Palette, ParticleList, RObj, RObjAnimJoint, SceneData,
    Spline, TObj, TexAnim,
};
use crate::view::Archive;

mod melee;

/// Which of HAL's compilers `compile` reproduces: the orders differ (docs/HSD-ORDER.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// Pokémon Colosseum/XD: one band per phase over the whole file, display lists a
    /// phase of their own, the skeleton in post-order, pixels and palettes deduplicated.
    ColosseumXd,
    /// Super Smash Bros. Melee and Chibi-Robo: one band per root, display lists with their
    /// PObjs, the skeleton in pre-order, each TObj's pixels then palette, no content dedup.
    Melee,
}

impl Order {
    /// The order an archive's layout follows: Melee when the first DObj with both a material
    /// and a display list has its MObj before the display list (Colosseum/XD writes every
    /// display list before the materials) or, without such a DObj, when a root joint precedes
    /// its first child (Colosseum/XD writes children first); Colosseum/XD otherwise, the documented
    /// order, also for files too small to tell. On well-formed models both signals survive
    /// compiling in the detected order.
    ///
    /// This reads two signals of one archive and cannot see more: on arbitrary graphs (a block
    /// typed as both a material and a display list, joints shared between trees) the layout a
    /// compiler writes can show the other compiler's signal. [`detect`] (on a model) is exact
    /// for every archive `compile` writes; this is its fallback for other layouts.
    pub fn detect(a: &Archive<'_>) -> Order {
        Order::signal(a).unwrap_or(Order::ColosseumXd)
    }

    /// The layout signal [`Order::detect`] reads, `None` when the archive has neither (no DObj
    /// with a material and a display list, no root joint with a child).
    pub fn signal(a: &Archive<'_>) -> Option<Order> {
        Order::signal_of(&a.graph())
    }

    /// [`Order::signal`] on the archive's graph.
    fn signal_of(g: &Graph) -> Option<Order> {
        let by = |melee: bool| {
            if melee {
                Order::Melee
            } else {
                Order::ColosseumXd
            }
        };
        for p in &g.pobjs {
            if let (Some(m), Some(dl)) = (p.mobj, p.pobj.display_list) {
                return Some(by(m < dl));
            }
        }
        for (i, j) in g.joints.iter().enumerate() {
            if j.parent.is_none()
                && let Some(c) = g.joints.iter().skip(i + 1).find(|c| c.parent == Some(i))
            {
                return Some(by(j.offset < c.offset));
            }
        }
        None
    }
}

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
            | K::MapHead
            | K::MapGObj
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

/// Zero bytes laid after every block of the layout the graph is typed on (see `typing_layout`):
/// more than the longest fixed-size struct the walk reads (TObj, 0x5C bytes). The walk's
/// variable-length reads stop at the first zero word (pointer arrays, envelope lists, strings)
/// or the first zero entry (a vertex-descriptor entry of type NONE is refused), so no read
/// reaches past this padding.
const TYPING_PAD: usize = 256;

/// The bytes the typed graph is read from, and each block's data offset in them: `dat` laid out
/// with `TYPING_PAD` zero bytes after every block.
///
/// Typing each block as if only padding followed it makes the order a function of the blocks
/// alone. In a malformed graph a struct can run past the end of its block (a Joint read at an
/// 8-byte block); typed on the plain layout, its fields past the end would be read from
/// whichever block the layout happens to put next — and compiling changes exactly that, so
/// the next compile would type (and order) the same blocks differently. With the padding such
/// a field reads zero (no pointer), as it would after alignment padding; a block's own bytes,
/// which compiling keeps (up to trailing zeros), decide everything. Well-formed archives, whose
/// structs lie inside their blocks, type the same either way.
fn typing_layout(dat: &Dat, limits: &Limits) -> Result<(Vec<u8>, Vec<u32>)> {
    limits.check_alloc(dat.blocks.len() as u64, TYPING_PAD as u64, 0)?;
    let blocks = dat
        .blocks
        .iter()
        .map(|b| {
            let mut bytes = Vec::with_capacity(b.bytes.len() + TYPING_PAD);
            bytes.extend_from_slice(&b.bytes);
            bytes.resize(b.bytes.len() + TYPING_PAD, 0);
            Block {
                bytes,
                align: b.align,
                pointers: b.pointers.clone(),
            }
        })
        .collect();
    let padded = Dat {
        version: dat.version,
        header_pad: dat.header_pad,
        blocks,
        relocations: dat.relocations.clone(),
        roots: dat.roots.clone(),
        externs: dat.externs.clone(),
        symbol_table: dat.symbol_table.clone(),
        trailing: Vec::new(),
        file_size: None,
    };
    let (offsets, _) = padded.layout()?;
    Ok((padded.write()?, offsets))
}

/// The phase of every block of `dat` (blocks no typed node starts in inherit the previous
/// block's phase), and the byte size the typed node gives (0 when unknown).
pub fn block_phases(dat: &Dat) -> Result<Vec<(Phase, u32)>> {
    block_phases_with(dat, &Limits::default())
}

/// [`block_phases`] with the caller's limits bounding the typing layout and its parse.
pub fn block_phases_with(dat: &Dat, limits: &Limits) -> Result<Vec<(Phase, u32)>> {
    let (bytes, offsets) = typing_layout(dat, limits)?;
    let a = crate::parse_with(&bytes, limits)?.reading_relocated_scalars_as_zero();
    let own = phases_of(&a.graph(), &offsets);
    let phases = inherit(own.iter().map(|x| x.0), Phase::Materials);
    Ok(phases
        .into_iter()
        .zip(own)
        .map(|(p, (_, s))| (p, s))
        .collect())
}

/// Each block's own phase (`None` for untyped and phase-less blocks) and the byte size its
/// typed nodes give (0 when unknown), from the typed archive and the blocks' offsets in it.
fn phases_of(g: &Graph, offsets: &[u32]) -> Vec<(Option<Phase>, u32)> {
    // The phase of the first typed node with one at each offset, and the largest size any
    // node there has: every reader's bytes belong to the block (a keyframe buffer is also
    // read as a shorter struct, or by two FObjs of different lengths).
    let mut at: FastMap<u32, (Option<Phase>, u32)> =
        FastMap::with_capacity_and_hasher(g.nodes.len(), Default::default());
    for n in &g.nodes {
        let e = at.entry(n.offset).or_insert((None, 0));
        e.1 = e.1.max(n.size);
        if e.0.is_none() {
            e.0 = Phase::of(n.kind);
        }
    }
    offsets
        .iter()
        .map(|o| at.get(o).copied().unwrap_or((None, 0)))
        .collect()
}

/// Blocks without a phase of their own take the previous block's (the first ones the first
/// block's that has one; Materials when none has).
fn inherit<T: Copy>(own: impl IntoIterator<Item = Option<T>> + Clone, none: T) -> Vec<T> {
    let first = own.clone().into_iter().flatten().next();
    let mut prev = first.unwrap_or(none);
    own.into_iter()
        .map(|p| {
            prev = p.unwrap_or(prev);
            prev
        })
        .collect()
}

/// The compiler's order of every struct and buffer it can place, as (phase, data offset), built
/// from the typed graph so it does not depend on the order of the input's blocks. Each phase
/// follows the Colosseum/XD layout (docs/HSD-ORDER.md); where the observed layouts do not decide the choice is named here and pinned
/// by `tests/compile.rs`:
/// - joints are visited in post-order (children before their parent, siblings forward), the
///   "joint post-order" the documented material and vertex-descriptor rules start from;
/// - materials: MObjs in the reverse of (joint post-order → each joint's DObj list, first
///   encounter); per MObj its class name, PixelEngine, the TObj chain deepest first (each TObj:
///   name, Image, LOD, TEV, TObj), Material, MObj;
/// - envelopes (order not observed): per PObj in the reverse (joint post-order → DObj →
///   PObj chain) order, its envelope arrays in slot order, then its pointer array;
/// - vertex descriptors: the same reverse PObj order, first encounter;
/// - geometry: per joint in post-order, per DObj forward, its PObjs forward (name, shape set,
///   PObj) then the DObj (name, DObj) — post-order, lists kept forward;
/// - skeleton: per joint in post-order its name, inverse bind matrix, RObj chain (with IK
///   hints), spline or particle data, then the joint;
/// - bone animation: per AnimJoint tree, the data band (per joint in pre-order: every track's
///   keyframes, the FObjs, the AObj; RObj animations likewise) then the AnimJoints in pre-order;
///   a ModelSet's tree array follows its trees;
/// - material animation: per MatAnimJoint tree, the data band (per joint in pre-order: its
///   texture animations — material animations in reverse, each `texanim` chain forward — with
///   their keyframes, FObjs, AObj, Image structs, image table and palette table; then each
///   MatAnim's keyframes, FObjs, AObj and RenderAnim), then the TexAnims, the MatAnims and the
///   MatAnimJoints, each band per joint in pre-order;
/// - vertex buffers in the order of the descriptors that use them, display lists in geometry
///   order, image pixels in the order of their Image structs, each palette LUT then its struct
///   in the order of their first referrer;
/// - the scene tail's bands (see `scene`), then the bound box.
struct Emit<'a, 'b> {
    a: &'b Archive<'a>,
    /// (section, phase, data offset) in emit order; the section is the root being laid out in
    /// Melee order (each root's structs and pixels form a band of their own), 0 in XD order.
    list: Vec<(usize, Phase, u32)>,
    section: usize,
    seen: FastSet<u32>,
    pixels: Vec<u32>,
    palettes: Vec<u32>,
    /// Pixel blocks placed as the head of a texture group in the current section (Melee).
    heads: FastSet<u32>,
    max: usize,
    /// Every list and tree node walked so far.
    walked: std::cell::RefCell<FastSet<u32>>,
}

impl<'a, 'b> Emit<'a, 'b> {
    /// An empty emit list over `a`, its walks bounded by the archive's element limit.
    fn new(a: &'b Archive<'a>) -> Self {
        Emit {
            a,
            list: Vec::new(),
            section: 0,
            seen: FastSet::default(),
            pixels: Vec::new(),
            palettes: Vec::new(),
            heads: FastSet::default(),
            walked: Default::default(),
            max: usize::try_from(a.limits().max_elements.min(1 << 20)).unwrap_or(1 << 20),
        }
    }

    fn push(&mut self, phase: Phase, off: Option<u32>) {
        if let Some(o) = off
            && self.seen.insert(o)
        {
            self.list.push((self.section, phase, o));
        }
    }

    /// A joint's meshes: its DObj list forward, each with its PObj list forward (empty when the
    /// joint's data is a spline or particles).
    fn joint_meshes(&self, j: &Joint) -> Vec<Mesh> {
        if j.data_kind() != JointData::DObj {
            return Vec::new();
        }
        self.chain::<DObj>(j.data, |d| d.next)
            .into_iter()
            .map(|(o, d)| (o, d, self.chain::<PObj>(d.pobj, |p| p.next)))
            .collect()
    }

    /// A joint's skeleton payload, the part both compilers write alike: its RObj chain (each
    /// IK hint before its RObj), then its spline (points, then the spline) or its particle
    /// lists. Mesh data (DObjs) has phases of its own. The callers place the name, the inverse
    /// bind matrix and the joint around it, where their orders differ.
    fn joint_payload(&mut self, j: &Joint) {
        let p = Phase::Skeleton;
        for (r, robj) in self.chain::<RObj>(j.robj, |r| r.next) {
            if let crate::field::Word::Ptr(h) = robj.value
                && robj.flags.robj_type() == 4
            {
                self.push(p, Some(h));
            }
            self.push(p, Some(r));
        }
        match j.data_kind() {
            JointData::Spline => {
                if let Some(Ok(s)) = j.data.map(|d| self.a.read::<Spline>(d)) {
                    self.push(p, s.points);
                }
                self.push(p, j.data);
            }
            JointData::Particles => {
                for (l, _) in self.chain::<ParticleList>(j.data, |l| l.next) {
                    self.push(p, Some(l));
                }
            }
            JointData::DObj => {}
        }
    }

    /// A linked list (bounded; stops at an unreadable link or a node any walk already met, so
    /// a hostile file sharing one list between many owners costs no more than the list).
    fn chain<T: Struct<u32>>(
        &self,
        first: Option<u32>,
        next: fn(&T) -> Option<u32>,
    ) -> Vec<(u32, T)> {
        let mut met = self.walked.borrow_mut();
        let mut out: Vec<(u32, T)> = Vec::new();
        let mut cur = first;
        while let Some(o) = cur {
            if out.len() >= self.max || !met.insert(o) {
                break;
            }
            let Ok(v) = self.a.read::<T>(o) else { break };
            cur = next(&v);
            out.push((o, v));
        }
        out
    }

    /// A child/next tree in pre-order (bounded, each node once over all walks).
    fn tree<T: Struct<u32>>(&self, root: u32, links: fn(&T) -> [Option<u32>; 2]) -> Vec<(u32, T)> {
        let mut out = Vec::new();
        let mut seen = self.walked.borrow_mut();
        let mut stack = vec![root];
        while let Some(o) = stack.pop() {
            if out.len() >= self.max || !seen.insert(o) {
                continue;
            }
            let Ok(v) = self.a.read::<T>(o) else { continue };
            let [child, next] = links(&v);
            stack.extend(next);
            stack.extend(child);
            out.push((o, v));
        }
        out
    }

    /// The entries of a NULL-terminated pointer array.
    fn array(&self, at: Option<u32>) -> Vec<u32> {
        let mut v = Vec::new();
        if let Some(t) = at {
            for i in 0..self.max {
                let slot = u32::try_from(i).ok().and_then(|i| t.checked_add(4 * i));
                match slot.map(|s| self.a.pointer(s)) {
                    Some(Ok(Some(p))) => v.push(p),
                    _ => break,
                }
            }
        }
        v
    }

    fn image(&mut self, phase: Phase, off: Option<u32>) {
        if let Some(o) = off
            && !self.seen.contains(&o)
        {
            self.push(phase, Some(o));
            if let Ok(Some(d)) = self.a.read::<Image>(o).map(|i| i.data) {
                self.pixels.push(d);
            }
        }
    }

    /// An AObj's keyframe buffers, then its FObjs, then the AObj.
    fn aobj(&mut self, off: Option<u32>) {
        let Some(Ok(aobj)) = off.map(|o| self.a.read::<AObj>(o)) else {
            return;
        };
        let fobjs = self.chain::<FObj>(aobj.fobj, |f| f.next);
        for (_, f) in &fobjs {
            self.push(Phase::Animation, f.data);
        }
        for (o, _) in &fobjs {
            self.push(Phase::Animation, Some(*o));
        }
        self.push(Phase::Animation, off);
    }

    fn mobj(&mut self, off: u32) {
        let Ok(m) = self.a.read::<MObj>(off) else {
            return;
        };
        let p = Phase::Materials;
        self.push(p, m.class_name);
        self.push(p, m.pe);
        let tobjs = self.chain::<TObj>(m.tobj, |t| t.next);
        for (o, t) in tobjs.iter().rev() {
            self.push(p, t.class_name);
            self.image(p, t.image);
            self.palettes.extend(t.palette);
            self.push(p, t.lod);
            self.push(p, t.tev);
            self.push(p, Some(*o));
        }
        self.push(p, m.material);
        self.push(p, Some(off));
    }

    fn anim_joint_tree(&mut self, root: u32) {
        let nodes = self.tree::<AnimJoint>(root, |j| [j.child, j.next]);
        for (_, j) in &nodes {
            self.aobj(j.aobj);
            for (o, r) in self.chain::<RObjAnimJoint>(j.robj_anim, |r| r.next) {
                self.aobj(r.aobj);
                self.push(Phase::Animation, Some(o));
            }
        }
        for (o, _) in &nodes {
            self.push(Phase::Animation, Some(*o));
        }
    }

    fn texanim_data(&mut self, ta: &TexAnim) {
        self.aobj(ta.aobj);
        if let Some(tbl) = ta.image_table {
            for i in 0..u32::from(ta.n_images) {
                if let Ok(img) = self.a.pointer(tbl.wrapping_add(4 * i)) {
                    self.image(Phase::Animation, img);
                }
            }
        }
        self.push(Phase::Animation, ta.image_table);
        if let Some(tbl) = ta.palette_table {
            for i in 0..u32::from(ta.n_palettes) {
                if let Ok(Some(p)) = self.a.pointer(tbl.wrapping_add(4 * i)) {
                    self.palettes.push(p);
                }
            }
        }
        self.push(Phase::Animation, ta.palette_table);
    }

    fn texanims(&mut self, first: u32) {
        let tas = self.chain::<TexAnim>(Some(first), |t| t.next);
        for (_, t) in &tas {
            self.texanim_data(t);
        }
        for (o, _) in tas {
            self.push(Phase::Animation, Some(o));
        }
    }

    fn matanim_joint_tree(&mut self, root: u32) {
        let nodes = self.tree::<MatAnimJoint>(root, |j| [j.child, j.next]);
        let per: Vec<JointMatAnims> = nodes
            .iter()
            .map(|(_, j)| {
                let mas = self.chain::<MatAnim>(j.matanim, |m| m.next);
                let tas = mas
                    .iter()
                    .rev()
                    .flat_map(|(_, m)| self.chain::<TexAnim>(m.texanim, |t| t.next))
                    .collect();
                (mas, tas)
            })
            .collect();
        for (mas, tas) in &per {
            for (_, t) in tas {
                self.texanim_data(t);
            }
            for (_, m) in mas {
                self.aobj(m.aobj);
                self.push(Phase::Animation, m.render_anim);
            }
        }
        for (_, tas) in &per {
            for (o, _) in tas {
                self.push(Phase::Animation, Some(*o));
            }
        }
        for (mas, _) in &per {
            for (o, _) in mas {
                self.push(Phase::Animation, Some(*o));
            }
        }
        for (o, _) in &nodes {
            self.push(Phase::Animation, Some(*o));
        }
    }

    fn model_set_anims(&mut self, off: u32) {
        let Ok(m) = self.a.read::<ModelSet>(off) else {
            return;
        };
        for t in self.array(m.anims) {
            self.anim_joint_tree(t);
        }
        self.push(Phase::Animation, m.anims);
        for t in self.array(m.matanims) {
            self.matanim_joint_tree(t);
        }
        self.push(Phase::Animation, m.matanims);
    }

    /// The scene tail (docs/HSD-ORDER.md) of one `scene_data`: the leaves first —
    /// each light's WObjs (position, interest), parameter struct and Light, in reverse LightSet
    /// order, then the camera's WObjs (eye, interest, up) and Camera — then the containers:
    /// ModelSets forward, the CameraSet, the LightSets in reverse order; SceneData last. Where
    /// the two pointer arrays go is not observed; they are put right before SceneData
    /// (models, then lights), so SceneData stays last as observed. EXT: the StarsMmd
    /// exporter, tuned against game-native PKX, also writes a node's pointer tables directly
    /// before its struct. The hand-written corpus `homebrew-min.dat` puts them after SceneData
    /// and so rebuilds at 95.24 % (tests/corpus.rs).
    fn scene(&mut self, root: u32) {
        let Ok(sd) = self.a.read::<SceneData>(root) else {
            return;
        };
        let p = Phase::Scene;
        let models = self.array(sd.models);
        let sets = self.array(sd.lights);
        for &set in sets.iter().rev() {
            if let Ok(Some(l)) = self.a.read::<LightSet>(set).map(|s| s.desc)
                && let Ok(light) = self.a.read::<Light>(l)
            {
                for x in [light.position, light.interest, light.param] {
                    self.push(p, x);
                }
                self.push(p, Some(l));
            }
        }
        let camera = sd.camera.and_then(|c| self.a.read::<CameraSet>(c).ok());
        if let Some(c) = camera.and_then(|c| c.desc)
            && let Ok(cam) = self.a.read::<Camera>(c)
        {
            for x in [cam.eye, cam.interest, cam.up] {
                self.push(p, x);
            }
            self.push(p, Some(c));
        }
        for m in models {
            self.push(p, Some(m));
        }
        self.push(p, sd.camera);
        for &s in sets.iter().rev() {
            self.push(p, Some(s));
        }
        self.push(p, sd.models);
        self.push(p, sd.lights);
        self.push(p, Some(root));
    }
}

/// Joint indices of `g` in post-order: children before their parent, siblings forward.
fn joint_post_order(g: &Graph) -> Vec<usize> {
    let n = g.joints.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut tops = Vec::new();
    for (i, j) in g.joints.iter().enumerate() {
        match j.parent.and_then(|p| children.get_mut(p)) {
            Some(c) => c.push(i),
            None => tops.push(i),
        }
    }
    let mut out = Vec::with_capacity(n);
    let mut stack: Vec<(usize, bool)> = tops.iter().rev().map(|&i| (i, false)).collect();
    while let Some((i, done)) = stack.pop() {
        if done {
            out.push(i);
            continue;
        }
        stack.push((i, true));
        if let Some(c) = children.get(i) {
            stack.extend(c.iter().rev().map(|&c| (c, false)));
        }
    }
    out
}

/// A DObj (offset, struct) with its PObj chain, both forward.
type Mesh = (u32, DObj, Vec<(u32, PObj)>);

/// One MatAnimJoint's MatAnims and its texture animations in emit order.
type JointMatAnims = (Vec<(u32, MatAnim)>, Vec<(u32, TexAnim)>);

/// See [`Emit`].
fn emit_order(a: &Archive<'_>, g: &Graph) -> Vec<(usize, Phase, u32)> {
    let mut e = Emit::new(a);
    let post = joint_post_order(g);
    let joints: Vec<(u32, Joint)> = post
        .iter()
        .filter_map(|&i| g.joints.get(i))
        .map(|j| (j.offset, j.joint))
        .collect();
    // Each joint's DObjs and their PObjs, in joint post-order.
    let meshes: Vec<Vec<Mesh>> = joints.iter().map(|(_, j)| e.joint_meshes(j)).collect();
    let mut mobjs: Vec<u32> = Vec::new();
    let mut seen = FastSet::default();
    for (_, d, _) in meshes.iter().flatten() {
        if let Some(m) = d.mobj
            && seen.insert(m)
        {
            mobjs.push(m);
        }
    }
    for &m in mobjs.iter().rev() {
        e.mobj(m);
    }
    let pobjs_rev: Vec<(u32, PObj)> = meshes
        .iter()
        .flatten()
        .flat_map(|(_, _, ps)| ps.iter().copied())
        .rev()
        .collect();
    for (_, p) in &pobjs_rev {
        if p.flags.kind() == PObjKind::Envelope {
            for arr in e.array(p.link) {
                e.push(Phase::Envelopes, Some(arr));
            }
            e.push(Phase::Envelopes, p.link);
        }
    }
    for (_, p) in &pobjs_rev {
        e.push(Phase::VertexDescriptors, p.vtx_desc);
    }
    for (o, d, ps) in meshes.iter().flatten() {
        for (po, p) in ps {
            e.push(Phase::Geometry, p.class_name);
            if p.flags.kind() == PObjKind::ShapeAnim {
                e.push(Phase::Geometry, p.link);
            }
            e.push(Phase::Geometry, Some(*po));
        }
        e.push(Phase::Geometry, d.class_name);
        e.push(Phase::Geometry, Some(*o));
    }
    for (o, j) in &joints {
        let p = Phase::Skeleton;
        e.push(p, j.class_name);
        e.push(p, j.inverse_bind);
        e.joint_payload(j);
        e.push(p, Some(*o));
    }
    let scenes: Vec<u32> = a
        .roots()
        .filter(|r| r.kind() == RootKind::SceneData)
        .map(|r| r.offset)
        .collect();
    let mut model_sets: Vec<u32> = scenes
        .iter()
        .flat_map(|&s| e.array(a.read::<SceneData>(s).ok().and_then(|sd| sd.models)))
        .collect();
    model_sets.extend(
        a.roots()
            .filter(|r| r.kind() == RootKind::ModelSet)
            .map(|r| r.offset),
    );
    for m in model_sets {
        e.model_set_anims(m);
    }
    for r in a.roots() {
        match r.kind() {
            RootKind::AnimJoint => e.anim_joint_tree(r.offset),
            RootKind::MatAnimJoint => e.matanim_joint_tree(r.offset),
            RootKind::TexAnim => e.texanims(r.offset),
            _ => {}
        }
    }
    // Raw buffers, from the structs placed so far.
    let descs: Vec<u32> = e
        .list
        .iter()
        .filter(|x| x.1 == Phase::VertexDescriptors)
        .map(|x| x.2)
        .collect();
    for d in descs {
        if let Ok((_, attrs)) = a.vertex_desc(d) {
            for (v, _) in attrs {
                e.push(Phase::VertexBuffers, v.array);
            }
        }
    }
    for (_, _, ps) in meshes.iter().flatten() {
        for (_, p) in ps {
            e.push(Phase::DisplayLists, p.display_list);
        }
    }
    for d in std::mem::take(&mut e.pixels) {
        e.push(Phase::ImagePixels, Some(d));
    }
    for p in std::mem::take(&mut e.palettes) {
        if !e.seen.contains(&p) {
            let lut = a.read::<Palette>(p).ok().and_then(|x| x.data);
            e.push(Phase::Palettes, lut);
            e.push(Phase::Palettes, Some(p));
        }
    }
    for s in scenes {
        e.scene(s);
    }
    for r in a.roots().filter(|r| r.kind() == RootKind::BoundBox) {
        e.push(Phase::BoundBox, Some(r.offset));
    }
    e.list
}

/// Blocks that move as one: a block and every block that starts inside the bytes its typed
/// nodes span (`phases_of`'s sizes), transitively. The parse starts a block at every pointer
/// target, so a struct another pointer leads into is split: a keyframe stream a second FObj
/// reads from its middle (at any byte offset), a buffer read by two users of different
/// lengths. Laid out apart, or with alignment padding between them, the first reader would
/// read other data; kept together at their original distances, every reader reads the bytes
/// it read before. Grouping follows the bytes alone, so a compiled run, contiguous and at the
/// same distances, forms the same run again.
///
/// A run whose nodes reach past the data end (an archive already broken there) is kept last,
/// where it reaches as far past the end as before rather than into the blocks a new layout
/// would put after it, and the data section is not padded after it (padding could end the
/// overreach, and the next compile would place the run elsewhere).
struct Runs {
    /// Per block: its run's first block.
    head: Vec<usize>,
    /// Per block: its distance from its run's start.
    shift: Vec<u32>,
    /// Per run head: the bytes its run's nodes span from the run's start.
    size: Vec<u32>,
    /// Per run head: its run's last block.
    last: Vec<usize>,
    /// The run kept last.
    open_end: Option<usize>,
}

impl Runs {
    fn new(dat: &Dat, inferred: &[(Option<Phase>, u32)]) -> Result<Runs> {
        let (starts, end) = dat.layout()?;
        let n = dat.blocks.len();
        let mut runs = Runs {
            head: (0..n).collect(),
            shift: vec![0; n],
            size: inferred.iter().map(|x| x.1).collect(),
            last: (0..n).collect(),
            open_end: None,
        };
        runs.size.resize(n, 0);
        let (mut cur, mut reach) = (0usize, 0u64);
        for (i, &s) in starts.iter().enumerate() {
            let own = u64::from(s) + u64::from(inferred.get(i).map_or(0, |x| x.1));
            let base = starts.get(cur).copied().unwrap_or(0);
            if i > 0 && u64::from(s) < reach {
                if let (Some(h), Some(d), Some(l)) = (
                    runs.head.get_mut(i),
                    runs.shift.get_mut(i),
                    runs.last.get_mut(cur),
                ) {
                    (*h, *d, *l) = (cur, s - base, i);
                }
            } else {
                (cur, reach) = (i, 0);
            }
            reach = reach.max(own);
            let base = starts.get(cur).copied().unwrap_or(0);
            if let Some(z) = runs.size.get_mut(cur) {
                *z = u32::try_from(reach - u64::from(base)).unwrap_or(u32::MAX);
            }
        }
        if n > 0 && reach > u64::from(end) {
            runs.open_end = Some(cur);
        }
        Ok(runs)
    }

    /// The first block of `i`'s run.
    fn head(&self, i: usize) -> usize {
        self.head.get(i).copied().unwrap_or(i)
    }

    /// Block `i`'s distance from the start of its run.
    fn shift(&self, i: usize) -> u32 {
        self.shift.get(i).copied().unwrap_or(0)
    }

    /// The bytes the nodes of the run starting at `i` span.
    fn size(&self, i: usize) -> u32 {
        self.size.get(i).copied().unwrap_or(0)
    }

    /// The blocks of the run starting at `i`.
    fn blocks(&self, i: usize) -> std::ops::RangeInclusive<usize> {
        i..=self.last.get(i).copied().unwrap_or(i)
    }

    /// Whether block `i` is part of a run of more than one block (kept out of content dedup:
    /// merging one of them would move the bytes another reader reads).
    fn joined(&self, i: usize) -> bool {
        let h = self.head(i);
        h != i || self.last.get(h) != Some(&h)
    }

    /// The bytes and pointer slots of the run starting at `i`: its blocks back to back (every
    /// block holds the padding up to the next), slots moved by each block's distance.
    fn joined_bytes(&self, dat: &Dat, i: usize) -> (Vec<u8>, Vec<crate::model::Pointer>) {
        let mut bytes = Vec::new();
        let mut pointers = Vec::new();
        for j in self.blocks(i) {
            let Some(b) = dat.blocks.get(j) else { continue };
            let d = self.shift(j);
            pointers.extend(b.pointers.iter().map(|q| crate::model::Pointer {
                at: q.at.saturating_add(d),
                target: q.target,
            }));
            bytes.extend_from_slice(&b.bytes);
        }
        (bytes, pointers)
    }
}

/// Whether a pointer, a root or an extern slot of `dat` is at `loc` (what makes a parse start a
/// block there).
fn starts_at(dat: &Dat, loc: Loc) -> bool {
    let at = Target::In(loc);
    dat.blocks
        .iter()
        .flat_map(|b| &b.pointers)
        .any(|p| p.target == at)
        || dat.roots.iter().any(|r| r.target == at)
        || dat.externs.iter().any(|e| e.chain.contains(&loc))
}

/// Model-level checks before writing: the part-1 validator on the laid-out bytes, which covers
/// what a fresh build can get wrong (palette slots per PObj HSD-008, envelope joints without an
/// IBM HSD-010, mesh owners without render-pass flags HSD-018).
pub fn check(dat: &Dat) -> Result<Vec<Diagnostic>> {
    let bytes = dat.write()?;
    Ok(crate::validate_view(&crate::parse(&bytes)?))
}

/// Lays `dat` out afresh in compiler order (see the module doc). The result writes a valid
/// archive that re-parses to the same pointer graph (up to merged duplicates); every compile
/// checks its result ([`verify`]) and refuses, with an error, a layout that would not read
/// back as well as the model did.
pub fn compile(dat: &Dat) -> Result<Dat> {
    compile_as(dat, None)
}

/// The check every `compile*` runs on its result: `compiled` must write an archive that is
/// recognised as one ([`crate::sniff`]), parses, and has, rule by rule, no more validator errors
/// than `input` (a rebuild may not break what the input had right; findings the input already
/// had may stay). An `Err` names the first rule that got worse, or the parse failure; the
/// caller writes nothing. Cheap when the layout did not change (the same bytes pass).
pub fn verify(input: &Dat, compiled: &Dat) -> Result<()> {
    verify_with(input, compiled, &Limits::default())
}

/// [`verify`] with the caller's limits bounding both parses and the graph walks.
pub fn verify_with(input: &Dat, compiled: &Dat, limits: &Limits) -> Result<()> {
    verify_bytes(&input.write()?, compiled, limits)
}

/// [`verify_with`] on the input's written bytes.
fn verify_bytes(input: &[u8], compiled: &Dat, limits: &Limits) -> Result<()> {
    let out = compiled.write()?;
    if out == input {
        return Ok(());
    }
    let refuse = |why: String| {
        gcio::Error::message(format!(
            "compile refused: the laid-out archive {why} (the input does not)"
        ))
    };
    if !crate::sniff(&out) {
        return Err(refuse("is not recognised as an archive".into()));
    }
    let a = crate::parse_with(&out, limits).map_err(|e| refuse(format!("does not parse: {e}")))?;
    Dat::parse_with(&out, limits).map_err(|e| refuse(format!("does not parse: {e}")))?;
    // Errors per rule, and the first message of each.
    let errors = |d: Vec<Diagnostic>| {
        let mut m: HashMap<String, (usize, String)> = HashMap::new();
        for x in d
            .into_iter()
            .filter(|x| x.severity == gcio::Severity::Error)
        {
            let at = x.offset.map_or(String::new(), |o| format!(" at {o:#x}"));
            let e = m
                .entry(x.rule.clone())
                .or_insert((0, format!("{}{at}", x.message)));
            e.0 += 1;
        }
        m
    };
    let before = errors(crate::validate_with(input, limits));
    let mut after: Vec<(String, (usize, String))> =
        errors(crate::validate_view(&a)).into_iter().collect();
    after.sort();
    for (rule, (n, first)) in after {
        let had = before.get(&rule).map_or(0, |x| x.0);
        if n > had {
            return Err(refuse(format!(
                "has {n} {rule} error(s) where the input has {had}, first: {first}"
            )));
        }
    }
    Ok(())
}

/// How [`detect`] recognised an archive's compiler order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Detection {
    /// The archive is that compiler's output: compiling it in this order gives it back byte for
    /// byte and compiling it in the other order does not. Every archive `compile_as(_,
    /// Some(order))` writes is recognised as `Compiled(order)` or as [`Detection::Either`].
    Compiled(Order),
    /// Both orders give the archive back byte for byte: its layout has nothing the two
    /// compilers place differently (no meshes, one joint, no animation bands, …), so there is
    /// nothing to tell and nothing that depends on it — `compile` returns it unchanged either
    /// way.
    Either,
    /// Not the output of either compiler (a retail file, a builder's or an editor's layout):
    /// the layout signals of [`Order::signal`] name this order.
    Resembles(Order),
    /// Neither compiler's output and no layout signal (no textured mesh and no joint with a
    /// child): undecided. `compile` then uses Colosseum/XD's order.
    Undecided,
}

impl Detection {
    /// The order `compile` uses: the detected one, Colosseum/XD when undecided (for
    /// [`Detection::Either`] both give the same bytes).
    pub fn order(self) -> Order {
        match self {
            Detection::Compiled(o) | Detection::Resembles(o) => o,
            Detection::Either | Detection::Undecided => Order::ColosseumXd,
        }
    }
}

/// The compiler order of `dat`'s layout (see [`Detection`]). Exact for archives `compile`
/// wrote: it compiles `dat` in both orders (Melee's with the texture list `dat` records,
/// [`textures`]) and compares, so it costs two compiles; only when
/// neither reproduces the archive does it fall back on the layout signals of [`Order::signal`].
pub fn detect(dat: &Dat) -> Result<Detection> {
    detect_with(dat, &Limits::default())
}

/// [`detect`] with the caller's limits bounding the re-parse and the typing layout.
pub fn detect_with(dat: &Dat, limits: &Limits) -> Result<Detection> {
    let p = Prepared::new(dat, limits)?;
    let t = p.typed()?;
    let same = |o| {
        compile_typed(&p, &t, o, Textures::Recorded)?
            .write()
            .map(|w| w == p.bytes)
    };
    Ok(match (same(Order::ColosseumXd)?, same(Order::Melee)?) {
        (true, true) => Detection::Either,
        (true, false) => Detection::Compiled(Order::ColosseumXd),
        (false, true) => Detection::Compiled(Order::Melee),
        (false, false) => {
            Order::signal_of(&t.graph).map_or(Detection::Undecided, Detection::Resembles)
        }
    })
}

/// [`compile`] in a chosen compiler's order; `None` detects it from the model's layout
/// ([`detect`]: an archive compiled in an order is recompiled in that order, so `compile` of a
/// compiled archive returns it unchanged). Melee's texture list is the one `dat` records
/// ([`textures`]); [`compile_listed`] takes another.
pub fn compile_as(dat: &Dat, order: Option<Order>) -> Result<Dat> {
    compile_as_with(dat, order, &Limits::default())
}

/// [`compile_as`] with the caller's limits bounding the re-parse of the written model and the
/// typing layout (one padded copy of every block) the compile builds.
pub fn compile_as_with(dat: &Dat, order: Option<Order>, limits: &Limits) -> Result<Dat> {
    let p = Prepared::new(dat, limits)?;
    let t = p.typed()?;
    let c = choose(&p, &t, order)?;
    verify_bytes(&p.bytes, &c, limits)?;
    Ok(c)
}

/// [`compile_as_with`]'s layout, before [`verify`].
fn choose(p: &Prepared, t: &Typed<'_>, order: Option<Order>) -> Result<Dat> {
    if let Some(o) = order {
        return compile_typed(p, t, o, Textures::Recorded);
    }
    // `detect(dat).order()`'s choice without compiling twice when the first order tried gives `dat`
    // back: the layout signal's order first, then the other one. Both compiles share the
    // parse and the typed graph.
    let first = Order::signal_of(&t.graph).unwrap_or(Order::ColosseumXd);
    let c = compile_typed(p, t, first, Textures::Recorded)?;
    if c.write()? == p.bytes {
        return Ok(c);
    }
    let other = match first {
        Order::Melee => Order::ColosseumXd,
        Order::ColosseumXd => Order::Melee,
    };
    let d = compile_typed(p, t, other, Textures::Recorded)?;
    Ok(if d.write()? == p.bytes { d } else { c })
}

/// HAL's texture list: the order in which the authoring tool held a model's textures, an input
/// of Melee's compiler that the graph does not record. Melee's compiler writes each band's
/// pixel data in this order (each image's pixels followed by the palettes placed with them);
/// `TyDaisy.dat`'s 13 pixel blocks follow no walk of its graph (docs/HSD-ORDER.md).
///
/// The entries are block indices of the [`Dat`] being compiled, naming its pixel-data blocks;
/// entries that name no pixel block are ignored. Pixel blocks the list does not name go after
/// the listed ones, in forward first-use order, so the empty list (the default, what a new
/// graph gets from [`compile_listed`]) lays every texture out in first-use order and a model
/// edited to add textures lays them out deterministically after the ones it had. A parsed
/// archive records its list as the order of its pixel blocks ([`textures`]), which
/// [`compile`] and [`compile_as`] use. Colosseum/XD's compiler writes pixels in the order of
/// their Image structs and takes no list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TextureList(pub Vec<usize>);

/// Where [`compile_typed`] takes the texture list from.
#[derive(Clone, Copy)]
enum Textures<'a> {
    /// The model's own: its pixel blocks in file order ([`textures`]).
    Recorded,
    /// A caller's list, as the rank of each listed block's offset in the typed layout.
    Given(&'a FastMap<u32, usize>),
}

/// The model as every compile of it starts: the blocks a parse of its written bytes has (a
/// block nothing points at — no pointer, root or extern slot — is no block of its own once
/// written: the parse joins it to the block before it, which is what the next compile of the
/// output starts from), those bytes, and the layout the graph is typed on (`typing_layout`).
/// Built once per call, shared by the compiles `compile_as` and `detect` make.
struct Prepared {
    limits: Limits,
    dat: Dat,
    bytes: Vec<u8>,
    typing: Vec<u8>,
    offsets: Vec<u32>,
}

/// The typed graph of a [`Prepared`] model and each block's own phase and size (`phases_of`).
struct Typed<'a> {
    archive: Archive<'a>,
    graph: Graph,
    inferred: Vec<(Option<Phase>, u32)>,
}

impl Prepared {
    fn new(dat: &Dat, limits: &Limits) -> Result<Prepared> {
        let bytes = dat.write()?;
        let dat = Dat::parse_with(&bytes, limits)?;
        let (typing, offsets) = typing_layout(&dat, limits)?;
        Ok(Prepared {
            limits: *limits,
            dat,
            bytes,
            typing,
            offsets,
        })
    }

    fn typed(&self) -> Result<Typed<'_>> {
        let archive =
            crate::parse_with(&self.typing, &self.limits)?.reading_relocated_scalars_as_zero();
        let graph = archive.graph();
        let inferred = phases_of(&graph, &self.offsets);
        Ok(Typed {
            archive,
            graph,
            inferred,
        })
    }
}

/// The texture list `dat` records: its pixel-data blocks (the blocks the typed graph reads as
/// image pixels) in file order. [`compile`] lays a parsed archive out with it, so a retail file
/// keeps its texture order and a compiled file comes back unchanged.
pub fn textures(dat: &Dat) -> Result<TextureList> {
    textures_with(dat, &Limits::default())
}

/// [`textures`] with the caller's limits bounding the re-parse and the typing layout.
pub fn textures_with(dat: &Dat, limits: &Limits) -> Result<TextureList> {
    let (before, _) = dat.layout()?;
    let p = Prepared::new(dat, limits)?;
    let t = p.typed()?;
    let (after, _) = p.dat.layout()?;
    Ok(TextureList(
        t.inferred
            .iter()
            .zip(&after)
            .filter(|(p, _)| p.0 == Some(Phase::ImagePixels))
            .filter_map(|(_, o)| before.binary_search(o).ok())
            .collect(),
    ))
}

/// [`compile`] in `order` with the caller's texture list (ignored in Colosseum/XD order):
/// `TextureList::default()` lays the textures out in forward first-use order.
pub fn compile_listed(dat: &Dat, order: Order, textures: &TextureList) -> Result<Dat> {
    compile_listed_with(dat, order, textures, &Limits::default())
}

/// [`compile_listed`] with the caller's limits bounding the re-parse and the typing layout.
pub fn compile_listed_with(
    dat: &Dat,
    order: Order,
    textures: &TextureList,
    limits: &Limits,
) -> Result<Dat> {
    let p = Prepared::new(dat, limits)?;
    let t = p.typed()?;
    // The caller's block indices, through the written offsets, to the parse's blocks and
    // their offsets in the typed layout.
    let (before, _) = dat.layout()?;
    let (after, _) = p.dat.layout()?;
    let mut rank = FastMap::default();
    for (r, &b) in textures.0.iter().enumerate() {
        if let Some(o) = before.get(b)
            && let Ok(i) = after.binary_search(o)
            && let Some(&at) = p.offsets.get(i)
        {
            rank.entry(at).or_insert(r);
        }
    }
    let c = compile_typed(&p, &t, order, Textures::Given(&rank))?;
    verify_bytes(&p.bytes, &c, limits)?;
    Ok(c)
}

/// Lays the prepared model out in `order_kind`, Melee's pixel bands by `textures`.
fn compile_typed(
    p: &Prepared,
    t: &Typed<'_>,
    order_kind: Order,
    textures: Textures<'_>,
) -> Result<Dat> {
    let dat = &p.dat;
    let offsets = &p.offsets;
    let inferred = &t.inferred;
    let xd = order_kind == Order::ColosseumXd;
    let emitted = if xd {
        emit_order(&t.archive, &t.graph)
    } else {
        let pixels: Vec<u32> = inferred
            .iter()
            .zip(offsets)
            .filter(|(p, _)| p.0 == Some(Phase::ImagePixels))
            .map(|(_, &o)| o)
            .collect();
        let rank = match textures {
            Textures::Recorded => pixels.iter().enumerate().map(|(r, &o)| (o, r)).collect(),
            Textures::Given(rank) => rank.clone(),
        };
        let ranks = melee::TextureRanks {
            rank,
            typed: pixels.into_iter().collect(),
        };
        melee::emit_order(&t.archive, &t.graph, &ranks)
    };
    // After that join only the first block can be one nothing points at (the data start is
    // always a boundary). It stays first, the one place where it is still a block of its own
    // when the output is parsed again, and is never merged away as a duplicate (nothing would
    // be redirected to the survivor).
    let lead = !starts_at(dat, Loc::start(0));
    // Every block's phase: the one it is emitted in, else its typed node's, else (unknown
    // structs, strings, pointer arrays) the previous block's. Inheriting from the phases the
    // blocks end up in, not from their typed nodes, keeps it stable: compiled, an inheriting
    // block sits right after the last block of the phase it took, so it takes it again.
    let n = dat.blocks.len();
    let mut own: Vec<Option<Phase>> = inferred.iter().map(|x| x.0).collect();
    let mut pos: Vec<usize> = vec![usize::MAX; n];
    let mut section: Vec<Option<usize>> = vec![None; n];
    for (at, &(sec, p, off)) in emitted.iter().enumerate() {
        if let Ok(i) = offsets.binary_search(&off)
            && let (Some(o), Some(x), Some(s)) =
                (own.get_mut(i), pos.get_mut(i), section.get_mut(i))
            && *x == usize::MAX
        {
            (*o, *x, *s) = (Some(p), at, Some(sec));
        }
    }
    // A run's later blocks go where its first block goes: they take its phase and section
    // (they follow it in model order), and a block after the run inherits from the run.
    let runs = Runs::new(dat, inferred)?;
    for (i, (o, s)) in own.iter_mut().zip(&mut section).enumerate() {
        if runs.head(i) != i {
            (*o, *s) = (None, None);
        }
    }
    let section = inherit(section, 0);
    let phases: Vec<(Phase, u32)> = inherit(own, Phase::Materials)
        .into_iter()
        .zip(inferred)
        .map(|(p, &(_, size))| (p, size))
        .collect();
    // Every block's sort key: the lead block, then per phase the blocks the graph places in
    // emit order and the rest (unknown structs) in model order.
    let key: Vec<(bool, usize, Phase, usize, usize)> = phases
        .iter()
        .zip(&pos)
        .zip(&section)
        .enumerate()
        .map(|(i, ((&(p, _), &at), &sec))| match at {
            usize::MAX => (!(lead && i == 0), sec, p, 1, i),
            at => (!(lead && i == 0), sec, p, 0, at),
        })
        .collect();
    // Runs move as one, at their first block's place; a run reaching past the data end stays
    // last (see `Runs`).
    let mut order: Vec<usize> = (0..n).filter(|&i| runs.head(i) == i).collect();
    order.sort_by_key(|&i| {
        let k = key.get(i).copied();
        (k.map(|k| k.0), runs.open_end == Some(i), k)
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
            _ if lead && i == 0 || !xd || runs.joined(i) => false,
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
    // A place in block `l.block`: in its run's first block (or that block's duplicate), at
    // the same distance from the run's start.
    let remap_loc = |l: Loc| {
        let h = runs.head(l.block);
        let s = survivor.get(h).copied().unwrap_or(h);
        Loc {
            block: new_index.get(s).copied().unwrap_or(0),
            offset: l.offset.saturating_add(runs.shift(l.block)),
        }
    };
    let remap = |t: Target| match t {
        Target::In(l) => Target::In(remap_loc(l)),
        other => other,
    };
    let mut blocks = Vec::with_capacity(kept.len());
    for &i in &kept {
        let Some(&(p, _)) = phases.get(i) else {
            continue;
        };
        let size = runs.size(i);
        let (mut bytes, pointers) = runs.joined_bytes(dat, i);
        // Drop the old layout's trailing padding (zeros past the struct); alignment recreates it.
        // A pointer slot past the struct is data, not padding, even when the offset it holds
        // is 0 (a pointer to the data start).
        let end = (size as usize).next_multiple_of(4);
        if size > 0
            && end < bytes.len()
            && bytes.get(end..).is_some_and(|t| t.iter().all(|&x| x == 0))
            && pointers.iter().all(|q| q.at as usize + 4 <= end)
        {
            bytes.truncate(end);
        }
        // GX payloads are 32-aligned; a palette struct (it has a pointer) only 4-aligned in
        // Colosseum/XD order, 32 in Melee's (all 229 of the Melee and Chibi-Robo palettes we
        // read, a 132-entry LUT's among them, start on 32 bytes). In Melee order a display list
        // sits in the geometry band and a palette in the pixel band: the typed node's own
        // phase decides.
        // A run takes the largest alignment of its blocks.
        let align = runs
            .blocks(i)
            .map(|j| {
                let p = match inferred.get(j) {
                    Some(&(Some(natural), _)) if !xd => natural,
                    _ if !xd => Phase::Materials,
                    _ => phases.get(j).map_or(p, |x| x.0),
                };
                match p {
                    Phase::Palettes
                        if xd && dat.blocks.get(j).is_some_and(|b| !b.pointers.is_empty()) =>
                    {
                        4
                    }
                    p => p.align(),
                }
            })
            .max()
            .unwrap_or(4);
        let mut nb = Block::new(bytes, align);
        nb.pointers = pointers
            .iter()
            .map(|q| crate::model::Pointer {
                at: q.at,
                target: remap(q.target),
            })
            .collect();
        blocks.push(nb);
    }
    // Every field but the blocks and relocations (the blocks are new, cloning them is waste).
    let mut out = Dat {
        version: dat.version,
        header_pad: dat.header_pad,
        blocks,
        relocations: Vec::new(),
        roots: dat.roots.clone(),
        externs: dat.externs.clone(),
        symbol_table: dat.symbol_table.clone(),
        trailing: dat.trailing.clone(),
        file_size: dat.file_size,
    };
    for r in &mut out.roots {
        r.target = remap(r.target);
    }
    for e in &mut out.externs {
        for l in &mut e.chain {
            *l = remap_loc(*l);
        }
    }
    // Colosseum/XD pad the data section to 16 (Melee files are only 4-aligned): keep whichever
    // convention the model's layout follows.
    let (_, before) = dat.layout()?;
    let (_, after) = out.layout()?;
    if before % 16 == 0
        && runs.open_end.is_none()
        && let Some(last) = out.blocks.last_mut()
    {
        let pad = after.checked_next_multiple_of(16).map_or(0, |n| n - after);
        last.bytes.resize(last.bytes.len() + pad as usize, 0);
    }
    Ok(out)
}
