#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! Blender as the client of glTF ⇄ J3D (issue 35): Blender (the `bpy` module) makes models and
//! actions that `gcf` imports, and loads the `.glb` files `gcf` exports.
//!
//! - `blender_models_import`: `tests/blender/make.py` builds a bent rigged tube (automatic
//!   weights), multi-material props (quads, n-gons, vertex colours; textured, alpha-blended and
//!   double-sided materials), a flat-shaded sphere of > 65,536 glTF vertices, smooth spheres
//!   just under and just past J3D's 65,535 distinct positions, and a 12-bone character (4
//!   weights per body vertex, an eye on one bone). Each imports as BDL and BMD that check
//!   clean, and comes back as a glb holding every Blender triangle (gx::compare within 1e-3 of
//!   the extent), one joint per glTF node (every bone among them), Blender's materials (count,
//!   texture, sides, alpha mode) and vertex colours; the sphere past the limit is refused with
//!   its count, the one just under imports. The tube's and character's actions import as BCKs
//!   that check clean and, evaluated on the BDL's joints, put every bone's head and tail where
//!   Blender does on every frame (within 1e-3 of the model's extent).
//! - `blender_loads_our_glb`: every real J3D model (`../shared/corpus/real/j3d`) and the BMD/BDL
//!   members of the Galaxy archives (`real/rarc`, through `gcf extract`) export to glb (with
//!   their archive's BCKs through `--anim`) and Blender's importer (`tests/blender/load.py`)
//!   loads them: bones = joints, meshes > 0, materials = MAT3 materials, one action per BCK.
//!
//! The tests need a Python with `bpy` (Blender as a module, `pip install bpy`; tested with 5.0):
//! the one `GCF_BLENDER_PYTHON` names, else `python3` when it imports `bpy`; without one they
//! pass with a note. Run them with
//!
//! ```text
//! GCF_BLENDER_PYTHON=/path/to/venv/bin/python cargo test -p gcf --test blender -- --nocapture
//! ```
//!
//! or by hand:
//!
//! ```text
//! python crates/gcf/tests/blender/make.py OUT    # OUT/*.glb and OUT/manifest.json
//! gcf convert OUT/tube.glb tube.bdl
//! gcf convert OUT/tube.glb tube.bck -o anim=bend -o fps=30 -o tol=0.0001
//! gcf check tube.bdl
//! gcf check tube.bck
//! gcf convert tube.bdl back.glb
//! python crates/gcf/tests/blender/load.py back.glb
//! ```

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::blender::{extent, point, s, same_looks, scene, triangle_count};
use support::{checks_clean, run, scratch};

/// Frame rate `make.py` animates at (its `FPS`), passed to the BCK import.
const FPS: &str = "30";

/// Fitting tolerance of the BCK import: rotations within 1e-4 rad, translations within 1e-3
/// units. The default (`tol=0.001`: translations within 0.01 units) is sized for game models
/// hundreds of units tall; Blender's models are 2–3 units, where 0.01 is 4e-3 of the extent.
const TOL: &str = "tol=0.0001";

/// JNT1 names and MAT3 material count of a BMD/BDL.
fn joints_and_materials(model: &[u8]) -> (Vec<String>, usize) {
    let view = j3d_bmd::parse(model).unwrap();
    let names = match view.jnt1().transpose().unwrap() {
        Some(j) => {
            let t = j.names().unwrap().unwrap();
            (0..j.len()).map(|i| t.name(i).unwrap()).collect()
        }
        None => Vec::new(),
    };
    let mats = view.mat3().transpose().unwrap().map_or(0, |m| m.len());
    (names, mats)
}

/// Imports Blender's `model.glb` as each of `exts` (bmd, bdl); returns the BDL's path.
fn import_model(dir: &Path, name: &str, m: &Value, exts: &[&str]) -> PathBuf {
    let glb = dir.join(m["glb"].as_str().unwrap());
    let blender = scene(&glb);
    let triangles = m["triangles"].as_u64().unwrap() as usize;
    assert_eq!(triangle_count(&blender), triangles, "{name}: Blender's glb");
    for ext in exts {
        let model = dir.join(format!("{name}.{ext}"));
        let back = dir.join(format!("{name}.{ext}.glb"));
        run(&["convert", s(&glb), s(&model), "--force"]).succeeds();
        checks_clean(&model);
        run(&["convert", s(&model), s(&back), "--force"]).succeeds();
        let back = scene(&back);
        assert_eq!(triangle_count(&back), triangles, "{name}.{ext}: triangles");
        let d = gx::compare::compare(&blender, &back, 1e-3);
        assert!(d.is_same(), "{name}.{ext}: {d:?}");
        let (joints, materials) = joints_and_materials(&std::fs::read(&model).unwrap());
        assert_eq!(
            joints.len(),
            blender.nodes.len(),
            "{name}.{ext}: {joints:?}"
        );
        for bone in m["bones"].as_array().unwrap() {
            let bone = bone.as_str().unwrap();
            assert!(joints.iter().any(|j| j == bone), "{name}: no joint {bone}");
        }
        same_looks(&blender, &back, &format!("{name}.{ext}"));
        let blender_materials = m["materials"].as_u64().unwrap() as usize;
        assert_eq!(materials, blender_materials, "{name}.{ext}: materials");
        assert_eq!(back.materials.len(), blender_materials, "{name}.{ext}");
        eprintln!(
            "{name}.{ext}: {triangles} triangles, {} joints, {materials} materials",
            joints.len()
        );
    }
    dir.join(format!("{name}.bdl"))
}

