//! `Scene::from_glb`: scenes written by `Scene::to_glb` read back equal, hand-built files with
//! what our writer never makes (strips, fans, matrix nodes, data URIs, cubic splines, sparse
//! accessors) read as glTF specifies, and hostile input gives errors, never a panic.
#![cfg(feature = "import")]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use gx::mtx::{IDENTITY, Mtx34, mul, srt};
use gx::scene::{
    AlphaMode, Animation, Interpolation, Material, Mesh, Node, Property, PropertyTrack, Scene,
    Target, Track, Wrap, skin_weights,
};
use gx::tex::Image;
use proptest::prelude::*;
use serde_json::{Value, json};

fn close(a: &[f32], b: &[f32], eps: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= eps)
}

fn close_m(a: &Mtx34, b: &Mtx34) -> bool {
    close(a.as_flattened(), b.as_flattened(), 1e-4)
}

/// Two roots (so the writer adds its marked skeleton node), a child, two skinned meshes with two
/// UV and two colour sets, materials with every new field, two images and an animation with node
/// tracks and property tracks.
fn scene() -> Scene {
    let mut s = Scene::new("round trip");
    s.extras = Some(json!({"origin": "test"}));
    s.nodes.push(Node::new(
        "root",
        None,
        srt([0.1, 0.2, 0.3], [1.0, 2.0, 1.0], [1.0, 2.0, 3.0]),
    ));
    s.nodes.push(Node::new(
        "child",
        Some(0),
        srt([0.0, 1.0, 0.0], [1.0; 3], [0.0, 5.0, 0.0]),
    ));
    let mut other = Node::new("other root", None, IDENTITY);
    other.extras = Some(json!({"kind": "effect"}));
    s.nodes.push(other);
    s.bind_to_rest_pose();
    let a = s.add_image(Image::test_pattern(8, 4, true).unwrap());
    let b = s.add_image(Image::test_pattern(3, 5, false).unwrap());
    let mut m0 = Material::new("masked", Some(a));
    m0.alpha_mode = AlphaMode::Mask(0.25);
    m0.texcoord = 1;
    m0.double_sided = true;
    m0.color = [0.5, 0.25, 1.0, 0.75];
    m0.extras = Some(json!([1, 2]));
    m0.wrap = [Wrap::Clamp, Wrap::Mirror];
    let mut m1 = Material::new("blended unlit", Some(b));
    m1.alpha_mode = AlphaMode::Blend;
    m1.unlit = true;
    s.materials.extend([m0, m1, Material::new("plain", None)]);
    for i in 0..2u8 {
        let mut m = Mesh::new(format!("mesh {i}"));
        m.positions = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.5],
            [0.0, 1.0, -2.0],
            [3.0, 1.0, 0.0],
        ];
        m.normals = vec![
            [0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.6, 0.8, 0.0],
        ];
        m.uvs = vec![
            vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.5, 0.5]],
            vec![[0.25, 0.0], [2.0, -1.0], [0.0, 3.0], [0.5, 0.125]],
        ];
        m.colors = vec![
            vec![[1, 2, 3, 4], [255, 0, 128, 255], [9, 9, 9, 9], [0; 4]],
            vec![[i; 4]; 4],
        ];
        m.skin = vec![
            skin_weights(&[(0, 1.0)]),
            skin_weights(&[(1, 0.75), (0, 0.25)]),
            skin_weights(&[(2, 0.5), (1, 0.5)]),
            skin_weights(&[(1, 1.0)]),
        ];
        m.triangles = vec![[0, 1, 2], [2, 1, 3]];
        m.material = Some(usize::from(i));
        m.extras = Some(json!({"mesh": i}));
        s.meshes.push(m);
    }
    let times = vec![0.0, 0.5, 1.25, 2.0];
    let local = |k: f32| srt([0.0, 0.7 * k, 0.2 * k], [1.0 + k, 1.0, 1.0], [k, 0.0, -k]);
    s.animations.push(Animation {
        name: "move".into(),
        tracks: vec![Track {
            node: 1,
            local: times.iter().map(|&t| local(t)).collect(),
        }],
        properties: vec![
            PropertyTrack {
                property: Property::BaseColor(0),
                values: (0..16).map(|k| k as f32 / 16.0).collect(),
            },
            PropertyTrack {
                property: Property::Visible(1),
                values: vec![1.0, 0.0, 0.0, 1.0],
            },
        ],
        times,
        extras: Some(json!({"loop": true})),
    });
    s
}

/// The GLB container and its chunks are inverses (the JSON space-padded, the BIN chunk
/// zero-padded to 4 bytes, as glTF requires), and a scene's glb splits into what it holds.
#[test]
fn glb_container_and_chunks_invert() {
    let glb = gx::scene::glb_container(b"{\"asset\":{\"version\":\"2.0\"}}", &[1, 2, 3]).unwrap();
    let (json, bin) = gx::scene::glb_chunks(&glb).unwrap();
    assert_eq!(json, b"{\"asset\":{\"version\":\"2.0\"}} ");
    assert_eq!(bin, Some(&[1u8, 2, 3, 0][..]));
    assert_eq!(
        u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize,
        glb.len()
    );
    let ours = scene().to_glb().unwrap();
    let (json, bin) = gx::scene::glb_chunks(&ours).unwrap();
    assert_eq!(gx::scene::glb_container(json, bin.unwrap()).unwrap(), ours);
}

