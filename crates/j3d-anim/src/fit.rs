//! Animations built from sampled values — what an importer (glTF → BCK) has after sampling its
//! source at every frame: each track is fitted to Hermite keys with [`gx::curve`] and stored as
//! Nintendo's tools store them (a constant as one value without slopes, tangent mode 0 unless
//! split in/out slopes take fewer values — BTK and BRK tools always split them —, every value
//! run looked up in its table before it is appended, the rotation exponent the smallest that
//! holds the angles): [`bck`] for joints, [`btk`] for texture matrices, [`brk`] for TEV colours.

use gcio::{Error, Result};
use gx::curve::{Fit, Key};

use crate::eval::rotation_unit;
use crate::model::{Anim, Data, KeyTrack, Names};
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

impl JointSamples {
    /// The samples of a joint's local matrices at frames 0, 1, … (e.g. glTF TRS through
    /// `gx::mtx::from_trs`): each decomposed with `gx::mtx::decompose_srt`, its Euler angles
    /// nearest the previous frame's so the tracks stay continuous.
    pub fn from_matrices(frames: &[gx::mtx::Mtx34]) -> JointSamples {
        let mut out = JointSamples::default();
        let mut near = [0.0; 3];
        for m in frames {
            let (s, r, t) = gx::mtx::decompose_srt(m, near);
            out.scale.push(s);
            out.rotation.push(r);
            out.translation.push(t);
            near = r;
        }
        out
    }
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

/// Float slack between the fitter's curve in stored units and the game's (the evaluator
/// multiplies each rotation by its unit before interpolating): the fit of an i16 track keeps
/// this much of the tolerance, in units, in reserve.
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
    let srt = Srt::fit(joints.iter(), tol, Tangents::Fewest)?;
    Ok(Anim::with_tool_layout(
        Kind::Bck,
        &[
            ("loop_mode", u32::from(loop_mode)),
            ("rotation_decimal", u32::from(srt.decimal)),
            ("duration", srt.duration),
        ],
        vec![
            Data::KeySrt(srt.entries),
            Data::F32(srt.scales),
            Data::I16(srt.rotations),
            Data::F32(srt.translations),
        ],
    ))
}

/// One animated texture matrix of a BTK: the material (the game binds by name), which of its
/// texture matrices, and that matrix's S/T/Q scale, rotation and translation per frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TexMtxSamples {
    /// Material name.
    pub material: String,
    /// Texture matrix slot of the material (0–9).
    pub tex_mtx: u8,
    /// Centre of scaling and rotation in texture space (0.5 for the usual centre).
    pub center: [f32; 3],
    /// Scale, rotation (radians; Z turns the texture) and translation per frame.
    pub srt: JointSamples,
}

/// A BTK (texture matrix animation) of `mtxs`, fitted and stored as [`bck`] does, in the form
/// every retail BTK has: split slopes (tangent mode 1) on every track, material ids 0, 1, …
/// in entry order, calculation mode 0 and the `SVR1` header mark.
pub fn btk(mtxs: &[TexMtxSamples], loop_mode: u8, tol: Tolerance) -> Result<Anim> {
    let srt = Srt::fit(mtxs.iter().map(|m| &m.srt), tol, Tangents::Split)?;
    let mut a = Anim::with_tool_layout(
        Kind::Btk,
        &[
            ("loop_mode", u32::from(loop_mode)),
            ("rotation_decimal", u32::from(srt.decimal)),
            ("duration", srt.duration),
        ],
        vec![
            Data::KeySrt(srt.entries),
            Data::U16(material_ids(mtxs.len())?),
            Data::Names(Names::of(mtxs.iter().map(|m| m.material.as_bytes()))),
            Data::U8(mtxs.iter().map(|m| m.tex_mtx).collect()),
            Data::Vec3(mtxs.iter().map(|m| m.center).collect()),
            Data::F32(srt.scales),
            Data::I16(srt.rotations),
            Data::F32(srt.translations),
        ],
    );
    a.reserved = SVR1;
    Ok(a)
}

/// One animated TEV colour of a BRK: the material, the colour register (or konst colour) it
/// drives, and R, G, B, A per frame in the register's units (0–255; registers also take
/// -1024–1023).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ColorSamples {
    /// Material name.
    pub material: String,
    /// Colour register (0–3) or konst colour (0–3) id.
    pub id: u8,
    /// R, G, B, A per frame.
    pub rgba: Vec<[f32; 4]>,
}

