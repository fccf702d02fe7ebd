//! A glTF scene's cameras and lights as a `scene_data` root's: the first perspective camera as
//! its CObj (eye at the camera node, interest, roll, up, viewport and the stored field of view
//! from our extras, else one unit down the node's −Z, 640×480), the document's recorded ambient
//! lights then each `KHR_lights_punctual` light as its LightSets (an LObj at the light node,
//! flags, colour, interest and parameter from our extras, else a diffuse light of the glTF
//! colour aimed down the node's −Z).

use gx::mtx::Mtx34;
use gx::scene::{LightKind, Scene};

use crate::build::Builder;
use crate::build::parts::{camera_set, light_set, wobj};
use crate::extras::{self, CameraExtras, LightExtras, ModelExtras};
use crate::field::Rgba;
use crate::flags::LightFlags;
use crate::model::Target;
use crate::types::{Camera, Light};

/// Bytes of a perspective CObj (fovy and aspect end it: HSD-032).
const PERSPECTIVE_SIZE: usize = 0x38;

/// The camera set and light sets of `scene`, built into `b`: `None` when it has neither.
pub(super) fn build(b: &mut Builder, scene: &Scene) -> Option<(Option<Target>, Vec<Target>)> {
    let model: ModelExtras = extras::read(scene.extras.as_ref()).unwrap_or_default();
    if scene.cameras.is_empty() && scene.lights.is_empty() && model.ambient.is_empty() {
        return None;
    }
    let mut sets = Vec::new();
    for x in &model.ambient {
        let l = lobj(b, x, None);
        sets.push(b.put(&light_set(l)));
    }
    for l in &scene.lights {
        let (axis, at) = (column(&l.matrix, 2), column(&l.matrix, 3));
        let x = extras::read::<LightExtras>(l.extras.as_ref()).unwrap_or_else(|| {
            let ty = match l.kind {
                LightKind::Directional => 1,
                LightKind::Point => 2,
                LightKind::Spot { .. } => 3,
            };
            let [r, g, bl] = l
                .color
                .map(|c| ((c * l.intensity).clamp(0.0, 1.0) * 255.0).round() as u8);
            LightExtras {
                flags: (LightFlags::from_bits_retain(ty) | LightFlags::DIFFUSE).bits(),
                color: [r, g, bl, 0xFF],
                // An infinite light without interest shines from its position at the origin.
                interest: (ty == 3).then(|| minus(at, axis)),
                ..LightExtras::default()
            }
        });
        let position = if x.flags & 3 == 1 && l.extras.is_none() {
            axis
        } else {
            at
        };
        let l = lobj(b, &x, Some(position));
        sets.push(b.put(&light_set(l)));
    }
    let camera = scene.cameras.first().map(|c| {
        let eye = column(&c.matrix, 3);
        let x = extras::read::<CameraExtras>(c.extras.as_ref()).unwrap_or_else(|| CameraExtras {
            viewport: [0, 640, 0, 480],
            scissor: [0, 640, 0, 480],
            interest: minus(eye, column(&c.matrix, 2)),
            perspective: [c.yfov.to_degrees(), c.aspect.unwrap_or(640.0 / 480.0)],
            ..CameraExtras::default()
        });
        let eye = b.put(&wobj(eye));
        let interest = b.put(&wobj(x.interest));
        let up = x.up.map(|u| b.put(&wobj(u)));
        let at = b.put(&Camera {
            class_name: None,
            flags: x.flags,
            projection: 1,
            viewport: x.viewport,
            scissor: x.scissor,
            eye: Some(eye),
            interest: Some(interest),
            roll: x.roll,
            up,
            near: c.znear,
            far: c.zfar.unwrap_or(32768.0),
            projection_params: [x.perspective[0], x.perspective[1], 0.0, 0.0],
        });
        if let Target::In(l) = at
            && let Some(blk) = b.dat.blocks.get_mut(l.block)
        {
            blk.bytes.truncate(PERSPECTIVE_SIZE);
        }
        b.put(&camera_set(at))
    });
    Some((camera, sets))
}

/// Column `k` of a matrix: its axes 0–2, its translation 3.
fn column(m: &Mtx34, k: usize) -> [f32; 3] {
    m.map(|row| row.get(k).copied().unwrap_or(0.0))
}

/// `p − q`.
fn minus(p: [f32; 3], q: [f32; 3]) -> [f32; 3] {
    let mut out = p;
    for (o, q) in out.iter_mut().zip(q) {
        *o -= q;
    }
    out
}

/// An LObj of `x` at `position`.
fn lobj(b: &mut Builder, x: &LightExtras, position: Option<[f32; 3]>) -> Target {
    let position = position.map(|p| b.put(&wobj(p)));
    let interest = x.interest.map(|p| b.put(&wobj(p)));
    let param = x.param.map(|p| b.bytes(p.to_be_bytes().to_vec(), 4));
    b.put(&Light {
        class_name: None,
        next: None,
        flags: LightFlags::from_bits_retain(x.flags),
        attn_flags: x.attn_flags,
        color: Rgba(x.color),
        position,
        interest,
        param,
    })
}
