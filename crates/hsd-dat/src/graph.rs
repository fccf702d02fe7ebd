//! The typed object graph: every struct reachable from the roots, typed by the root's name and the
//! fields that lead to it, walked with a bound. Hostile input (cycles, pointers out of the data
//! block, runaway lists, overlapping structs) becomes errors with offsets, and the walk goes on
//! with the rest of the graph.

use std::collections::HashSet;
use std::rc::Rc;

use gcio::{Context, Error, Result};
use gx::dl::{DisplayList, VertexDesc};
use gx::vtx::{Attr, AttrType, CompCount, CompType, VertexFormat};

use crate::field::Struct;
use crate::flags::{JointFlags, PObjKind};
use crate::roots::RootKind;
use crate::types::*;
use crate::view::Archive;

/// What a graph node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Kind {
    SceneData,
    ModelSet,
    /// A Melee stage's `map_head`.
    MapHead,
    /// A stage's GObj table (`gobj_count` entries of 0x34 bytes, one node).
    MapGObj,
    CameraSet,
    Camera,
    CameraAnim,
    LightSet,
    Light,
    LightAnim,
    LightAttn,
    LightPoint,
    LightSpot,
    WObj,
    WObjAnim,
    FogSet,
    Fog,
    FogAdj,
    BoundBox,
    Joint,
    Matrix,
    Vec3,
    Spline,
    ParticleList,
    DObj,
    PObj,
    ShapeSet,
    Envelope,
    VtxDesc,
    MObj,
    Material,
    PixelEngine,
    TObj,
    Image,
    Palette,
    TexLod,
    Tev,
    RObj,
    IkHint,
    AObj,
    FObj,
    AnimJoint,
    MatAnimJoint,
    MatAnim,
    TexAnim,
    RenderAnim,
    ShapeAnimJoint,
    ShapeAnimDObj,
    ShapeAnim,
    RObjAnimJoint,
    /// A NULL-terminated array of pointers.
    PointerArray,
    /// A vertex attribute array (size unknown: runs to the next boundary).
    VertexArray,
    /// A display list (`n_display × 32` bytes).
    DisplayList,
    /// Image pixel data.
    ImageData,
    /// Palette entries.
    PaletteData,
    /// An FObj keyframe stream.
    KeyframeData,
    /// A class-name string.
    String,
}

/// One typed node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// Data offset.
    pub offset: u32,
    /// Bytes it covers (0 when unknown).
    pub size: u32,
    /// Type.
    pub kind: Kind,
}

/// A joint reached from a root.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointRef {
    /// Data offset.
    pub offset: u32,
    /// Index of the parent in [`Graph::joints`].
    pub parent: Option<usize>,
    /// Index of the top-level joint of its tree.
    pub root: usize,
    /// The joint.
    pub joint: Joint,
}

/// A PObj reached through a joint's DObj list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PObjRef {
    /// Data offset.
    pub offset: u32,
    /// Owning joint (index into [`Graph::joints`]).
    pub joint: usize,
    /// The DObj holding it.
    pub dobj: u32,
    /// The DObj's material.
    pub mobj: Option<u32>,
    /// The PObj.
    pub pobj: PObj,
    /// Display-list primitives decoded.
    pub primitives: u32,
}

/// The typed graph of an archive.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// Every node in visit order.
    pub nodes: Vec<Node>,
    /// Joints in depth-first pre-order, per tree.
    pub joints: Vec<JointRef>,
    /// Index into `joints` by data offset.
    pub joint_index: std::collections::HashMap<u32, usize>,
    /// Meshes.
    pub pobjs: Vec<PObjRef>,
    /// Image descs (data offsets).
    pub images: Vec<u32>,
    /// Palette descs.
    pub palettes: Vec<u32>,
    /// Lights.
    pub lights: Vec<u32>,
    /// Problems met on the way, each with its offset and breadcrumb.
    pub errors: Vec<Error>,
}

impl Graph {
    /// Nodes of `kind`.
    pub fn count(&self, kind: Kind) -> usize {
        self.nodes.iter().filter(|n| n.kind == kind).count()
    }
}

/// A multiplicative hasher for the walk's (offset, kind) keys: file offsets are not attacker-
/// chosen hash-flooding material that matters here (the walk is bounded by the node limit), and
/// SipHash dominated the walk's profile.
#[derive(Default, Clone, Copy)]
pub(crate) struct OffsetHasher(u64);