/// A BRK (TEV colour animation) of colour registers `registers` and konst colours `konsts`, each
/// channel fitted within `tol` colour units (at least 0.52: values and slopes are stored as
/// whole i16 numbers) in the form every retail BRK has: split slopes on every track, material
/// ids 0, 1, … per list, the `SVR1` header mark.
pub fn brk(
    registers: &[ColorSamples],
    konsts: &[ColorSamples],
    loop_mode: u8,
    tol: f32,
) -> Result<Anim> {
    let all = || registers.iter().chain(konsts);
    let frames = frames(all().map(|c| c.rgba.len()))?;
    finite(all().flat_map(|c| c.rgba.iter().flatten()))?;
    let round = |x: f32| x.round().clamp(-32768.0, I16_MAX);
    let fit = Fit {
        tol: tol - UNIT_SLACK,
        quantize: &round,
    };
    if fit.tol < 0.5 {
        return Err(Error::message(format!(
            "colour tolerance {tol} is below {}: half the stored step (1) and float slack",
            0.5 + UNIT_SLACK
        )));
    }
    // R, G, B, A tables of the registers, then of the konsts.
    let mut tables: [Vec<f32>; 8] = Default::default();
    let mut entries = [Vec::new(), Vec::new()];
    for (list, (colors, out)) in [registers, konsts].iter().zip(&mut entries).enumerate() {
        for c in colors.iter() {
            let mut tracks = [KeyTrack::default(); 4];
            for (ch, slot) in tracks.iter_mut().enumerate() {
                let samples: Vec<f32> = c
                    .rgba
                    .iter()
                    .map(|v| v.get(ch).copied().unwrap_or(0.0))
                    .collect();
                let samples = if samples.is_empty() {
                    vec![0.0]
                } else {
                    samples
                };
                if let Some(table) = tables.get_mut(4 * list + ch) {
                    *slot = store(table, &fit_track(&fit, &samples, Tangents::Split))?;
                }
            }
            out.push(crate::model::TevColor {
                tracks,
                id: c.id,
                fill: [0xFF; 3],
            });
        }
    }
    let [reg, kon] = entries;
    let names =
        |l: &[ColorSamples]| Data::Names(Names::of(l.iter().map(|c| c.material.as_bytes())));
    let mut data = vec![
        Data::TevColor(reg),
        Data::TevColor(kon),
        Data::U16(material_ids(registers.len())?),
        Data::U16(material_ids(konsts.len())?),
        names(registers),
        names(konsts),
    ];
    data.extend(
        tables
            .into_iter()
            .map(|t| Data::I16(t.into_iter().map(|v| round(v) as i16).collect())),
    );
    let mut a = Anim::with_tool_layout(
        Kind::Brk,
        &[
            ("loop_mode", u32::from(loop_mode)),
            ("rotation_decimal", 0xFF),
            ("duration", frames - 1),
        ],
        data,
    );
    a.reserved = SVR1;
    Ok(a)
}

/// The header mark of retail BTK and BRK files (BCKs carry 0xFF × 16).
const SVR1: [u8; 16] = *b"SVR1\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";

/// Material ids 0, 1, … for `n` entries (the game binds by name; tools number the entries).
fn material_ids(n: usize) -> Result<Vec<u16>> {
    (0..n)
        .map(|i| u16::try_from(i).map_err(|_| Error::message(format!("{n} entries past a u16"))))
        .collect()
}

/// The frame count (longest track, at least 1) when it fits a duration (s16).
fn frames(lens: impl Iterator<Item = usize>) -> Result<u32> {
    let frames = lens.max().unwrap_or(0).max(1);
    if frames > 0x8000 {
        return Err(Error::message(format!(
            "{frames} frames: the duration is an s16"
        )));
    }
    Ok(frames as u32)
}

/// An error when a sample is not finite.
fn finite<'a>(mut values: impl Iterator<Item = &'a f32>) -> Result<()> {
    if values.all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(Error::message("a sample is not finite"))
    }
}

/// Which tangent modes a track may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tangents {
    /// Whichever stores fewer values (BCK tools: mode 0 unless split slopes pay off).
    Fewest,
    /// Always split slopes, mode 1 even on constants (BTK, BRK tools).
    Split,
}

