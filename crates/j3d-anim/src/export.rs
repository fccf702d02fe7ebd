//! Animated export: any J3D animation sampled once per frame onto a model's
//! [`gx::scene::Scene`] (from `j3d_bmd::to_scene`: node `j` is joint `j`, material `m` is MAT3
//! material `m`, mesh `s` is shape `s`), bound the way the game binds it — joints and shapes by
//! index, materials by name.
//!
//! What becomes what (docs/J3D-ANIM.md, "Animated glTF export"):
//! - BCK/BCA: translation, rotation and scale channels per joint.
//! - BTK: the first texture-matrix entry of each textured material → the base-colour texture's
//!   `KHR_texture_transform` offset, rotation and scale (`KHR_animation_pointer`); other entries
//!   go to `extras`.
//! - BPK (material colour) and each material's first BRK TEV colour-register entry → the
//!   material's `baseColorFactor` (value / 255, clamped to 0–1); the TEV stages are not exported,
//!   so no register is the base colour exactly, and further register entries of the material and
//!   konst colours go to `extras`.
//! - BVA → the shape's mesh node visibility (`KHR_node_visibility`).
//! - BTP (texture index per frame) and BLK/BLA (cluster weights per frame) → `extras`.

use gcio::{Error, ErrorKind, Result};
use gx::scene::{Animation, Property, PropertyTrack, Scene, Track};
use serde_json::{Value, json};

use crate::eval;
use crate::model::{Anim, Data};
use crate::schema::Kind;

/// Most samples (frames × tracks) one exported animation may hold: a header's frame count is
/// 16 bits and a joint table can be long, so a hostile file could otherwise ask for gigabytes.
/// Real walk cycles need a few thousand.
pub const MAX_SAMPLES: usize = 1 << 21;

/// Adds `anim` to `scene` as the animation `name`: frames `0..=duration` at `fps` frames per
/// second. Joints, shapes and materials the scene lacks are skipped (joints the animation has no
/// track for keep their rest pose). Errors when `fps` is not positive or the samples would exceed
/// [`MAX_SAMPLES`].
pub fn add_to_scene(scene: &mut Scene, anim: &Anim, name: &str, fps: f32) -> Result<()> {
    if !(fps.is_finite() && fps > 0.0) {
        return Err(Error::without_offset(ErrorKind::Invalid(format!(
            "frame rate {fps} is not positive"
        ))));
    }
    let frames = usize::from(anim.duration()) + 1;
    // Entries: the tables whose tracks index value tables (joints, texture matrices, colours…).
    let entries: usize = anim
        .kind
        .schema()
        .tables
        .iter()
        .zip(&anim.tables)
        .filter(|(d, _)| !d.values.is_empty())
        .map(|(_, t)| t.data.len())
        .sum();
    let samples = frames.saturating_mul(entries.max(1));
    if samples > MAX_SAMPLES {
        return Err(Error::without_offset(ErrorKind::Limit {
            what: "animation samples (frames x tracks)",
            requested: samples as u64,
            max: MAX_SAMPLES as u64,
        }));
    }
    let mut out = Animation {
        name: name.to_owned(),
        times: (0..frames).map(|f| f as f32 / fps).collect(),
        ..Animation::default()
    };
    let frame_list = || (0..frames).map(|f| f as f32);
    match anim.kind {
        Kind::Bck | Kind::Bca => {
            // What a glTF animation cannot say, for `import::bck` to bring back.
            out.extras = Some(json!({"j3d": {"loop_mode": anim.loop_mode()}}));
            let joints = anim.table(0).map_or(0, Data::len).min(scene.nodes.len());
            out.tracks = scene
                .nodes
                .iter()
                .take(joints)
                .enumerate()
                .map(|(j, node)| Track {
                    node: j,
                    local: frame_list()
                        .map(|f| eval::joint(anim, j, f).map_or(node.local, |s| s.matrix()))
                        .collect(),
                })
                .collect();
        }
        Kind::Btk => texture_matrices(scene, anim, &mut out, frames),
        Kind::Brk | Kind::Bpk => colors(scene, anim, &mut out, frames),
        Kind::Bva => {
            let shapes = anim.table(0).map_or(0, Data::len).min(scene.meshes.len());
            for s in 0..shapes {
                out.properties.push(PropertyTrack {
                    property: Property::Visible(s),
                    values: frame_list()
                        .map(|f| f32::from(u8::from(eval::visible(anim, s, f).unwrap_or(true))))
                        .collect(),
                });
            }
        }
        Kind::Btp => {
            let names = names(anim, 3);
            let list: Vec<Value> = match anim.table(0) {
                Some(Data::Pattern(v)) => v
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let seq: Vec<u16> = frame_list()
                            .map(|f| eval::pattern(anim, i, f).unwrap_or(0))
                            .collect();
                        json!({"material": names.get(i), "tex_map": e.tex_map, "texture_per_frame": seq})
                    })
                    .collect(),
                _ => Vec::new(),
            };
            out.extras = Some(json!({"j3d_texture_pattern": list}));
        }
        Kind::Blk | Kind::Bla => {
            let n = anim.table(0).map_or(0, Data::len);
            let list: Vec<Vec<f32>> = (0..n)
                .map(|i| {
                    frame_list()
                        .map(|f| eval::weight(anim, i, f).unwrap_or(0.0))
                        .collect()
                })
                .collect();
            out.extras = Some(json!({"j3d_cluster_weights_per_frame": list}));
        }
    }
    scene.animations.push(out);
    Ok(())
}

