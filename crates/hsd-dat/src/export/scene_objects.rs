//! A `scene_data` root's camera and lights as glTF's: the CObj as a perspective camera looking
//! from its eye at its interest, each positioned LObj as a `KHR_lights_punctual` light on its
//! position (infinite and spot lights aimed at their interest, or the origin), and what glTF
//! cannot say in typed extras ([`CameraExtras`], [`LightExtras`]; ambient lights, which glTF
//! has not, in [`crate::extras::ModelExtras::ambient`]).

use gx::mtx::Mtx34;
use gx::scene::{Camera, Light, LightKind};

use crate::extras::{self, CameraExtras, LightExtras};
use crate::mesh::cross;
use crate::roots::RootKind;
use crate::types::{Camera as CObj, CameraSet, Light as LObj, LightSet, SceneData, WObj};
use crate::view::Archive;

use super::Export;

/// CObj projection of a perspective camera (the only one exported).
const PERSPECTIVE: u16 = 1;

/// Adds the cameras and lights of `a`'s `scene_data` roots to `out`; returns the ambient lights.
pub(super) fn add(a: &Archive<'_>, out: &mut Export) -> Vec<LightExtras> {
    let mut ambient = Vec::new();
    for r in a.roots().filter(|r| r.kind() == RootKind::SceneData) {
        let Ok(sd) = a.read::<SceneData>(r.offset) else {
            continue;
        };
        if let Some(c) = sd.camera.and_then(|c| a.read::<CameraSet>(c).ok()?.desc) {
            camera(a, c, out);
        }
        let mut at = sd.lights;
        while let Some(slot) = at {
            let Ok(Some(set)) = a.pointer(slot) else {
                break;
            };
            if let Some(l) = a.read::<LightSet>(set).ok().and_then(|s| s.desc) {
                light(a, l, out, &mut ambient);
            }
            at = slot.checked_add(4);
        }
    }
    ambient
}

/// A WObj's position.
fn point(a: &Archive<'_>, w: Option<u32>) -> Option<[f32; 3]> {
    w.and_then(|w| a.read::<WObj>(w).ok()).map(|w| w.position)
}

/// The CObj at `c`, when perspective.
fn camera(a: &Archive<'_>, c: u32, out: &mut Export) {
    let Ok(cam) = a.read::<CObj>(c) else { return };
    let (Some(eye), Some(interest)) = (point(a, cam.eye), point(a, cam.interest)) else {
        return;
    };
    if cam.projection != PERSPECTIVE {
        return;
    }
    let up = point(a, cam.up);
    let [fovy, aspect, ..] = cam.projection_params;
    out.scene.cameras.push(Camera {
        name: format!("camera_{}", out.scene.cameras.len()),
        matrix: look(eye, interest, up.unwrap_or([0.0, 1.0, 0.0]), cam.roll),
        yfov: fovy.to_radians(),
        aspect: (aspect > 0.0).then_some(aspect),
        znear: cam.near,
        zfar: (cam.far > cam.near).then_some(cam.far),
        extras: extras::write(&CameraExtras {
            flags: cam.flags,
            viewport: cam.viewport,
            scissor: cam.scissor,
            interest,
            roll: cam.roll,
            up,
            perspective: [fovy, aspect],
        }),
    });
}

/// The LObj at `l`: an ambient one to `ambient`, the others as glTF lights.
fn light(a: &Archive<'_>, l: u32, out: &mut Export, ambient: &mut Vec<LightExtras>) {
    let Ok(lobj) = a.read::<LObj>(l) else { return };
    let ty = lobj.flags.light_type();
    let interest = point(a, lobj.interest);
    // An infinite light's parameter is a float; point and spot lights point at structs.
    let param = (ty == 1)
        .then(|| lobj.param.and_then(|p| a.data().f32(p as usize).ok()))
        .flatten();
    let x = LightExtras {
        flags: lobj.flags.bits(),
        attn_flags: lobj.attn_flags,
        color: lobj.color.0,
        interest,
        param,
    };
    if ty == 0 {
        ambient.push(x);
        return;
    }
    let position = point(a, lobj.position).unwrap_or([0.0; 3]);
    let kind = match ty {
        1 => LightKind::Directional,
        2 => LightKind::Point,
        _ => LightKind::Spot {
            inner: 0.0,
            outer: std::f32::consts::FRAC_PI_4,
        },
    };
    let [r, g, b, _] = lobj.color.0.map(|c| f32::from(c) / 255.0);
    out.scene.lights.push(Light {
        name: format!("light_{}", out.scene.lights.len()),
        matrix: look(position, interest.unwrap_or([0.0; 3]), [0.0, 1.0, 0.0], 0.0),
        kind,
        color: [r, g, b],
        intensity: 1.0,
        range: None,
        extras: extras::write(&x),
    });
}

/// The world matrix of a node at `eye` whose −Z looks at `at`, `up` above it, turned by
/// `roll` about the view direction (an identity rotation when `at` is `eye`).
pub(crate) fn look(eye: [f32; 3], at: [f32; 3], up: [f32; 3], roll: f32) -> Mtx34 {
    let sub = |p: [f32; 3], q: [f32; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    let unit = |p: [f32; 3]| {
        let n = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        (n > 1e-12).then(|| p.map(|x| x / n))
    };
    let z = unit(sub(eye, at)).unwrap_or([0.0, 0.0, 1.0]);
    let x = unit(cross(up, z))
        .or_else(|| unit(cross([0.0, 0.0, 1.0], z)))
        .unwrap_or([1.0, 0.0, 0.0]);
    let y = cross(z, x);
    let (s, c) = roll.sin_cos();
    let mut m = [[0.0; 4]; 3];
    for ((((row, x), y), z), t) in m.iter_mut().zip(x).zip(y).zip(z).zip(eye) {
        *row = [c * x + s * y, c * y - s * x, z, t];
    }
    m
}