/// SRT entries and their value tables, fitted (ANK1 and TTK1 share the form).
struct Srt {
    entries: Vec<[KeyTrack; 9]>,
    decimal: u8,
    duration: u32,
    scales: Vec<f32>,
    rotations: Vec<i16>,
    translations: Vec<f32>,
}

impl Srt {
    fn fit<'a>(
        srts: impl Iterator<Item = &'a JointSamples> + Clone,
        tol: Tolerance,
        tangents: Tangents,
    ) -> Result<Srt> {
        let count = srts.clone().count();
        if count > 0xFFFF {
            return Err(Error::message(format!(
                "{count} entries: the count is a u16"
            )));
        }
        let frames = frames(
            srts.clone()
                .flat_map(|j| [j.scale.len(), j.rotation.len(), j.translation.len()]),
        )?;
        finite(srts.clone().flat_map(|j| {
            [&j.scale, &j.rotation, &j.translation]
                .into_iter()
                .flat_map(|t| t.iter().flatten())
        }))?;
        // Per entry, per axis: the rotation track in degrees, unwrapped and centred.
        let mut rotations: Vec<[Vec<f32>; 3]> = srts
            .clone()
            .map(|j| std::array::from_fn(|axis| degrees(&axis_of(&j.rotation, axis))))
            .collect();
        let widest = rotations
            .iter()
            .flatten()
            .flatten()
            .fold(0f32, |m, v| m.max(v.abs()));
        // The finest exponent that holds every angle, unless its step passes the tolerance:
        // then the coarsest the tolerance allows, with tracks that leave its range wrapped back
        // by whole turns between two frames (as Nintendo's tools store a spin).
        let fits_tol = |d: u8| tol.rotation.to_degrees() / rotation_unit(d) - UNIT_SLACK >= 0.5;
        let coarsest = (0..=15u8).rev().find(|&d| fits_tol(d)).ok_or_else(|| {
            Error::message(format!(
                "rotation tolerance {} rad is below {} rad: half the finest stored step and \
                 float slack",
                tol.rotation,
                ((0.5 + UNIT_SLACK) * rotation_unit(0)).to_radians()
            ))
        })?;
        let decimal = (0..coarsest)
            .find(|&d| widest / rotation_unit(d) <= I16_MAX)
            .unwrap_or(coarsest);
        let unit = rotation_unit(decimal);
        for t in rotations.iter_mut().flatten() {
            wrap(t, I16_MAX * unit);
        }
        let round = |x: f32| x.round().clamp(-32768.0, I16_MAX);
        let fits = [
            Fit::new(tol.scale),
            Fit {
                tol: tol.rotation.to_degrees() / unit - UNIT_SLACK,
                quantize: &round,
            },
            Fit::new(tol.translation),
        ];
        let mut tables: [Vec<f32>; 3] = Default::default();
        let mut entries = Vec::with_capacity(count);
        for (j, rot) in srts.zip(&rotations) {
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
                *slot = store(table, &fit_track(fit, &samples, tangents))?;
            }
            entries.push(entry);
        }
        let [scales, rots, translations] = tables;
        Ok(Srt {
            entries,
            decimal,
            duration: frames - 1,
            scales,
            rotations: rots.into_iter().map(|v| round(v) as i16).collect(),
            translations,
        })
    }
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

/// The keys of a track and its tangent mode. [`Tangents::Fewest`]: the fewer stored values of
/// shared slopes (3 a key) and split slopes (4 a key, or 3 when every key's slopes agree), shared
/// on a tie; [`Tangents::Split`]: split slopes, mode 1.
fn fit_track(fit: &Fit<'_>, samples: &[f32], tangents: Tangents) -> (Vec<Key>, u16) {
    let split = fit.split(samples);
    if tangents == Tangents::Split {
        return (split, 1);
    }
    let shared = fit.shared(samples);
    let agree = split.iter().all(|k| k.in_slope == k.out_slope);
    let cost = |n: usize, per: usize| if n == 1 { 1 } else { n * per };
    if cost(split.len(), if agree { 3 } else { 4 }) < cost(shared.len(), 3) {
        (split, u16::from(!agree))
    } else {
        (shared, 0)
    }
}

/// The track of `keys` in `table`: its values (one for a constant; frame, value, slope(s) per
/// key otherwise) found as a run already in the table, or appended. `mode` is stored on
/// constants too (BTK/BRK tools write 1 there).
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
        tangent: *mode,
    })
}
