//! Animation evaluation as the runtime does it: FObj keys replayed through `HSD_FObj`'s register
//! machine (p0, p1, d0, d1) into [`Segment`]s, cubic Hermite (`splGetHelmite`), linear and
//! constant interpolation, and AnimJoint trees sampled to per-frame joint matrices
//! (`T·Rz·Ry·Rx·S` with the runtime's scale inheritance, [`crate::pose`]).

use gcio::{Result, Visited};

use crate::flags::AObjFlags;
use crate::flags::JointFlags;
use crate::fobj::{Key, Op, Pack, decode_packs, encode_packs};
use crate::mesh::{Mtx, srt};
use crate::pose::Pose;
use crate::types::{
    AObj, AnimJoint, FObj, Joint, MatAnim, MatAnimJoint, ShapeAnim, ShapeAnimDObj, ShapeAnimJoint,
    TexAnim,
};
use crate::view::Archive;

/// One interpolated span between two keys, in track time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// First frame.
    pub start: f32,
    /// Frames (`fterm`); 0 jumps straight to `p1`.
    pub len: f32,
    /// Governing opcode: the **start** key's (see [`Curve::new`]).
    pub op: Op,
    /// Value at the start.
    pub p0: f32,
    /// Value at the end.
    pub p1: f32,
    /// Tangent (value per frame) leaving the start.
    pub d0: f32,
    /// Tangent arriving at the end.
    pub d1: f32,
}

/// `splGetHelmite`: the cubic Hermite basis with `u = t / len`, tangents scaled by `len`.
pub fn hermite(p0: f32, p1: f32, d0: f32, d1: f32, len: f32, t: f32) -> f32 {
    let u = t / len;
    let (u2, u3) = (u * u, u * u * u);
    p0 * (2.0 * u3 - 3.0 * u2 + 1.0)
        + d0 * len * (u3 - 2.0 * u2 + u)
        + p1 * (-2.0 * u3 + 3.0 * u2)
        + d1 * len * (u3 - u2)
}

impl Segment {
    /// The value `t` frames into the segment (`0 ≤ t < len`).
    pub fn eval(&self, t: f32) -> f32 {
        if self.len <= 0.0 || t >= self.len {
            return self.p1;
        }
        match self.op {
            Op::LIN => self.p0 + (self.p1 - self.p0) / self.len * t,
            Op::SPL0 | Op::SPL | Op::SLP => {
                hermite(self.p0, self.p1, self.d0, self.d1, self.len, t)
            }
            // CON holds p0 until the end; KEY emits its value once and then does not update.
            _ => self.p0,
        }
    }
}

/// A whole track ready to sample.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Curve {
    /// Value before the first segment (the first key's).
    pub first: f32,
    /// Segments in frame order.
    pub segments: Vec<Segment>,
}

impl Curve {
    /// Replays keys the way `FObjLoadData` loads them: each value key shifts `p0 ← p1, p1 ←
    /// value`; SPL0/SPL shift the tangents (`d0 ← d1, d1 ← slope or 0`); CON/LIN/KEY shift them
    /// only when the previous key was not SLP, so an SLP's slope becomes the outgoing tangent
    /// `d0` of the next spline segment.
    ///
    /// The segment from key k to key k+1 runs over key k's wait with **key k's** opcode. One
    /// reading has the end key govern, unvalidated; the decompiled runtime assigns
    /// `op_intrp = op` before loading the next key, so the start key governs (C-29;
    /// pinned by `lin_then_con_is_linear`).
    pub fn new(keys: &[Key]) -> Curve {
        let (mut p1, mut d0, mut d1) = (0.0f32, 0.0f32, 0.0f32);
        let mut prev: Option<(Op, f32)> = None; // governing op and wait of the last value key
        let mut last_op = Op::NONE;
        let mut frame = 0.0f32;
        let mut curve = Curve::default();
        for k in keys {
            if k.op == Op::SLP {
                d0 = d1;
                d1 = k.slope.unwrap_or(0.0);
                last_op = Op::SLP;
                continue;
            }
            let value = k.value.unwrap_or(0.0);
            let p0 = p1;
            p1 = value;
            match k.op {
                Op::SPL0 | Op::SPL => {
                    d0 = d1;
                    d1 = if k.op == Op::SPL {
                        k.slope.unwrap_or(0.0)
                    } else {
                        0.0
                    };
                }
                _ if last_op != Op::SLP => {
                    d0 = d1;
                    d1 = 0.0;
                }
                _ => {}
            }
            match prev {
                None => curve.first = value,
                Some((op, len)) => {
                    curve.segments.push(Segment {
                        start: frame,
                        len,
                        op,
                        p0,
                        p1,
                        d0,
                        d1,
                    });
                    frame += len;
                }
            }
            prev = Some((k.op, k.wait.unwrap_or(0) as f32));
            last_op = k.op;
        }
        curve
    }

