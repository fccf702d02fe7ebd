//! The layout of Melee's (and Chibi-Robo's) HAL compiler, derived from the retail files of
//! `shared/corpus/real/hsd` (docs/HSD-ORDER.md has the evidence). It differs from Colosseum/XD's
//! in three ways:
//!
//! - each root is laid out as a band of its own, in root-table order (a fighter's model, then its
//!   material-animation tree with that tree's own pixels and palettes);
//! - display lists are not a phase: the geometry phase writes, per PObj, its display list, its
//!   envelope pointer array and the PObj, then the DObj;
//! - the skeleton is in pre-order (each joint after its inverse bind matrix), and image pixels
//!   follow their TObj with the TObj's palette (LUT, then struct) right after them.
//!
//! Within a model band the phases are: vertex buffers (by attribute — positions, normals, …
//! — each in the backward walk's descriptor order), materials (per joint in pre-order, its DObjs from last to first, each
//! MObj as in Colosseum/XD), envelope arrays and vertex descriptors (the same backward walk, each
//! at its last user there, i.e. its first user in mesh order),
//! geometry (per joint in pre-order, DObjs and PObjs forward), skeleton, then pixels (forward mesh
//! order, each TObj chain forward; the textures of joints below the top one first). Nothing is content-deduplicated: Melee stores identical pixel
//! data twice where its source did (HSD-028), so the blocks the model shares stay shared and no
//! others are merged.

use crate::flags::PObjKind;
use crate::graph::{FastMap, FastSet, Graph};
use crate::roots::RootKind;
use crate::types::{
    Camera, Joint, Light, LightSet, MObj, MapGObj, MatAnim, MatAnimJoint, ModelSet, Palette,
    SceneData, TObj, TexAnim,
};
use crate::view::Archive;

use super::{Emit, Mesh, Phase};

impl Emit<'_, '_> {
    /// A model band: the joint tree at `root` in the Melee compiler's phases.
    fn melee_model(&mut self, g: &Graph, root: u32) {
        let Some(&top) = g.joint_index.get(&root) else {
            return;
        };
        // Pre-order of the tree (the graph lists joints in pre-order, tree by tree).
        let joints: Vec<(u32, Joint)> = g
            .joints
            .iter()
            .filter(|j| j.root == top)
            .map(|j| (j.offset, j.joint))
            .collect();
        let meshes: Vec<Vec<Mesh>> = joints.iter().map(|(_, j)| self.joint_meshes(j)).collect();
        // The backward walk: per joint, DObjs last to first, PObjs last to first.
        let backward: Vec<&Mesh> = meshes.iter().flat_map(|m| m.iter().rev()).collect();
        // Vertex buffers by attribute (all positions, then normals, colours, texture
        // coordinates), each attribute's arrays in the backward walk's descriptor order.
        let mut arrays: Vec<(u32, u32)> = Vec::new();
        for (_, _, ps) in &backward {
            for (_, p) in ps.iter().rev() {
                if let Some(Ok((_, attrs))) = p.vtx_desc.map(|v| self.a.vertex_desc(v)) {
                    arrays.extend(
                        attrs
                            .iter()
                            .filter_map(|(v, _)| v.array.map(|a| (v.attr, a))),
                    );
                }
            }
        }
        // GX attribute ids, except that NBT (25) files with the normals (TyBancho: POS, NRM,
        // NBT, TEX0).
        arrays.sort_by_key(|&(attr, _)| if attr == 25 { 21 } else { 2 * u64::from(attr) });
        for (_, a) in arrays {
            self.push(Phase::VertexBuffers, Some(a));
        }
        for (_, d, _) in &backward {
            if let Some(m) = d.mobj {
                self.mobj(m);
            }
        }
        // Envelope arrays: each at its last user in the backward walk (its first user in mesh
        // order), a PObj's in slot order.
        let mut envelopes: Vec<u32> = Vec::new();
        for (_, _, ps) in &backward {
            for (_, p) in ps.iter().rev() {
                if p.flags.kind() == PObjKind::Envelope {
                    envelopes.extend(self.array(p.link));
                }
            }
        }
        for e in at_last_use(&envelopes) {
            self.push(Phase::Envelopes, Some(e));
        }
        // Vertex descriptors likewise: each at its last user in the backward walk.
        let descs: Vec<u32> = backward
            .iter()
            .flat_map(|(_, _, ps)| ps.iter().rev().filter_map(|(_, p)| p.vtx_desc))
            .collect();
        for d in at_last_use(&descs) {
            self.push(Phase::VertexDescriptors, Some(d));
        }
        for (o, d, ps) in meshes.iter().flatten() {
            let phase = Phase::Geometry;
            for (po, p) in ps {
                self.push(phase, p.display_list);
                self.push(phase, p.link);
                self.push(phase, p.class_name);
                self.push(phase, Some(*po));
            }
            self.push(phase, d.class_name);
            self.push(phase, Some(*o));
        }
        // Each joint: name, payload (shared with Colosseum/XD's walk), then its inverse bind
        // matrix right before the joint.
        for (o, j) in &joints {
            let p = Phase::Skeleton;
            self.push(p, j.class_name);
            self.joint_payload(j);
            self.push(p, j.inverse_bind);
            self.push(p, Some(*o));
        }
        // Pixels in HAL's texture-list order, each TObj chain forward, a TObj's palette after
        // its pixels: the top joint's first DObj's textures, then the backward walk below the
        // top joint (joints in pre-order, DObjs last to first), then the top joint's other
        // textures forward (every retail file and 36 of 41 public 20XX models: TyDaisy's 0 1 2
        // 3 4 5, where forward first use gave 0 2 4 1 3 5).
        let (top, below): (&[Mesh], &[Vec<Mesh>]) = match meshes.split_first() {
            Some((t, b)) => (t, b),
            None => (&[], &[]),
        };
        let walk = top
            .iter()
            .take(1)
            .chain(below.iter().flat_map(|m| m.iter().rev()))
            .chain(top);
        let tobjs: Vec<TObj> = walk.flat_map(|(_, d, _)| self.tobj_chain(d.mobj)).collect();
        let pixels = |t: &TObj| -> Option<u32> {
            t.image
                .and_then(|i| self.a.read::<crate::types::Image>(i).ok())
                .and_then(|i| i.data)
        };
        for t in &tobjs {
            self.melee_pixels(pixels(t));
            self.melee_palette(t.palette);
        }
    }