impl std::hash::Hasher for OffsetHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// Bytes a perspective camera desc uses: `HSD_CameraDescPerspective` (projection 1) ends after
/// fovy and aspect at 0x38, the frustum and ortho descs after four planes at 0x40 (doldecomp/melee
/// `cobj.h`). Chibi-Robo's compiler puts the next struct (a ModelSet) right after a 0x38-byte
/// perspective camera; Colosseum/XD writers allocate the whole 0x40 union, so the node keeps 0x40
/// and only the overlap check uses the shorter size.
const PERSPECTIVE_CAMERA_SIZE: u32 = 0x38;

pub(crate) type FastSet<K> = HashSet<K, std::hash::BuildHasherDefault<OffsetHasher>>;

/// A map keyed by offsets, with [`OffsetHasher`].
pub(crate) type FastMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<OffsetHasher>>;

struct Walker<'a, 'b> {
    arc: &'b Archive<'a>,
    /// Every node recorded, with its index in `g.nodes`.
    seen: FastMap<(u32, Kind), usize>,
    vtx:
        std::collections::HashMap<u32, Rc<VertexDesc>, std::hash::BuildHasherDefault<OffsetHasher>>,
    g: Graph,
}

/// Most entries of a vertex attribute list (GX has 26 attributes).
const MAX_VTX_DESC: usize = 32;

impl<'a> Archive<'a> {
    /// Walks the whole typed graph from the roots (bounded by the archive's limits).
    pub fn graph(&self) -> Graph {
        let mut w = Walker {
            arc: self,
            seen: FastMap::with_capacity_and_hasher(
                self.relocations().len() + self.roots().len(),
                Default::default(),
            ),
            vtx: Default::default(),
            g: Graph::default(),
        };
        for r in self.roots() {
            let res = w.root(r.kind(), r.offset);
            if let Err(e) = res {
                let name = gcio::text::Encoding::ShiftJis.to_text(r.name);
                w.g.errors.push(e.context(format!("root {name}")));
            }
        }
        w.overlaps();
        w.g
    }

    /// The attribute list of a PObj as a `gx` vertex descriptor, with the formats of its arrays.
    pub fn vertex_desc(&self, first: u32) -> Result<(VertexDesc, Vec<(VtxDesc, VertexFormat)>)> {
        let mut desc = VertexDesc::new();
        let mut attrs = Vec::new();
        for i in 0..=MAX_VTX_DESC {
            if i == MAX_VTX_DESC {
                return Err(Error::invalid(
                    self.data().abs(first as usize),
                    "vertex attribute list has no 0xFF terminator within 32 entries",
                ));
            }
            let off = first as usize + i * VtxDesc::<u32>::SIZE;
            let at = u32::try_from(off).map_err(|_| self.data().oob(off, VtxDesc::<u32>::SIZE))?;
            let v: VtxDesc = self.read(at)?;
            if v.attr == Attr::NULL.0 {
                break;
            }
            let format = VertexFormat {
                attr: Attr(v.attr),
                count: CompCount(v.comp_cnt),
                ty: CompType(v.comp_type),
                frac: v.frac,
            };
            let kind = AttrType(v.attr_type);
            let pushed = if kind == AttrType::DIRECT && !format.attr.is_matrix_index() {
                desc.push_direct(format)
            } else {
                desc.push(format.attr, kind)
            };
            pushed.map_err(|e| Error::invalid(self.data().abs(off), e.to_string()))?;
            attrs.push((v, format));
        }
        Ok((desc, attrs))
    }
}

impl Walker<'_, '_> {
    fn limit(&self, at: u32) -> Result<()> {
        self.arc
            .limits()
            .check_nodes(self.g.nodes.len() as u64, self.arc.data().abs(at as usize))
    }