#[test]
fn written_scenes_read_back_equal() {
    let s = scene();
    let glb = s.to_glb().unwrap();
    let (r, notes) = Scene::read_glb(&glb).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(r.generator, "round trip");
    assert_eq!(r.extras, s.extras);
    // The added skeleton root and the mesh nodes are gone.
    assert_eq!(r.nodes.len(), 3);
    for (a, b) in r.nodes.iter().zip(&s.nodes) {
        assert_eq!(
            (&a.name, a.parent, &a.extras),
            (&b.name, b.parent, &b.extras)
        );
        assert!(close_m(&a.local, &b.local), "{}", a.name);
        assert!(close_m(&a.inverse_bind, &b.inverse_bind), "{}", a.name);
    }
    assert_eq!(r.meshes.len(), 2);
    for (a, b) in r.meshes.iter().zip(&s.meshes) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.node, None);
        assert_eq!(
            (&a.triangles, a.material, &a.extras),
            (&b.triangles, b.material, &b.extras)
        );
        assert_eq!(a.uvs, b.uvs);
        assert_eq!(a.colors, b.colors);
        assert!(close(
            a.positions.as_flattened(),
            b.positions.as_flattened(),
            1e-4
        ));
        assert!(close(
            a.normals.as_flattened(),
            b.normals.as_flattened(),
            1e-4
        ));
        for (x, y) in a.skin.iter().zip(&b.skin) {
            for ((j, w), (k, v)) in x.iter().zip(y) {
                assert!((w - v).abs() < 1e-6 && (*w == 0.0 || j == k), "{x:?} {y:?}");
            }
        }
    }
    assert_eq!(r.materials, s.materials);
    assert_eq!(r.images(), s.images());
    // The animation: node channels sample to the written matrices.
    assert_eq!(r.clips.len(), 1);
    let clip = &r.clips[0];
    assert_eq!(
        (clip.name.as_str(), &clip.extras),
        ("move", &s.animations[0].extras)
    );
    let a = &s.animations[0];
    let locals = r.clip_locals(clip, &a.times);
    assert_eq!(locals.len(), 3);
    for (got, want) in locals[1].iter().zip(&a.tracks[0].local) {
        assert!(close_m(got, want), "{got:?} {want:?}");
    }
    assert!(locals[0].iter().all(|m| *m == r.nodes[0].local));
    // Between keys the rotation is a unit quaternion.
    let rot = clip
        .channels
        .iter()
        .find(|c| c.target == Target::Rotation)
        .unwrap();
    let q = rot.sample(0.8);
    assert!((q.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-5);
    // Property channels keep their pointer and values.
    let pointers: Vec<_> = clip
        .channels
        .iter()
        .filter_map(|c| match &c.target {
            Target::Pointer(p) => Some((p.as_str(), c)),
            _ => None,
        })
        .collect();
    assert_eq!(pointers.len(), 2);
    let (p, color) = pointers[0];
    assert_eq!(p, "/materials/0/pbrMetallicRoughness/baseColorFactor");
    assert_eq!(color.values, a.properties[0].values);
    assert_eq!(color.sample(1.25), a.properties[0].values[8..12]);
    let (p, vis) = pointers[1];
    assert!(
        p.ends_with("/extensions/KHR_node_visibility/visible"),
        "{p}"
    );
    assert_eq!(vis.interpolation, Interpolation::Step);
    assert_eq!(vis.sample(0.6), [0.0]);
    assert_eq!(vis.sample(5.0), [1.0]);
    // Reading what was read writes the same scene again.
    let again = Scene::from_glb(&r.to_glb().unwrap()).unwrap();
    assert_eq!(again.meshes.len(), 2);
    assert_eq!(again.materials, r.materials);
}

/// A textured material on a mesh without its coordinate set is written with an untextured
/// twin (glTF needs `TEXCOORD_n` for a texture); reading folds the twin back, so the mesh has
/// its material again (and a clip animating that material by index animates what it draws),
/// while a material merely named like a twin stays.
#[test]
fn untextured_twins_fold_back() {
    let mut s = scene();
    let mut bare = s.meshes[0].clone();
    bare.name = "no uvs".into();
    bare.uvs.clear();
    s.meshes.push(bare);
    let glb = s.to_glb().unwrap();
    let (doc, _) = chunks(&glb);
    assert_eq!(
        doc["materials"].as_array().unwrap().len(),
        s.materials.len() + 1
    );
    assert_eq!(doc["materials"][3]["name"], "masked (untextured)");
    let r = Scene::from_glb(&glb).unwrap();
    assert_eq!(r.materials, s.materials);
    assert_eq!(r.meshes[2].material, Some(0));
    // A look-alike with other extras is another material.
    let mut t = s.clone();
    let mut fake = t.materials[0].clone();
    fake.name = "masked (untextured)".into();
    fake.texture = None;
    fake.extras = Some(json!("mine"));
    t.materials.push(fake);
    t.meshes[2].uvs = t.meshes[0].uvs.clone();
    t.meshes[2].material = Some(3);
    let r = Scene::from_glb(&t.to_glb().unwrap()).unwrap();
    assert_eq!(r.materials.len(), 4);
    assert_eq!(r.meshes[2].material, Some(3));
}

/// Wrap modes are the textures' samplers: an image two materials wrap differently gets a
/// texture per mode, sampler 0 repeats with no keys, and each material reads its own back.
#[test]
fn wrap_modes_are_samplers() {
    let mut s = scene();
    let mut tiled = s.materials[0].clone();
    tiled.name = "tiled".into();
    tiled.wrap = [Wrap::Repeat; 2];
    s.materials.push(tiled);
    s.meshes[1].material = Some(3);
    let glb = s.to_glb().unwrap();
    let (doc, _) = chunks(&glb);
    assert_eq!(doc["textures"].as_array().unwrap().len(), 3);
    assert_eq!(
        doc["samplers"],
        json!([{}, {"wrapS": 33071, "wrapT": 33648}])
    );
    let r = Scene::from_glb(&glb).unwrap();
    assert_eq!(r.materials, s.materials);
    assert_eq!(r.materials[3].texture, r.materials[0].texture);
}

#[test]
fn unskinned_scene_without_nodes() {
    let mut s = Scene::new("plain");
    let mut m = Mesh::new("tri");
    m.positions = vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    m.triangles = vec![[0, 1, 2]];
    s.meshes.push(m.clone());
    let r = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    assert!(r.nodes.is_empty());
    assert_eq!(r.meshes, vec![m]);
}