/// Imports the model's action as a BCK and compares the bone heads and tails the BCK puts on the
/// BDL's joints with Blender's, frame by frame; returns the largest difference relative to the
/// extent.
fn action_matches(dir: &Path, name: &str, m: &Value, bdl: &Path) -> f32 {
    let action = m["action"].as_str().unwrap();
    let glb = dir.join(m["glb"].as_str().unwrap());
    let bck = dir.join(format!("{name}.bck"));
    let anim = format!("anim={action}");
    let fps = format!("fps={FPS}");
    run(&[
        "convert",
        s(&glb),
        s(&bck),
        "-o",
        &anim,
        "-o",
        &fps,
        "-o",
        TOL,
        "--force",
    ])
    .succeeds();
    checks_clean(&bck);
    let anim = j3d_anim::Anim::parse(&std::fs::read(&bck).unwrap()).unwrap();
    let model = std::fs::read(bdl).unwrap();
    let skeleton = j3d_bmd::skeleton(&j3d_bmd::parse(&model).unwrap()).unwrap();
    let (joints, _) = joints_and_materials(&model);
    let eps = 1e-3 * extent(&scene(&glb));
    let frames = m["frames"].as_array().unwrap();
    let bone = |b: &str| joints.iter().position(|n| n == b).unwrap();
    // Each tail in its joint's space, from the rest pose (whatever axes the exporter gave joints).
    let tails: Vec<(usize, [f32; 3])> = m["rest_tails"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(b, p)| {
            let j = bone(b);
            let rest = gx::mtx::inverse(&skeleton.world[j]).unwrap();
            (j, gx::mtx::apply(&rest, point(p)))
        })
        .collect();
    let mut worst = 0.0f32;
    for (k, frame) in frames.iter().enumerate() {
        let frame = frame.as_f64().unwrap() as f32;
        let world = world_at(&skeleton, &anim, frame);
        let mut close = |what: &str, b: &str, got: [f32; 3], want: [f32; 3]| {
            let d = (0..3).map(|c| (got[c] - want[c]).abs()).fold(0.0, f32::max);
            assert!(
                d <= eps,
                "{name}: {what} of {b} at frame {frame}: BCK {got:?}, Blender {want:?}"
            );
            worst = worst.max(d);
        };
        for (b, heads) in m["heads"].as_object().unwrap() {
            let j = bone(b);
            let head = [world[j][0][3], world[j][1][3], world[j][2][3]];
            close("head", b, head, point(&heads[k]));
            let local = tails.iter().find(|t| t.0 == j).unwrap().1;
            let tail = gx::mtx::apply(&world[j], local);
            close("tail", b, tail, point(&m["tails"][b][k]));
        }
    }
    worst / eps * 1e-3
}

/// World matrices of the skeleton's joints at `frame`: each joint's BCK transform (its JNT1 rest
/// transform where the BCK has no entry) under its parent's world matrix.
fn world_at(sk: &j3d_bmd::Skeleton, anim: &j3d_anim::Anim, frame: f32) -> Vec<j3d_bmd::Mtx34> {
    fn world(
        j: usize,
        sk: &j3d_bmd::Skeleton,
        local: &[j3d_bmd::Mtx34],
        memo: &mut HashMap<usize, j3d_bmd::Mtx34>,
    ) -> j3d_bmd::Mtx34 {
        if let Some(w) = memo.get(&j) {
            return *w;
        }
        let w = match sk.parents[j] {
            Some(p) => gx::mtx::mul(&world(usize::from(p), sk, local, memo), &local[j]),
            None => local[j],
        };
        memo.insert(j, w);
        w
    }
    let local: Vec<j3d_bmd::Mtx34> = (0..sk.local.len())
        .map(|j| j3d_anim::eval::joint(anim, j, frame).map_or(sk.local[j], |t| t.matrix()))
        .collect();
    let mut memo = HashMap::new();
    (0..local.len())
        .map(|j| world(j, sk, &local, &mut memo))
        .collect()
}

