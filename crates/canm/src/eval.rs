//! Evaluation at a frame, as the game's accessors compute it (`KeyCamAnmDataAccessor` for CKAN,
//! `CamAnmDataAccessor` for CANM in the Super Mario Galaxy decompilation).
//!
//! CKAN: a track of one key is a constant. Otherwise the segment is found by an upper-bound
//! search over the key times (the last key whose time is ≤ the frame), and the value is a cubic
//! Hermite curve between that key and the next: with `s = (f − t0) / (t1 − t0)`,
//! `v = h00(s)·p0 + h01(s)·p1 + (t1 − t0)·(h10(s)·m0 + h11(s)·m1) / 30`, tangents being stored
//! per 30 frames. `m0` is the key's tangent (3-float keys) or its out tangent (4-float keys);
//! `m1` is the next key's (in) tangent.
//!
//! Where the game reads outside the track (a frame before the first key, or at or after the
//! last: it then reads the record that follows in the shared table), this evaluator holds the
//! first or last key's value instead; the validator reports tracks that allow such frames
//! (CANM-006, CANM-008). CANM: value `floor(f)` and the next, linearly interpolated, held at the
//! ends.

use crate::model::{Canm, Kind};

/// The camera at one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Camera position.
    pub pos: [f32; 3],
    /// The point looked at.
    pub watch: [f32; 3],
    /// Roll.
    pub twist: f32,
    /// Vertical field of view in degrees.
    pub fovy: f32,
}

/// Cubic Hermite between (t0, p0) with tangent m0 and (t1, p1) with tangent m1 (per 30 frames).
pub fn hermite(f: f32, t0: f32, p0: f32, m0: f32, t1: f32, p1: f32, m1: f32) -> f32 {
    let dt = t1 - t0;
    if dt == 0.0 {
        return p1;
    }
    let s = (f - t0) / dt;
    let s2 = s * s;
    let s3 = s2 * s;
    let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
    let h01 = -2.0 * s3 + 3.0 * s2;
    let h10 = s3 - 2.0 * s2 + s;
    let h11 = s3 - s2;
    h00 * p0 + h01 * p1 + dt * (h10 * m0 + h11 * m1) / 30.0
}

/// Track `i` at frame `f`; `None` when the track is empty or its values run past the table.
pub fn track(anim: &Canm, i: usize, f: f32) -> Option<f32> {
    let t = anim.tracks.get(i)?;
    let v = anim.track_values(i)?;
    if t.count == 1 {
        return v.first().copied();
    }
    match anim.kind {
        Kind::Canm => {
            let last = v.len().checked_sub(1)?;
            let x = f.clamp(0.0, last as f32);
            let i0 = (x as usize).min(last);
            let i1 = (i0 + 1).min(last);
            let frac = x - i0 as f32;
            let (a, b) = (*v.get(i0)?, *v.get(i1)?);
            Some(a + (b - a) * frac)
        }
        Kind::Ckan => {
            let stride = t.stride(anim.kind);
            let key = |k: usize| v.get(k * stride..k * stride + stride);
            let count = v.len() / stride;
            // Upper bound: the first key whose time is greater than f (binary search, as the
            // game's `searchKeyFrameIndex`).
            let (mut lo, mut hi) = (0, count);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if key(mid).and_then(<[f32]>::first).is_some_and(|&kt| kt <= f) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if lo == 0 {
                return key(0)?.get(1).copied();
            }
            let k0 = key(lo - 1)?;
            let Some(k1) = key(lo) else {
                return k0.get(1).copied();
            };
            let m0 = if stride == 3 {
                *k0.get(2)?
            } else {
                *k0.get(3)?
            };
            Some(hermite(
                f,
                *k0.first()?,
                *k0.get(1)?,
                m0,
                *k1.first()?,
                *k1.get(1)?,
                *k1.get(2)?,
            ))
        }
    }
}

/// Every track at frame `f`; `None` when one cannot be evaluated.
pub fn pose(anim: &Canm, f: f32) -> Option<Pose> {
    let g = |i| track(anim, i, f);
    Some(Pose {
        pos: [g(0)?, g(1)?, g(2)?],
        watch: [g(3)?, g(4)?, g(5)?],
        twist: g(6)?,
        fovy: g(7)?,
    })
}
