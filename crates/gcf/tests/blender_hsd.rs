#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! Blender as the client of glTF ⇄ HSD `.dat` and Colosseum / XD `.pkx` (issue 36).
//!
//! - `blender_models_import_as_dat_and_pkx`: `tests/blender/make_hsd.py` builds seed 003's hard
//!   cases in one rig (a 4-weight body; an eye weighted 100 % to the head, which also deforms the
//!   body; a hat parented to the head bone; a wing bone scaled to zero and animated to visible)
//!   with two actions named as PKX slots, textured multi-material props without an
//!   armature, and a subdivided body with Blender's automatic weights (every vertex its own
//!   weight set: hundreds of PObjs past the game's limit unless the import rounds them, which
//!   it must report). Each imports as `.dat` and as XD and Colosseum `.pkx` (no metadata: the defaults)
//!   that check with 0 errors and come back as glbs holding every Blender triangle (gx::compare
//!   within 1e-3 of the extent), material and texture; the slots play the actions their names
//!   say and the body map and head bone point at the joints named for the parts; as a
//!   Colosseum trainer (`-o kind=trainer`) too.
//!   The eye is held by seed 003's holder joint under the head (one holder, no HSD-020
//!   finding in the import or in `gcf check` of any of the files).
//! - `blender_actions_pose_like_blender`: the rig's actions and the body's (24 fps: every
//!   other Blender frame is a half frame of the game's), evaluated by the runtime's rules
//!   (`hsd_dat::anim` curves → joint world matrices) in the `.dat` and in both `.pkx`, put every
//!   bone's head and tail where Blender does at every frame (within 1e-3 of the extent: the
//!   wing scaled to (0.5, 1.5, 1) over its tip needs `JOBJ_CLASSICAL_SCALE`, or the runtime's
//!   scale inheritance puts the tip's tail 3e-3 off), and
//!   the runtime's skinning (envelopes with the weight-1.0 short-circuit and the owner's coord)
//!   draws every vertex of Blender's deformed eye every 10 frames.
//! - `blender_poses_inherited_scale_as_the_runtime`: a joint chain under a (2, 0.5, 1) root,
//!   turned and scaled by tracks, exports to a glb that Blender's importer poses as the runtime
//!   poses the `.dat` (every joint's world matrix within 1e-3 of its largest entry, every
//!   frame; 3e-7 measured) — through the export's `joint_N_scale` nodes, without which it does
//!   not (Blender composes scale through the parent's matrix).
//! - `blender_loads_our_hsd_glb`: every real model `.dat` (`../shared/corpus/real/hsd`) exports
//!   to glb and Blender's importer loads it with the bones, meshes and materials `gcf info`
//!   counts (joints, PObjs, MObjs), each texture sampled as its TObj wraps it (the image node
//!   extends a clamped texture, mirrors a mirrored one); Blender's re-export imports back
//!   with 0 errors (a bone's rest scale it drops is reported) and, exported with bones as
//!   posed, with every triangle where our glb has it (TyBSword's blade was scaled twice).
//!
//! Needs a Python with `bpy` (see `tests/blender.rs`): `GCF_BLENDER_PYTHON=/path/to/python
//! cargo test -p gcf --test blender_hsd -- --nocapture`.

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gx::mtx::{apply, inverse};
use gx::scene::{Scene, Wrap};
use serde_json::Value;
use support::blender::{extent, point, s, scene, script, triangle_count};
use support::{checks_clean, run, scratch};

/// Textured materials of a scene.
fn textured(sc: &Scene) -> usize {
    sc.materials.iter().filter(|m| m.texture.is_some()).count()
}

/// `gcf convert FROM TO OPTS…` succeeds.
fn convert(from: &Path, to: &Path, opts: &[&str]) {
    let mut args = vec!["convert", s(from), s(to), "--force"];
    for o in opts {
        args.extend(["-o", o]);
    }
    run(&args).succeeds();
}