    /// Records a node; false when it was already seen. A node reached again with a larger size
    /// (a keyframe buffer two FObjs share with different lengths) takes the larger one: the
    /// bytes every user reads belong to it.
    fn mark(&mut self, offset: u32, size: usize, kind: Kind) -> Result<bool> {
        self.limit(offset)?;
        if let Some(&i) = self.seen.get(&(offset, kind)) {
            if let Some(n) = self.g.nodes.get_mut(i) {
                n.size = n.size.max(u32::try_from(size).unwrap_or(u32::MAX));
            }
            return Ok(false);
        }
        self.seen.insert((offset, kind), self.g.nodes.len());
        self.g.nodes.push(Node {
            offset,
            size: size as u32,
            kind,
        });
        Ok(true)
    }

    fn read<T: Struct<u32>>(&mut self, off: u32, kind: Kind) -> Result<Option<T>> {
        let v = self.arc.read::<T>(off)?;
        Ok(self.mark(off, T::SIZE, kind)?.then_some(v))
    }

    /// A struct that must be reached once only (tree nodes, list links): a second visit is a
    /// cycle or a shared subtree.
    fn read_once<T: Struct<u32>>(&mut self, off: u32, kind: Kind) -> Result<T> {
        self.read(off, kind)?.ok_or_else(|| {
            Error::invalid(
                self.arc.data().abs(off as usize),
                format!(
                    "{} reached twice (pointer cycle or shared subtree)",
                    T::NAME
                ),
            )
        })
    }

    fn error(&mut self, e: Error) {
        self.g.errors.push(e);
    }

    /// Pointers of a NULL-terminated array.
    fn ptr_array(&mut self, off: u32) -> Result<Vec<u32>> {
        let max = self.arc.limits().max_elements;
        let mut out = Vec::new();
        let mut at = off;
        loop {
            match self.arc.pointer(at).context("pointer array")? {
                None => break,
                Some(p) => out.push(p),
            }
            if out.len() as u64 > max {
                return Err(Error::invalid(
                    self.arc.data().abs(off as usize),
                    "runaway pointer array",
                ));
            }
            at = at
                .checked_add(4)
                .ok_or_else(|| Error::message("offset overflow"))?;
        }
        self.mark(off, (out.len() + 1) * 4, Kind::PointerArray)?;
        Ok(out)
    }

    fn string(&mut self, p: Option<u32>) -> Result<()> {
        if let Some(p) = p {
            let s = self.arc.data().cstr(p as usize).context("class name")?;
            self.mark(p, s.len() + 1, Kind::String)?;
        }
        Ok(())
    }

    fn root(&mut self, kind: RootKind, off: u32) -> Result<()> {
        match kind {
            RootKind::SceneData => self.scene(off),
            RootKind::Joint => self.joint_tree(off),
            RootKind::ModelSet => self.model_set(off),
            RootKind::MapHead => self.map_head(off),
            RootKind::SceneModels => {
                for m in self.ptr_array(off)? {
                    self.model_set(m)?;
                }
                Ok(())
            }
            RootKind::SceneLights => {
                for l in self.ptr_array(off)? {
                    self.light_set(l)?;
                }
                Ok(())
            }
            RootKind::Camera => self.camera(off),
            RootKind::Fog => self.fog(off),
            RootKind::AnimJoint => self.anim_joint(off, 0),
            RootKind::MatAnimJoint => self.matanim_joint(off, 0),
            RootKind::ShapeAnimJoint => self.shapeanim_joint(off, 0),
            RootKind::TexAnim => self.texanim(off),
            RootKind::BoundBox => {
                let size = crate::bound_box::BoundBox::read(self.arc, off)?.size();
                self.mark(off, size, Kind::BoundBox).map(|_| ())
            }
            RootKind::FigaTree | RootKind::CameraAnim | RootKind::Unknown => Ok(()),
        }
    }

    fn scene(&mut self, off: u32) -> Result<()> {
        let Some(s) = self.read::<SceneData>(off, Kind::SceneData)? else {
            return Ok(());
        };
        if let Some(p) = s.models {
            for m in self.ptr_array(p).context("models")? {
                let r = self
                    .model_set(m)
                    .with_context(|| format!("model set at {m:#x}"));
                if let Err(e) = r {
                    self.error(e);
                }
            }
        }
        if let Some(p) = s.camera
            && let Some(c) = self.read::<CameraSet>(p, Kind::CameraSet)?
        {
            if let Some(d) = c.desc {
                self.camera(d)?;
            }
            if let Some(a) = c.anims {
                for x in self.ptr_array(a)? {
                    self.camera_anim(x)?;
                }
            }
        }
        if let Some(p) = s.lights {
            for l in self.ptr_array(p).context("lights")? {
                self.light_set(l)?;
            }
        }
        if let Some(p) = s.fog
            && let Some(f) = self.read::<FogSet>(p, Kind::FogSet)?
        {
            if let Some(d) = f.desc {
                self.fog(d)?;
            }
            if let Some(a) = f.anims {
                for x in self.ptr_array(a)? {
                    self.aobj(x)?;
                }
            }
        }
        Ok(())
    }

