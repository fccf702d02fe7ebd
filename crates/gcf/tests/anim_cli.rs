//! `gcf convert model.bmd model.glb --anim X.bck`: the animation reaches the .glb; animations are
//! refused for OBJ output; other kinds (here a BTK) are accepted. Fixtures are built in code.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod support;

use std::ffi::OsStr;

use support::{gcf, glb_json, scratch, text};

#[test]
fn convert_adds_joint_animations_to_glb_only() {
    let dir = scratch("anim");
    let model = dir.join("m.bmd");
    let model_bytes = j3d_bmd::build::skinned_bmd().write().unwrap();
    std::fs::write(&model, &model_bytes).unwrap();
    // One joint entry per model joint: an animation that does not fit is left out.
    let joints = j3d_anim::Target::from_model(&model_bytes).unwrap().joints;
    let mut bck = j3d_anim::build::sample(j3d_anim::Kind::Bck);
    if let j3d_anim::Data::KeySrt(j) = &mut bck.tables[0].data {
        j.resize(joints, j[1]);
    }
    let walk = dir.join("walk.bck");
    std::fs::write(&walk, bck.write().unwrap()).unwrap();
    let btk = dir.join("tex.btk");
    let sample = j3d_anim::build::sample(j3d_anim::Kind::Btk);
    std::fs::write(&btk, sample.write().unwrap()).unwrap();
    let run = |out: &str, anim: &std::path::Path| {
        let out = dir.join(out);
        gcf(&[
            OsStr::new("convert"),
            model.as_os_str(),
            out.as_os_str(),
            OsStr::new("--anim"),
            anim.as_os_str(),
        ])
    };
    let ok = run("m.glb", &walk);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let doc = glb_json(&std::fs::read(dir.join("m.glb")).unwrap());
    assert_eq!(doc["animations"][0]["name"], "walk");
    let r = run("m.obj", &walk);
    assert!(!r.status.success());
    assert!(!dir.join("m.obj").exists(), "no partial output");
    // Without animations, the OBJ is written with its material library beside it.
    let obj = gcf(&[
        OsStr::new("convert"),
        model.as_os_str(),
        dir.join("m.obj").as_os_str(),
    ]);
    assert!(
        obj.status.success(),
        "{}",
        String::from_utf8_lossy(&obj.stderr)
    );
    let text = std::fs::read_to_string(dir.join("m.obj")).unwrap();
    assert!(
        text.contains("mtllib m.mtl"),
        "{}",
        &text[..text.len().min(200)]
    );
    assert!(dir.join("m.mtl").is_file());
    // The sample BTK animates material "water", which the sample model lacks: it does not fit,
    // so it is left out with a notice and the model is still written.
    let t = run("t.glb", &btk);
    let err = String::from_utf8_lossy(&t.stderr);
    assert!(t.status.success(), "{err}");
    assert!(err.contains("tex.btk") && err.contains("water"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// BLK/BLA: `identify` names them, `convert` to JSON and back gives the same bytes.
#[test]
fn cluster_animations_identify_and_convert_through_json() {
    let dir = scratch("cluster");
    let gcf = |args: &[&std::path::Path]| {
        let out = gcf(args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    for (kind, name) in [
        (j3d_anim::Kind::Blk, "j3d-blk"),
        (j3d_anim::Kind::Bla, "j3d-bla"),
    ] {
        let ext = kind.schema().ext;
        let bytes = j3d_anim::build::sample(kind).write().unwrap();
        let file = dir.join(format!("c.{ext}"));
        std::fs::write(&file, &bytes).unwrap();
        let id = gcf(&["identify".as_ref(), file.as_path()]);
        assert!(id.contains(name), "{id}");
        let json = dir.join(format!("c.{ext}.json"));
        let back = dir.join(format!("back.{ext}"));
        gcf(&["convert".as_ref(), file.as_path(), json.as_path()]);
        gcf(&["convert".as_ref(), json.as_path(), back.as_path()]);
        assert_eq!(std::fs::read(&back).unwrap(), bytes, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