/// `file` converts to a glb that holds Blender's triangles and materials.
fn keeps_the_model(file: &Path, blender: &Scene, m: &Value) {
    let glb = file.with_extension(format!(
        "{}.glb",
        file.extension().unwrap().to_str().unwrap()
    ));
    convert(file, &glb, &[]);
    let back = scene(&glb);
    let what = file.file_name().unwrap().to_string_lossy();
    assert_eq!(
        triangle_count(&back),
        m["triangles"].as_u64().unwrap() as usize,
        "{what}"
    );
    // HSD joints have no names (the export calls them joint_N): every triangle, no name.
    let d = gx::compare::compare(blender, &back, 1e-3);
    assert!(d.missing == 0 && d.extra == 0, "{what}: {d:?}");
    assert_eq!(
        back.materials.len(),
        m["materials"].as_u64().unwrap() as usize,
        "{what}: materials"
    );
    assert_eq!(textured(&back), textured(blender), "{what}: textured");
}

/// The first ModelSet's joint tree and animation list of a DAT.
fn model_set(dat: &[u8]) -> (u32, Vec<u32>) {
    let a = hsd_dat::parse(dat).unwrap();
    let f = pkx::DatFacts::read(&a).unwrap();
    (f.root_joint.unwrap(), f.anims)
}

/// Poses each action of the DAT (its animation `k` = Blender's glb animation `k`) by the
/// runtime's curve evaluation and compares every bone's head and tail with Blender's, frame by
/// frame; returns the largest difference relative to the extent.
fn actions_match(what: &str, dat: &[u8], blender: &Scene, joints: &[usize], m: &Value) -> f32 {
    let a = hsd_dat::parse(dat).unwrap();
    let (root, anims) = model_set(dat);
    let eps = 1e-3 * extent(blender);
    let node = |b: &str| blender.nodes.iter().position(|n| n.name == b).unwrap();
    let rest = a.joint_animation(root, None).unwrap().sample(0.0);
    let frames = m["frames"].as_array().unwrap();
    let actions = m["actions"].as_object().unwrap();
    assert_eq!(anims.len(), actions.len(), "{what}: animations");
    let mut worst = 0.0f32;
    for (name, pose) in actions {
        let k = blender.clips.iter().position(|c| &c.name == name).unwrap();
        let posed = a.joint_animation(root, Some(anims[k])).unwrap();
        // Each tail in its joint's space, from the rest pose.
        let tails: HashMap<&str, [f32; 3]> = pose["rest_tails"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(b, p)| {
                let j = joints[node(b)];
                (b.as_str(), apply(&inverse(&rest[j]).unwrap(), point(p)))
            })
            .collect();
        for (i, frame) in frames.iter().enumerate() {
            let frame = frame.as_f64().unwrap() as f32;
            let world = posed.sample(frame);
            for (b, heads) in pose["heads"].as_object().unwrap() {
                let w = &world[joints[node(b)]];
                let head = [w[0][3], w[1][3], w[2][3]];
                let tail = apply(w, tails[b.as_str()]);
                for (part, got, want) in [
                    ("head", head, point(&heads[i])),
                    ("tail", tail, point(&pose["tails"][b][i])),
                ] {
                    let d = (0..3).map(|c| (got[c] - want[c]).abs()).fold(0.0, f32::max);
                    assert!(
                        d <= eps,
                        "{what} {name}: {part} of {b} at frame {frame}: HSD {got:?}, Blender {want:?}"
                    );
                    worst = worst.max(d);
                }
            }
        }
        // The eye as the runtime skins it (posed joints, the file's inverse binds).
        let g = a.graph();
        let ibm = a.inverse_binds(&g);
        let meshes: Vec<_> = g.pobjs.iter().map(|p| a.mesh(&g, p).unwrap()).collect();
        let eye_frames = m["eye_frames"].as_array().map_or(&[][..], Vec::as_slice);
        for (i, frame) in eye_frames.iter().enumerate() {
            let frame = frame.as_f64().unwrap() as f32;
            let world = posed.sample(frame);
            let drawn: Vec<[f32; 3]> = meshes
                .iter()
                .flat_map(|x| x.world_positions(&g, &world, &ibm))
                .collect();
            for v in pose["eye"][i].as_array().unwrap() {
                let want = point(v);
                let d = drawn
                    .iter()
                    .map(|p| (0..3).map(|c| (p[c] - want[c]).abs()).fold(0.0, f32::max))
                    .fold(f32::MAX, f32::min);
                assert!(
                    d <= eps,
                    "{what} {name}: eye vertex {want:?} at frame {frame}: nearest HSD vertex {d} away"
                );
                worst = worst.max(d);
            }
        }
    }
    worst / eps * 1e-3
}

