#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! Animated glTF export: the sample BCK (joint 0 moves X 0 → 10 over frames 0–10 and is turned
//! 90° about Y; joint 1 stays put) on a two-node scene, re-read with the `gltf` crate, gives the
//! hand-worked channels and values; the material, visibility and pattern samples become
//! `KHR_animation_pointer` channels and extras with hand-worked values (read back from the JSON
//! and binary chunk directly: the `gltf` crate 1.4 cannot read pointer channels, its channel
//! target requires a node); hostile durations are refused.

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
fn bad_rates_and_oversized_animations_are_refused() {
    let mut s = scene(2);
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

/// A scene of two nodes, two one-triangle meshes and materials `water` (textured) and `mat`.
fn material_scene() -> Scene {
    let mut s = scene(2);
    let img = gx::tex::Image::new(1, 1, vec![[255; 4]]).unwrap();
    let t = s.add_image(img);
    s.materials.push(gx::scene::Material::new("water", Some(t)));
    s.materials.push(gx::scene::Material::new("mat", None));
    for i in 0..2 {
        let mut m = gx::scene::Mesh::new(format!("shape_{i}"));
        m.positions = vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        m.uvs = vec![vec![[0.0; 2]; 3]];
        m.triangles = vec![[0, 1, 2]];
        m.material = Some(i);
        s.meshes.push(m);
    }
    s
}

/// Accessor `i` of a .glb as f32 (float or unsigned-byte components).
fn accessor(doc: &serde_json::Value, bin: &[u8], i: usize) -> Vec<f32> {
    let a = &doc["accessors"][i];
    let v = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = v["byteOffset"].as_u64().unwrap_or(0) as usize;
    let len = v["byteLength"].as_u64().unwrap() as usize;
    let bytes = &bin[start..start + len];
    match a["componentType"].as_u64().unwrap() {
        5126 => bytes
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect(),
        5121 => bytes.iter().map(|&b| f32::from(b)).collect(),
        t => panic!("component type {t}"),
    }
}

/// Splits a .glb into its JSON and binary chunk.
fn split(glb: &[u8]) -> (serde_json::Value, Vec<u8>) {
    let n = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc = serde_json::from_slice(&glb[20..20 + n]).unwrap();
    let bin = glb.get(20 + n + 8..).unwrap_or_default().to_vec();
    (doc, bin)
}

#[test]
fn material_and_visibility_animations_become_pointer_channels() {
    use j3d_anim::Kind;
    let mut s = material_scene();
    for (name, kind) in [
        ("tex", Kind::Btk),
        ("color", Kind::Brk),
        ("show", Kind::Bva),
        ("pattern", Kind::Btp),
    ] {
        export::add_to_scene(&mut s, &build::sample(kind), name, 60.0).unwrap();
    }
    let (doc, bin) = split(&s.to_glb().unwrap());
    let used: Vec<&str> = doc["extensionsUsed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        used,
        [
            "KHR_animation_pointer",
            "KHR_texture_transform",
            "KHR_node_visibility"
        ]
    );
    let tt = &doc["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"];
    assert!(tt["KHR_texture_transform"].is_object(), "{tt}");
    let anims = doc["animations"].as_array().unwrap();
    assert_eq!(anims.len(), 3, "the BTP has no channel: document extras");
    // Values at one frame of channel `c` of animation `a`, and its pointer.
    let at = |a: usize, c: usize, frame: usize| -> (String, Vec<f32>) {
        let ch = &anims[a]["channels"][c];
        let sampler = &anims[a]["samplers"][ch["sampler"].as_u64().unwrap() as usize];
        let out = accessor(&doc, &bin, sampler["output"].as_u64().unwrap() as usize);
        let frames = accessor(&doc, &bin, sampler["input"].as_u64().unwrap() as usize).len();
        let w = out.len() / frames;
        let p = ch["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(ch["target"]["path"], "pointer");
        (p, out[frame * w..frame * w + w].to_vec())
    };
    // BTK "water": S translation keys (0, 0) → (60, 1), flat: frame 30 is halfway. Centre 0.5
    // with scale 1 and no rotation folds away: offset = t + c − R·S·c = (0.5, 0).
    let base =
        "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform";
    let (p, v) = at(0, 0, 30);
    assert_eq!(p, format!("{base}/offset"));
    assert!((v[0] - 0.5).abs() < 1e-5 && v[1].abs() < 1e-6, "{v:?}");
    assert_eq!(at(0, 1, 30), (format!("{base}/rotation"), vec![0.0]));
    assert_eq!(at(0, 2, 30), (format!("{base}/scale"), vec![1.0, 1.0]));
    // BRK "mat" register: R keys (0, 0) → (4, 255), flat: frame 2 is 127.5 → 0.5; A 255 → 1.
    let (p, v) = at(1, 0, 2);
    assert_eq!(p, "/materials/1/pbrMetallicRoughness/baseColorFactor");
    for (x, want) in v.iter().zip([0.5, 0.0, 0.0, 1.0]) {
        assert!((x - want).abs() < 1e-4, "{v:?}");
    }
    // BVA: shape 1 stores 0, 1, 0 from frame 0 (then holds 0); shape 0 is always shown. Mesh
    // nodes follow the two joint nodes.
    assert_eq!(anims[2]["samplers"][1]["interpolation"], "STEP");
    let (p, v) = at(2, 1, 1);
    assert_eq!(p, "/nodes/3/extensions/KHR_node_visibility/visible");
    assert_eq!(v, [1.0]);
    assert_eq!(at(2, 1, 2).1, [0.0]);
    assert_eq!(at(2, 0, 4).1, [1.0]);
    let pattern = &doc["extras"]["animations"][0];
    assert_eq!(pattern["name"], "pattern");
    assert_eq!(
        pattern["extras"]["j3d_texture_pattern"][0]["texture_per_frame"],
        serde_json::json!([1, 2, 2, 2, 2])
    );
}
