//! Joint animations: each glTF animation ([`gx::scene::Clip`]) becomes an AnimJoint tree
//! mirroring the joint tree. The clip is resampled at every frame (60 per second) and at its
//! own key times between frames to each
//! joint's local matrix, decomposed to Euler XYZ (continuous from frame to frame), scale (its
//! signs on the rest's axes) and translation as the runtime composes them; every component that moves off the joint's rest
//! value becomes an FObj of Hermite keys fitted within the tolerance
//! ([`super::ImportOptions::tolerance`], default [`TOLERANCE`]; `gx::curve`), a key's
//! outgoing slope an SLP key where it differs from the incoming one.

use gcio::Result;
use gx::curve::fit_hermite_at;
use gx::mtx::decompose_srt_signed;
use gx::scene::{Clip, Interpolation, Scene, Target as Channel};

use super::{Skeleton, inherit_of, inherited_scale};
use crate::build::Builder;
use crate::build::parts::{aobj, fobj};
use crate::extras::{self, JointAnimExtras, StoredAObj, StoredTrack};
use crate::field::Word;
use crate::flags::AObjFlags;
use crate::fobj::{Key, Op, encode, encode_packs};
use crate::model::Target;
use crate::types::{AObj, AnimJoint, FObj};

/// Default largest error of a fitted track at any frame (radians, scale units or model units).
pub const TOLERANCE: f32 = 1e-4;

/// Most frames an animation is resampled at.
const MAX_FRAMES: f32 = 100_000.0;

/// HSD joint track ids: rotation X/Y/Z, scale X/Y/Z, translation X/Y/Z (`HSD_A_J_*`),
/// in the order of a [`Skeleton::srt`] entry (rotation, scale, translation).
const TRACKS: [[u8; 3]; 3] = [[1, 2, 3], [8, 9, 10], [5, 6, 7]];

/// Per clip, one AnimJoint tree per joint tree ([`Roots`]) and the last end frame of its AObjs.
pub(super) fn animations(
    b: &mut Builder,
    scene: &Scene,
    skel: &Skeleton,
    tol: f32,
) -> Result<Vec<(Roots, f32)>> {
    let mut out = Vec::new();
    for clip in &scene.clips {
        out.push(tree(b, scene, skel, clip, tol)?);
    }
    Ok(out)
}

/// The last key time of `clip`'s node channels, in frames.
fn last_frame(clip: &Clip) -> f32 {
    clip.channels
        .iter()
        .filter(|c| !matches!(c.target, Channel::Pointer(_)))
        .flat_map(|c| c.times.last().copied())
        .fold(0.0f32, f32::max)
        * 60.0
}

/// The roots of a tree mirroring the joints, one per joint tree ([`Skeleton::tops`]); `None`
/// for a tree [`kept`] leaves out.
pub(super) type Roots = Vec<Option<Target>>;

/// Which joints a tree mirroring the joints has nodes for: every joint of a single tree; of a
/// forest (Melee's several models), the joints of each tree `animates` holds for one of its
/// joints — an animation tree poses its own joint tree alone, and 57 trees per clip of Melee's
/// main menu, mostly still, would outweigh the model.
pub(super) fn kept(skel: &Skeleton, animates: impl Fn(usize) -> bool) -> Vec<bool> {
    let n = skel.parent.len();
    if skel.tops().len() <= 1 {
        return vec![true; n];
    }
    let mut live = vec![false; n];
    for j in (0..n).filter(|&j| animates(j)) {
        if let Some(x) = live.get_mut(skel.top_of(j)) {
            *x = true;
        }
    }
    (0..n)
        .map(|j| live.get(skel.top_of(j)).copied().unwrap_or(false))
        .collect()
}

/// The [`Roots`] of the mirror trees whose nodes are `slots` (one per joint, `None` where not
/// [`kept`]).
pub(super) fn roots(skel: &Skeleton, slots: &[Option<Target>]) -> Result<Roots> {
    let tops = skel.tops();
    if tops.is_empty() {
        return Err(gcio::Error::message("no joint"));
    }
    Ok(tops
        .into_iter()
        .map(|t| slots.get(t).copied().flatten())
        .collect())
}