/// Runs `make_hsd.py` in a fresh folder: the folder and the manifest.
fn made(py: &Path, tag: &str) -> (PathBuf, Value) {
    let dir = scratch(tag);
    script(py, &dir, "make_hsd.py", &[&dir]);
    let manifest = serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap());
    (dir, manifest.unwrap())
}

/// Where each node of Blender's glb lands in the joint tree (an added root shifts them).
fn node_joints(blender: &Scene) -> Vec<usize> {
    hsd_dat::import::import(blender, &Default::default())
        .unwrap()
        .node_joints
}

/// `gcf convert`s Blender's model `name` to `.dat` and XD and Colosseum `.pkx` (no metadata);
/// each file with its DAT.
fn import_all(dir: &Path, name: &str, m: &Value) -> Vec<(PathBuf, Vec<u8>)> {
    let glb = dir.join(m["glb"].as_str().unwrap());
    let dat = dir.join(format!("{name}.dat"));
    convert(&glb, &dat, &[]);
    let mut out = vec![(dat.clone(), std::fs::read(&dat).unwrap())];
    for game in ["xd", "colosseum"] {
        let file = dir.join(format!("{name}-{game}.pkx"));
        convert(&glb, &file, &[&format!("game={game}")]);
        let p = pkx::Pkx::parse(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(p.game().format_name(), format!("pkx-{game}"));
        out.push((file, p.dat));
    }
    out
}

#[test]
fn blender_models_import_as_dat_and_pkx() {
    let Some(py) = support::blender::python() else {
        return;
    };
    let (dir, manifest) = made(&py, "blender-hsd");
    let mut imported = 0;
    for name in ["rig", "props", "body"] {
        let m = &manifest[name];
        let blender = scene(&dir.join(m["glb"].as_str().unwrap()));
        let triangles = m["triangles"].as_u64().unwrap() as usize;
        assert_eq!(triangle_count(&blender), triangles, "{name}: Blender's glb");
        let joints = node_joints(&blender);
        if name == "rig" {
            // The eye (100 % head, which deforms the body) gets seed 003's holder joint.
            let i = hsd_dat::import::import(&blender, &Default::default()).unwrap();
            assert_eq!(i.holders, 1, "rig: holder joints");
            assert!(
                i.findings.iter().all(|d| d.rule != "HSD-020"),
                "{:?}",
                i.findings
            );
        }
        if name == "body" {
            // Automatic weights: every vertex its own set, rounded until the palettes fit.
            let i = hsd_dat::import::import(&blender, &Default::default()).unwrap();
            let f = i.fitted.unwrap();
            assert!(f.weight_step.is_some() && f.pobjs >= hsd_dat::POBJ_CRASH);
            assert!(i.pobjs < hsd_dat::POBJ_WARN);
        }
        for (file, _) in import_all(&dir, name, m) {
            checks_clean(&file);
            let r = run(&["check", s(&file)]);
            assert!(!r.stdout.contains("HSD-020"), "{}", r.stdout);
            keeps_the_model(&file, &blender, m);
            if file.extension().is_some_and(|e| e == "dat") {
                continue;
            }
            let p = pkx::Pkx::parse(&std::fs::read(&file).unwrap()).unwrap();
            let what = file.file_name().unwrap().to_string_lossy();
            assert_eq!(p.kind(), pkx::ModelKind::Pokemon, "{what}");
            let slot = |i: usize| p.entries[i].sub_anims[0].anim_index as usize;
            let clip = |n: &str| blender.clips.iter().position(|c| c.name == n);
            let Some(idle) = clip("Idle") else {
                // No action: the idle slot plays the still animation the import adds.
                assert!(p.entries[0].is_active(p.game()), "{what}");
                continue;
            };
            assert_eq!(slot(0), idle, "{what}: Idle slot");
            assert_eq!(slot(2), clip("Physical A").unwrap(), "{what}");
            let node = |b: &str| blender.nodes.iter().position(|n| n.name == b).unwrap();
            let map = p.entries[0].body_map;
            for (part, bone) in [(0, "root"), (1, "head"), (2, "chest"), (6, "hand.L")] {
                assert_eq!(map[part] as usize, joints[node(bone)], "{what}: {bone}");
            }
            assert_eq!(p.head_bone(), Some(joints[node("head")] as i64));
        }
        // As a trainer: the game's trainer slots, −1 in unused body-map parts.
        let glb = dir.join(m["glb"].as_str().unwrap());
        let trainer = dir.join(format!("{name}-trainer.pkx"));
        convert(&glb, &trainer, &["game=colosseum", "kind=trainer"]);
        checks_clean(&trainer);
        let p = pkx::Pkx::parse(&std::fs::read(&trainer).unwrap()).unwrap();
        assert_eq!(p.kind(), pkx::ModelKind::Trainer, "{name}");
        assert_eq!(p.entries.len(), 16, "{name}: Colosseum trainer slots");
        assert!(p.entries[0].body_map.contains(&-1), "{name}: unused parts");
        eprintln!("{name}: {triangles} triangles as .dat and XD / Colosseum .pkx");
        imported += 1;
    }
    assert_eq!(imported, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn blender_actions_pose_like_blender() {
    let Some(py) = support::blender::python() else {
        return;
    };
    let (dir, manifest) = made(&py, "blender-hsd-actions");
    let mut checked = 0;
    for name in ["rig", "body"] {
        let m = &manifest[name];
        let blender = scene(&dir.join(m["glb"].as_str().unwrap()));
        let joints = node_joints(&blender);
        for (file, dat) in import_all(&dir, name, m) {
            let what = file.file_name().unwrap().to_string_lossy();
            let worst = actions_match(&what, &dat, &blender, &joints, m);
            eprintln!("{what}: actions within {worst:.2e} of the extent of Blender's pose");
            checked += 1;
        }
    }
    assert_eq!(checked, 6, ".dat, XD and Colosseum .pkx of each");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Joints, meshes (PObjs) and MObjs `gcf info` counts in a `.dat`.
fn info_counts(dat: &Path) -> [u64; 3] {
    let r = run(&["info", "--json", s(dat)]);
    r.succeeds();
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let info = &v["info"];
    [
        info["joints"].as_u64().unwrap(),
        info["meshes"].as_u64().unwrap(),
        info["struct_counts"]["MObj"].as_u64().unwrap_or(0),
    ]
}

#[test]
fn blender_loads_our_hsd_glb() {
    let Some(py) = support::blender::python() else {
        return;
    };
    let Some(root) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real", "gcf blender_hsd")
    else {
        return;
    };
    let dir = scratch("blender-hsd-load");
    let mut want = HashMap::new();
    let mut glbs: Vec<PathBuf> = Vec::new();
    let files = gcio::corpus::files(&root.join("hsd"));
    for (i, dat) in files.iter().enumerate() {
        let glb = dir.join(format!("m{i}.glb"));
        // Data-only files (fighter data) have no model: refused, not loaded.
        if !run(&["convert", s(dat), s(&glb)]).ok {
            continue;
        }
        want.insert(s(&glb).to_owned(), (dat.clone(), info_counts(dat)));
        glbs.push(glb);
    }
    assert_eq!(glbs.len(), 5, "real model .dat files");
    let args: Vec<&Path> = glbs.iter().map(PathBuf::as_path).collect();
    let out = script(&py, &dir, "load.py", &args);
    let mut loaded = 0;
    for line in out.lines().filter(|l| l.starts_with('{')) {
        let r: Value = serde_json::from_str(line).unwrap();
        let (dat, [joints, meshes, mobjs]) = &want[r["file"].as_str().unwrap()];
        let name = dat.file_name().unwrap().to_string_lossy();
        assert!(r["ok"].as_bool().unwrap(), "{name}: {r}");
        assert_eq!(r["bones"].as_u64().unwrap(), *joints, "{name}: bones");
        assert_eq!(r["meshes"].as_u64().unwrap(), *meshes, "{name}: meshes");
        assert_eq!(
            r["materials"].as_u64().unwrap(),
            *mobjs,
            "{name}: materials"
        );
        // Blender samples each texture as the TObj wraps it: its image node extends a texture
        // that clamps both ways, mirrors one that mirrors both ways, repeats one that repeats
        // both ways, and handles a mix with UV math on an extending node.
        let ours = scene(Path::new(r["file"].as_str().unwrap()));
        let mut clamped = 0;
        for m in ours.materials.iter().filter(|m| m.texture.is_some()) {
            let Some(got) = r["extension"][&m.name].as_str() else {
                continue; // a material no mesh draws: Blender does not import it
            };
            let want = match m.wrap {
                [Wrap::Repeat, Wrap::Repeat] => "REPEAT",
                [Wrap::Mirror, Wrap::Mirror] => "MIRROR",
                _ => "EXTEND",
            };
            assert_eq!(got, want, "{name}: {} wraps {:?}", m.name, m.wrap);
            clamped += usize::from(m.wrap == [Wrap::Clamp; 2]);
        }
        if name.starts_with("PlMr") {
            // Mario's eyes and decals clamp (54 of his 56 textured materials in Blender).
            assert!(clamped >= 40, "{name}: {clamped} clamped");
        }
        // Blender's own glb of it (images no material draws dropped, the rest renumbered)
        // imports back with 0 validator errors. Blender drops a bone's rest scale (TyBSword's
        // blade joint, 2.16): the import says so. Exported with bones as posed, every
        // triangle comes back where our glb has it.
        let again = r["exported"].as_str().unwrap();
        let back = dir.join(format!("{name}.blender.dat"));
        let imported = run(&["convert", again, s(&back), "-o", "order=melee"]);
        assert!(imported.ok, "{name}: {}", imported.stderr);
        checks_clean(&back);
        let scaled = name.starts_with("TyBSword");
        assert_eq!(
            imported.stderr.contains("lost the rest scale"),
            scaled,
            "{name}: {}",
            imported.stderr
        );
        let posed = dir.join(format!("{name}.posed.dat"));
        let imported = run(&["convert", r["posed"].as_str().unwrap(), s(&posed)]);
        assert!(imported.ok, "{name}: {}", imported.stderr);
        checks_clean(&posed);
        let c = dir.join(format!("{name}.posed.glb"));
        convert(&posed, &c, &[]);
        let d = gx::compare::compare(&ours, &scene(&c), 1e-3);
        assert_eq!((d.missing, d.extra), (0, 0), "{name}: {d:?}");
        eprintln!("{name}: {r}");
        loaded += 1;
    }
    assert_eq!(loaded, 5);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Blender 5.0's glTF importer aborts the whole file on a `baseColorFactor` animation of a
/// textured or vertex-coloured material (Melee's title and menus animate their alpha): our glb
/// of the XD samples, whose textured material's alpha is animated, loads with its actions, as
/// does a Melee stage's (`build::stage`: its GObjs' trees and animation bank; 20XX's stages and
/// main menu, 427 meshes and 57 actions, load likewise).
#[test]
fn blender_loads_material_animations() {
    let Some(py) = support::blender::python() else {
        return;
    };
    let dir = scratch("blender-hsd-matanim");
    let mut glbs = Vec::new();
    for (name, dat) in [
        (
            "xd-model",
            hsd_dat::build::xd_model(hsd_dat::build::XdOptions::default()),
        ),
        ("xd-scene", hsd_dat::build::xd_scene()),
        ("stage", hsd_dat::build::stage()),
    ] {
        let path = dir.join(format!("{name}.dat"));
        std::fs::write(&path, dat.unwrap().write().unwrap()).unwrap();
        let glb = dir.join(format!("{name}.glb"));
        convert(&path, &glb, &[]);
        glbs.push(glb);
    }
    let args: Vec<&Path> = glbs.iter().map(PathBuf::as_path).collect();
    let out = script(&py, &dir, "load.py", &args);
    let lines: Vec<Value> = out
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{out}");
    for r in &lines {
        assert!(r["ok"].as_bool().unwrap(), "{r}");
        assert!(r["actions"].as_u64().unwrap() > 0, "{r}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Blender poses our glb of a chain whose children inherit a non-uniform scale as the runtime
/// poses the `.dat` (`hsd_dat::pose`: the export's `joint_N_scale` nodes): every joint's world
/// matrix, Blender's glTF importer and evaluation against the runtime's curve evaluation,
/// within 1e-3 of the matrix's largest entry at every frame.
#[test]
fn blender_poses_inherited_scale_as_the_runtime() {
    let Some(py) = support::blender::python() else {
        return;
    };
    let dir = scratch("blender-hsd-scale");
    let bytes = hsd_dat::build::scale_chain().unwrap().write().unwrap();
    let end = hsd_dat::build::SCALE_CHAIN_FRAMES;
    let dat = dir.join("chain.dat");
    std::fs::write(&dat, &bytes).unwrap();
    let glb = dir.join("chain.glb");
    convert(&dat, &glb, &[]);
    let last = end.to_string();
    let out = script(&py, &dir, "pose_nodes.py", &[&glb, Path::new(&last)]);
    let line = out.lines().find(|l| l.starts_with('{')).unwrap();
    let blender: Value = serde_json::from_str(line).unwrap();
    let a = hsd_dat::parse(&bytes).unwrap();
    let (root, anims) = model_set(&bytes);
    let posed = a.joint_animation(root, Some(anims[0])).unwrap();
    // Blender is Z up: (x, y, z) of glTF is (x, −z, y) there.
    let to_gltf = |m: &[Value]| -> [[f32; 4]; 3] {
        let b = |r: usize, c: usize| m[r * 4 + c].as_f64().unwrap() as f32;
        let row = |r: usize, sign: f32| {
            let k = [0, 2, 1][r];
            [b(k, 0), b(k, 2), -b(k, 1), b(k, 3)].map(|x| x * sign)
        };
        [row(0, 1.0), row(1, 1.0), row(2, -1.0)]
    };
    let mut worst = 0.0f32;
    for f in 0..=end {
        let want = posed.sample(f as f32);
        for (j, w) in want.iter().enumerate() {
            let name = format!("joint_{j}");
            let m = blender["objects"][&name][f as usize].as_array().unwrap();
            let got = to_gltf(m);
            let size = w.iter().flatten().fold(1.0f32, |s, x| s.max(x.abs()));
            for (x, y) in w.iter().flatten().zip(got.iter().flatten()) {
                let d = (x - y).abs() / size;
                worst = worst.max(d);
                assert!(d < 1e-3, "{name} frame {f}: runtime {w:?}, Blender {got:?}");
            }
        }
    }
    eprintln!("largest difference {worst:e} of the largest entry");
}
