#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! `gcf convert model.glb model.bdl|bmd` and `model.glb take.bck`: every sample model and every
//! real top-level model goes `m → a.glb → b.bdl → c.glb`; `b` checks clean and a.glb and c.glb
//! hold the same model (gx::compare: triangles within 1e-3 of the extent, joint names, material
//! count, texture pixels). A glTF animation becomes a BCK that evaluates to the glTF's pose; the
//! animation is chosen by name (`-o anim=NAME`, a plain value, not a file); errors name what is
//! missing.

mod support;

use gx::scene::{Animation, Node, Scene, Track};
use support::{run, scratch};

/// `gcf convert FROM TO -o OPT… --force`.
fn convert(from: &std::path::Path, to: &std::path::Path, opts: &[&str]) -> support::Run {
    let mut args = vec![
        "convert",
        from.to_str().unwrap(),
        to.to_str().unwrap(),
        "--force",
    ];
    for o in opts {
        args.extend(["-o", o]);
    }
    run(&args)
}

fn same_model(a: &std::path::Path, c: &std::path::Path) {
    let a = Scene::from_glb(&std::fs::read(a).unwrap()).unwrap();
    let c = Scene::from_glb(&std::fs::read(c).unwrap()).unwrap();
    let d = gx::compare::compare(&a, &c, 1e-3);
    assert!(d.is_same(), "{d:?}");
}

fn round_trip(dir: &std::path::Path, name: &str, data: &[u8]) {
    let bdl = name.ends_with(".bdl");
    let m = dir.join(name);
    std::fs::write(&m, data).unwrap();
    let (a, b, c) = (
        dir.join("a.glb"),
        dir.join(if bdl { "b.bdl" } else { "b.bmd" }),
        dir.join("c.glb"),
    );
    for (x, y) in [(&m, &a), (&a, &b), (&b, &c)] {
        convert(x, y, &[]).succeeds();
    }
    run(&["check", b.to_str().unwrap()]).succeeds();
    same_model(&a, &c);
}

#[test]
fn sample_and_real_models_come_back() {
    let dir = scratch("import-models");
    let mut read = 0;
    for (name, data) in gcf::samples() {
        let lower = name.to_ascii_lowercase();
        let broken = j3d_bmd::validate(&data)
            .iter()
            .any(|d| d.severity == gcio::Severity::Error);
        if broken || !(lower.ends_with(".bmd") || lower.ends_with(".bdl")) {
            continue;
        }
        let file = name.rsplit('/').next().unwrap();
        round_trip(&dir, file, &data);
        read += 1;
    }
    assert!(read >= 3, "{read} sample models");
    if let Some(root) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/j3d", "gcf import") {
        let files = gcio::corpus::files(&root);
        for p in &files {
            round_trip(
                &dir,
                p.file_name().unwrap().to_str().unwrap(),
                &std::fs::read(p).unwrap(),
            );
        }
        assert_eq!(files.len(), 4, "real top-level J3D models");
    }
}

/// `convert model.glb model.dat` in both compiler orders: every sample HSD model and one real
/// one go `m.dat → a.glb → b.dat → c.glb`; `b` checks clean and a.glb and c.glb hold the same
/// model, and the import reports its PObj count; an unknown order is an error.
#[test]
fn hsd_models_come_back() {
    let dir = scratch("import-hsd");
    let mut models: Vec<(String, Vec<u8>)> = gcf::samples()
        .into_iter()
        .filter(|(name, data)| {
            name.ends_with(".dat")
                && hsd_dat::validate(data)
                    .iter()
                    .all(|d| d.severity != gcio::Severity::Error)
                && !hsd_dat::parse(data).unwrap().graph().joints.is_empty()
        })
        .collect();
    assert!(models.len() >= 3, "{} sample models", models.len());
    if let Some(root) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/hsd", "gcf import") {
        let p = root.join("TyBancho-TyBancho.dat");
        models.push(("TyBancho.dat".into(), std::fs::read(p).unwrap()));
    }
    for (name, data) in &models {
        let m = dir.join(name.rsplit('/').next().unwrap());
        std::fs::write(&m, data).unwrap();
        for order in ["xd", "melee"] {
            let (a, b, c) = (dir.join("a.glb"), dir.join("b.dat"), dir.join("c.glb"));
            convert(&m, &a, &[]).succeeds();
            let imported = convert(&a, &b, &[&format!("order={order}")]);
            // The PObj count is reported.
            assert!(
                imported.succeeds().stderr.contains(" PObj"),
                "{}",
                imported.stderr
            );
            convert(&b, &c, &[]).succeeds();
            run(&["check", b.to_str().unwrap()]).succeeds();
            same_model(&a, &c);
        }
    }
    let a = dir.join("a.glb");
    run(&[
        "convert",
        a.to_str().unwrap(),
        dir.join("x.dat").to_str().unwrap(),
        "-o",
        "order=gamecube",
    ])
    .fails_with(&["unknown order \"gamecube\""]);
    run(&[
        "convert",
        a.to_str().unwrap(),
        dir.join("x.dat").to_str().unwrap(),
        "-o",
        "tol=-1",
    ])
    .fails_with(&["tol=\"-1\" is not a positive number"]);
}