    fn model_set(&mut self, off: u32) -> Result<()> {
        let Some(m) = self.read::<ModelSet>(off, Kind::ModelSet)? else {
            return Ok(());
        };
        self.model(&m)
    }

    /// A ModelSet's joint tree and animation banks (a stage GObj's too). An animation tree
    /// listed by several model sets (or twice in one list) is shared, as HAL's tools write it,
    /// not a cycle: walk it once.
    fn model(&mut self, m: &ModelSet) -> Result<()> {
        if let Some(j) = m.joint {
            self.joint_tree(j).context("joint tree")?;
        }
        if let Some(a) = m.anims {
            for x in self.ptr_array(a)? {
                if !self.seen.contains_key(&(x, Kind::AnimJoint)) {
                    self.anim_joint(x, 0).context("anim joint")?;
                }
            }
        }
        if let Some(a) = m.matanims {
            for x in self.ptr_array(a)? {
                if !self.seen.contains_key(&(x, Kind::MatAnimJoint)) {
                    self.matanim_joint(x, 0).context("matanim joint")?;
                }
            }
        }
        if let Some(a) = m.shapeanims {
            for x in self.ptr_array(a)? {
                if !self.seen.contains_key(&(x, Kind::ShapeAnimJoint)) {
                    self.shapeanim_joint(x, 0).context("shapeanim joint")?;
                }
            }
        }
        Ok(())
    }

    /// A Melee stage's `map_head`: its GObj table, each entry a ModelSet's joint tree and
    /// banks with the GObj's camera, lights and fog. The head's other tables stay untyped.
    fn map_head(&mut self, off: u32) -> Result<()> {
        if self.read::<MapHead>(off, Kind::MapHead)?.is_none() {
            return Ok(());
        }
        let gobjs = self.arc.map_gobjs(off)?;
        let Some(&(table, _)) = gobjs.first() else {
            return Ok(());
        };
        if !self.mark(table, gobjs.len() * MapGObj::<u32>::SIZE, Kind::MapGObj)? {
            return Ok(());
        }
        for (o, g) in gobjs {
            let r = self
                .map_gobj(&g)
                .with_context(|| format!("map GObj at {o:#x}"));
            if let Err(e) = r {
                self.error(e);
            }
        }
        Ok(())
    }

    fn map_gobj(&mut self, g: &MapGObj) -> Result<()> {
        self.model(&g.model_set())?;
        if let Some(c) = g.camera.ptr() {
            self.camera(c)?;
        }
        if let Some(p) = g.lights.ptr() {
            for l in self.ptr_array(p).context("lights")? {
                self.light_set(l)?;
            }
        }
        if let Some(f) = g.fog.ptr() {
            self.fog(f)?;
        }
        Ok(())
    }

    fn wobj(&mut self, off: u32) -> Result<()> {
        if let Some(w) = self.read::<WObj>(off, Kind::WObj)? {
            self.string(w.class_name)?;
            if let Some(r) = w.robj {
                self.robj_list(r)?;
            }
        }
        Ok(())
    }

    fn wobj_anim(&mut self, off: u32) -> Result<()> {
        if let Some(w) = self.read::<WObjAnim>(off, Kind::WObjAnim)? {
            if let Some(a) = w.aobj {
                self.aobj(a)?;
            }
            if let Some(r) = w.robj_anim {
                self.robj_anim(r)?;
            }
        }
        Ok(())
    }

    fn camera(&mut self, off: u32) -> Result<()> {
        let Some(c) = self.read::<Camera>(off, Kind::Camera)? else {
            return Ok(());
        };
        self.string(c.class_name)?;
        for w in [c.eye, c.interest].into_iter().flatten() {
            self.wobj(w)?;
        }
        if let Some(u) = c.up {
            self.read::<Vec3>(u, Kind::Vec3)?;
        }
        Ok(())
    }