/// Tangents (`TANGENT`, handedness kept) and the application's own `_BINORMAL` and `_TANGENT`
/// (lengths kept) read back as written, and move with a node's rotation as directions.
#[test]
fn tangents_and_binormals() {
    let mut s = scene();
    let m = &mut s.meshes[0];
    m.tangents = vec![
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, -1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, -1.0],
    ];
    m.binormals = vec![
        [0.0, 0.01, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.5],
        [0.0, 0.0, 0.02],
    ];
    m.stored_tangents = vec![
        [0.01, 0.0, 0.0],
        [0.0; 3],
        [0.0, 0.5, 0.0],
        [0.0, 0.0, 0.02],
    ];
    let r = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let (a, b) = (&r.meshes[0], &s.meshes[0]);
    for (x, y) in [
        (a.tangents.as_flattened(), b.tangents.as_flattened()),
        (a.binormals.as_flattened(), b.binormals.as_flattened()),
        (
            a.stored_tangents.as_flattened(),
            b.stored_tangents.as_flattened(),
        ),
    ] {
        assert!(close(x, y, 1e-4), "{x:?} {y:?}");
    }
    assert!(r.meshes[1].tangents.is_empty() && r.meshes[1].binormals.is_empty());

    // A node turned 90° about Z: x → y, y → −x; w and lengths stay.
    let mut d = Doc::new(json!({"asset": {"version": "2.0"}, "scene": 0}));
    let pos = d.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    let nrm = d.floats(&[0.0, 0.0, 1.0].repeat(3), "VEC3", 3);
    let tan = d.floats(&[1.0, 0.0, 0.0, -1.0].repeat(3), "VEC4", 4);
    let bin = d.floats(&[0.0, 0.01, 0.0].repeat(3), "VEC3", 3);
    let attrs = json!({"POSITION": pos, "NORMAL": nrm, "TANGENT": tan, "_BINORMAL": bin});
    d.push("meshes", json!({"primitives": [{"attributes": attrs}]}));
    let h = std::f32::consts::FRAC_1_SQRT_2;
    d.json["nodes"] = json!([{"rotation": [0.0, 0.0, h, h], "mesh": 0}]);
    d.json["scenes"] = json!([{"nodes": [0]}]);
    let r = Scene::from_glb(&d.glb()).unwrap();
    let m = &r.meshes[0];
    assert!(
        close(&m.tangents[0], &[0.0, 1.0, 0.0, -1.0], 1e-6),
        "{:?}",
        m.tangents
    );
    assert!(
        close(&m.binormals[2], &[-0.01, 0.0, 0.0], 1e-6),
        "{:?}",
        m.binormals
    );
    assert!(m.stored_tangents.is_empty());
}

/// A glTF document under construction with its binary buffer.
#[derive(Default)]
struct Doc {
    json: Value,
    bin: Vec<u8>,
}

impl Doc {
    fn new(json: Value) -> Doc {
        Doc {
            json,
            bin: Vec::new(),
        }
    }

    fn push(&mut self, key: &str, v: Value) -> usize {
        let a = self.json[key].as_array_mut();
        match a {
            Some(a) => {
                a.push(v);
                a.len() - 1
            }
            None => {
                self.json[key] = json!([v]);
                0
            }
        }
    }

    /// An accessor over `bytes` in a new buffer view.
    fn accessor(&mut self, bytes: &[u8], component: u32, ty: &str, count: usize) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let view = self.push(
            "bufferViews",
            json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()}),
        );
        self.bin.extend_from_slice(bytes);
        self.push(
            "accessors",
            json!({"bufferView": view, "componentType": component, "type": ty, "count": count}),
        )
    }

    fn floats(&mut self, v: &[f32], ty: &str, width: usize) -> usize {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.accessor(&bytes, 5126, ty, v.len() / width)
    }

    fn glb(&mut self) -> Vec<u8> {
        self.json["buffers"] = json!([{"byteLength": self.bin.len()}]);
        let mut js = serde_json::to_vec(&self.json).unwrap();
        while !js.len().is_multiple_of(4) {
            js.push(b' ');
        }
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut out = b"glTF".to_vec();
        out.extend(2u32.to_le_bytes());
        out.extend(((12 + 8 + js.len() + 8 + self.bin.len()) as u32).to_le_bytes());
        out.extend((js.len() as u32).to_le_bytes());
        out.extend(b"JSON");
        out.extend(js);
        out.extend((self.bin.len() as u32).to_le_bytes());
        out.extend(b"BIN\0");
        out.extend(&self.bin);
        out
    }

    /// The document as `.gltf` JSON with its buffer as a base64 data URI.
    fn gltf(&mut self) -> Vec<u8> {
        let uri = format!("data:application/octet-stream;base64,{}", base64(&self.bin));
        self.json["buffers"] = json!([{"byteLength": self.bin.len(), "uri": uri}]);
        serde_json::to_vec(&self.json).unwrap()
    }
}

