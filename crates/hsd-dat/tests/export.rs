#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! glTF export re-read with the `gltf` crate: one mesh per PObj, one skin joint per joint of the
//! graph, one material per MObj, one texture per distinct image (counted from the archive's image
//! and palette data, independently of the exporter's pixel comparison); the OBJ has the same
//! groups and its material library names every textured material's PNG; gx's glTF reader
//! reads the export back.

mod support;

use std::collections::HashSet;

use hsd_dat::{Image, Palette, export, parse};

/// Distinct (pixel data, format, size, palette data) of every texture the archive uses.
fn distinct_images(a: &hsd_dat::Archive<'_>, g: &hsd_dat::Graph) -> usize {
    let mut seen = HashSet::new();
    for t in a.textures(g) {
        let img: Image = a.read(t.image).unwrap();
        let pal = t
            .palette
            .map(|p| a.read::<Palette>(p).unwrap())
            .map(|p| (p.data, p.format, p.n_entries));
        seen.insert((img.data, img.format, img.width, img.height, pal));
    }
    seen.len()
}

/// Exports `bytes` and checks the counts; returns (meshes, joints, images). An archive without
/// joints and meshes (data only: `mextk-minimal`, m-ex fighter data) has no model: an empty
/// scene, which `require_model` and `to_glb` refuse.
fn check(name: &str, bytes: &[u8]) -> (usize, usize, usize) {
    let a = parse(bytes).unwrap();
    let g = a.graph();
    let e = export::to_scene(&a);
    assert!(e.problems.is_empty(), "{name}: {:?}", e.problems);
    if g.joints.is_empty() && g.pobjs.is_empty() {
        let no = export::require_model(&a, &e.scene).unwrap_err().to_string();
        assert!(no.contains("no model"), "{name}: {no}");
        assert!(
            export::to_glb(&a)
                .unwrap_err()
                .to_string()
                .contains("no model")
        );
        return (0, 0, 0);
    }
    export::require_model(&a, &e.scene).unwrap();
    let glb = e.scene.to_glb().unwrap();
    // The gltf crate reads no KHR_animation_pointer channel (material animations): check the
    // document without them.
    let mut unanimated = e.scene.clone();
    unanimated.animations.clear();
    let gl = gltf::Gltf::from_slice(&unanimated.to_glb().unwrap()).unwrap();
    // gx's reader gets the joints, each drawn mesh's triangles and the images back.
    let back = gx::scene::Scene::from_glb(&glb).unwrap();
    assert_eq!(back.nodes.len(), e.scene.nodes.len(), "{name}");
    let triangles = |s: &gx::scene::Scene| -> Vec<usize> {
        s.meshes
            .iter()
            .filter(|m| !m.positions.is_empty() && !m.triangles.is_empty())
            .map(|m| m.triangles.len())
            .collect()
    };
    assert_eq!(triangles(&back), triangles(&e.scene), "{name}");
    assert_eq!(back.images(), e.scene.images(), "{name}");
    let drawn = g
        .pobjs
        .iter()
        .filter(|p| !a.mesh(&g, p).unwrap().triangles.is_empty())
        .count();
    assert_eq!(gl.meshes().count(), drawn, "{name}");
    let joints = g.joints.len();
    if joints > 0 {
        assert_eq!(
            gl.skins().next().unwrap().joints().count(),
            joints,
            "{name}"
        );
    }
    let mobjs: HashSet<u32> = g.pobjs.iter().filter_map(|p| p.mobj).collect();
    // One material per MObj, plus an untextured twin for a textured one on a mesh without UVs.
    assert_eq!(e.scene.materials.len(), mobjs.len(), "{name}");
    assert!(gl.materials().count() >= mobjs.len(), "{name}");
    let images = distinct_images(&a, &g);
    // A texture per image, and one more per other wrap mode a TObj samples an image with.
    let pairs: HashSet<(usize, Option<usize>)> = gl
        .textures()
        .map(|t| (t.source().index(), t.sampler().index()))
        .collect();
    assert_eq!(pairs.len(), gl.textures().count(), "{name}");
    assert!(gl.textures().count() >= images, "{name}");
    assert_eq!(gl.images().count(), images, "{name}");
    for m in gl.meshes() {
        let p = m.primitives().next().unwrap();
        assert!(p.get(&gltf::Semantic::Positions).is_some());
        if joints > 0 {
            assert!(p.get(&gltf::Semantic::Weights(0)).is_some());
        }
    }
    let obj = e.scene.to_obj(Some("x.mtl"));
    assert_eq!(obj.lines().filter(|l| l.starts_with("g ")).count(), drawn);
    let mtl = e.scene.to_mtl(|i| format!("x_img{i}.png"));
    let textured = e.scene.materials.iter().filter(|m| m.texture.is_some());
    assert_eq!(mtl.matches("map_Kd ").count(), textured.count());
    (drawn, joints, images)
}