    fn camera_anim(&mut self, off: u32) -> Result<()> {
        if let Some(c) = self.read::<CameraAnim>(off, Kind::CameraAnim)? {
            if let Some(a) = c.aobj {
                self.aobj(a)?;
            }
            for w in [c.eye_anim, c.interest_anim].into_iter().flatten() {
                self.wobj_anim(w)?;
            }
        }
        Ok(())
    }

    fn light_set(&mut self, off: u32) -> Result<()> {
        let Some(s) = self.read::<LightSet>(off, Kind::LightSet)? else {
            return Ok(());
        };
        let mut next = s.desc;
        while let Some(l) = next {
            let light: Light = self.read_once(l, Kind::Light)?;
            self.g.lights.push(l);
            self.string(light.class_name)?;
            for w in [light.position, light.interest].into_iter().flatten() {
                self.wobj(w)?;
            }
            if let Some(p) = light.param {
                match (light.flags.light_type(), light.attn_flags) {
                    (2, a) if a & 1 != 0 => {
                        self.read::<LightAttn>(p, Kind::LightAttn).map(|_| ())?
                    }
                    (3, a) if a != 0 => self.read::<LightAttn>(p, Kind::LightAttn).map(|_| ())?,
                    (2, _) => self.read::<LightPoint>(p, Kind::LightPoint).map(|_| ())?,
                    (3, _) => self.read::<LightSpot>(p, Kind::LightSpot).map(|_| ())?,
                    _ => {}
                }
            }
            next = light.next;
        }
        if let Some(a) = s.anims {
            for x in self.ptr_array(a)? {
                let mut next = Some(x);
                while let Some(la) = next {
                    let v: LightAnim = self.read_once(la, Kind::LightAnim)?;
                    if let Some(a) = v.aobj {
                        self.aobj(a)?;
                    }
                    for w in [v.position_anim, v.interest_anim].into_iter().flatten() {
                        self.wobj_anim(w)?;
                    }
                    next = v.next;
                }
            }
        }
        Ok(())
    }

    fn fog(&mut self, off: u32) -> Result<()> {
        if let Some(f) = self.read::<Fog>(off, Kind::Fog)?
            && let Some(a) = f.adj
        {
            self.read::<FogAdj>(a, Kind::FogAdj)?;
        }
        Ok(())
    }

    /// A joint tree: siblings iteratively, children recursively (depth bounded).
    fn joint_tree(&mut self, off: u32) -> Result<()> {
        let root = self.g.joints.len();
        self.joints(off, None, root, 0)
    }

    fn joints(&mut self, first: u32, parent: Option<usize>, root: usize, depth: u32) -> Result<()> {
        self.arc
            .limits()
            .check_depth(depth, self.arc.data().abs(first as usize))?;
        let mut next = Some(first);
        while let Some(off) = next {
            let j: Joint = self
                .read_once(off, Kind::Joint)
                .with_context(|| format!("joint at {off:#x}"))?;
            let index = self.g.joints.len();
            self.g.joint_index.insert(off, index);
            let root = if parent.is_none() { index } else { root };
            self.g.joints.push(JointRef {
                offset: off,
                parent,
                root,
                joint: j,
            });
            let r = self.joint_body(index, &j);
            if let Err(e) = r {
                self.error(e.context(format!("joint at {off:#x}")));
            }
            if let Some(c) = j.child
                && !j.flags.contains(JointFlags::INSTANCE)
            {
                self.joints(c, Some(index), root, depth + 1)?;
            }
            next = j.next;
        }
        Ok(())
    }

