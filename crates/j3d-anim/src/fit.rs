//! Animations built from sampled values — what an importer (glTF → BCK) has after sampling its
//! source at every frame: each track is fitted to Hermite keys with [`gx::curve`] and stored as
//! Nintendo's tools store them (a constant as one value without slopes, tangent mode 0 unless
//! split in/out slopes take fewer values, every value run looked up in its table before it is
//! appended, the rotation exponent the smallest that holds the angles).

use gcio::{Error, Result};
use gx::curve::{Fit, Key};

use crate::eval::rotation_unit;
use crate::model::{Anim, Data, KeyTrack};
use crate::schema::Kind;

/// One joint's local transform at frames 0, 1, …: scale, Euler rotation in radians (J3D order:
/// `T · Rz · Ry · Rx · S`, see `gx::mtx::decompose_srt`) and translation. A track shorter than
/// the animation holds its last value; an empty one is the rest value (scale 1, else 0).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JointSamples {
    /// Scale X, Y, Z per frame.
    pub scale: Vec<[f32; 3]>,
    /// Rotation X, Y, Z per frame, radians.
    pub rotation: Vec<[f32; 3]>,
    /// Translation X, Y, Z per frame.
    pub translation: Vec<[f32; 3]>,
}

/// How far the stored curves may stray from the samples, at every sample frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// Scale (absolute).
    pub scale: f32,
    /// Rotation, radians per Euler angle.
    pub rotation: f32,
    /// Translation, model units.
    pub translation: f32,
}

impl Default for Tolerance {
    /// 0.001 scale, 0.001 rad (0.06°), 0.01 units: below what shows on screen.
    fn default() -> Self {
        Tolerance {
            scale: 1e-3,
            rotation: 1e-3,
            translation: 1e-2,
        }
    }
}

/// The largest stored rotation value (i16).
const I16_MAX: f32 = 32767.0;

/// Float slack between the fitter's curve in rotation units and the game's in degrees (the
/// evaluator multiplies each value by the unit before interpolating): the fit keeps this much
/// of the tolerance, in units, in reserve.
const UNIT_SLACK: f32 = 0.02;

/// A BCK (keyed joint animation) of `joints` in joint order with loop mode `loop_mode` (0 once,
/// 1 once and reset, 2 repeat, 3 mirrored once, 4 mirrored repeat): its duration is the longest
/// track's last frame, each track the fewest keys the fitter finds within `tol`.
///
/// Rotation tracks are unwrapped (each angle within half a turn of the one before) and moved by
/// whole turns so their range is centred on 0, then stored as i16 units of
/// `2^decimal × 180 / 32768` degrees with the smallest `decimal` that holds every angle — or,
/// when half that step would pass the tolerance, the largest that does not, a track that
/// leaves its range jumping back by whole turns between two frames.
/// Errors: samples that are not finite, more than 0x8000 frames or 0xFFFF joints, a table
/// past 0xFFFF values, or a rotation tolerance finer than half the finest stored step.
pub fn bck(joints: &[JointSamples], loop_mode: u8, tol: Tolerance) -> Result<Anim> {
    let frames = joints
        .iter()
        .flat_map(|j| [j.scale.len(), j.rotation.len(), j.translation.len()])
        .max()
        .unwrap_or(0)
        .max(1);
    if frames > 0x8000 {
        return Err(Error::message(format!(
            "{frames} frames: a BCK's duration is an s16"
        )));
    }
    if joints.len() > 0xFFFF {
        return Err(Error::message(format!(
            "{} joints: the count is a u16",
            joints.len()
        )));
    }
    let finite = joints.iter().all(|j| {
        [&j.scale, &j.rotation, &j.translation]
            .iter()
            .all(|t| t.iter().flatten().all(|v| v.is_finite()))
    });
    if !finite {
        return Err(Error::message("a sample is not finite"));
    }
    // Per joint, per axis: the rotation track in degrees, unwrapped and centred.
    let mut rotations: Vec<[Vec<f32>; 3]> = joints
        .iter()
        .map(|j| std::array::from_fn(|axis| degrees(&axis_of(&j.rotation, axis))))
        .collect();
    let widest = rotations
        .iter()
        .flatten()
        .flatten()
        .fold(0f32, |m, v| m.max(v.abs()));
    // The finest exponent that holds every angle, unless its step passes the tolerance: then the
    // coarsest the tolerance allows, with tracks that leave its range wrapped back by whole turns
    // between two frames (as Nintendo's tools store a spin).
    let fits_tol = |d: u8| tol.rotation.to_degrees() / rotation_unit(d) - UNIT_SLACK >= 0.5;
    let coarsest = (0..=15u8).rev().find(|&d| fits_tol(d)).ok_or_else(|| {
        Error::message(format!(
            "rotation tolerance {} rad is below half the finest stored step ({} rad)",
            tol.rotation,
            (rotation_unit(0) / 2.0).to_radians()
        ))
    })?;
    let decimal = (0..coarsest)
        .find(|&d| widest / rotation_unit(d) <= I16_MAX)
        .unwrap_or(coarsest);
    let unit = rotation_unit(decimal);
    for t in rotations.iter_mut().flatten() {
        wrap(t, I16_MAX * unit);
    }
    let rot_tol = tol.rotation.to_degrees() / unit - UNIT_SLACK;
    let round = |x: f32| x.round().clamp(-32768.0, I16_MAX);
    let fits = [
        Fit::new(tol.scale),
        Fit {
            tol: rot_tol,
            quantize: &round,
        },
        Fit::new(tol.translation),
    ];
    let mut tables: [Vec<f32>; 3] = Default::default();
    let mut entries = Vec::with_capacity(joints.len());
    for (j, rot) in joints.iter().zip(&rotations) {
        let mut entry = [KeyTrack::default(); 9];
        for (c, slot) in entry.iter_mut().enumerate() {
            let (part, axis) = (c % 3, c / 3);
            let samples = match part {
                0 => axis_or(&j.scale, axis, 1.0),
                1 => rot
                    .get(axis)
                    .map(|t| t.iter().map(|v| v / unit).collect())
                    .unwrap_or_default(),
                _ => axis_or(&j.translation, axis, 0.0),
            };
            let (Some(fit), Some(table)) = (fits.get(part), tables.get_mut(part)) else {
                continue;
            };
            *slot = store(table, &fit_track(fit, &samples))?;
        }
        entries.push(entry);
    }
    let [scales, rots, trans] = tables;
    Ok(Anim::with_tool_layout(
        Kind::Bck,
        &[
            ("loop_mode", u32::from(loop_mode)),
            ("rotation_decimal", u32::from(decimal)),
            ("duration", (frames - 1) as u32),
        ],
        vec![
            Data::KeySrt(entries),
            Data::F32(scales),
            Data::I16(rots.into_iter().map(|v| round(v) as i16).collect()),
            Data::F32(trans),
        ],
    ))
}