fn tree(
    b: &mut Builder,
    scene: &Scene,
    skel: &Skeleton,
    clip: &Clip,
    tol: f32,
) -> Result<(Roots, f32)> {
    let end = last_frame(clip).round().clamp(0.0, MAX_FRAMES);
    let sampled = sample_frames(clip, end);
    let stored = extras::read::<JointAnimExtras>(clip.extras.as_ref())
        .map(|x| x.curves)
        .unwrap_or_default();
    let times: Vec<f32> = sampled.iter().map(|f| f / 60.0).collect();
    let locals = scene.clip_locals(clip, &times);
    let n = skel.parent.len();
    let mut aobjs: Vec<Option<Target>> = vec![None; n];
    let mut first_animated = None;
    // The last frame of any AObj written: a stored AObj keeps its own end.
    let mut last = f32::NEG_INFINITY;
    let driven = |node: usize| {
        clip.channels
            .iter()
            .any(|c| c.node == node && !matches!(c.target, Channel::Pointer(_)))
    };
    for (node, frames) in locals.iter().enumerate() {
        let Some(x) = scene.nodes.get(node) else {
            continue;
        };
        // An extra node of the export's scale inheritance is no joint; below one, a node's
        // matrix is TRS(P∘t, R, P∘s) for the P it holds at that frame.
        if x.parent.is_some() && inherited_scale(x).is_some() {
            continue;
        }
        let inherit = x
            .parent
            .filter(|&p| scene.nodes.get(p).and_then(inherited_scale).is_some());
        let animated = driven(node) || inherit.is_some_and(driven);
        let j = skel.of_node(node);
        let Some(&(r0, s0, t0)) = skel.srt.get(j).filter(|_| animated) else {
            continue;
        };
        first_animated.get_or_insert(j);
        // Per frame: rotation (continuous), scale, translation.
        let mut near = r0;
        let mut samples = [
            [Vec::new(), Vec::new(), Vec::new()],
            [Vec::new(), Vec::new(), Vec::new()],
            [Vec::new(), Vec::new(), Vec::new()],
        ];
        // Scale signs follow the rest's, then the previous frame's: the runtime passes scale on
        // by axis ([`crate::pose`]), so a mirror must stay on its axis.
        let mut signs = s0;
        for (f, m) in frames.iter().enumerate() {
            let p = inherit
                .and_then(|h| locals.get(h)?.get(f))
                .map_or([1.0; 3], inherit_of);
            // A zero scale (its sign lost) counts as positive.
            let sign = |x: f32, p: f32| if x < 0.0 { -p } else { p };
            let hint = [
                sign(signs[0], p[0]),
                sign(signs[1], p[1]),
                sign(signs[2], p[2]),
            ];
            let (s, r, t) = decompose_srt_signed(m, near, hint);
            let (s, t) = (div(s, p), div(t, p));
            near = r;
            signs = s;
            for (v, values) in [r, s, t].iter().zip(samples.iter_mut()) {
                for (x, axis) in v.iter().zip(values.iter_mut()) {
                    axis.push(*x);
                }
            }
        }
        let rest = [r0, s0, t0];
        // The AObj our export recorded, where it still gives every sample.
        if let Some(c) = stored.iter().find(|c| c.node == node) {
            let ids = TRACKS.iter().flatten();
            let components: Vec<(u8, &[f32])> = ids
                .clone()
                .zip(samples.iter().flatten())
                .map(|(&id, v)| (id, v.as_slice()))
                .collect();
            let rest_of = |id: u8| {
                let mut pairs = ids.clone().zip(rest.iter().flatten());
                pairs.find(|x| *x.0 == id).map(|x| *x.1)
            };
            let rotation = |id: u8| TRACKS[0].contains(&id);
            if stored_fits(&c.aobj, &sampled, &components, rest_of, rotation, tol)
                && let Some(aobj) = write_stored(b, &c.aobj)?
            {
                if let Some(slot) = aobjs.get_mut(j) {
                    *slot = Some(aobj);
                }
                last = last.max(c.aobj.end_frame);
                continue;
            }
        }
        let mut next = None;
        for (which, values) in samples.iter().enumerate().rev() {
            for (axis, v) in values.iter().enumerate().rev() {
                let r = rest
                    .get(which)
                    .and_then(|x| x.get(axis))
                    .copied()
                    .unwrap_or(0.0);
                if v.iter().all(|x| (x - r).abs() <= tol * 0.1) {
                    continue;
                }
                let track = TRACKS
                    .get(which)
                    .and_then(|x| x.get(axis))
                    .copied()
                    .unwrap_or(0);
                let (stream, len) = keys(&sampled, v, tol)?;
                let k = b.keys((stream, len));
                next = Some(b.put(&fobj(track, next, k)));
            }
        }
        if let (Some(first), Some(slot)) = (next, aobjs.get_mut(j)) {
            *slot = Some(b.put(&aobj(end, first)));
            last = last.max(end);
        }
    }
    // An animation that moves nothing keeps its length: one constant track (the first
    // animated joint's rest X rotation) so the tree has an AObj with `end_frame`.
    if aobjs.iter().all(Option::is_none)
        && let Some(j) = first_animated
        && let Some(&(r, _, _)) = skel.srt.get(j)
    {
        let constant = vec![r[0]; times.len()];
        let k = b.keys(keys(&sampled, &constant, tol)?);
        let f = b.put(&fobj(TRACKS[0][0], None, k));
        if let Some(slot) = aobjs.get_mut(j) {
            *slot = Some(b.put(&aobj(end, f)));
            last = last.max(end);
        }
    }
    // Each AnimJoint's flags word: as our export recorded it, else the joint's classical bit
    // (HSD_JObjAddAnim sets or clears the joint's classical scale from bit 0; a joint the
    // original tree had no AnimJoint for kept its own).
    let mut words: Vec<u32> = (0..n)
        .map(|j| u32::from(skel.classical.get(j).copied().unwrap_or(false)))
        .collect();
    if let Some(x) = extras::read::<JointAnimExtras>(clip.extras.as_ref()) {
        for &[node, flags] in &x.anim_joint_flags {
            let j = usize::try_from(node).ok().filter(|&i| i < skel.from_nodes);
            if let Some(w) = j.and_then(|i| words.get_mut(skel.of_node(i))) {
                *w = flags;
            }
        }
    }
    // The AnimJoint tree mirrors the joint tree (children after parents, siblings in order).
    let keep = kept(skel, |j| aobjs.get(j).is_some_and(Option::is_some));
    let slots: Vec<Option<Target>> = keep
        .iter()
        .map(|&k| k.then(|| b.slot::<AnimJoint<Target>>()))
        .collect();
    let link = |k: Option<usize>| k.and_then(|k| slots.get(k).copied().flatten());
    for (j, (child, next)) in mirror_links(skel).into_iter().enumerate() {
        let aj = AnimJoint {
            child: link(child),
            next: link(next),
            aobj: aobjs.get(j).copied().flatten(),
            robj_anim: None,
            flags: words.get(j).copied().unwrap_or(0),
        };
        if let Some(&Some(at)) = slots.get(j) {
            b.set(at, &aj);
        }
    }
    // The tree's length is its AObjs' last end frame (Colosseum/XD's bound box counts it).
    Ok((
        roots(skel, &slots)?,
        if last.is_finite() { last } else { end },
    ))
}