    fn joint_body(&mut self, index: usize, j: &Joint) -> Result<()> {
        self.string(j.class_name)?;
        if let Some(m) = j.inverse_bind {
            self.read::<Matrix>(m, Kind::Matrix)?;
        }
        if let Some(r) = j.robj {
            self.robj_list(r)?;
        }
        let Some(d) = j.data else { return Ok(()) };
        if j.data_kind() == JointData::Spline {
            if let Some(s) = self.read::<Spline>(d, Kind::Spline)? {
                let n = usize::try_from(s.count).unwrap_or(0);
                if let Some(p) = s.points {
                    self.mark(p, n * 12, Kind::Vec3)?;
                }
            }
            return Ok(());
        }
        if j.data_kind() == JointData::Particles {
            let mut next = Some(d);
            while let Some(p) = next {
                let l: ParticleList = self.read_once(p, Kind::ParticleList)?;
                next = l.next;
            }
            return Ok(());
        }
        let mut next = Some(d);
        while let Some(off) = next {
            let dobj: DObj = self.read_once(off, Kind::DObj)?;
            self.string(dobj.class_name)?;
            if let Some(m) = dobj.mobj {
                self.mobj(m).context("mobj")?;
            }
            let mut p = dobj.pobj;
            while let Some(po) = p {
                let pobj: PObj = self.read_once(po, Kind::PObj)?;
                let prims = self.pobj(&pobj).with_context(|| format!("pobj at {po:#x}"));
                let primitives = match prims {
                    Ok(n) => n,
                    Err(e) => {
                        self.error(e);
                        0
                    }
                };
                self.g.pobjs.push(PObjRef {
                    offset: po,
                    joint: index,
                    dobj: off,
                    mobj: dobj.mobj,
                    pobj,
                    primitives,
                });
                p = pobj.next;
            }
            next = dobj.next;
        }
        Ok(())
    }