/// Two joints; joint 0 moves along X by one unit per frame over 10 frames at 60 fps.
fn animated_glb() -> Vec<u8> {
    let mut s = Scene::new("test");
    s.nodes.push(Node::new("root", None, gx::mtx::IDENTITY));
    s.nodes.push(Node::new("arm", Some(0), gx::mtx::IDENTITY));
    let times: Vec<f32> = (0..=10).map(|f| f as f32 / 60.0).collect();
    let moved = |f: usize| {
        let mut m = gx::mtx::IDENTITY;
        m[0][3] = f as f32;
        m
    };
    s.animations.push(Animation {
        name: "walk".into(),
        times,
        tracks: vec![Track {
            node: 0,
            local: (0..=10).map(moved).collect(),
        }],
        ..Animation::default()
    });
    s.to_glb().unwrap()
}

#[test]
fn gltf_animation_becomes_bck() {
    let dir = scratch("import-bck");
    let glb = dir.join("walk.glb");
    std::fs::write(&glb, animated_glb()).unwrap();
    let bck = dir.join("walk.bck");
    let (g, b) = (glb.to_str().unwrap(), bck.to_str().unwrap());
    run(&["convert", g, b, "-o", "anim=walk"]).succeeds();
    run(&["check", b]).succeeds();
    let anim = j3d_anim::Anim::parse(&std::fs::read(&bck).unwrap()).unwrap();
    assert_eq!(anim.duration(), 10);
    for f in 0..=10 {
        let t = j3d_anim::eval::joint(&anim, 0, f as f32).unwrap().matrix()[0][3];
        assert!((t - f as f32).abs() < 0.01, "frame {f}: {t}");
    }
    run(&["convert", g, b, "-o", "anim=run", "--force"])
        .fails_with(&["no animation \"run\"", "walk"]);
    run(&["convert", g, b, "-o", "speed=2", "--force"]).fails_with(&["speed"]);
    let still = dir.join("still.glb");
    let mut s = Scene::new("test");
    s.nodes.push(Node::new("root", None, gx::mtx::IDENTITY));
    std::fs::write(&still, s.to_glb().unwrap()).unwrap();
    run(&["convert", still.to_str().unwrap(), b, "--force"]).fails_with(&["no animation"]);
}

/// `convert model.glb model.pkx -o meta=metadata.json`: the sample Pokémon and trainers' models
/// (exported to glTF with their animations) go back into containers with their metadata; the
/// result checks clean, its DAT holds the same model, and its ModelSet lists as many
/// animations as the original (the slots index them). With metadata for the other game the
/// conversion fails with why. `convert x.pkx x.glb` carries the metadata (`extras.pkx`): the
/// glb comes back as a container with the same metadata JSON, or converted by `-o game`, both
/// clean. Without metadata of any kind the container gets defaults, clean in both games and
/// kinds.
#[test]
fn glb_imports_into_a_pkx() {
    let dir = scratch("import-pkx");
    let mut read = 0;
    for (name, data) in pkx::build::samples().unwrap() {
        if name.contains('/') {
            continue; // broken variants
        }
        let p = pkx::Pkx::parse(&data).unwrap();
        let game = if name.starts_with("xd") {
            "xd"
        } else {
            "colosseum"
        };
        let (m, json, a, out, c) = (
            dir.join("m.dat"),
            dir.join("m.json"),
            dir.join("a.glb"),
            dir.join("out.pkx"),
            dir.join("c.glb"),
        );
        std::fs::write(&m, &p.dat).unwrap();
        std::fs::write(dir.join("x.pkx"), &data).unwrap();
        let x = dir.join("x.pkx");
        convert(&x, &json, &[]).succeeds();
        convert(&m, &a, &[]).succeeds();
        let meta = format!("meta={}", json.display());
        convert(&a, &out, &[&meta, &format!("game={game}")]).succeeds();
        run(&["check", out.to_str().unwrap()]).succeeds();
        let q = pkx::Pkx::parse(&std::fs::read(&out).unwrap()).unwrap();
        let anims = |dat: &[u8]| {
            let a = hsd_dat::parse(dat).unwrap();
            Scene::from_glb(&hsd_dat::export::to_glb(&a).unwrap())
                .unwrap()
                .clips
                .len()
        };
        assert_eq!(anims(&q.dat), anims(&p.dat), "{name}");
        std::fs::write(dir.join("b.dat"), &q.dat).unwrap();
        let b = dir.join("b.dat");
        convert(&b, &c, &[]).succeeds();
        same_model(&a, &c);
        let other = if game == "xd" { "colosseum" } else { "xd" };
        run(&[
            "convert",
            a.to_str().unwrap(),
            dir.join("y.pkx").to_str().unwrap(),
            "-o",
            &meta,
            "-o",
            &format!("game={other}"),
        ])
        .fails_with(&["but the metadata is for"]);
        // Our glb of the container carries its metadata back.
        let (xg, back, j2) = (
            dir.join("x.glb"),
            dir.join("back.pkx"),
            dir.join("back.json"),
        );
        convert(&x, &xg, &[]).succeeds();
        convert(&xg, &back, &[]).succeeds();
        run(&["check", back.to_str().unwrap()]).succeeds();
        convert(&back, &j2, &[]).succeeds();
        assert_eq!(
            std::fs::read_to_string(&j2).unwrap(),
            std::fs::read_to_string(&json).unwrap(),
            "{name}: metadata through glb"
        );
        let moved = dir.join("moved.pkx");
        convert(&xg, &moved, &[&format!("game={other}")]).succeeds();
        support::checks_clean(&moved);
        read += 1;
    }
    assert_eq!(read, 4, "sample containers");
    // A plain glb (no extras.pkx) gets defaults: clean in both games and kinds.
    for game in ["xd", "colosseum"] {
        for kind in ["pokemon", "trainer"] {
            let z = dir.join(format!("z-{game}-{kind}.pkx"));
            convert(
                &dir.join("a.glb"),
                &z,
                &[&format!("game={game}"), &format!("kind={kind}")],
            )
            .succeeds();
            support::checks_clean(&z);
            let p = pkx::Pkx::parse(&std::fs::read(&z).unwrap()).unwrap();
            assert_eq!(format!("{:?}", p.kind()).to_lowercase(), kind);
            assert!(p.entries[0].is_active(p.game()), "{game} {kind}: idle");
        }
    }
    run(&[
        "convert",
        dir.join("a.glb").to_str().unwrap(),
        dir.join("z.pkx").to_str().unwrap(),
        "-o",
        "kind=robot",
    ])
    .fails_with(&["kind=robot"]);
}