    /// The value at track time `t` (before the first key: its value; after the last: the last).
    pub fn eval(&self, t: f32) -> f32 {
        let i = self.segments.partition_point(|s| s.start <= t);
        match i.checked_sub(1).and_then(|i| self.segments.get(i)) {
            Some(s) => s.eval(t - s.start),
            None => self.first,
        }
    }
}

/// Joint track ids (`HSD_A_J_*`) this sampler applies: rotation X/Y/Z 1–3, translation 5–7,
/// scale 8–10.
fn joint_channel(track: u8) -> Option<(usize, usize)> {
    match track {
        1..=3 => Some((0, usize::from(track - 1))),
        5..=7 => Some((2, usize::from(track - 5))),
        8..=10 => Some((1, usize::from(track - 8))),
        _ => None,
    }
}

impl Archive<'_> {
    /// The curves of an AObj's tracks: `(track id, start frame, curve)` per FObj.
    pub fn curves(&self, aobj: u32) -> Result<Vec<(u8, f32, Curve)>> {
        let a: AObj = self.read(aobj)?;
        let mut seen = Visited::new(self.limits());
        let mut out = Vec::new();
        let mut next = a.fobj;
        while let Some(o) = next {
            if !seen.visit(u64::from(o))? {
                break;
            }
            let f: FObj = self.read(o)?;
            out.push((f.track, f.start_frame, Curve::new(&self.keys(o)?)));
            next = f.next;
        }
        Ok(out)
    }

    /// World matrices of the joint tree at `joint` posed by the AnimJoint tree at `anim` at
    /// `frame` (see [`JointAnimation`]; build one with [`Archive::joint_animation`] to sample
    /// many frames).
    pub fn sample_anim_joint(&self, joint: u32, anim: Option<u32>, frame: f32) -> Result<Vec<Mtx>> {
        Ok(self.joint_animation(joint, anim)?.sample(frame))
    }

    /// Pairs the joint tree at `joint` with the AnimJoint tree at `anim` (walked in parallel:
    /// child with child, next with next) and decodes every joint's curves once.
    pub fn joint_animation(&self, joint: u32, anim: Option<u32>) -> Result<JointAnimation> {
        self.joint_animation_from(joint, self, anim)
    }

    /// [`Archive::joint_animation`] with the AnimJoint tree read from `source`: an
    /// animation-only archive (a motion file) posing this archive's joint tree.
    pub fn joint_animation_from(
        &self,
        joint: u32,
        source: &Archive<'_>,
        anim: Option<u32>,
    ) -> Result<JointAnimation> {
        let mut joints = Vec::new();
        let mut seen = Visited::new(self.limits());
        // (joint, anim joint, parent index, depth)
        let mut stack = vec![(joint, anim, None, 0u32)];
        while let Some((j, a, parent, depth)) = stack.pop() {
            self.limits()
                .check_depth(depth, self.data().abs(j as usize))?;
            if !seen.visit(u64::from(j))? {
                continue;
            }
            let jt: Joint = self.read(j)?;
            let aj: Option<AnimJoint> = a.map(|a| source.read(a)).transpose()?;
            let mut channels = Vec::new();
            if let Some(aobj) = aj.and_then(|a| a.aobj) {
                for (track, start, curve) in source.curves(aobj)? {
                    if let Some((v, axis)) = joint_channel(track) {
                        channels.push((v, axis, start, curve));
                    }
                }
            }
            let index = joints.len();
            // HSD_JObjAddAnim: an AnimJoint's bit 0 sets or clears the joint's classical scale.
            let anim_flags = aj.map(|a| a.flags);
            let classical = match anim_flags {
                Some(f) => f & 1 != 0,
                None => jt.flags.contains(JointFlags::CLASSICAL_SCALE),
            };
            joints.push(AnimatedJoint {
                offset: j,
                parent,
                rest: [jt.rotation, jt.scale, jt.translation],
                classical,
                anim_flags,
                aobj: aj.and_then(|a| a.aobj),
                channels,
            });
            // Next pushed first so the child subtree comes out before the siblings (pre-order).
            if let Some(n) = jt.next {
                stack.push((n, aj.and_then(|a| a.next), parent, depth));
            }
            if let Some(c) = jt.child {
                stack.push((c, aj.and_then(|a| a.child), Some(index), depth + 1));
            }
        }
        Ok(JointAnimation { joints })
    }
}