#[test]
fn samples_export() {
    for (name, bytes) in hsd_dat::build::samples().unwrap() {
        check(&name, &bytes);
    }
    let scene = hsd_dat::build::xd_scene().unwrap().write().unwrap();
    let (meshes, joints, images) = check("xd-scene", &scene);
    assert!(
        meshes > 1 && joints > 1 && images > 1,
        "{meshes} {joints} {images}"
    );
}

/// Every real archive of `../shared/corpus/real/hsd` (skipped when absent) exports without a
/// problem (Melee's C8 eye textures decode with their TexAnim palettes).
#[test]
fn real_files_export() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/hsd", "hsd-dat export")
    else {
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap();
    for e in entries.flatten() {
        let bytes = std::fs::read(e.path()).unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        let counts = check(&name, &bytes);
        eprintln!("{name}: {counts:?}");
    }
}

/// AnimJoint trees export as glTF animations that replay the runtime's curves: the XD samples'
/// ModelSet animations (a ROTY track on the root; ROTX and TRAY on a deformer) read back from
/// the .glb and resampled give each frame's local matrices within 1e-3. The shared real models
/// hold no AnimJoint tree (cb_plug's ModelSet lists none): it exports without animations.
#[test]
fn anim_joint_trees_export_as_animations() {
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (
            "xd-model".into(),
            hsd_dat::build::xd_model(hsd_dat::build::XdOptions::default())
                .unwrap()
                .write()
                .unwrap(),
        ),
        (
            "xd-scene".into(),
            hsd_dat::build::xd_scene().unwrap().write().unwrap(),
        ),
    ];
    if let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/hsd", "anim export") {
        files.push((
            "cb_plug".into(),
            std::fs::read(dir.join("cb_plug-cb_plug.dat")).unwrap(),
        ));
    }
    let mut animations = 0;
    for (name, bytes) in &files {
        let a = parse(bytes).unwrap();
        let g = a.graph();
        let e = export::to_scene(&a);
        assert!(e.problems.is_empty(), "{name}: {:?}", e.problems);
        let back = gx::scene::Scene::from_glb(&export::to_glb(&a).unwrap()).unwrap();
        // An animation without channels (a textured material's alpha: extras only) is no clip.
        let channelled: Vec<_> = e
            .scene
            .animations
            .iter()
            .filter(|x| !x.tracks.is_empty() || !x.properties.is_empty())
            .collect();
        assert_eq!(back.clips.len(), channelled.len(), "{name}");
        let root = g.joints[0].offset;
        for (anim, clip) in channelled.into_iter().zip(&back.clips) {
            if anim.name.starts_with("matanim_") {
                continue; // tests/matanim.rs
            }
            animations += 1;
            assert!(!anim.tracks.is_empty(), "{name}");
            let locals = back.clip_locals(clip, &anim.times);
            for (k, t) in anim.times.iter().enumerate() {
                let frame = (t * 60.0).round();
                // The runtime's world matrices at this frame, made local again.
                let world = a
                    .sample_anim_joint(root, Some(anim_root(&a, anim)), frame)
                    .unwrap();
                for track in &anim.tracks {
                    let w = world[track.node];
                    let parent = g.joints[track.node]
                        .parent
                        .map_or(gx::mtx::IDENTITY, |p| world[p]);
                    let want = gx::mtx::mul(&gx::mtx::inverse(&parent).unwrap(), &w);
                    let got = locals[track.node][k];
                    for (r, s) in want.iter().flatten().zip(got.iter().flatten()) {
                        assert!(
                            (r - s).abs() < 1e-3,
                            "{name} frame {frame}: {want:?} {got:?}"
                        );
                    }
                }
            }
        }
    }
    assert_eq!(animations, 3, "xd-model's two and xd-scene's one");
}