/// Component `axis` of a per-frame triple track.
fn axis_of(track: &[[f32; 3]], axis: usize) -> Vec<f32> {
    track
        .iter()
        .map(|v| v.get(axis).copied().unwrap_or(0.0))
        .collect()
}

/// [`axis_of`], or the rest value when the track is empty.
fn axis_or(track: &[[f32; 3]], axis: usize, rest: f32) -> Vec<f32> {
    if track.is_empty() {
        vec![rest]
    } else {
        axis_of(track, axis)
    }
}

/// Radians to degrees, unwrapped and moved by whole turns so the range is centred on 0.
fn degrees(radians: &[f32]) -> Vec<f32> {
    if radians.is_empty() {
        return vec![0.0];
    }
    let mut r = radians.to_vec();
    gx::curve::unwrap_angles(&mut r);
    let (lo, hi) = r
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    let shift = gx::curve::nearest_turn(lo + (hi - lo) / 2.0, 0.0) - (lo + (hi - lo) / 2.0);
    r.iter().map(|v| (v + shift).to_degrees()).collect()
}

/// Moves the angles of `track` (degrees) that pass `limit` back by whole turns, keeping every
/// later angle moved with them until the next pass, so the track stays continuous between its
/// wraps.
fn wrap(track: &mut [f32], limit: f32) {
    let mut offset = 0.0;
    for v in track.iter_mut() {
        if (*v - offset).abs() > limit {
            offset = (*v / 360.0).round() * 360.0;
        }
        *v -= offset;
    }
}

/// The keys of a track and its tangent mode: the fewer stored values of shared slopes (3 a key)
/// and split slopes (4 a key, or 3 when every key's slopes agree); shared on a tie.
fn fit_track(fit: &Fit<'_>, samples: &[f32]) -> (Vec<Key>, u16) {
    let shared = fit.shared(samples);
    let split = fit.split(samples);
    let agree = split.iter().all(|k| k.in_slope == k.out_slope);
    let cost = |n: usize, per: usize| if n == 1 { 1 } else { n * per };
    if cost(split.len(), if agree { 3 } else { 4 }) < cost(shared.len(), 3) {
        let mode = u16::from(!agree);
        (split, mode)
    } else {
        (shared, 0)
    }
}

/// The track of `keys` in `table`: its values (one for a constant; frame, value, slope(s) per
/// key otherwise) found as a run already in the table, or appended.
fn store(table: &mut Vec<f32>, (keys, mode): &(Vec<Key>, u16)) -> Result<KeyTrack> {
    let run: Vec<f32> = match keys.as_slice() {
        [k] => vec![k.value],
        _ => keys
            .iter()
            .flat_map(|k| {
                let out = (*mode == 1).then_some(k.out_slope);
                [k.frame, k.value, k.in_slope].into_iter().chain(out)
            })
            .collect(),
    };
    if run.is_empty() {
        return Ok(KeyTrack::default());
    }
    let index = match table.windows(run.len()).position(|w| w == run.as_slice()) {
        Some(i) => i,
        None => {
            table.extend_from_slice(&run);
            table.len() - run.len()
        }
    };
    let count = keys.len();
    let too_big = |what: &str, n: usize| Error::message(format!("{what} {n} past a u16"));
    Ok(KeyTrack {
        count: u16::try_from(count).map_err(|_| too_big("key count", count))?,
        index: u16::try_from(index).map_err(|_| too_big("value index", index))?,
        tangent: if count == 1 { 0 } else { *mode },
    })
}