/// One joint of a [`JointAnimation`].
#[derive(Debug, Clone, PartialEq)]
pub struct AnimatedJoint {
    /// Data offset of the joint.
    pub offset: u32,
    /// Index of the parent in [`JointAnimation::joints`].
    pub parent: Option<usize>,
    /// Rest rotation, scale, translation.
    pub rest: [[f32; 3]; 3],
    /// Whether the joint passes its parent's accumulated scale on unchanged while posed
    /// (`JOBJ_CLASSICAL_SCALE`, as its AnimJoint's flag bit 0 sets it; [`crate::pose`]).
    pub classical: bool,
    /// The flags word of the joint's AnimJoint (`None` without one).
    pub anim_flags: Option<u32>,
    /// The AObj of the joint's AnimJoint (data offset in the animation's archive).
    pub aobj: Option<u32>,
    /// Animated channels: (0 rotation / 1 scale / 2 translation, axis, start frame, curve).
    pub channels: Vec<(usize, usize, f32, Curve)>,
}

/// A joint tree with its decoded animation, ready to sample.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JointAnimation {
    /// Joints in pre-order (parents first).
    pub joints: Vec<AnimatedJoint>,
}

impl JointAnimation {
    /// World matrices at `frame`, in joint pre-order (the order of [`crate::Graph::joints`] for
    /// one root). Untracked channels keep the rest pose; a track is read at
    /// `frame + start_frame`; composed as the runtime does, with its scale inheritance
    /// ([`crate::pose`], like [`Archive::world_matrices`]).
    pub fn sample(&self, frame: f32) -> Vec<Mtx> {
        self.pose(&self.values(frame)).world
    }

    /// The runtime's pose of every joint at the given [`JointAnimation::values`]: world matrices
    /// and accumulated scales ([`crate::pose`]).
    pub fn pose(&self, values: &[[[f32; 3]; 3]]) -> Pose {
        let mut pose = Pose::default();
        for (j, v) in self.joints.iter().zip(values) {
            pose.push(j.parent, *v, j.classical);
        }
        pose
    }

    /// Each joint's rotation, scale and translation at `frame`, in joint pre-order: the rest
    /// values with tracked channels replaced by their curves' values.
    pub fn values(&self, frame: f32) -> Vec<[[f32; 3]; 3]> {
        self.joints
            .iter()
            .map(|j| {
                let mut v = j.rest;
                for (which, axis, start, curve) in &j.channels {
                    if let Some(slot) = v.get_mut(*which).and_then(|x| x.get_mut(*axis)) {
                        *slot = curve.eval(frame + start);
                    }
                }
                v
            })
            .collect()
    }

    /// Local matrices at `frame`, in joint pre-order: [`JointAnimation::values`] composed
    /// `T·Rz·Ry·Rx·S` without the parent's accumulated scale (what glTF export writes per
    /// frame).
    pub fn locals(&self, frame: f32) -> Vec<Mtx> {
        self.values(frame)
            .into_iter()
            .map(|[r, s, t]| srt(r, s, t))
            .collect()
    }
}

/// One FObj with its stream decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// Data offset of the FObj.
    pub offset: u32,
    /// Track id (`HSD_A_J_*`, `HSD_A_M_*`, `HSD_A_T_*`, …).
    pub track: u8,
    /// Start frame (the track is read at `frame + start_frame`).
    pub start_frame: f32,
    /// Value format.
    pub frac_value: u8,
    /// Slope format.
    pub frac_slope: u8,
    /// The keys, in their packs.
    pub packs: Vec<Pack>,
}

impl Track {
    /// The keys in order.
    pub fn keys(&self) -> Vec<Key> {
        self.packs
            .iter()
            .flat_map(|p| p.keys.iter().copied())
            .collect()
    }

    /// The curve to sample.
    pub fn curve(&self) -> Curve {
        Curve::new(&self.keys())
    }

    /// The stream bytes (byte-exact for a decoded stream).
    pub fn encode(&self) -> Result<Vec<u8>> {
        encode_packs(&self.packs, self.frac_value, self.frac_slope)
    }
}

/// An AObj with its tracks.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// Data offset of the AObj.
    pub offset: u32,
    /// Flags (LOOP, …).
    pub flags: AObjFlags,
    /// Last frame.
    pub end_frame: f32,
    /// Tracks in FObj list order.
    pub tracks: Vec<Track>,
}

