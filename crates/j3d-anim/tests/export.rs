#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Animated glTF export: the sample BCK (joint 0 moves X 0 → 10 over frames 0–10 and is turned
//! 90° about Y; joint 1 stays put) on a two-node scene, re-read with the `gltf` crate, gives the
//! hand-worked channels and values; hostile durations are refused.

use gltf::animation::util::ReadOutputs;
use gx::scene::{Node, Scene};
use j3d_anim::{build, export};

fn scene(nodes: usize) -> Scene {
    let mut s = Scene::new("test");
    for i in 0..nodes {
        s.nodes.push(Node::new(
            format!("j{i}"),
            i.checked_sub(1),
            gx::mtx::IDENTITY,
        ));
    }
    s
}

#[test]
fn joint_animation_becomes_gltf_channels() {
    let mut s = scene(2);
    let anim = build::sample_bck_model();
    export::add_to_scene(&mut s, &anim, "move", 10.0).unwrap();
    let glb = s.to_glb().unwrap();
    let doc = gltf::Gltf::from_slice(&glb).unwrap();
    let blob = doc.blob.as_deref().unwrap();
    let a = doc.animations().next().unwrap();
    assert_eq!(a.name(), Some("move"));
    assert_eq!(
        a.channels().count(),
        6,
        "translation, rotation, scale per joint"
    );
    let half = std::f32::consts::FRAC_1_SQRT_2;
    for ch in a.channels() {
        let r = ch.reader(|_| Some(blob));
        let times: Vec<f32> = r.read_inputs().unwrap().collect();
        assert_eq!(times.len(), 11, "frames 0..=10");
        assert!((times[10] - 1.0).abs() < 1e-6, "10 frames at 10 fps");
        let node = ch.target().node().index();
        match r.read_outputs().unwrap() {
            ReadOutputs::Translations(t) => {
                let t: Vec<[f32; 3]> = t.collect();
                let want = if node == 0 { 5.0 } else { 0.0 };
                assert!((t[5][0] - want).abs() < 1e-4, "node {node}: {:?}", t[5]);
            }
            ReadOutputs::Rotations(q) => {
                let q: Vec<[f32; 4]> = q.into_f32().collect();
                let want = if node == 0 {
                    [0.0, half, 0.0, half]
                } else {
                    [0.0, 0.0, 0.0, 1.0]
                };
                for (x, w) in q[7].iter().zip(want) {
                    assert!((x - w).abs() < 1e-4, "node {node}: {:?}", q[7]);
                }
            }
            ReadOutputs::Scales(s) => {
                assert!(s.flatten().all(|x| (x - 1.0).abs() < 1e-5));
            }
            ReadOutputs::MorphTargetWeights(_) => panic!("no morph targets"),
        }
    }
}

#[test]
fn non_joint_and_oversized_animations_are_refused() {
    let mut s = scene(2);
    let btk = build::sample(j3d_anim::Kind::Btk);
    assert!(export::add_to_scene(&mut s, &btk, "tex", 60.0).is_err());
    assert!(export::add_to_scene(&mut s, &build::sample_bck_model(), "x", 0.0).is_err());
    // 65,536 frames of 40 joints is over the sample budget: an error, not gigabytes.
    let mut long = build::sample_bck_model();
    long.values.insert("duration".into(), 0xFFFF);
    if let Some(j3d_anim::Data::KeySrt(tracks)) = long.tables.first_mut().map(|t| &mut t.data) {
        let j = tracks[1];
        tracks.resize(40, j);
    }
    let mut s = scene(40);
    let e = export::add_to_scene(&mut s, &long, "long", 60.0).unwrap_err();
    assert!(e.to_string().contains("animation samples"), "{e}");
    assert!(s.animations.is_empty());
}