    /// The TObj chain of the MObj at `mobj`, first to last (bounded, each TObj once).
    fn tobj_chain(&self, mobj: Option<u32>) -> Vec<TObj> {
        let Some(Ok(m)) = mobj.map(|m| self.a.read::<MObj>(m)) else {
            return Vec::new();
        };
        let mut met = FastSet::default();
        let mut out = Vec::new();
        let mut next = m.tobj;
        while let Some(t) = next {
            if !met.insert(t) || met.len() > self.max {
                break;
            }
            let Ok(tobj) = self.a.read::<TObj>(t) else {
                break;
            };
            next = tobj.next;
            out.push(tobj);
        }
        out
    }

    /// An image's pixel data in the pixel band, remembered as the head of a texture group (the
    /// pixels and the palettes that follow them until the next image's pixels).
    fn melee_pixels(&mut self, d: Option<u32>) {
        if let Some(d) = d
            && !self.seen.contains(&d)
        {
            self.heads.insert(d);
            self.push(Phase::ImagePixels, Some(d));
        }
    }

    /// A palette's LUT then its struct, in the pixel band.
    fn melee_palette(&mut self, p: Option<u32>) {
        if let Some(Ok(pal)) = p.map(|p| self.a.read::<Palette>(p)) {
            self.push(Phase::ImagePixels, pal.data);
            self.push(Phase::ImagePixels, p);
        }
    }