/// The AnimJoint root of exported animation `anim` (`anim_K`: the K-th of the first ModelSet's
/// list in these single-model files).
fn anim_root(a: &hsd_dat::Archive<'_>, anim: &gx::scene::Animation) -> u32 {
    let k: u32 = anim.name.trim_start_matches("anim_").parse().unwrap();
    let m = support::first_model_set(a);
    a.pointer(m.anims.unwrap() + 4 * k).unwrap().unwrap()
}

/// `add_animations_from` poses a model with another archive's AnimJoint tree, named by the
/// caller, sampled by the runtime's curves (values checked against the keys by hand); a tree
/// of another skeleton's size, or a file without one, is refused.
#[test]
fn motion_files_pose_the_model() {
    let model = hsd_dat::build::melee_joint().unwrap().write().unwrap();
    let a = parse(&model).unwrap();
    let mut scene = export::to_scene(&a).scene;
    let own = scene.animations.len();
    let walk = hsd_dat::build::motion_chain(2).write().unwrap();
    let n = export::add_animations_from(&mut scene, &a, &parse(&walk).unwrap(), "walk").unwrap();
    assert_eq!((n, scene.animations.len()), (1, own + 1));
    let anim = scene.animations.last().unwrap();
    assert_eq!(anim.name, "walk");
    assert_eq!(anim.times.len(), 31, "frames 0..=30 of the AObj");
    assert_eq!(anim.tracks.len(), 1);
    let track = &anim.tracks[0];
    assert_eq!(track.node, 1, "the child joint");
    // Translation Y at frames 0, 5, 10: 1.5, the midpoint -0.5, -2.5; X and Z stay at the
    // joint's rest translation (0, _, 0).
    for (frame, y) in [(0, 1.5f32), (5, -0.5), (10, -2.5)] {
        let m = track.local[frame];
        assert!((m[1][3] - y).abs() < 1e-5, "frame {frame}: {m:?}");
        assert!(m[0][3].abs() < 1e-6 && m[2][3].abs() < 1e-6);
    }
    let misfit = export::add_animations_from(
        &mut scene,
        &a,
        &parse(&hsd_dat::build::motion_chain(3).write().unwrap()).unwrap(),
        "x",
    );
    assert!(
        misfit
            .unwrap_err()
            .to_string()
            .contains("3 animated joints for a skeleton of 2")
    );
    let none = export::add_animations_from(&mut scene, &a, &a, "y");
    assert!(none.unwrap_err().to_string().contains("no AnimJoint tree"));
    assert_eq!(scene.animations.len(), own + 1);
}

/// A motion file whose tree turns an inherited scale non-uniform adds the extra scale node
/// after the model's own animation was written; that animation is mended, so in glTF both
/// pose every joint as the runtime does at every frame. The model: a root scaled 2 (uniform)
/// over a chain whose third joint turns in the model's own tree; the motion file keys the
/// second joint's X scale 0 → 0.3.
#[test]
fn extra_scale_node_added_later_mends_earlier_animations() {
    use hsd_dat::JointFlags;
    use hsd_dat::build::Builder;
    use hsd_dat::build::parts::{anim_joint, aobj, fobj, joint, lin_keys, model_set, scene_data};
    let chain = [
        ([0.0; 3], [2.0; 3], [0.0; 3]),
        ([0.3, 0.2, 0.5], [1.0; 3], [1.0, 0.0, 0.0]),
        ([0.0, 0.0, 0.4], [1.5; 3], [0.0, 1.0, 0.0]),
        ([0.0; 3], [1.0; 3], [0.0, 0.0, 1.0]),
    ];
    // One AnimJoint tree over the chain with a LIN track `(joint, track id, value)`.
    let tree = |b: &mut Builder, (at, id, value): (usize, u8, f32)| {
        let k = b.keys(lin_keys(10, value));
        let f = b.put(&fobj(id, None, k));
        let a = b.put(&aobj(10.0, f));
        let mut child = None;
        for i in (0..chain.len()).rev() {
            child = Some(b.put(&anim_joint(child, None, (i == at).then_some(a))));
        }
        child.unwrap()
    };
    let mut b = Builder::new();
    let own = tree(&mut b, (2, 3, 1.5));
    let mut child = None;
    for (r, s, t) in chain.into_iter().rev() {
        let mut j = joint(JointFlags::empty(), t);
        j.rotation = r;
        j.scale = s;
        j.child = child;
        child = Some(b.put(&j));
    }
    let list = b.ptr_array(&[own]);
    let set = b.put(&model_set(child.unwrap(), Some(list), None));
    let models = b.ptr_array(&[set]);
    let scene = b.put(&scene_data(models, None, None));
    b.root("scene_data", scene);
    b.root("chain_joint", child.unwrap());
    let model = b.finish().write().unwrap();
    let mut b = Builder::new();
    let walk = tree(&mut b, (1, 8, 0.3));
    b.root("Walk_animjoint", walk);
    let motion = b.finish().write().unwrap();

    let (m, s) = (parse(&model).unwrap(), parse(&motion).unwrap());
    let mut sc = export::to_scene(&m).scene;
    let extra = |sc: &gx::scene::Scene| {
        sc.nodes
            .iter()
            .filter(|n| n.name.ends_with("_scale"))
            .count()
    };
    assert_eq!(
        extra(&sc),
        0,
        "the model's own animation keeps the scale uniform"
    );
    assert_eq!(
        export::add_animations_from(&mut sc, &m, &s, "walk").unwrap(),
        1
    );
    // The second and third joints pass the motion's non-uniform scale on.
    assert_eq!(extra(&sc), 2, "the motion file's");
    let glb = gx::scene::Scene::from_glb(&sc.to_glb().unwrap()).unwrap();
    let set = support::first_model_set(&m);
    let root = set.joint.unwrap();
    let own = set.anims.and_then(|l| m.pointer(l).unwrap());
    let walk = s.roots().next().unwrap().offset;
    for (clip, posed) in [
        ("anim_0", m.joint_animation(root, own).unwrap()),
        (
            "walk",
            m.joint_animation_from(root, &s, Some(walk)).unwrap(),
        ),
    ] {
        for f in 0..=10 {
            let want = posed.sample(f as f32);
            let got = support::gltf_pose(&glb, clip, f as f32 / 60.0);
            support::poses_agree(&want, &got[..want.len()], 1e-3)
                .unwrap_or_else(|e| panic!("{clip} frame {f}: {e}"));
        }
    }
}