/// Whether the AObj `stored` records still gives an animation's samples: for each `(track id,
/// values at frames)` of `samples`, the last FObj of that id, read at each frame plus its start
/// frame as the runtime reads it, within `tol` (relative above 1; modulo a turn where `turn`
/// says the track is a rotation), or, without such an FObj, every value at `rest` of the id.
/// An AObj ending past the last of `frames` (a shortened clip, or a hostile record: 2^31
/// frames made a Colosseum/XD bound box of 51 GB) is not the animation's.
pub(super) fn stored_fits(
    stored: &StoredAObj,
    frames: &[f32],
    samples: &[(u8, &[f32])],
    rest: impl Fn(u8) -> Option<f32>,
    turn: impl Fn(u8) -> bool,
    tol: f32,
) -> bool {
    let last = frames.iter().copied().fold(0.0f32, f32::max);
    if !(0.0..=last).contains(&stored.end_frame) {
        return false;
    }
    let close = |a: f32, b: f32, turn: bool| {
        let d = if turn {
            let x = (a - b).rem_euclid(std::f32::consts::TAU);
            x.min(std::f32::consts::TAU - x)
        } else {
            (a - b).abs()
        };
        d <= tol * b.abs().max(1.0)
    };
    samples.iter().all(
        |&(id, values)| match stored.tracks.iter().rev().find(|t| t.track == id) {
            Some(t) => t.packs().is_some_and(|p| {
                let keys: Vec<Key> = p.iter().flat_map(|p| p.keys.iter().copied()).collect();
                let curve = crate::anim::Curve::new(&keys);
                frames
                    .iter()
                    .zip(values)
                    .all(|(f, v)| close(curve.eval(f + t.start_frame), *v, turn(id)))
            }),
            None => rest(id).is_some_and(|r| values.iter().all(|v| (v - r).abs() <= tol * 0.1)),
        },
    )
}

