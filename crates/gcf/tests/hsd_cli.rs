//! `gcf` on sysdolphin archives built in code: a data-only file (no joint, no mesh) is no model
//! to convert, and `rebuild` never writes a file that does not read back.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use support::{gcf_text as gcf, scratch};

/// Fighter data as Melee stores it: a root nothing types as a model (`ftData*`) over a table
/// of attribute floats.
fn data_only() -> Vec<u8> {
    use hsd_dat::build::Builder;
    let mut b = Builder::new();
    let attrs = b.bytes(
        [1.0f32, 2.5, -0.75]
            .iter()
            .flat_map(|f| f.to_be_bytes())
            .collect(),
        4,
    );
    let table = b.ptr_array(&[attrs]);
    b.root("ftDataTest", table);
    b.finish().write().unwrap()
}

/// Converting a data-only archive fails with "no model" and writes nothing (it used to write an
/// empty scene and exit 0).
#[test]
fn data_only_archive_is_no_model() {
    let dir = scratch("data");
    let src = dir.join("PlTs.dat");
    std::fs::write(&src, data_only()).unwrap();
    let s = src.to_str().unwrap();
    let (ok, out) = gcf(&["identify", s]);
    assert!(ok && out.contains("\thsd-dat"), "{out}");
    for name in ["PlTs.glb", "PlTs.obj"] {
        let to = dir.join(name);
        let (ok, out) = gcf(&["convert", s, to.to_str().unwrap()]);
        assert!(!ok, "{name}: {out}");
        assert!(out.contains("no model"), "{name}: {out}");
        assert!(!to.exists(), "{name}");
    }
    let listing: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(listing.len(), 1, "only the input: {listing:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `rebuild` of a model whose keyframe buffer a second FObj reads from its middle: the output
/// is an archive `identify` names and `check` finds no error in, or, were the layout to break
/// it, an error and no file. (It used to write an archive whose first FObj read other data,
/// HSD-024, and exit 0.)
#[test]
fn rebuild_writes_a_readable_archive_or_nothing() {
    let dir = scratch("rebuild");
    let src = dir.join("keys.dat");
    std::fs::write(
        &src,
        hsd_dat::build::shared_keyframe_tail().write().unwrap(),
    )
    .unwrap();
    let s = src.to_str().unwrap();
    let (ok, out) = gcf(&["check", s]);
    assert!(ok && !out.contains("error\t"), "{out}");
    for order in ["xd", "melee"] {
        let to = dir.join(format!("{order}.dat"));
        let t = to.to_str().unwrap();
        let (ok, out) = gcf(&["rebuild", "--order", order, s, t]);
        if !ok {
            assert!(out.contains("compile refused"), "{order}: {out}");
            assert!(!to.exists(), "{order}");
            continue;
        }
        assert!(!out.contains("error\t"), "{order}: {out}");
        let (ok, out) = gcf(&["identify", t]);
        assert!(ok && out.contains("\thsd-dat"), "{order}: {out}");
        let (ok, out) = gcf(&["check", t]);
        assert!(ok && !out.contains("error\t"), "{order}: {out}");
        let (ok, out) = gcf(&["compare", s, t]);
        assert!(
            ok && out.starts_with("BNB ") && out.contains("\nBNB-rules "),
            "{out}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `convert model.dat model.glb --anim walk.dat`: the motion file's AnimJoint tree reaches the
/// .glb as an animation named by its stem; a motion of another skeleton is left out with a
/// notice naming the file, and the model is still written.
#[test]
fn motion_files_reach_the_glb() {
    let dir = scratch("motion");
    let model = dir.join("ItSample.dat");
    std::fs::write(
        &model,
        hsd_dat::build::melee_joint().unwrap().write().unwrap(),
    )
    .unwrap();
    let walk = dir.join("walk.dat");
    std::fs::write(&walk, hsd_dat::build::motion_chain(2).write().unwrap()).unwrap();
    let other = dir.join("other.dat");
    std::fs::write(&other, hsd_dat::build::motion_chain(5).write().unwrap()).unwrap();
    let glb = dir.join("ItSample.glb");
    let (m, w, o, g) = (
        model.to_str().unwrap(),
        walk.to_str().unwrap(),
        other.to_str().unwrap(),
        glb.to_str().unwrap(),
    );
    let (ok, out) = gcf(&["convert", m, g, "--anim", w, "--anim", o]);
    assert!(ok, "{out}");
    assert!(
        out.contains("other.dat: animation left out") && out.contains("5 animated joints"),
        "{out}"
    );
    let scene = gx::scene::Scene::from_glb(&std::fs::read(&glb).unwrap()).unwrap();
    let names: Vec<&str> = scene.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["walk"]);
    let _ = std::fs::remove_dir_all(&dir);
}
