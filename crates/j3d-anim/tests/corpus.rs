//! The real Galaxy archives' animations (`../shared/corpus/real/rarc`, skipped when absent): every
//! one parses, writes back byte-identical with nothing kept raw, converts to JSON and back
//! identically, validates without errors, and binds cleanly to a model of its archive.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

use j3d_anim::bind::{Target, check_binding};

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

#[test]
fn real_animations() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "j3d-anim real")
    else {
        return;
    };
    let all = members(&dir);
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    let mut failures = Vec::new();
    let mut animated = 0;
    for (arc, path, data) in &all {
        let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
        let anim_ext = [
            "bck", "bca", "btk", "brk", "bpk", "btp", "bva", "blk", "bla",
        ]
        .contains(&ext.as_str());
        let Some(kind) = j3d_anim::sniff(data) else {
            if anim_ext {
                failures.push(format!("{arc}:{path}: not identified"));
            }
            continue;
        };
        *seen.entry(kind.format_name()).or_default() += 1;
        let anim = match j3d_anim::Anim::parse(data) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{arc}:{path}: {e}"));
                continue;
            }
        };
        if anim.write().ok().as_deref() != Some(&data[..]) {
            let w = anim.write().unwrap_or_default();
            failures.push(format!(
                "{arc}:{path}: differs at {:?}",
                gcio::first_difference(data, &w)
            ));
        }
        if !anim.raw_parts().is_empty() {
            failures.push(format!("{arc}:{path}: raw parts {:?}", anim.raw_parts()));
        }
        let json = j3d_anim::to_json(&anim).unwrap();
        let text = serde_json::to_string(&json).unwrap();
        let back = j3d_anim::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        if back.write().ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: JSON round trip differs"));
        }
        let diags: Vec<_> = j3d_anim::validate(data)
            .into_iter()
            .filter(|d| d.severity != gcio::Severity::Info)
            .collect();
        if !diags.is_empty() {
            failures.push(format!("{arc}:{path}: {diags:?}"));
        }
        // Binding: some model of the same archive takes it cleanly.
        let models: Vec<Target> = all
            .iter()
            .filter(|(a, p, _)| a == arc && (p.ends_with(".bdl") || p.ends_with(".bmd")))
            .filter_map(|(_, _, d)| Target::from_model(d).ok())
            .collect();
        let clean = |t: &Target| {
            check_binding(&anim, t)
                .iter()
                .all(|d| d.severity == gcio::Severity::Info)
        };
        if !models.is_empty() && !models.iter().any(clean) {
            let why: Vec<_> = models.iter().map(|t| check_binding(&anim, t)).collect();
            failures.push(format!("{arc}:{path}: no model binds: {why:?}"));
        }
        if matches!(anim.kind, j3d_anim::Kind::Bck | j3d_anim::Kind::Bca) {
            for (_, m, model) in all
                .iter()
                .filter(|(a, p, _)| a == arc && p.ends_with(".bdl"))
            {
                if let Err(e) = animated_glb(model, &anim) {
                    failures.push(format!("{arc}:{path} on {m}: {e}"));
                }
            }
            animated += 1;
        }
    }
    eprintln!("j3d-anim real: {animated} joint animations exported as glTF");
    eprintln!("j3d-anim real: {seen:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(seen.values().sum::<usize>() >= 88, "{seen:?}");
}

/// `anim` exported onto `model` as an animated `.glb` and re-read by the `gltf` crate: one
/// animation of three channels (translation, rotation, scale) per joint both have, each sampling
/// every frame; read by `gx::scene::Scene::from_glb`, the clip samples to the exported local
/// matrices.
fn animated_glb(model: &[u8], anim: &j3d_anim::Anim) -> Result<(), String> {
    let mut scene = j3d_bmd::to_scene(&j3d_bmd::parse(model).unwrap()).unwrap();
    let joints = scene
        .nodes
        .len()
        .min(anim.table(0).map_or(0, j3d_anim::Data::len));
    j3d_anim::export::add_to_scene(&mut scene, anim, "a", 60.0).map_err(|e| e.to_string())?;
    let glb = scene.to_glb().map_err(|e| e.to_string())?;
    let doc = gltf::Gltf::from_slice(&glb).map_err(|e| e.to_string())?;
    let a: Vec<_> = doc.animations().collect();
    let channels = a.first().map_or(0, |a| a.channels().count());
    let frames = a
        .first()
        .and_then(|a| a.samplers().next())
        .map_or(0, |s| s.input().count());
    if a.len() != 1 || channels != 3 * joints || frames != usize::from(anim.duration()) + 1 {
        return Err(format!(
            "{} animations, {channels} channels for {joints} joints, {frames} frames",
            a.len()
        ));
    }
    // gx's reader gets clips whose matrices at the sample times are the exported ones.
    let back = gx::scene::Scene::from_glb(&glb).map_err(|e| e.to_string())?;
    let written = &scene.animations[0];
    let locals = back.clip_locals(&back.clips[0], &written.times);
    for t in &written.tracks {
        for (k, (got, want)) in locals[t.node].iter().zip(&t.local).enumerate() {
            let close = got
                .as_flattened()
                .iter()
                .zip(want.as_flattened())
                .all(|(x, y)| (x - y).abs() <= 1e-3 * y.abs().max(1.0));
            if !close {
                return Err(format!("node {} sample {k}: {got:?} != {want:?}", t.node));
            }
        }
    }
    Ok(())
}
