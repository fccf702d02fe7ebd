//! Animated export: a joint animation (BCK/BCA) sampled once per frame onto a model's
//! [`gx::scene::Scene`], whose glTF writer turns it into translation, rotation and scale channels.
//! The model's scene comes from `j3d_bmd::to_scene`, whose node `j` is joint `j`; the animation
//! binds to joints by index, as the game binds it.

use gcio::{Error, ErrorKind, Result};
use gx::scene::{Animation, Scene, Track};

use crate::eval;
use crate::model::Anim;
use crate::schema::Kind;

/// Most samples (frames × joints) one exported animation may hold: a header's frame count is
/// 16 bits and a joint table can be long, so a hostile file could otherwise ask for gigabytes.
/// Real walk cycles need a few thousand.
pub const MAX_SAMPLES: usize = 1 << 21;

/// Adds `anim` to `scene` as the animation `name`: frames `0..=duration` at `fps` frames per
/// second, one track per joint that both the animation and the scene have (joints the animation
/// has no track for keep their rest pose). Errors when `anim` is not a joint animation, `fps` is
/// not positive, or the samples would exceed [`MAX_SAMPLES`].
pub fn add_to_scene(scene: &mut Scene, anim: &Anim, name: &str, fps: f32) -> Result<()> {
    if !matches!(anim.kind, Kind::Bck | Kind::Bca) {
        return Err(Error::without_offset(ErrorKind::Invalid(format!(
            "{name}: {:?} is not a joint animation (BCK or BCA)",
            anim.kind
        ))));
    }
    if !(fps.is_finite() && fps > 0.0) {
        return Err(Error::without_offset(ErrorKind::Invalid(format!(
            "frame rate {fps} is not positive"
        ))));
    }
    let frames = usize::from(anim.duration()) + 1;
    let joints = anim
        .table(0)
        .map_or(0, crate::model::Data::len)
        .min(scene.nodes.len());
    let samples = frames.saturating_mul(joints);
    if samples > MAX_SAMPLES {
        return Err(Error::without_offset(ErrorKind::Limit {
            what: "animation samples (frames x joints)",
            requested: samples as u64,
            max: MAX_SAMPLES as u64,
        }));
    }
    let tracks = scene
        .nodes
        .iter()
        .take(joints)
        .enumerate()
        .map(|(j, node)| Track {
            node: j,
            local: (0..frames)
                .map(|f| eval::joint(anim, j, f as f32).map_or(node.local, |s| s.matrix()))
                .collect(),
        })
        .collect();
    scene.animations.push(Animation {
        name: name.to_owned(),
        times: (0..frames).map(|f| f as f32 / fps).collect(),
        tracks,
    });
    Ok(())
}