/// The nodes the scene's animations move, animation by animation.
fn moved(scene: &gx::scene::Scene) -> Vec<usize> {
    scene
        .animations
        .iter()
        .flat_map(|a| a.tracks.iter().map(|t| t.node))
        .collect()
}

/// An `*_animjoint` root poses the joint tree its name names (Melee's menus pair
/// `MenMainBack_Top_animjoint` with `MenMainBack_Top_joint` among 57 trees; GmTtAll's title
/// animated its second tree's 60 channels on the first tree's joints, 3 of them): `Y_animjoint`
/// moves `Y_joint`'s child, not `X_joint`'s.
#[test]
fn animation_roots_pose_the_tree_they_name() {
    let bytes = hsd_dat::build::two_trees().write().unwrap();
    let e = export::to_scene(&parse(&bytes).unwrap());
    assert!(e.problems.is_empty(), "{:?}", e.problems);
    // Nodes in pre-order of the trees: X's joint 0, Y's root 1 and child 2.
    assert_eq!(moved(&e.scene), [2]);
}

/// A Melee stage's models hang off `map_head`'s GObj table (every `Gr*.dat`: 3–11 GObjs, each
/// a joint tree with its animation banks); untyped, a stage exported only its quake model set.
/// Each GObj's tree exports with its meshes and animation, an extern-slot entry (unrelocated
/// words: Pokémon Stadium's) is skipped without an error, and the round trip keeps the model.
#[test]
fn stage_gobjs_export() {
    let bytes = hsd_dat::build::stage().unwrap().write().unwrap();
    let a = parse(&bytes).unwrap();
    let g = a.graph();
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    assert_eq!(g.count(hsd_dat::Kind::MapGObj), 1);
    assert_eq!(g.count(hsd_dat::Kind::Camera), 1);
    assert_eq!(g.count(hsd_dat::Kind::Fog), 1);
    assert_eq!((g.joints.len(), g.pobjs.len()), (2, 2));
    assert!(support::errors(&bytes).is_empty());
    let e = export::to_scene(&a);
    assert!(e.problems.is_empty(), "{:?}", e.problems);
    assert_eq!(e.scene.meshes.len(), 2);
    // GObj 1's joint, the second in pre-order, is the one its bank moves.
    assert_eq!(moved(&e.scene), [1]);
    let (x, y, _) = support::round_trip(&bytes, &support::in_order(hsd_dat::compile::Order::Melee));
    let d = gx::compare::compare(&x, &y, 1e-3);
    assert_eq!((d.missing, d.names), (0, false), "{d:?}");
}
