//! Import: a glTF animation's joint channels ([`gx::scene::Clip`], read by
//! [`gx::scene::Scene::from_glb`]) become a BCK. The clip is sampled at a frame rate (every node's
//! local transform per frame, as glTF evaluates it), each joint's scale, Euler angles (J3D's
//! order, continuous frame to frame) and translation are fitted with Hermite keys within a
//! tolerance ([`crate::fit::bck`]). Joints are the scene's nodes in order — the joints
//! `j3d_bmd::import` makes of the same file. The loop mode our export recorded comes back.
//!
//! The material channels our export writes as `KHR_animation_pointer` come back the same way:
//! base-colour texture transforms as a BTK ([`btk`]; the texture-matrix slot and centre our
//! export recorded undo the centre it folded into the offset) and base-colour factors as a BRK
//! ([`brk`]; the colour register recorded, else register 0).

use gcio::{Error, Result};
use gx::scene::{Clip, Scene, Target};

use crate::fit::{ColorSamples, JointSamples, TexMtxSamples, Tolerance};
use crate::model::Anim;

/// Most frames an imported animation may have (J3D stores the duration as a u16).
pub const MAX_FRAMES: usize = u16::MAX as usize;

/// How to import an animation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BckOptions {
    /// Frames per second the clip is sampled at (J3D animations advance one frame per game
    /// frame; Galaxy runs at 60).
    pub fps: f32,
    /// Fitting tolerances (BCK translations also within 1e-3 of the clip's largest translation).
    pub tolerance: Tolerance,
    /// Loop mode when the clip does not record one (0 once, 2 repeat, 4 mirror).
    pub loop_mode: u8,
}

impl Default for BckOptions {
    fn default() -> Self {
        BckOptions {
            fps: 60.0,
            tolerance: Tolerance::default(),
            loop_mode: 0,
        }
    }
}

/// The index of the clip named `name` (the first clip when `None`).
pub fn clip_index(scene: &Scene, name: Option<&str>) -> Result<usize> {
    match name {
        None if scene.clips.is_empty() => Err(Error::message("the glTF file has no animation")),
        None => Ok(0),
        Some(n) => scene.clips.iter().position(|c| c.name == n).ok_or_else(|| {
            let names: Vec<&str> = scene.clips.iter().map(|c| c.name.as_str()).collect();
            Error::message(format!("no animation {n:?} (the file has {names:?})"))
        }),
    }
}

/// The clip and its sample times (frames `0..=n` at `fps`).
fn frames(scene: &Scene, clip: usize, fps: f32) -> Result<(&Clip, Vec<f32>)> {
    let c = scene
        .clips
        .get(clip)
        .ok_or_else(|| Error::message(format!("no animation {clip}")))?;
    if !(fps.is_finite() && fps > 0.0) {
        return Err(Error::message(format!("frame rate {fps} is not positive")));
    }
    let end = c
        .channels
        .iter()
        .flat_map(|ch| ch.times.last())
        .fold(0.0f32, |m, t| m.max(*t));
    let n = (end * fps).round();
    if !(n.is_finite() && n < MAX_FRAMES as f32) {
        return Err(Error::message(format!(
            "animation {:?}: {n} frames at {fps} fps (J3D holds at most {MAX_FRAMES})",
            c.name
        )));
    }
    Ok((c, (0..=n as usize).map(|f| f as f32 / fps).collect()))
}

/// `extras.j3d.KEY` of the clip.
fn recorded<'a>(c: &'a Clip, key: &str) -> Option<&'a serde_json::Value> {
    c.extras.as_ref()?.get("j3d")?.get(key)
}

fn loop_mode(c: &Clip, opts: &BckOptions) -> u8 {
    recorded(c, "loop_mode")
        .and_then(serde_json::Value::as_u64)
        .and_then(|m| u8::try_from(m).ok())
        .unwrap_or(opts.loop_mode)
}

/// Clip `clip` of `scene` as a BCK over the scene's nodes.
pub fn bck(scene: &Scene, clip: usize, opts: &BckOptions) -> Result<Anim> {
    let (c, times) = frames(scene, clip, opts.fps)?;
    let locals = scene.clip_locals(c, &times);
    let joints: Vec<JointSamples> = locals
        .iter()
        .map(|m| JointSamples::from_matrices(m))
        .collect();
    // Translations within the tolerance and within 1e-3 of the clip's largest translation, so
    // a two-unit Blender rig is fitted as closely as a model hundreds of units tall.
    let extent = joints
        .iter()
        .flat_map(|j| j.translation.iter().flatten())
        .fold(0.0f32, |m, t| m.max(t.abs()));
    let tolerance = Tolerance {
        translation: opts.tolerance.translation.min(1e-3 * extent).max(1e-6),
        ..opts.tolerance
    };
    crate::fit::bck(&joints, loop_mode(c, opts), tolerance)
}

