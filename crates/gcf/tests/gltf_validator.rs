#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    missing_docs
)]
//! The Khronos glTF validator (npm package `gltf-validator`, run by node) reports 0 errors on the
//! `.glb` exports of the J3D and sysdolphin samples, code-built scenes, and every real model of
//! `../shared/corpus/real/{hsd,j3d}`. The package is installed once into
//! `target/gltf-validator`; without node/npm or the registry the test is skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

const PACKAGE: &str = "gltf-validator@2.0.0-dev.3.10";

const SCRIPT: &str = r#"
const v = require('gltf-validator');
const fs = require('fs');
(async () => {
  for (const f of process.argv.slice(2)) {
    const r = await v.validateBytes(new Uint8Array(fs.readFileSync(f)), {maxIssues: 0});
    const errors = r.issues.messages.filter(m => m.severity === 0).map(m => m.code + ' ' + m.pointer);
    console.log(JSON.stringify({file: f, errors: r.issues.numErrors, first: errors.slice(0, 5)}));
  }
})().catch(e => { console.error(e); process.exit(1); });
"#;

/// The folder holding `node_modules/gltf-validator`, installing it when absent; `None` (skip)
/// when node or npm is missing or the install fails.
fn validator() -> Option<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let dir = target.join("gltf-validator");
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node_ok {
        eprintln!("skipped: node not found");
        return None;
    }
    if !dir.join("node_modules/gltf-validator").is_dir() {
        std::fs::create_dir_all(&dir).ok()?;
        let ok = Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--fetch-retries=0",
                "--prefix",
            ])
            .arg(&dir)
            .arg(PACKAGE)
            .status()
            .is_ok_and(|s| s.success());
        if !ok || !dir.join("node_modules/gltf-validator").is_dir() {
            eprintln!("skipped: could not install {PACKAGE}");
            return None;
        }
    }
    std::fs::write(dir.join("validate.js"), SCRIPT).ok()?;
    Some(dir)
}

/// Every export to validate: (name, glb).
fn exports() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let hsd = |name: &str, bytes: &[u8]| {
        let a = hsd_dat::parse(bytes).unwrap();
        let e = hsd_dat::export::to_scene(&a);
        assert!(e.problems.is_empty(), "{name}: {:?}", e.problems);
        (format!("{name}.glb"), e.scene.to_glb().unwrap())
    };
    let j3d = |name: &str, bytes: &[u8]| {
        let glb = j3d_bmd::to_glb(&j3d_bmd::parse(bytes).unwrap()).unwrap();
        (format!("{name}.glb"), glb)
    };
    for (name, bytes) in hsd_dat::build::samples().unwrap() {
        out.push(hsd(&name, &bytes));
    }
    out.push(hsd(
        "xd-scene",
        &hsd_dat::build::xd_scene().unwrap().write().unwrap(),
    ));
    // Extra scale nodes and their channels (the runtime's scale inheritance).
    out.push(hsd(
        "scale-chain",
        &hsd_dat::build::scale_chain().unwrap().write().unwrap(),
    ));
    for (name, bytes) in j3d_bmd::build::samples() {
        if !name.starts_with("broken/") && !name.ends_with(".bmt") {
            out.push(j3d(&name, &bytes));
        }
    }
    for (sub, is_hsd) in [("real/hsd", true), ("real/j3d", false)] {
        let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), sub, "gcf glTF validator")
        else {
            continue;
        };
        let entries = std::fs::read_dir(dir).unwrap();
        for e in entries.flatten() {
            let name = format!("real-{}", e.file_name().to_string_lossy());
            let bytes = std::fs::read(e.path()).unwrap();
            out.push(if is_hsd {
                hsd(&name, &bytes)
            } else {
                j3d(&name, &bytes)
            });
        }
    }
    out.push(("features.glb".into(), feature_scene().to_glb().unwrap()));
    let archives = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "gcf animated glTF");
    out.extend(animated(archives.as_deref()));
    out
}