#[test]
fn blender_models_import() {
    let Some(py) = support::blender::python() else {
        return;
    };
    let dir = scratch("blender-models");
    support::blender::script(&py, &dir, "make.py", &[&dir]);
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let mut imported = 0;
    // The sphere just under J3D's limit is large: imported once, as BDL.
    for (name, exts) in [
        ("tube", &["bmd", "bdl"][..]),
        ("props", &["bmd", "bdl"]),
        ("sphere", &["bmd", "bdl"]),
        ("sphere_near", &["bdl"]),
        ("character", &["bmd", "bdl"]),
    ] {
        let m = &manifest[name];
        let bdl = import_model(&dir, name, m, exts);
        imported += 1;
        if m["action"].is_string() {
            let worst = action_matches(&dir, name, m, &bdl);
            eprintln!("{name}: BCK within {worst:.2e} of the extent of Blender's pose");
        }
    }
    assert_eq!(imported, 5);
    let props = scene(&dir.join("props.glb"));
    assert!(
        props.meshes.iter().all(|m| !m.colors.is_empty()),
        "props: colours"
    );
    let sphere = &manifest["sphere"];
    let glb = scene(&dir.join("sphere.glb"));
    let vertices: usize = glb.meshes.iter().map(|m| m.positions.len()).sum();
    assert!(vertices > 65_536, "sphere: {vertices} glTF vertices");
    assert!(sphere["positions"].as_u64().unwrap() < 65_535);
    let near = manifest["sphere_near"]["positions"].as_u64().unwrap();
    assert!((65_000..65_535).contains(&near), "{near} positions");
    let dense = &manifest["sphere_dense"];
    let positions = dense["positions"].as_u64().unwrap();
    assert!(positions > 65_536, "dense sphere: {positions} positions");
    let glb = dir.join("sphere_dense.glb");
    run(&["convert", s(&glb), s(&dir.join("dense.bdl"))]).fails_with(&[
        "POS",
        &format!("{positions} distinct values"),
        "65535",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The real models to load: top-level BMDs and the BMD/BDL members of the archives, each with
/// the BCKs of its archive.
fn real_models(dir: &Path) -> Vec<(PathBuf, Vec<PathBuf>)> {
    let mut out = Vec::new();
    let Some(root) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real", "gcf blender") else {
        return out;
    };
    let top = gcio::corpus::files(&root.join("j3d"));
    assert_eq!(top.len(), 4, "real top-level J3D models");
    out.extend(top.into_iter().map(|p| (p, Vec::new())));
    let archives: Vec<PathBuf> = gcio::corpus::files(&root.join("rarc"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "arc"))
        .collect();
    for (i, arc) in archives.iter().enumerate() {
        let to = dir.join(format!("arc{i}"));
        run(&["extract", s(arc), s(&to)]).succeeds();
        let files = gcio::corpus::files(&to);
        let ext = |p: &Path, e: &[&str]| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| e.contains(&x.to_ascii_lowercase().as_str()))
        };
        let bcks: Vec<PathBuf> = files.iter().filter(|p| ext(p, &["bck"])).cloned().collect();
        for m in files.iter().filter(|p| ext(p, &["bmd", "bdl"])) {
            out.push((m.clone(), bcks.clone()));
        }
    }
    out
}

#[test]
fn blender_loads_our_glb() {
    let Some(py) = support::blender::python() else {
        return;
    };
    let dir = scratch("blender-load");
    let models = real_models(&dir);
    if models.is_empty() {
        return;
    }
    let mut glbs = Vec::new();
    let mut want = HashMap::new();
    for (i, (model, bcks)) in models.iter().enumerate() {
        let glb = dir.join(format!("m{i}.glb"));
        let mut args = vec!["convert", s(model), s(&glb)];
        for b in bcks {
            args.extend(["--anim", s(b)]);
        }
        run(&args).succeeds();
        let (joints, materials) = joints_and_materials(&std::fs::read(model).unwrap());
        want.insert(
            s(&glb).to_owned(),
            (model, joints.len(), materials, bcks.len()),
        );
        glbs.push(glb);
    }
    let args: Vec<&Path> = glbs.iter().map(PathBuf::as_path).collect();
    let out = support::blender::script(&py, &dir, "load.py", &args);
    let mut loaded = 0;
    let mut actions = 0;
    for line in out.lines().filter(|l| l.starts_with('{')) {
        let r: Value = serde_json::from_str(line).unwrap();
        let (model, joints, materials, bcks) = want[r["file"].as_str().unwrap()];
        let name = model.file_name().unwrap().to_string_lossy();
        assert!(r["ok"].as_bool().unwrap(), "{name}: {r}");
        assert_eq!(
            r["bones"].as_u64().unwrap() as usize,
            joints,
            "{name}: bones"
        );
        assert!(r["meshes"].as_u64().unwrap() > 0, "{name}: {r}");
        assert_eq!(
            r["materials"].as_u64().unwrap() as usize,
            materials,
            "{name}: materials"
        );
        assert_eq!(r["actions"].as_u64().unwrap() as usize, bcks, "{name}");
        actions += bcks;
        loaded += 1;
        eprintln!("{name}: {r}");
    }
    assert_eq!(loaded, models.len());
    eprintln!("Blender loaded {loaded} models, {actions} actions");
    let _ = std::fs::remove_dir_all(&dir);
}