/// One animation a tree node carries, with the texture animations hanging off it (MatAnim).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnimSlot {
    /// The animation (none when the slot has no AObj).
    pub animation: Option<Animation>,
    /// TexAnims: (GXTexMapID, animation, image count, palette count).
    pub textures: Vec<(u32, Option<Animation>, u16, u16)>,
}

/// A node of an AnimJoint / MatAnimJoint / ShapeAnimJoint tree, mirroring the joint tree.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnimNode {
    /// Data offset of the node.
    pub offset: u32,
    /// AnimJoint: one slot; MatAnimJoint: one per MatAnim (parallel to the joint's DObjs);
    /// ShapeAnimJoint: one per ShapeAnim of each ShapeAnimDObj.
    pub slots: Vec<AnimSlot>,
    /// Child nodes in `child`/`next` order.
    pub children: Vec<AnimNode>,
}

/// Which animation tree a root is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeKind {
    /// `AnimJoint`.
    Joint,
    /// `MatAnimJoint`.
    Material,
    /// `ShapeAnimJoint`.
    Shape,
}

impl Archive<'_> {
    /// The AObj at `off` with every track decoded.
    pub fn animation(&self, off: u32) -> Result<Animation> {
        let a: AObj = self.read(off)?;
        let mut seen = Visited::new(self.limits());
        let mut tracks = Vec::new();
        let mut next = a.fobj;
        while let Some(o) = next {
            if !seen.visit(u64::from(o))? {
                break;
            }
            let f: FObj = self.read(o)?;
            let packs = match f.data {
                Some(d) => decode_packs(
                    &self.data().sub(d as usize, f.length as usize)?,
                    f.frac_value,
                    f.frac_slope,
                )?,
                None => Vec::new(),
            };
            tracks.push(Track {
                offset: o,
                track: f.track,
                start_frame: f.start_frame,
                frac_value: f.frac_value,
                frac_slope: f.frac_slope,
                packs,
            });
            next = f.next;
        }
        Ok(Animation {
            offset: off,
            flags: a.flags,
            end_frame: a.end_frame,
            tracks,
        })
    }

    fn slot(&self, aobj: Option<u32>) -> Result<AnimSlot> {
        Ok(AnimSlot {
            animation: aobj.map(|o| self.animation(o)).transpose()?,
            textures: Vec::new(),
        })
    }

    /// The animation tree rooted at `root` (the root and its `next` siblings), decoded.
    pub fn anim_tree(&self, root: u32, kind: TreeKind) -> Result<Vec<AnimNode>> {
        let mut seen = Visited::new(self.limits());
        self.anim_siblings(root, kind, 0, &mut seen)
    }

    fn anim_siblings(
        &self,
        first: u32,
        kind: TreeKind,
        depth: u32,
        seen: &mut Visited,
    ) -> Result<Vec<AnimNode>> {
        self.limits()
            .check_depth(depth, self.data().abs(first as usize))?;
        let mut out = Vec::new();
        let mut next = Some(first);
        while let Some(o) = next {
            if !seen.visit(u64::from(o))? {
                break;
            }
            let (child, sib, slots) = match kind {
                TreeKind::Joint => {
                    let a: AnimJoint = self.read(o)?;
                    (a.child, a.next, vec![self.slot(a.aobj)?])
                }
                TreeKind::Material => {
                    let a: MatAnimJoint = self.read(o)?;
                    let mut slots = Vec::new();
                    let mut m = a.matanim;
                    while let Some(mo) = m {
                        if !seen.visit(u64::from(mo))? {
                            break;
                        }
                        let ma: MatAnim = self.read(mo)?;
                        let mut slot = self.slot(ma.aobj)?;
                        let mut t = ma.texanim;
                        while let Some(to) = t {
                            if !seen.visit(u64::from(to))? {
                                break;
                            }
                            let ta: TexAnim = self.read(to)?;
                            let anim = ta.aobj.map(|x| self.animation(x)).transpose()?;
                            slot.textures
                                .push((ta.id, anim, ta.n_images, ta.n_palettes));
                            t = ta.next;
                        }
                        slots.push(slot);
                        m = ma.next;
                    }
                    (a.child, a.next, slots)
                }
                TreeKind::Shape => {
                    let a: ShapeAnimJoint = self.read(o)?;
                    let mut slots = Vec::new();
                    let mut d = a.dobj;
                    while let Some(dobj) = d {
                        if !seen.visit(u64::from(dobj))? {
                            break;
                        }
                        let sd: ShapeAnimDObj = self.read(dobj)?;
                        let mut s = sd.shape_anim;
                        while let Some(so) = s {
                            if !seen.visit(u64::from(so))? {
                                break;
                            }
                            let sa: ShapeAnim = self.read(so)?;
                            slots.push(self.slot(sa.aobj)?);
                            s = sa.next;
                        }
                        d = sd.next;
                    }
                    (a.child, a.next, slots)
                }
            };
            let children = match child {
                Some(c) => self.anim_siblings(c, kind, depth + 1, seen)?,
                None => Vec::new(),
            };
            out.push(AnimNode {
                offset: o,
                slots,
                children,
            });
            next = sib;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(op: Op, value: f32, slope: Option<f32>, wait: u32) -> Key {
        Key {
            op,
            value: Some(value),
            slope,
            wait: Some(wait),
        }
    }

    fn close(a: f32, b: f32) {
        assert!((a - b).abs() < 1e-5, "{a} vs {b}");
    }

    /// Reference C-29: `[LIN v0 w=10][CON v1 w=0]` is linear over 0..10 (start key governs).
    #[test]
    fn lin_then_con_is_linear() {
        let c = Curve::new(&[key(Op::LIN, 2.0, None, 10), key(Op::CON, 7.0, None, 0)]);
        close(c.eval(0.0), 2.0);
        close(c.eval(2.5), 3.25);
        close(c.eval(10.0), 7.0);
        close(c.eval(99.0), 7.0);
        close(c.eval(-1.0), 2.0);
        // And the reverse: CON governs, holding 2.0 until the end key.
        let c = Curve::new(&[key(Op::CON, 2.0, None, 10), key(Op::LIN, 7.0, None, 0)]);
        close(c.eval(9.5), 2.0);
        close(c.eval(10.0), 7.0);
    }

    /// SPL keys 0 (slope 1) → 10 (slope 0) over 4 frames, by hand: at t = 1, u = 0.25,
    /// h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = −0.046875:
    /// 0·h00 + 1·4·h10 + 10·h01 + 0 = 0.5625 + 1.5625 = 2.125.
    #[test]
    fn hermite_by_hand() {
        let c = Curve::new(&[
            key(Op::SPL, 0.0, Some(1.0), 4),
            key(Op::SPL, 10.0, Some(0.0), 0),
        ]);
        close(c.eval(1.0), 2.125);
        // u = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5 → 0.5 + 5 = 5.5.
        close(c.eval(2.0), 5.5);
        close(c.eval(4.0), 10.0);
        // SPL0: zero tangents, u = 0.5 → midpoint.
        let c = Curve::new(&[key(Op::SPL0, 0.0, None, 4), key(Op::SPL0, 10.0, None, 0)]);
        close(c.eval(2.0), 5.0);
        // u = 0.25: 10 · h01 = 1.5625.
        close(c.eval(1.0), 1.5625);
    }

    /// An SLP before key k+1 replaces the tangent leaving key k: SPL0 0 (w 4), SLP 2, SPL0 10.
    /// Segment d0 = 2, d1 = 0: at u = 0.25, 2·4·0.140625 + 10·0.15625 = 1.125 + 1.5625 = 2.6875.
    #[test]
    fn slp_overrides_outgoing_tangent() {
        let slp = Key {
            op: Op::SLP,
            value: None,
            slope: Some(2.0),
            wait: None,
        };
        let c = Curve::new(&[
            key(Op::SPL0, 0.0, None, 4),
            slp,
            key(Op::SPL0, 10.0, None, 0),
        ]);
        assert_eq!((c.segments[0].d0, c.segments[0].d1), (2.0, 0.0));
        close(c.eval(1.0), 2.6875);
    }

    /// T·Rz·Ry·Rx·S with a quarter turn about Z and scale 2 on X: x̂ → 2ŷ, then translated.
    #[test]
    fn srt_order() {
        let m = srt(
            [0.0, 0.0, std::f32::consts::FRAC_PI_2],
            [2.0, 1.0, 1.0],
            [1.0, 2.0, 3.0],
        );
        let p = crate::mesh::apply(&m, [1.0, 0.0, 0.0]);
        close(p[0], 1.0);
        close(p[1], 4.0);
        close(p[2], 3.0);
        // Rx then Rz: ŷ → ẑ (Rx 90°) → ẑ (Rz leaves it).
        let h = std::f32::consts::FRAC_PI_2;
        let p = crate::mesh::apply(&srt([h, 0.0, h], [1.0; 3], [0.0; 3]), [0.0, 1.0, 0.0]);
        close(p[0], 0.0);
        close(p[1], 0.0);
        close(p[2], 1.0);
    }
}