/// A code-built scene with what the format exporters rarely make: a gap in the texture
/// coordinate sets (written as zeros), two colour sets, masked, blended and unlit materials, a
/// texture on the third set, `extras` everywhere and two root joints under the added root.
fn feature_scene() -> gx::scene::Scene {
    use gx::scene::{AlphaMode, Material, Mesh, Node, Scene, skin_weights};
    let mut s = Scene::new("features");
    s.extras = Some(serde_json::json!({"game": "test"}));
    for name in ["a", "b"] {
        let mut n = Node::new(name, None, gx::mtx::IDENTITY);
        n.extras = Some(serde_json::json!({"joint": name}));
        s.nodes.push(n);
    }
    let img = s.add_image(gx::tex::Image::test_pattern(4, 4, true).unwrap());
    for (i, mode) in [AlphaMode::Mask(0.25), AlphaMode::Blend, AlphaMode::Opaque]
        .into_iter()
        .enumerate()
    {
        let mut m = Material::new(format!("m{i}"), Some(img));
        m.alpha_mode = mode;
        m.unlit = i == 1;
        m.texcoord = 2 * i;
        m.extras = Some(serde_json::json!(i));
        s.materials.push(m);
    }
    for i in 0..3 {
        let mut m = Mesh::new(format!("mesh{i}"));
        m.positions = vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        m.uvs = vec![vec![[0.5; 2]; 3], Vec::new(), vec![[0.25; 2]; 3]];
        m.colors = vec![vec![[1, 2, 3, 4]; 3], vec![[5; 4]; 3]];
        m.skin = vec![skin_weights(&[(0, 0.5), (1, 0.5)]); 3];
        m.triangles = vec![[0, 1, 2]];
        m.material = Some(i);
        m.extras = Some(serde_json::json!({"mesh": i}));
        s.meshes.push(m);
    }
    s
}

/// Animated exports: the skinned sample with the sample BCK, and every real archive's first model
/// with all of the archive's BCKs (a model's walk cycle sits beside it).
fn animated(archives: Option<&Path>) -> Vec<(String, Vec<u8>)> {
    let glb = |name: String, model: &[u8], anims: &[(String, Vec<u8>)]| {
        let mut scene = j3d_bmd::to_scene(&j3d_bmd::parse(model).unwrap()).unwrap();
        for (n, a) in anims {
            let anim = j3d_anim::Anim::parse(a).unwrap();
            j3d_anim::export::add_to_scene(&mut scene, &anim, n, 60.0).unwrap();
        }
        (name, scene.to_glb().unwrap())
    };
    let sample = j3d_bmd::build::skinned_bmd().write().unwrap();
    let bck = ("walk".to_owned(), j3d_anim::build::sample_bck());
    let mut out = vec![glb("animated-skinned.glb".into(), &sample, &[bck])];
    let Some(Ok(dirs)) = archives.map(std::fs::read_dir) else {
        return out;
    };
    let mut files: Vec<PathBuf> = dirs
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let data = yaz0::decode(&data).unwrap_or(data);
        let Ok(arc) = rarc::Archive::parse(&data) else {
            continue;
        };
        let members: Vec<(String, Vec<u8>)> = arc
            .files()
            .unwrap()
            .into_iter()
            .filter_map(|(p, e)| Some((p, arc.file_data(e)?.to_vec())))
            .collect();
        let model = members
            .iter()
            .find(|(p, _)| p.ends_with(".bdl") || p.ends_with(".bmd"));
        // Every animation kind of the archive: joint channels, KHR_animation_pointer channels
        // (BTK, BRK, BPK, BVA) and extras (BTP).
        let bcks: Vec<(String, Vec<u8>)> = members
            .iter()
            .filter(|(_, d)| j3d_anim::sniff(d).is_some())
            .cloned()
            .collect();
        if let Some((m, bytes)) = model.filter(|_| !bcks.is_empty()) {
            let stem = path.file_stem().unwrap().to_string_lossy();
            out.push(glb(
                format!("animated-{stem}-{}.glb", m.replace('/', "_")),
                bytes,
                &bcks,
            ));
        }
    }
    out
}

#[test]
fn exports_pass_the_khronos_validator() {
    let Some(dir) = validator() else { return };
    let work = dir.join("files");
    std::fs::create_dir_all(&work).unwrap();
    let mut files = Vec::new();
    for (name, glb) in exports() {
        let path = work.join(name.replace('/', "_"));
        std::fs::write(&path, glb).unwrap();
        files.push(path);
    }
    let out = Command::new("node")
        .arg(dir.join("validate.js"))
        .args(&files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["errors"], 0, "{r}");
        checked += 1;
    }
    assert_eq!(checked, files.len());
    eprintln!("{checked} exports validated with 0 errors");
}