/// The AObj `stored` records, written as stored (`None` without FObjs, or when a key's wait
/// is no whole number).
pub(super) fn write_stored(b: &mut Builder, stored: &StoredAObj) -> Result<Option<Target>> {
    let Some(packs) = stored
        .tracks
        .iter()
        .map(StoredTrack::packs)
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(None);
    };
    let mut next = None;
    for (t, p) in stored.tracks.iter().zip(&packs).rev() {
        let mut stream = encode_packs(p, t.frac_value, t.frac_slope)?;
        let len =
            u32::try_from(stream.len()).map_err(|_| gcio::Error::message("track too long"))?;
        stream.resize(stream.len().next_multiple_of(4), 0);
        let (data, length) = b.keys((stream, len));
        next = Some(b.put(&FObj {
            next,
            length,
            start_frame: t.start_frame,
            track: t.track,
            frac_value: t.frac_value,
            frac_slope: t.frac_slope,
            pad: 0,
            data: Some(data),
        }));
    }
    Ok(next.map(|first| {
        b.put(&AObj {
            flags: AObjFlags::from_bits_retain(stored.flags),
            end_frame: stored.end_frame,
            fobj: Some(first),
            obj_id: Word::Value(0),
        })
    }))
}

/// Per joint: its first child and its next sibling (what a tree mirroring the joints links).
pub(super) fn mirror_links(skel: &Skeleton) -> Vec<(Option<usize>, Option<usize>)> {
    let n = skel.parent.len();
    let parent_of = |k: usize| skel.parent.get(k).copied().flatten();
    (0..n)
        .map(|j| {
            let child = (j + 1..n).find(|&c| parent_of(c) == Some(j));
            let next = (j + 1..n).find(|&s| parent_of(s) == parent_of(j) && parent_of(j).is_some());
            (child, next)
        })
        .collect()
}

/// The frames a clip is sampled at: every whole frame through `end`, and between them the
/// times the clip has keys at (a 24 fps clip keys every 2.5 frames) and, for a cubic clip,
/// every half frame, which the fit then holds too: keys go on whole frames only, and a game
/// playing at another rate shows the frames between. A linear clip is straight between its
/// keys, so its key times settle the frames between; a cubic one curves, and a fast turn
/// curves enough between two frames that a fit of whole frames alone is 2e-3 off at the half.
fn sample_frames(clip: &Clip, end: f32) -> Vec<f32> {
    let node = |c: &&gx::scene::Channel| !matches!(c.target, Channel::Pointer(_));
    let cubic = clip
        .channels
        .iter()
        .filter(node)
        .any(|c| c.interpolation == Interpolation::CubicSpline);
    let halves = (0..end as u32).filter(|_| cubic).map(|f| f as f32 + 0.5);
    let mut between: Vec<f32> = clip
        .channels
        .iter()
        .filter(node)
        .flat_map(|c| c.times.iter().map(|t| t * 60.0))
        .filter(|f| *f > 0.0 && *f < end && (f - f.round()).abs() > 1e-3)
        .chain(halves)
        .collect();
    between.sort_by(f32::total_cmp);
    between.dedup_by(|a, b| (*a - *b).abs() <= 1e-3);
    let mut frames: Vec<f32> = (0..=end as u32).map(|f| f as f32).collect();
    frames.extend(between);
    frames.sort_by(f32::total_cmp);
    frames
}

/// A keyframe stream (float values and slopes) for `samples` at `frames` (keys on the whole
/// ones), padded to 4, and its length.
pub(super) fn keys(frames: &[f32], samples: &[f32], tol: f32) -> Result<(Vec<u8>, u32)> {
    let fitted = fit_hermite_at(frames, samples, tol);
    let mut out = Vec::new();
    for (i, k) in fitted.iter().enumerate() {
        let wait = fitted
            .get(i + 1)
            .map_or(0, |n| (n.frame - k.frame).round().max(0.0) as u32);
        let slope = if i == 0 { k.out_slope } else { k.in_slope };
        out.push(Key {
            op: Op::SPL,
            value: Some(k.value),
            slope: Some(slope),
            wait: Some(wait),
        });
        if i > 0 && k.out_slope != k.in_slope && i + 1 < fitted.len() {
            out.push(Key {
                op: Op::SLP,
                value: None,
                slope: Some(k.out_slope),
                wait: None,
            });
        }
    }
    stream(&out, 0)
}

/// `keys` as a stream of numbers in format `frac_value` (0: floats), padded to 4, and its
/// length.
pub(super) fn stream(keys: &[Key], frac_value: u8) -> Result<(Vec<u8>, u32)> {
    let mut stream = encode(keys, frac_value, 0)?;
    let len = u32::try_from(stream.len()).map_err(|_| gcio::Error::message("track too long"))?;
    stream.resize(stream.len().next_multiple_of(4), 0);
    Ok((stream, len))
}

/// `v / p` by component.
fn div(v: [f32; 3], p: [f32; 3]) -> [f32; 3] {
    let [(a, x), (b, y), (c, z)] = [(v[0], p[0]), (v[1], p[1]), (v[2], p[2])];
    [a / x, b / y, c / z]
}