    /// A material-animation band: the texture animations' keyframes (MatAnims last to first,
    /// each `texanim` chain forward), the MatAnims' own tracks, then per texture animation its
    /// Image structs, image and palette tables and the TexAnim; the MatAnims forward; the
    /// MatAnimJoints in pre-order; then the pixels and palettes the tables name (MatAnims
    /// forward, pixels in table order, then palettes in table order).
    fn melee_matanim(&mut self, root: u32) {
        let nodes = self.tree::<MatAnimJoint>(root, |j| [j.child, j.next]);
        let per: Vec<Vec<(u32, MatAnim)>> = nodes
            .iter()
            .map(|(_, j)| self.chain::<MatAnim>(j.matanim, |m| m.next))
            .collect();
        let texanims: Vec<Vec<(u32, TexAnim)>> = per
            .iter()
            .flatten()
            .map(|(_, m)| self.chain::<TexAnim>(m.texanim, |t| t.next))
            .collect();
        let backward: Vec<&(u32, TexAnim)> = texanims.iter().rev().flatten().collect();
        let p = Phase::Animation;
        for (_, t) in &backward {
            self.aobj(t.aobj);
        }
        for (_, m) in per.iter().flat_map(|m| m.iter().rev()) {
            self.aobj(m.aobj);
            self.push(p, m.render_anim);
        }
        for (o, t) in &backward {
            for img in self.table(t.image_table, t.n_images) {
                self.push(p, Some(img));
            }
            self.push(p, t.image_table);
            self.push(p, t.palette_table);
            self.push(p, Some(*o));
        }
        for (o, _) in per.iter().flatten() {
            self.push(p, Some(*o));
        }
        for (o, _) in &nodes {
            self.push(p, Some(*o));
        }
        for (_, t) in texanims.iter().flatten() {
            for img in self.table(t.image_table, t.n_images) {
                if let Ok(i) = self.a.read::<crate::types::Image>(img) {
                    self.melee_pixels(i.data);
                }
            }
            for pal in self.table(t.palette_table, t.n_palettes) {
                self.melee_palette(Some(pal));
            }
        }
    }

    /// The non-NULL entries of a table of `n` pointers.
    fn table(&self, at: Option<u32>, n: u16) -> Vec<u32> {
        let Some(t) = at else { return Vec::new() };
        (0..u32::from(n))
            .filter_map(|i| self.a.pointer(t.wrapping_add(4 * i)).ok().flatten())
            .collect()
    }
}

/// The distinct items of `seq`, each at its last occurrence.
fn at_last_use(seq: &[u32]) -> Vec<u32> {
    let mut last: FastMap<u32, usize> =
        FastMap::with_capacity_and_hasher(seq.len(), Default::default());
    for (i, &x) in seq.iter().enumerate() {
        last.insert(x, i);
    }
    seq.iter()
        .enumerate()
        .filter(|&(i, x)| last.get(x) == Some(&i))
        .map(|(_, &x)| x)
        .collect()
}

/// How the pixel band of each section orders its texture groups (an image's pixels and the
/// palettes placed right after them): by the texture list, see [`super::TextureList`].
pub(super) struct TextureRanks {
    /// Rank in the texture list of each listed pixel block (data offset in the typed layout).
    pub rank: FastMap<u32, usize>,
    /// The blocks the typed graph calls pixel data (what a texture list can name).
    pub typed: FastSet<u32>,
}

/// Reorders the pixel band of `list` (one section's entries) by texture group: entries before
/// the first image's pixels stay first, then the groups whose pixel block the list names in
/// list order, then the other pixel blocks the graph types as pixel data, then the rest, each
/// of these two in first-use order. Only typed pixel blocks take a rank, and a compiled
/// archive's own list (its typed pixel blocks in file order) ranks its groups in the order
/// they already have, so compiling it again leaves the band unchanged.
fn order_textures(list: &mut [(usize, Phase, u32)], heads: &FastSet<u32>, t: &TextureRanks) {
    let slots: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|x| x.1.1 == Phase::ImagePixels)
        .map(|x| x.0)
        .collect();
    type Entry = (usize, Phase, u32);
    let mut groups: Vec<((u8, usize), Vec<Entry>)> = Vec::new();
    for &i in &slots {
        let Some(&entry) = list.get(i) else { continue };
        let off = entry.2;
        if heads.contains(&off) {
            let n = groups.len();
            let key = match t.rank.get(&off) {
                Some(&r) if t.typed.contains(&off) => (1, r),
                _ if t.typed.contains(&off) => (2, n),
                _ => (3, n),
            };
            groups.push((key, vec![entry]));
        } else if let Some(g) = groups.last_mut() {
            g.1.push(entry);
        } else {
            groups.push(((0, 0), vec![entry]));
        }
    }
    groups.sort_by_key(|g| g.0);
    for (&i, entry) in slots.iter().zip(groups.into_iter().flat_map(|g| g.1)) {
        if let Some(x) = list.get_mut(i) {
            *x = entry;
        }
    }
}

