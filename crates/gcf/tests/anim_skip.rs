//! `gcf convert model.bmd model.glb --anim X`: an animation that does not parse, or does not fit
//! the model, is left out with a notice naming it on stderr; the model is still exported with the
//! animations that fit (exit 0). Fixtures are built in code.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod support;

use support::{gcf_in, scratch};

/// The animation names in a .glb.
fn animation_names(glb: &[u8]) -> Vec<String> {
    support::glb_json(glb)["animations"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| x["name"].as_str().unwrap_or("").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn animations_that_do_not_parse_or_fit_are_left_out_with_a_notice() {
    let dir = scratch("anim-skip");
    let model_bytes = j3d_bmd::build::skinned_bmd().write().unwrap();
    let joints = j3d_anim::Target::from_model(&model_bytes).unwrap().joints;
    let model = dir.join("m.bmd");
    std::fs::write(&model, &model_bytes).unwrap();
    // Fits: one joint entry per model joint.
    let mut walk = j3d_anim::build::sample(j3d_anim::Kind::Bck);
    if let j3d_anim::Data::KeySrt(j) = &mut walk.tables[0].data {
        j.resize(joints, j[1]);
    }
    let fits = dir.join("walk.bck");
    std::fs::write(&fits, walk.write().unwrap()).unwrap();
    // Does not parse: the chunk magic is gone.
    let mut bytes = j3d_anim::build::sample_bck();
    bytes[0x20..0x24].copy_from_slice(b"XXXX");
    let broken = dir.join("broken.bck");
    std::fs::write(&broken, bytes).unwrap();
    // Parses but does not fit: one joint entry more than the model has joints.
    if let j3d_anim::Data::KeySrt(j) = &mut walk.tables[0].data {
        j.push(j[0]);
    }
    let misfit = dir.join("misfit.bck");
    std::fs::write(&misfit, walk.write().unwrap()).unwrap();
    let glb = dir.join("m.glb");
    let run = gcf_in(
        &dir,
        &[
            "convert",
            "m.bmd",
            "m.glb",
            "--anim",
            "broken.bck",
            "--anim",
            "walk.bck",
            "--anim",
            "misfit.bck",
        ],
    );
    let stderr = &run.succeeds().stderr;
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("gcf: ")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].contains("broken.bck"), "{stderr}");
    assert!(lines[1].contains("misfit.bck"), "{stderr}");
    assert!(lines[1].contains("joint"), "{stderr}");
    assert_eq!(animation_names(&std::fs::read(&glb).unwrap()), ["walk"]);
    let _ = std::fs::remove_dir_all(&dir);
}