fn base64(data: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in data.chunks(3) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..4 {
            s.push(if k <= c.len() {
                A[(n >> (18 - 6 * k) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    s
}

/// Four vertices drawn as a strip, a fan, a point list; nodes by matrix and TRS; a cubic
/// translation channel.
fn hand_built() -> Doc {
    let mut d = Doc::new(json!({"asset": {"version": "2.0"}, "scene": 0}));
    let pos = d.floats(
        &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0],
        "VEC3",
        3,
    );
    let idx: Vec<u8> = [0u16, 1, 2, 3]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let idx = d.accessor(&idx, 5123, "SCALAR", 4);
    // Normalised unsigned-byte UVs and a VEC3 float colour.
    let uv = d.accessor(&[0, 0, 255, 0, 0, 255, 255, 255], 5121, "VEC2", 4);
    d.json["accessors"][uv]["normalized"] = json!(true);
    let col = d.floats(
        &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.5, 0.5, 0.5],
        "VEC3",
        3,
    );
    let attrs = json!({"POSITION": pos, "TEXCOORD_0": uv, "COLOR_0": col});
    let small = d.accessor(&[0, 1, 2], 5121, "SCALAR", 3);
    d.push(
        "meshes",
        json!({"name": "shapes", "extras": {"k": 1}, "primitives": [
            {"attributes": attrs, "indices": idx, "mode": 5},
            {"attributes": attrs, "indices": idx, "mode": 6},
            {"attributes": attrs, "mode": 0},
            {"attributes": attrs, "mode": 4, "indices": small},
        ]}),
    );
    // Node 0: a matrix translating by (10, 0, 0) whose child 1 (TRS) instances the mesh.
    let mut m = [0.0f32; 16];
    for k in [0, 5, 10, 15] {
        m[k] = 1.0;
    }
    m[12] = 10.0;
    d.json["nodes"] = json!([
        {"name": "mover", "matrix": m, "children": [1]},
        {"name": "holder", "translation": [0.0, 2.0, 0.0], "scale": [2.0, 2.0, 2.0], "mesh": 0},
        {"name": "outside"},
    ]);
    d.json["scenes"] = json!([{"nodes": [0]}]);
    let times = d.floats(&[1.0, 3.0], "SCALAR", 1);
    // Keys: in-tangent, value, out-tangent (VEC3 each).
    let keys = d.floats(
        &[
            0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 0.0, //
            -2.0, 0.0, 0.0, 5.0, 2.0, 3.0, 0.0, 0.0, 0.0,
        ],
        "VEC3",
        3,
    );
    d.push(
        "animations",
        json!({"samplers": [{"input": times, "output": keys, "interpolation": "CUBICSPLINE"}],
               "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}},
                            {"sampler": 0, "target": {"node": 2, "path": "translation"}},
                            {"sampler": 0, "target": {"node": 1, "path": "weights"}}]}),
    );
    d
}

fn check_hand_built(s: &Scene, notes: &[String]) {
    assert_eq!(s.nodes.len(), 2, "the node outside the scene is dropped");
    assert_eq!(s.nodes[1].parent, Some(0));
    assert_eq!(s.nodes[0].local[0][3], 10.0);
    assert_eq!(s.meshes.len(), 3, "points skipped: {notes:?}");
    assert_eq!(notes.len(), 3, "{notes:?}");
    let strip = &s.meshes[0];
    assert_eq!(strip.triangles, [[0, 1, 2], [1, 3, 2]]);
    assert_eq!(s.meshes[1].triangles, [[1, 2, 0], [2, 3, 0]]);
    assert_eq!(s.meshes[2].triangles, [[0, 1, 2]]);
    assert_eq!(
        (strip.node, &strip.extras),
        (Some(1), &Some(json!({"k": 1})))
    );
    // World = translate(10,0,0) · translate(0,2,0) · scale 2.
    assert_eq!(strip.positions[3], [12.0, 4.0, 0.0]);
    assert_eq!(strip.skin[0][0], (1, 1.0));
    assert_eq!(
        strip.uvs,
        [vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]]
    );
    assert_eq!(strip.colors[0][3], [128, 128, 128, 255]);
    let ch = &s.clips[0].channels;
    assert_eq!(ch.len(), 1);
    assert_eq!(
        (ch[0].node, ch[0].interpolation),
        (1, Interpolation::CubicSpline)
    );
    assert_eq!(ch[0].sample(0.0), [1.0, 2.0, 3.0]);
    assert_eq!(ch[0].sample(9.0), [5.0, 2.0, 3.0]);
    // Hermite at s = 1/2 over a span of 2: (v0 + v1) / 2 + span (b0 - a1) / 8.
    let mid = ch[0].sample(2.0);
    assert!(
        close(&mid, &[3.0 + 2.0 * (4.0 + 2.0) / 8.0, 2.0, 3.0], 1e-5),
        "{mid:?}"
    );
    let locals = s.clip_locals(&s.clips[0], &[2.0]);
    assert_eq!(locals[1][0][0][3], mid[0]);
    assert_eq!(locals[1][0][0][0], 2.0, "rest scale kept");
}

#[test]
fn strips_fans_matrices_cubic_glb_and_gltf() {
    let mut d = hand_built();
    let (s, notes) = Scene::read_glb(&d.glb()).unwrap();
    check_hand_built(&s, &notes);
    let (s, notes) = Scene::read_glb(&d.gltf()).unwrap();
    check_hand_built(&s, &notes);
}

#[test]
fn skinned_at_rest_and_sparse() {
    let mut d = Doc::new(json!({"asset": {"version": "2.0"}}));
    let pos = d.floats(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], "VEC3", 3);
    // Sparse: vertex 2 replaced by (0, 0, 4).
    let si = d.accessor(&[2], 5121, "SCALAR", 1);
    let sv = d.floats(&[0.0, 0.0, 4.0], "VEC3", 3);
    let (iv, vv) = (
        d.json["accessors"][si]["bufferView"].clone(),
        d.json["accessors"][sv]["bufferView"].clone(),
    );
    d.json["accessors"][pos]["sparse"] = json!({"count": 1,
        "indices": {"bufferView": iv, "componentType": 5121}, "values": {"bufferView": vv}});
    let joints = d.accessor(&[0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0], 5121, "VEC4", 3);
    // Vertex 0's second half weight comes through JOINTS_1/WEIGHTS_1.
    let w = d.floats(
        &[0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.25, 0.75, 0.0, 0.0],
        "VEC4",
        4,
    );
    let joints1 = d.accessor(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 5121, "VEC4", 3);
    let w1 = d.floats(
        &[0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "VEC4",
        4,
    );
    // Joint 0 at the origin, joint 1 moved by (0, 0, 2) at rest but bound where it was at the
    // origin: its vertices move by (0, 0, 2).
    let ibm = d.floats(
        &[
            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, //
            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ],
        "MAT4",
        16,
    );
    d.json["nodes"] = json!([
        {"name": "j0", "children": [1]},
        {"name": "j1", "translation": [0.0, 0.0, 2.0]},
        {"name": "skinned", "mesh": 0, "skin": 0, "translation": [100.0, 0.0, 0.0]},
    ]);
    d.json["scenes"] = json!([{"nodes": [0, 2]}]);
    d.json["skins"] = json!([{"joints": [0, 1], "inverseBindMatrices": ibm}]);
    d.json["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": w,
        "JOINTS_1": joints1, "WEIGHTS_1": w1}}]}]);
    let s = Scene::from_glb(&d.glb()).unwrap();
    assert_eq!(
        s.nodes.len(),
        2,
        "the childless skinned-mesh node is dropped"
    );
    assert_eq!(s.nodes[1].inverse_bind, IDENTITY);
    let m = &s.meshes[0];
    assert_eq!(m.triangles, [[0, 1, 2]]);
    assert_eq!(
        m.positions,
        [[1.0, 0.0, 1.0], [0.0, 1.0, 2.0], [0.0, 0.0, 5.5]]
    );
    assert_eq!(m.skin[0], [(0, 0.5), (1, 0.5), (0, 0.0), (0, 0.0)]);
    assert_eq!(m.skin[2], skin_weights(&[(1, 0.75), (0, 0.25)]));
    let w = s.world_matrices();
    assert_eq!(w[1], mul(&IDENTITY, &s.nodes[1].local));
}

