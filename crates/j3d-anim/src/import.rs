//! Import: a glTF animation's joint channels ([`gx::scene::Clip`], read by
//! [`gx::scene::Scene::from_glb`]) become a BCK. The clip is sampled at a frame rate (every node's
//! local transform per frame, as glTF evaluates it), each joint's scale, Euler angles (J3D's
//! order, continuous frame to frame) and translation are fitted with Hermite keys within a
//! tolerance ([`crate::fit::bck`]). Joints are the scene's nodes in order — the joints
//! `j3d_bmd::import` makes of the same file. The loop mode our export recorded comes back.

use gcio::{Error, Result};
use gx::scene::Scene;

use crate::fit::{JointSamples, Tolerance};
use crate::model::Anim;

/// Most frames an imported animation may have (J3D stores the duration as a u16).
pub const MAX_FRAMES: usize = u16::MAX as usize;

/// How to import an animation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BckOptions {
    /// Frames per second the clip is sampled at (J3D animations advance one frame per game
    /// frame; Galaxy runs at 60).
    pub fps: f32,
    /// Fitting tolerances.
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

/// Clip `clip` of `scene` as a BCK over the scene's nodes.
pub fn bck(scene: &Scene, clip: usize, opts: &BckOptions) -> Result<Anim> {
    let c = scene
        .clips
        .get(clip)
        .ok_or_else(|| Error::message(format!("no animation {clip}")))?;
    if !(opts.fps.is_finite() && opts.fps > 0.0) {
        return Err(Error::message(format!(
            "frame rate {} is not positive",
            opts.fps
        )));
    }
    let end = c
        .channels
        .iter()
        .flat_map(|ch| ch.times.last())
        .fold(0.0f32, |m, t| m.max(*t));
    let frames = (end * opts.fps).round();
    if !(frames.is_finite() && frames < MAX_FRAMES as f32) {
        return Err(Error::message(format!(
            "animation {:?}: {frames} frames at {} fps (J3D holds at most {MAX_FRAMES})",
            c.name, opts.fps
        )));
    }
    let times: Vec<f32> = (0..=frames as usize).map(|f| f as f32 / opts.fps).collect();
    let locals = scene.clip_locals(c, &times);
    let joints: Vec<JointSamples> = locals
        .iter()
        .map(|m| JointSamples::from_matrices(m))
        .collect();
    let loop_mode = c
        .extras
        .as_ref()
        .and_then(|x| x.get("j3d")?.get("loop_mode")?.as_u64())
        .and_then(|m| u8::try_from(m).ok())
        .unwrap_or(opts.loop_mode);
    crate::fit::bck(&joints, loop_mode, opts.tolerance)
}