    /// Reads a PObj's descriptor, display list and skin; returns the primitive count.
    fn pobj(&mut self, p: &PObj) -> Result<u32> {
        self.string(p.class_name)?;
        match p.flags.kind() {
            PObjKind::Envelope => {
                if let Some(l) = p.link
                    && !self.seen.contains_key(&(l, Kind::PointerArray))
                {
                    for arr in self.ptr_array(l).context("envelope list")? {
                        self.envelopes(arr)?;
                    }
                }
            }
            PObjKind::ShapeAnim => {
                if let Some(s) = p.link
                    && let Some(set) = self.read::<ShapeSet>(s, Kind::ShapeSet)?
                {
                    for d in [set.vertex_desc, set.normal_desc].into_iter().flatten() {
                        self.vtx_list(d)?;
                    }
                }
            }
            PObjKind::Rigid | PObjKind::Invalid => {}
        }
        let Some(v) = p.vtx_desc else { return Ok(0) };
        let desc = self.vtx_list(v)?;
        let Some(dl) = p.display_list else {
            return Ok(0);
        };
        let len = usize::from(p.n_display) * 32;
        let avail = (self.arc.data_size() as usize).saturating_sub(dl as usize);
        let r = self.arc.data().sub(dl as usize, len.min(avail))?;
        self.mark(dl, len, Kind::DisplayList)?;
        // Primitives up to the first one that does not decode: what a list holds is HSD-014's
        // (the validator reports it), not a fault of the graph.
        let n = DisplayList::new(r, &desc).take_while(Result::is_ok).count();
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    fn vtx_list(&mut self, off: u32) -> Result<Rc<VertexDesc>> {
        if let Some(d) = self.vtx.get(&off) {
            return Ok(Rc::clone(d));
        }
        let (desc, attrs) = self.arc.vertex_desc(off).context("vertex attribute list")?;
        self.mark(off, (attrs.len() + 1) * VtxDesc::<u32>::SIZE, Kind::VtxDesc)?;
        for (v, _) in attrs {
            if let Some(a) = v.array {
                self.mark(a, 0, Kind::VertexArray)?;
            }
        }
        let desc = Rc::new(desc);
        self.vtx.insert(off, Rc::clone(&desc));
        Ok(desc)
    }

    fn envelopes(&mut self, off: u32) -> Result<()> {
        let max = self.arc.limits().max_elements as usize;
        for i in 0.. {
            if i > max {
                return Err(Error::invalid(
                    self.arc.data().abs(off as usize),
                    "runaway envelope array",
                ));
            }
            let at = off as usize + i * Envelope::<u32>::SIZE;
            let e: Envelope = self.arc.read(at as u32).context("envelope")?;
            if e.joint.is_none() {
                self.mark(off, (i + 1) * Envelope::<u32>::SIZE, Kind::Envelope)?;
                break;
            }
        }
        Ok(())
    }

    fn mobj(&mut self, off: u32) -> Result<()> {
        let Some(m) = self.read::<MObj>(off, Kind::MObj)? else {
            return Ok(());
        };
        self.string(m.class_name)?;
        if let Some(x) = m.material {
            self.read::<Material>(x, Kind::Material)?;
        }
        if let Some(x) = m.pe {
            self.read::<PixelEngine>(x, Kind::PixelEngine)?;
        }
        let mut next = m.tobj;
        while let Some(t) = next {
            let Some(tobj) = self.read::<TObj>(t, Kind::TObj)? else {
                break;
            };
            self.string(tobj.class_name)?;
            if let Some(i) = tobj.image {
                self.image(i)?;
            }
            if let Some(p) = tobj.palette {
                self.palette(p)?;
            }
            if let Some(l) = tobj.lod {
                self.read::<TexLod>(l, Kind::TexLod)?;
            }
            if let Some(x) = tobj.tev {
                self.read::<Tev>(x, Kind::Tev)?;
            }
            next = tobj.next;
        }
        Ok(())
    }

    fn image(&mut self, off: u32) -> Result<()> {
        if let Some(i) = self.read::<Image>(off, Kind::Image)? {
            self.g.images.push(off);
            if let Some(d) = i.data {
                let size = crate::types::image_size(i.format, i.width, i.height).unwrap_or(0);
                self.mark(d, size, Kind::ImageData)?;
            }
        }
        Ok(())
    }

    fn palette(&mut self, off: u32) -> Result<()> {
        if let Some(p) = self.read::<Palette>(off, Kind::Palette)? {
            self.g.palettes.push(off);
            if let Some(d) = p.data {
                self.mark(d, usize::from(p.n_entries) * 2, Kind::PaletteData)?;
            }
        }
        Ok(())
    }

    fn robj_list(&mut self, off: u32) -> Result<()> {
        let mut next = Some(off);
        while let Some(o) = next {
            let Some(r) = self.read::<RObj>(o, Kind::RObj)? else {
                break;
            };
            if let crate::field::Word::Ptr(p) = r.value
                && r.flags.robj_type() == 4
            {
                self.read::<IkHint>(p, Kind::IkHint)?;
            }
            next = r.next;
        }
        Ok(())
    }

    fn robj_anim(&mut self, off: u32) -> Result<()> {
        let mut next = Some(off);
        while let Some(o) = next {
            let Some(r) = self.read::<RObjAnimJoint>(o, Kind::RObjAnimJoint)? else {
                break;
            };
            if let Some(a) = r.aobj {
                self.aobj(a)?;
            }
            next = r.next;
        }
        Ok(())
    }

    fn aobj(&mut self, off: u32) -> Result<()> {
        let Some(a) = self.read::<AObj>(off, Kind::AObj)? else {
            return Ok(());
        };
        // A track list another AObj already owns is shared, not a cycle.
        let mut next = a
            .fobj
            .filter(|f| !self.seen.contains_key(&(*f, Kind::FObj)));
        while let Some(f) = next {
            let fobj: FObj = self.read_once(f, Kind::FObj)?;
            if let Some(d) = fobj.data {
                self.mark(d, fobj.length as usize, Kind::KeyframeData)?;
            }
            next = fobj.next;
        }
        Ok(())
    }

    fn anim_joint(&mut self, off: u32, depth: u32) -> Result<()> {
        self.arc
            .limits()
            .check_depth(depth, self.arc.data().abs(off as usize))?;
        let mut next = Some(off);
        while let Some(o) = next {
            let a: AnimJoint = self.read_once(o, Kind::AnimJoint)?;
            if let Some(x) = a.aobj {
                self.aobj(x)?;
            }
            if let Some(r) = a.robj_anim {
                self.robj_anim(r)?;
            }
            // 0xFFFFFFFF children occur (NOCLIP treats them as none); they are not relocated.
            if let Some(c) = a.child {
                self.anim_joint(c, depth + 1)?;
            }
            next = a.next;
        }
        Ok(())
    }

    fn matanim_joint(&mut self, off: u32, depth: u32) -> Result<()> {
        self.arc
            .limits()
            .check_depth(depth, self.arc.data().abs(off as usize))?;
        let mut next = Some(off);
        while let Some(o) = next {
            let a: MatAnimJoint = self.read_once(o, Kind::MatAnimJoint)?;
            let mut m = a.matanim;
            while let Some(mo) = m {
                let ma: MatAnim = self.read_once(mo, Kind::MatAnim)?;
                if let Some(x) = ma.aobj {
                    self.aobj(x)?;
                }
                if let Some(t) = ma.texanim {
                    self.texanim(t)?;
                }
                if let Some(r) = ma.render_anim {
                    self.read::<RenderAnim>(r, Kind::RenderAnim)?;
                }
                m = ma.next;
            }
            if let Some(c) = a.child {
                self.matanim_joint(c, depth + 1)?;
            }
            next = a.next;
        }
        Ok(())
    }

    fn texanim(&mut self, off: u32) -> Result<()> {
        let mut next = Some(off);
        while let Some(o) = next {
            let t: TexAnim = self.read_once(o, Kind::TexAnim)?;
            if let Some(a) = t.aobj {
                self.aobj(a)?;
            }
            if let Some(tbl) = t.image_table {
                for i in 0..u32::from(t.n_images) {
                    if let Some(img) = self.arc.pointer(tbl.wrapping_add(4 * i))? {
                        self.image(img)?;
                    }
                }
            }
            if let Some(tbl) = t.palette_table {
                for i in 0..u32::from(t.n_palettes) {
                    if let Some(p) = self.arc.pointer(tbl.wrapping_add(4 * i))? {
                        self.palette(p)?;
                    }
                }
            }
            next = t.next;
        }
        Ok(())
    }

    fn shapeanim_joint(&mut self, off: u32, depth: u32) -> Result<()> {
        self.arc
            .limits()
            .check_depth(depth, self.arc.data().abs(off as usize))?;
        let mut next = Some(off);
        while let Some(o) = next {
            let a: ShapeAnimJoint = self.read_once(o, Kind::ShapeAnimJoint)?;
            let mut d = a.dobj;
            while let Some(x) = d {
                let sd: ShapeAnimDObj = self.read_once(x, Kind::ShapeAnimDObj)?;
                let mut s = sd.shape_anim;
                while let Some(y) = s {
                    let sa: ShapeAnim = self.read_once(y, Kind::ShapeAnim)?;
                    if let Some(z) = sa.aobj {
                        self.aobj(z)?;
                    }
                    s = sa.next;
                }
                d = sd.next;
            }
            if let Some(c) = a.child {
                self.shapeanim_joint(c, depth + 1)?;
            }
            next = a.next;
        }
        Ok(())
    }

    /// Fixed-size structs of different offsets must not overlap.
    fn overlaps(&mut self) {
        // (offset, size, index) of every fixed-size node, sorted by offset then size.
        let mut fixed: Vec<(u32, u32, u32)> = self
            .g
            .nodes
            .iter()
            .zip(0u32..)
            .filter(|(n, _)| {
                n.size > 0
                    && !matches!(
                        n.kind,
                        Kind::VertexArray
                            | Kind::ImageData
                            | Kind::PaletteData
                            | Kind::KeyframeData
                            | Kind::DisplayList
                            | Kind::String
                    )
            })
            .map(|(n, i)| {
                let perspective = n.kind == Kind::Camera
                    && self
                        .arc
                        .read::<Camera>(n.offset)
                        .is_ok_and(|c| c.projection == 1);
                let size = if perspective {
                    PERSPECTIVE_CAMERA_SIZE
                } else {
                    n.size
                };
                (n.offset, size, i)
            })
            .collect();
        crate::sort::radix_sort_by(
            &mut fixed,
            |&(o, s, _)| (u64::from(o) << 32) | u64::from(s),
            8,
        );
        let mut end = 0u64;
        let mut prev: Option<Node> = None;
        for (_, size, i) in fixed {
            let Some(&n) = self.g.nodes.get(i as usize) else {
                continue;
            };
            let n = Node { size, ..n };
            if let Some(p) = prev
                && u64::from(n.offset) < end
                && n.offset != p.offset
            {
                self.g.errors.push(Error::invalid(
                    self.arc.data().abs(n.offset as usize),
                    format!(
                        "{:?} at {:#x} overlaps {:?} at {:#x}",
                        n.kind, n.offset, p.kind, p.offset
                    ),
                ));
            }
            let e = u64::from(n.offset) + u64::from(n.size);
            if e > end {
                end = e;
                prev = Some(n);
            }
        }
    }
}