/// The material pointer channels of `c` whose path after `/materials/N/` is `path`, by N.
fn material_channels<'a>(
    c: &'a Clip,
    path: &'a str,
) -> impl Iterator<Item = (usize, &'a gx::scene::Channel)> + 'a {
    c.channels.iter().filter_map(move |ch| {
        let Target::Pointer(p) = &ch.target else {
            return None;
        };
        let rest = p.strip_prefix("/materials/")?;
        let (m, tail) = rest.split_once('/')?;
        (tail == path).then_some(())?;
        Some((m.parse().ok()?, ch))
    })
}

/// The recorded entry of material `m` in `extras.j3d.KEY` (a list of objects with `material`).
fn entry<'a>(c: &'a Clip, key: &str, m: usize) -> Option<&'a serde_json::Value> {
    recorded(c, key)?
        .as_array()?
        .iter()
        .find(|e| e.get("material").and_then(serde_json::Value::as_u64) == Some(m as u64))
}

fn material_name(scene: &Scene, m: usize) -> String {
    scene
        .materials
        .get(m)
        .map_or_else(|| format!("material_{m}"), |x| x.name.clone())
}

/// The base-colour texture transforms of clip `clip` as a BTK (one entry per material).
pub fn btk(scene: &Scene, clip: usize, opts: &BckOptions) -> Result<Anim> {
    const TT: &str = "pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/";
    let (c, times) = frames(scene, clip, opts.fps)?;
    let mut materials: Vec<usize> = ["offset", "rotation", "scale"]
        .iter()
        .flat_map(|k| {
            material_channels(c, &format!("{TT}{k}"))
                .map(|(m, _)| m)
                .collect::<Vec<_>>()
        })
        .collect();
    materials.sort_unstable();
    materials.dedup();
    if materials.is_empty() {
        return Err(Error::message(format!(
            "animation {:?} has no texture transform channels",
            c.name
        )));
    }
    let mut out = Vec::new();
    for m in materials {
        let sample = |key: &str, default: &[f32]| -> Vec<Vec<f32>> {
            let path = format!("{TT}{key}");
            let ch = material_channels(c, &path)
                .find(|(x, _)| *x == m)
                .map(|p| p.1);
            times
                .iter()
                .map(|&t| ch.map_or_else(|| default.to_vec(), |ch| ch.sample(t)))
                .collect()
        };
        let (off, rot, sc) = (
            sample("offset", &[0.0, 0.0]),
            sample("rotation", &[0.0]),
            sample("scale", &[1.0, 1.0]),
        );
        let e = entry(c, "texture_matrices", m);
        let center: [f32; 3] = e
            .and_then(|e| serde_json::from_value(e.get("center")?.clone()).ok())
            .unwrap_or([0.0; 3]);
        let tex_mtx = e
            .and_then(|e| e.get("tex_mtx")?.as_u64())
            .and_then(|x| u8::try_from(x).ok())
            .unwrap_or(0);
        let mut srt = JointSamples::default();
        for ((o, r), s) in off.iter().zip(&rot).zip(&sc) {
            let at = |v: &[f32], k: usize| v.get(k).copied().unwrap_or(0.0);
            let (sx, sy, r) = (at(s, 0), at(s, 1), at(r, 0));
            let [cx, cy, _] = center;
            // The export folded the centre in: offset = t + c − R·S·c.
            let (sin, cos) = r.sin_cos();
            let (rx, ry) = (cos * sx * cx - sin * sy * cy, sin * sx * cx + cos * sy * cy);
            srt.scale.push([sx, sy, 1.0]);
            srt.rotation.push([0.0, 0.0, r]);
            srt.translation
                .push([at(o, 0) - cx + rx, at(o, 1) - cy + ry, 0.0]);
        }
        out.push(TexMtxSamples {
            material: material_name(scene, m),
            tex_mtx,
            center,
            srt,
        });
    }
    crate::fit::btk(&out, loop_mode(c, opts), opts.tolerance)
}

/// The base-colour factors of clip `clip` as a BRK of colour registers (0–255 per channel,
/// fitted within `tol` colour units, at least 0.52).
pub fn brk(scene: &Scene, clip: usize, opts: &BckOptions, tol: f32) -> Result<Anim> {
    let (c, times) = frames(scene, clip, opts.fps)?;
    let mut regs = Vec::new();
    for (m, ch) in material_channels(c, "pbrMetallicRoughness/baseColorFactor") {
        let id = entry(c, "colors", m)
            .and_then(|e| e.get("id")?.as_u64())
            .and_then(|x| u8::try_from(x).ok())
            .unwrap_or(0);
        let rgba = times
            .iter()
            .map(|&t| {
                let v = ch.sample(t);
                [0, 1, 2, 3].map(|k| v.get(k).copied().unwrap_or(1.0) * 255.0)
            })
            .collect();
        regs.push(ColorSamples {
            material: material_name(scene, m),
            id,
            rgba,
        });
    }
    if regs.is_empty() {
        return Err(Error::message(format!(
            "animation {:?} has no base-colour channels",
            c.name
        )));
    }
    crate::fit::brk(&regs, &[], loop_mode(c, opts), tol)
}