/// A quad as a glTF document split into its JSON (the buffer given the file name `bin`) and
/// the bytes of that file.
fn separate_quad(bin: &str) -> (serde_json::Value, Vec<u8>, Vec<u8>) {
    let mut s = Scene::new("prop");
    let mut m = gx::scene::Mesh::new("quad");
    m.positions = vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
    m.triangles = vec![[0, 1, 2], [0, 2, 3]];
    s.meshes.push(m);
    let glb = s.to_glb().unwrap();
    let word = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let json_len = word(12);
    let mut json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let data = glb[bin_at + 8..bin_at + 8 + word(bin_at)].to_vec();
    json["buffers"][0]["uri"] = bin.into();
    (json, data, glb)
}

/// A `.gltf` with its buffer in a separate file beside it (Blender's "glTF Separate", a name
/// with a space percent-encoded) converts as the `.glb` of the same document does, byte for
/// byte; a missing file is an error naming it.
#[test]
fn separate_gltf_reads_its_files() {
    let dir = scratch("separate-gltf");
    let (json, bin, glb) = separate_quad("quad%20data.bin");
    std::fs::write(dir.join("quad data.bin"), bin).unwrap();
    std::fs::write(dir.join("quad.gltf"), serde_json::to_vec(&json).unwrap()).unwrap();
    std::fs::write(dir.join("quad.glb"), &glb).unwrap();
    let r = convert(&dir.join("quad.gltf"), &dir.join("a.dat"), &[]);
    assert!(r.ok, "{}", r.stderr);
    assert!(convert(&dir.join("quad.glb"), &dir.join("b.dat"), &[]).ok);
    assert_eq!(
        std::fs::read(dir.join("a.dat")).unwrap(),
        std::fs::read(dir.join("b.dat")).unwrap()
    );
    std::fs::remove_file(dir.join("quad data.bin")).unwrap();
    let r = convert(&dir.join("quad.gltf"), &dir.join("c.dat"), &[]);
    assert!(!r.ok && r.stderr.contains("quad data.bin"), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What the glTF reader drops (here a morph target) is told by every model import, not
/// dropped silently.
#[test]
fn dropped_gltf_parts_are_told() {
    let dir = scratch("dropped-parts");
    let (mut json, bin, _) = separate_quad("quad.bin");
    json["meshes"][0]["primitives"][0]["targets"] = serde_json::json!([{"POSITION": 0}]);
    std::fs::write(dir.join("quad.bin"), bin).unwrap();
    std::fs::write(dir.join("quad.gltf"), serde_json::to_vec(&json).unwrap()).unwrap();
    for out in ["a.dat", "a.bmd"] {
        let r = convert(&dir.join("quad.gltf"), &dir.join(out), &[]);
        assert!(r.ok, "{out}: {}", r.stderr);
        assert!(
            r.stderr.contains("morph targets dropped"),
            "{out}: {}",
            r.stderr
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