/// The Melee compiler's order: each root in root-table order as a section of its own, each
/// section's pixel band in texture-list order.
pub(super) fn emit_order(
    a: &Archive<'_>,
    g: &Graph,
    textures: &TextureRanks,
) -> Vec<(usize, Phase, u32)> {
    let mut e = Emit::new(a);
    for r in a.roots() {
        let start = e.list.len();
        e.heads.clear();
        match r.kind() {
            RootKind::Joint => e.melee_model(g, r.offset),
            RootKind::MatAnimJoint => e.melee_matanim(r.offset),
            RootKind::AnimJoint => e.anim_joint_tree(r.offset),
            RootKind::TexAnim => e.texanims(r.offset),
            RootKind::ModelSet => {
                if let Ok(m) = a.read::<ModelSet>(r.offset) {
                    e.melee_model_set(g, &m);
                }
            }
            RootKind::MapHead => e.melee_map_head(g, r.offset),
            RootKind::SceneData => {
                if let Ok(sd) = a.read::<SceneData>(r.offset) {
                    for m in e.array(sd.models) {
                        if let Ok(m) = a.read::<ModelSet>(m) {
                            e.melee_model_set(g, &m);
                        }
                    }
                }
                e.scene(r.offset);
            }
            RootKind::BoundBox => e.push(Phase::BoundBox, Some(r.offset)),
            _ => {}
        }
        // Pixels the Colosseum/XD helpers queued are placed by the Melee walks themselves.
        e.pixels.clear();
        e.palettes.clear();
        if let Some(band) = e.list.get_mut(start..) {
            order_textures(band, &e.heads, textures);
        }
        e.section += 1;
    }
    e.list
}

impl Emit<'_, '_> {
    /// A stage's `map_head`: the head and its GObj table, then a band per GObj, last to first
    /// (its camera, lights and fog, then its model set), then every GObj's pixels and palettes
    /// (Melee's stage files end in one pixel band; docs/HSD-ORDER.md, Melee stages).
    fn melee_map_head(&mut self, g: &Graph, head: u32) {
        let gobjs = self.a.map_gobjs(head).unwrap_or_default();
        self.push(Phase::Scene, gobjs.first().map(|&(table, _)| table));
        self.push(Phase::Scene, Some(head));
        let start = self.list.len();
        for (_, gobj) in gobjs.iter().rev() {
            // Sections sort before phases: the GObj's scene objects open its band.
            self.section += 1;
            self.gobj_scene(gobj);
            self.section += 1;
            self.melee_model_set(g, &gobj.model_set());
        }
        let pixels = self.section + 1;
        for x in self.list.get_mut(start..).into_iter().flatten() {
            if matches!(x.1, Phase::ImagePixels | Phase::Palettes) {
                x.0 = pixels;
            }
        }
        self.section = pixels;
    }

    /// A stage GObj's camera (its eye, interest and up first), its light sets last to first
    /// (each light's objects, the light, the set), the set array, then its fog.
    fn gobj_scene(&mut self, gobj: &MapGObj) {
        let p = Phase::Scene;
        if let Some(c) = gobj.camera.ptr()
            && let Ok(cam) = self.a.read::<Camera>(c)
        {
            for x in [cam.eye, cam.interest, cam.up] {
                self.push(p, x);
            }
            self.push(p, Some(c));
        }
        let lights = gobj.lights.ptr();
        for set in self.array(lights).into_iter().rev() {
            if let Ok(Some(l)) = self.a.read::<LightSet>(set).map(|s| s.desc)
                && let Ok(light) = self.a.read::<Light>(l)
            {
                for x in [light.position, light.interest, light.param] {
                    self.push(p, x);
                }
                self.push(p, Some(l));
            }
            self.push(p, Some(set));
        }
        self.push(p, lights);
        self.push(p, gobj.fog.ptr());
    }

    /// A model set (or a stage GObj's): its joint tree's band, then its animation trees.
    fn melee_model_set(&mut self, g: &Graph, m: &ModelSet) {
        if let Some(j) = m.joint {
            self.melee_model(g, j);
        }
        for t in self.array(m.anims) {
            self.anim_joint_tree(t);
        }
        self.push(Phase::Animation, m.anims);
        for t in self.array(m.matanims) {
            self.melee_matanim(t);
        }
        self.push(Phase::Animation, m.matanims);
    }
}