/// What must be refused, with what the message names.
#[test]
fn hostile_input_is_an_error() {
    let glb = scene().to_glb().unwrap();
    for cut in (0..glb.len()).step_by(7) {
        let _ = Scene::from_glb(&glb[..cut]);
    }
    let err = |d: &mut Doc| Scene::from_glb(&d.glb()).unwrap_err().to_string();
    let mut d = hand_built();
    d.json["accessors"][0]["count"] = json!(1u64 << 40);
    assert!(err(&mut d).contains("limit"), "{}", err(&mut d));
    let mut d = hand_built();
    d.json["accessors"][0]["count"] = json!(5);
    assert!(
        err(&mut d).contains("past bufferViews[0]"),
        "{}",
        err(&mut d)
    );
    let mut d = hand_built();
    d.json["accessors"][0]["byteOffset"] = json!(u64::MAX);
    assert!(err(&mut d).contains("accessors[0]"), "{}", err(&mut d));
    let mut d = hand_built();
    d.json["bufferViews"][0]["byteLength"] = json!(1 << 20);
    assert!(err(&mut d).contains("bufferViews[0]"), "{}", err(&mut d));
    let mut d = hand_built();
    d.json["meshes"][0]["primitives"][0]["material"] = json!(3);
    assert!(err(&mut d).contains("material 3"), "{}", err(&mut d));
    let mut d = hand_built();
    d.json["nodes"][0]["children"] = json!([7]);
    assert!(err(&mut d).contains("nodes[0].children"), "{}", err(&mut d));
    // Sparse counts and offsets past the accessor are refused before any loop or overflow.
    for (key, v) in [
        ("count", json!(1u64 << 62)),
        ("byteOffset", json!(u64::MAX)),
    ] {
        let mut d = hand_built();
        let bv = d.json["accessors"][0]["bufferView"].clone();
        let mut sparse = json!({"count": 1, "indices": {"bufferView": bv, "componentType": 5121},
            "values": {"bufferView": bv}});
        if key == "count" {
            sparse["count"] = v;
        } else {
            sparse["indices"]["byteOffset"] = v;
        }
        d.json["accessors"][0]["sparse"] = sparse;
        assert!(err(&mut d).contains("sparse"), "{}", err(&mut d));
    }
    // A long chain of dropped nodes above many kept ones reads in linear time.
    let mut d = hand_built();
    let n = 20_000;
    let mut nodes: Vec<Value> = (0..n)
        .map(|k| json!({"children": [k + 1], "extras": {"gx": "skeleton"}}))
        .collect();
    nodes[n - 1] =
        json!({"extras": {"gx": "skeleton"}, "children": (n..2 * n).collect::<Vec<_>>()});
    nodes.extend((0..n).map(|_| json!({"translation": [1.0, 0.0, 0.0]})));
    d.json["nodes"] = json!(nodes);
    d.json["scenes"] = json!([{"nodes": [0]}]);
    d.json["animations"] = json!([]);
    let s = Scene::from_glb(&d.glb()).unwrap();
    assert_eq!(s.nodes.len(), n);
    assert!(s.nodes.iter().all(|x| x.parent.is_none()));
    // A child cycle is no hang.
    let mut d = hand_built();
    d.json["nodes"][1]["children"] = json!([0]);
    assert!(Scene::from_glb(&d.glb()).is_ok());
    // An index past the vertices.
    let mut d = hand_built();
    d.bin[48] = 9;
    assert!(err(&mut d).contains("index 9"), "{}", err(&mut d));
    // External files and broken JPEG images are refused by name.
    let mut d = hand_built();
    let mut gltf: Value = serde_json::from_slice(&d.gltf()).unwrap();
    gltf["buffers"][0]["uri"] = json!("model.bin");
    let e = Scene::from_glb(&serde_json::to_vec(&gltf).unwrap()).unwrap_err();
    assert!(e.to_string().contains("external file"), "{e}");
    gltf["buffers"] = json!([]);
    gltf["images"] =
        json!([{"uri": format!("data:image/jpeg;base64,{}", base64(&[0xFF, 0xD8, 0xFF]))}]);
    let e = Scene::from_glb(&serde_json::to_vec(&gltf).unwrap()).unwrap_err();
    assert!(e.to_string().contains("JPEG"), "{e}");
    let mut d = hand_built();
    d.json["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
    assert!(
        err(&mut d).contains("KHR_draco_mesh_compression"),
        "{}",
        err(&mut d)
    );
    assert!(Scene::from_glb(b"glTF\x01\0\0\0").is_err());
    assert!(Scene::from_glb(b"{").is_err());
}

/// [`scene`] written, once for all proptest cases.
static WRITTEN: std::sync::LazyLock<Vec<u8>> =
    std::sync::LazyLock::new(|| scene().to_glb().unwrap());

/// JSON pointers of every number in `v`.
fn number_paths(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                number_paths(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                number_paths(x, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// The JSON and BIN chunks of a GLB our writer made.
fn chunks(glb: &[u8]) -> (Value, Vec<u8>) {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    (json, glb.get(28 + len..).unwrap_or_default().to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Written scenes with numbers of their JSON (indices, counts, offsets, strides, modes)
    /// replaced by small, boundary and huge values: errors or scenes, never a panic; what reads
    /// writes and reads again.
    #[test]
    fn mutated_json_numbers(
        edits in proptest::collection::vec(
            (any::<prop::sample::Index>(), prop_oneof![
                Just(json!(0)), Just(json!(1)), Just(json!(2)), Just(json!(3)), Just(json!(5)),
                Just(json!(6)), Just(json!(-1)), Just(json!(0.5)), Just(json!(5123)),
                Just(json!(65535)), Just(json!(1u64 << 31)), Just(json!(u64::MAX)),
            ]),
            1..6,
        ),
    ) {
        let (mut json, bin) = chunks(&WRITTEN);
        let mut paths = Vec::new();
        number_paths(&json, String::new(), &mut paths);
        for (at, v) in edits {
            *json.pointer_mut(at.get(&paths).as_str()).unwrap() = v;
        }
        let mut d = Doc { json, bin };
        if let Ok(s) = Scene::from_glb(&d.glb()) {
            Scene::from_glb(&s.to_glb().unwrap()).unwrap();
        }
    }

    /// Linear and step channels return each key's value at its time, stay within the keys'
    /// range between them, and never panic.
    #[test]
    fn sampling_hits_the_keys(
        keys in proptest::collection::vec((0.01f32..3.0, -100.0f32..100.0), 1..12),
        step in any::<bool>(),
        t in -5.0f32..40.0,
    ) {
        let mut time = 0.0;
        let times: Vec<f32> = keys.iter().map(|k| { time += k.0; time }).collect();
        let values: Vec<f32> = keys.iter().map(|k| k.1).collect();
        let c = gx::scene::Channel {
            node: 0,
            target: Target::Pointer("/x".into()),
            interpolation: if step { Interpolation::Step } else { Interpolation::Linear },
            times: times.clone(),
            values: values.clone(),
        };
        for (t, v) in times.iter().zip(&values) {
            prop_assert_eq!(c.sample(*t), vec![*v]);
        }
        let (lo, hi) = values.iter().fold((f32::MAX, f32::MIN), |(a, b), v| (a.min(*v), b.max(*v)));
        let x = c.sample(t)[0];
        prop_assert!(x >= lo - 1e-3 && x <= hi + 1e-3);
    }

    /// Random bytes after a valid GLB header and JSON chunk header.
    #[test]
    fn random_chunk_bodies(body in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut glb = b"glTF".to_vec();
        glb.extend(2u32.to_le_bytes());
        glb.extend((20 + body.len() as u32).to_le_bytes());
        glb.extend((body.len() as u32).to_le_bytes());
        glb.extend(b"JSON");
        glb.extend(&body);
        let _ = Scene::from_glb(&glb);
    }

    /// A written scene with bytes changed anywhere.
    #[test]
    fn mutated_glb(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut glb = WRITTEN.clone();
        let n = glb.len();
        for (at, b) in edits {
            glb[at.index(n)] = b;
        }
        // What still reads also writes and reads again (the gx_gltf fuzz body).
        if let Ok(s) = Scene::from_glb(&glb) {
            Scene::from_glb(&s.to_glb().unwrap()).unwrap();
        }
    }
}

/// Cameras and lights go out on top-level nodes of their own and come back with their world
/// matrices and parameters, those nodes no scene nodes (the joints stay as they were).
#[test]
fn cameras_and_lights_round_trip() {
    let mut s = scene();
    let at = gx::mtx::srt([0.3, -1.2, 0.1], [1.0; 3], [-18.7, 14.2, 11.2]);
    s.cameras.push(gx::scene::Camera {
        name: "eye".into(),
        matrix: at,
        yfov: 0.304,
        aspect: Some(1.18),
        znear: 0.1,
        zfar: Some(32768.0),
        extras: Some(serde_json::json!({"k": 1})),
    });
    for (k, kind) in [
        gx::scene::LightKind::Directional,
        gx::scene::LightKind::Point,
        gx::scene::LightKind::Spot {
            inner: 0.2,
            outer: 0.5,
        },
    ]
    .into_iter()
    .enumerate()
    {
        s.lights.push(gx::scene::Light {
            name: format!("l{k}"),
            matrix: gx::mtx::srt([0.0, k as f32, 0.0], [1.0; 3], [1.0, 2.0, 3.0]),
            kind,
            color: [0.3, 0.3, 0.3],
            intensity: 2.0,
            range: (kind != gx::scene::LightKind::Directional).then_some(10.0),
            extras: None,
        });
    }
    let back = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    assert_eq!(back.nodes.len(), s.nodes.len());
    assert_eq!(back.cameras.len(), 1);
    let c = &back.cameras[0];
    assert!(close_m(&c.matrix, &at));
    assert_eq!(
        (c.yfov, c.aspect, c.znear, c.zfar),
        (0.304, Some(1.18), 0.1, Some(32768.0))
    );
    assert_eq!(c.extras, s.cameras[0].extras);
    assert_eq!(back.lights.len(), 3);
    for (a, b) in back.lights.iter().zip(&s.lights) {
        assert!(close_m(&a.matrix, &b.matrix));
        assert_eq!(
            (a.kind, a.color, a.intensity, a.range),
            (b.kind, b.color, b.intensity, b.range)
        );
    }
}

/// A 16 × 8 JPEG written by Blender 5.0 (`Image.save`, quality 90): the left half red
/// (255, 0, 0), the right half blue (0, 0, 255).
const BLENDER_JPEG: &str = concat!(
    "ffd8ffe000104a46494600010100000100010000ffe1000c4e656f47656f0000005affdb0043000302020302",
    "020303030304030304050805050404050a070706080c0a0c0c0b0a0b0b0d0e12100d0e110e0b0b1016101113",
    "141515150c0f171816141812141514ffdb00430103040405040509050509140d0b0d14141414141414141414",
    "14141414141414141414141414141414141414141414141414141414141414141414141414141414ffc00011",
    "080008001003012200021101031101ffc4001f00000105010101010101000000000000000001020304050607",
    "08090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114",
    "328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748",
    "494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2",
    "a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9",
    "eaf1f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708090a0b",
    "ffc400b511000201020404030407050404000102770001020311040521310612415107617113223281081442",
    "91a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a434445464748494a53",
    "5455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4",
    "a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3",
    "f4f5f6f7f8f9faffda000c03010002110311003f00f9d2bc0a8a2bf70fa32ffcce3fee07fee63fa37e90dff3",
    "2aff00b8dffb88ffd9",
);

fn blender_jpeg() -> Vec<u8> {
    (0..BLENDER_JPEG.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&BLENDER_JPEG[i..i + 2], 16).unwrap())
        .collect()
}

proptest! {
    /// A damaged JPEG (bytes overwritten, or cut short) is an error or an image, never a panic.
    #[test]
    fn damaged_jpeg_never_panics(
        at in 0usize..669,
        with in prop::collection::vec(any::<u8>(), 1..16),
        cut in 0usize..700,
    ) {
        let mut b = blender_jpeg();
        for (k, x) in with.into_iter().enumerate() {
            if let Some(v) = b.get_mut(at + k) {
                *v = x;
            }
        }
        b.truncate(cut);
        let _ = gx::jpeg::decode(&b);
    }
}

/// A JPEG image (Blender keeps JPEG sources as JPEG) decodes: each half, away from the edge
/// that chroma subsampling blurs, within JPEG's loss of the colour Blender was given, every
/// pixel opaque.
#[test]
fn jpeg_images_decode() {
    let bytes = blender_jpeg();
    let gltf = json!({
        "asset": {"version": "2.0"},
        "images": [{"uri": format!("data:image/jpeg;base64,{}", base64(&bytes))}],
    });
    let s = Scene::from_glb(&serde_json::to_vec(&gltf).unwrap()).unwrap();
    let img = &s.images()[0];
    assert_eq!((img.width(), img.height()), (16, 8));
    for y in 0..8 {
        for x in (0..6).chain(10..16) {
            let want: [u8; 4] = if x < 8 {
                [255, 0, 0, 255]
            } else {
                [0, 0, 255, 255]
            };
            let got = img.pixel(x, y).unwrap();
            let far = got
                .iter()
                .zip(want)
                .map(|(a, b)| a.abs_diff(b))
                .max()
                .unwrap();
            assert!(far <= 24, "({x}, {y}): {got:?}");
        }
    }
}

/// A `.gltf` whose buffer and image are separate files (Blender's "glTF Separate") reads, once
/// `embed_external` has them from the resolver, as the self-contained document does: names
/// percent-decoded; a URI with a scheme or an absolute path is refused; a GLB is unchanged.
#[test]
fn external_files_embed() {
    let mut d = hand_built();
    let whole = Scene::from_glb(&d.glb()).unwrap();
    let png = gx::png::encode(&Image::test_pattern(4, 4, true).unwrap()).unwrap();
    let mut doc = d.json.clone();
    doc["buffers"] = json!([{"byteLength": d.bin.len(), "uri": "my%20model.bin"}]);
    doc["images"] = json!([{"uri": "tex/a.png"}]);
    let doc = serde_json::to_vec(&doc).unwrap();
    let files = [("my model.bin", d.bin.clone()), ("tex/a.png", png.clone())];
    let mut asked = Vec::new();
    let embedded = gx::scene::embed_external(&doc, |name| {
        asked.push(name.to_owned());
        let (_, bytes) = files.iter().find(|(n, _)| *n == name).unwrap();
        Ok(bytes.clone())
    })
    .unwrap();
    assert_eq!(asked, ["my model.bin", "tex/a.png"]);
    let read = Scene::from_glb(&embedded).unwrap();
    assert_eq!(read.meshes, whole.meshes);
    assert_eq!(read.images()[0], gx::png::decode(&png).unwrap());
    for bad in ["http://example.com/a.bin", "/tmp/a.bin", "file:a.bin"] {
        let mut doc = d.json.clone();
        doc["buffers"] = json!([{"byteLength": d.bin.len(), "uri": bad}]);
        let doc = serde_json::to_vec(&doc).unwrap();
        let e = gx::scene::embed_external(&doc, |_| Ok(Vec::new())).unwrap_err();
        assert!(e.to_string().contains("relative"), "{bad}: {e}");
    }
    let glb = d.glb();
    assert_eq!(
        gx::scene::embed_external(&glb, |_| unreachable!()).unwrap(),
        glb
    );
}

/// A static `KHR_texture_transform` on the base-colour texture (Blender's Mapping node) is
/// applied to the coordinates the texture reads, `uv' = T · R · S · uv`; an empty one (our
/// export's, whose values an animation carries) changes nothing.
#[test]
fn static_texture_transforms_apply() {
    let read = |transform: Value| {
        let mut d = hand_built();
        d.json["textures"] = json!([{}]);
        d.json["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {
            "index": 0, "extensions": {"KHR_texture_transform": transform}}}}]);
        d.json["extensionsUsed"] = json!(["KHR_texture_transform"]);
        for p in d.json["meshes"][0]["primitives"].as_array_mut().unwrap() {
            p["material"] = json!(0);
        }
        Scene::from_glb(&d.glb()).unwrap()
    };
    let plain = read(json!({}));
    assert_eq!(
        plain.meshes,
        Scene::from_glb(&{
            let mut d = hand_built();
            d.json["textures"] = json!([{}]);
            d.json["materials"] =
                json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
            for p in d.json["meshes"][0]["primitives"].as_array_mut().unwrap() {
                p["material"] = json!(0);
            }
            d.glb()
        })
        .unwrap()
        .meshes
    );
    let (r, s, o) = (0.5f32, [2.0f32, 3.0], [0.5f32, 0.25]);
    let moved = read(json!({"offset": o, "scale": s, "rotation": r}));
    let mut checked = 0;
    for (a, b) in plain.meshes.iter().zip(&moved.meshes) {
        for (&[u, v], &[x, y]) in a.uvs[0].iter().zip(&b.uvs[0]) {
            let want = [
                r.cos() * s[0] * u + r.sin() * s[1] * v + o[0],
                -r.sin() * s[0] * u + r.cos() * s[1] * v + o[1],
            ];
            assert!((x - want[0]).abs() < 1e-6 && (y - want[1]).abs() < 1e-6);
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked}");
}

/// Morph targets are added at the default weights (the node's, else the mesh's) before they
/// are dropped, so the shape is the one a viewer draws without a clip; a vertex weighted to
/// more than four joints keeps its four heaviest. Both with a note.
#[test]
fn morph_targets_apply_at_default_weights() {
    let mut d = Doc::new(json!({"asset": {"version": "2.0"}}));
    let pos = d.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    let nrm = d.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC3", 3);
    let dp = d.floats(&[0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "VEC3", 3);
    let dn = d.floats(&[2.0, 0.0, -2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "VEC3", 3);
    let dp2 = d.floats(&[0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "VEC3", 3);
    d.json["meshes"] = json!([{"weights": [0.5, 0.0], "primitives": [{
        "attributes": {"POSITION": pos, "NORMAL": nrm},
        "targets": [{"POSITION": dp, "NORMAL": dn}, {"POSITION": dp2}]}]}]);
    d.json["nodes"] = json!([
        {"name": "mesh's weights", "mesh": 0},
        {"name": "own weights", "mesh": 0, "weights": [0.0, 0.25]},
    ]);
    d.json["scenes"] = json!([{"nodes": [0, 1]}]);
    let (s, notes) = Scene::read_glb(&d.glb()).unwrap();
    assert_eq!(s.meshes[0].positions[0], [0.0, 0.0, 1.0]);
    assert_eq!(
        s.meshes[0].normals[0],
        [1.0, 0.0, 0.0],
        "0.5 of (2, 0, -2) added"
    );
    assert_eq!(s.meshes[0].positions[1], [1.0, 0.0, 0.0]);
    assert_eq!(
        s.meshes[1].positions[0],
        [0.0, 1.0, 0.0],
        "the node's weights win"
    );
    assert_eq!(s.meshes[1].normals[0], [0.0, 0.0, 1.0]);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("2 morph targets dropped (1 applied")),
        "{notes:?}"
    );

    // Five joints on one vertex: the four heaviest, renormalised, and a note.
    let mut d = Doc::new(json!({"asset": {"version": "2.0"}}));
    let pos = d.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    let j0 = d.accessor(&[0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0], 5121, "VEC4", 3);
    let w0 = d.floats(
        &[0.3, 0.25, 0.2, 0.15, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        "VEC4",
        4,
    );
    let j1 = d.accessor(&[4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 5121, "VEC4", 3);
    let w1 = d.floats(
        &[0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "VEC4",
        4,
    );
    d.json["nodes"] = json!([
        {"children": [1, 2, 3, 4]}, {}, {}, {}, {},
        {"mesh": 0, "skin": 0},
    ]);
    d.json["scenes"] = json!([{"nodes": [0, 5]}]);
    d.json["skins"] = json!([{"joints": [0, 1, 2, 3, 4]}]);
    d.json["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": pos,
        "JOINTS_0": j0, "WEIGHTS_0": w0, "JOINTS_1": j1, "WEIGHTS_1": w1}}]}]);
    let (s, notes) = Scene::read_glb(&d.glb()).unwrap();
    let kept: Vec<u16> = s.meshes[0].skin[0].iter().map(|p| p.0).collect();
    assert_eq!(kept, [0, 1, 2, 3]);
    assert!((s.meshes[0].skin[0].iter().map(|p| p.1).sum::<f32>() - 1.0).abs() < 1e-6);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("1 vertices weighted to more than 4 joints")),
        "{notes:?}"
    );
}