/// Name table `t`'s names.
fn names(anim: &Anim, t: usize) -> Vec<String> {
    match anim.table(t) {
        Some(Data::Names(n)) => n
            .entries
            .iter()
            .map(|e| gcio::text::Encoding::ShiftJis.to_text(&e.name))
            .collect(),
        _ => Vec::new(),
    }
}

/// The scene material named `name`.
fn material(scene: &Scene, name: &str) -> Option<usize> {
    scene.materials.iter().position(|m| m.name == name)
}

/// BTK entries onto `KHR_texture_transform`. J3D's basic texture matrix maps `uv` to
/// `R·S·(uv − c) + c + t` (centre `c`, rotation about Z); glTF's to `T·R·S·uv`, so the centre is
/// folded into the offset: `offset = t + c − R·S·c`.
fn texture_matrices(scene: &Scene, anim: &Anim, out: &mut Animation, frames: usize) {
    let names = names(anim, 2);
    let centers = match anim.table(4) {
        Some(Data::Vec3(c)) => c.clone(),
        _ => Vec::new(),
    };
    let ids = match anim.table(3) {
        Some(Data::U8(v)) => v.clone(),
        _ => Vec::new(),
    };
    let mut done: Vec<usize> = Vec::new();
    let mut rest = Vec::new();
    let mut exported = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let target = material(scene, name)
            .filter(|m| !done.contains(m))
            .filter(|&m| scene.materials.get(m).is_some_and(|x| x.texture.is_some()));
        let Some(m) = target else {
            rest.push(json!({"material": name, "entry": i}));
            continue;
        };
        done.push(m);
        let center = centers.get(i).copied().unwrap_or([0.0; 3]);
        // What `import::btk` needs to undo the folding: the slot and the centre.
        exported.push(json!({
            "material": m,
            "tex_mtx": ids.get(i).copied().unwrap_or(0),
            "center": center,
        }));
        let [cx, cy, _] = center;
        let (mut off, mut rot, mut sc) = (Vec::new(), Vec::new(), Vec::new());
        for f in 0..frames {
            let s = eval::joint(anim, i, f as f32).unwrap_or_default();
            let [sx, sy, _] = s.scale;
            let r = s.rotation[2].to_radians();
            let (sin, cos) = r.sin_cos();
            let (rx, ry) = (cos * sx * cx - sin * sy * cy, sin * sx * cx + cos * sy * cy);
            off.extend([s.translation[0] + cx - rx, s.translation[1] + cy - ry]);
            rot.push(r);
            sc.extend([sx, sy]);
        }
        for (property, values) in [
            (Property::TextureOffset(m), off),
            (Property::TextureRotation(m), rot),
            (Property::TextureScale(m), sc),
        ] {
            out.properties.push(PropertyTrack { property, values });
        }
    }
    let mut extras = json!({"j3d": {"loop_mode": anim.loop_mode(), "texture_matrices": exported}});
    if let (false, Some(o)) = (rest.is_empty(), extras.as_object_mut()) {
        o.insert("j3d_texture_matrices_not_exported".into(), json!(rest));
    }
    out.extras = Some(extras);
}

/// BPK entries and each material's first BRK register entry onto `baseColorFactor`; other BRK
/// entries listed in `extras` (material, konst or register, colour id).
fn colors(scene: &Scene, anim: &Anim, out: &mut Animation, frames: usize) {
    let mut rest = Vec::new();
    let lists: Vec<(bool, Vec<String>, Vec<u8>)> = match anim.kind {
        Kind::Brk => [(false, 0, 4), (true, 1, 5)]
            .into_iter()
            .map(|(konst, t, n)| {
                let ids = match anim.table(t) {
                    Some(Data::TevColor(v)) => v.iter().map(|e| e.id).collect(),
                    _ => Vec::new(),
                };
                (konst, names(anim, n), ids)
            })
            .collect(),
        _ => {
            let n = names(anim, 2);
            let ids = vec![0; n.len()];
            vec![(false, n, ids)]
        }
    };
    let mut done: Vec<usize> = Vec::new();
    let mut exported = Vec::new();
    for (konst, names, ids) in lists {
        for (i, (name, &id)) in names.iter().zip(&ids).enumerate() {
            let m = material(scene, name).filter(|m| !done.contains(m));
            let Some(m) = m.filter(|_| !konst) else {
                rest.push(json!({"material": name, "konst": konst, "id": id}));
                continue;
            };
            done.push(m);
            exported.push(json!({"material": m, "id": id}));
            let values = (0..frames)
                .flat_map(|f| {
                    eval::color(anim, konst, i, f as f32)
                        .unwrap_or([255.0; 4])
                        .map(|c| (c / 255.0).clamp(0.0, 1.0))
                })
                .collect();
            out.properties.push(PropertyTrack {
                property: Property::BaseColor(m),
                values,
            });
        }
    }
    let mut extras = json!({"j3d": {"loop_mode": anim.loop_mode(), "colors": exported}});
    if let (false, Some(o)) = (rest.is_empty(), extras.as_object_mut()) {
        o.insert("j3d_colors_not_exported".into(), json!(rest));
    }
    out.extras = Some(extras);
}