/// A ripper's material in the older specular-glossiness model (even as a required
/// extension): its diffuse colour and texture are the base colour.
#[test]
fn specular_glossiness_diffuse_is_the_base_colour() {
    let mut d = Doc::new(json!({"asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_materials_pbrSpecularGlossiness"],
        "extensionsRequired": ["KHR_materials_pbrSpecularGlossiness"]}));
    let pos = d.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    let png = gx::png::encode(
        &Image::from_fn(2, 2, |x, y| [x as u8 * 200, y as u8 * 200, 9, 255]).unwrap(),
    )
    .unwrap();
    let view = d.accessor(&png, 5121, "SCALAR", png.len());
    let view = d.json["accessors"][view]["bufferView"].clone();
    d.json["images"] = json!([{"bufferView": view, "mimeType": "image/png"}]);
    d.json["textures"] = json!([{"source": 0}]);
    d.json["materials"] = json!([{"extensions": {"KHR_materials_pbrSpecularGlossiness": {
        "diffuseFactor": [0.5, 0.25, 1.0, 0.75], "diffuseTexture": {"index": 0}}}}]);
    d.json["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": pos}, "material": 0}]}]);
    d.json["nodes"] = json!([{"mesh": 0}]);
    d.json["scenes"] = json!([{"nodes": [0]}]);
    let s = Scene::from_glb(&d.glb()).unwrap();
    assert_eq!(s.materials[0].color, [0.5, 0.25, 1.0, 0.75]);
    let t = s.materials[0].texture.unwrap();
    assert_eq!(s.images()[t].pixel(1, 0), Some([200, 0, 9, 255]));
}

/// Equal images stay two through a glb (a file that stored a texture twice, such as a Melee
/// trophy, keeps both, and extras counting the document's images still match), while
/// `add_image` still shares one.
#[test]
fn equal_images_stay_apart() {
    let img = || Image::new(2, 2, vec![[9, 8, 7, 255]; 4]).unwrap();
    let mut s = Scene::new("twice");
    assert_eq!(s.add_image(img()), 0);
    assert_eq!(s.add_image(img()), 0);
    assert_eq!(s.push_image(img()), 1);
    let back = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    assert_eq!(back.images().len(), 2);
    assert_eq!(back.images()[0], back.images()[1]);
}
