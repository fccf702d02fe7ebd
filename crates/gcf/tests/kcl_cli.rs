//! `gcf` on KCL collision: identify, check, roundtrip and `convert` KCL → OBJ → KCL on the
//! builder's sample.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use support::gcf_text as gcf;

#[test]
fn kcl_identify_check_roundtrip_convert() {
    let dir = std::env::temp_dir().join(format!("gcf-kcl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, bytes) = kcl::build::samples().into_iter().next().unwrap();
    let src = dir.join("floor.kcl");
    std::fs::write(&src, &bytes).unwrap();
    let s = src.to_str().unwrap();
    let (ok, out) = gcf(&["identify", s]);
    assert!(ok && out.contains("\tkcl"), "{out}");
    let (ok, out) = gcf(&["check", s]);
    assert!(ok && !out.contains("KCL-"), "{out}");
    let (ok, out) = gcf(&["roundtrip", s]);
    assert!(ok && out.contains("identical"), "{out}");
    let (ok, out) = gcf(&["info", s]);
    assert!(ok && out.contains("9 prisms"), "{out}");
    let obj = dir.join("floor.obj");
    let (ok, out) = gcf(&["convert", s, obj.to_str().unwrap()]);
    assert!(ok, "{out}");
    let text = std::fs::read_to_string(&obj).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 9);
    assert!(text.contains("usemtl attr_1"));
    let back = dir.join("back.kcl");
    let (ok, out) = gcf(&["convert", obj.to_str().unwrap(), back.to_str().unwrap()]);
    assert!(ok, "{out}");
    let rebuilt = kcl::Kcl::parse(&std::fs::read(&back).unwrap()).unwrap();
    assert_eq!(rebuilt.prisms.len(), 9);
    let _ = std::fs::remove_dir_all(&dir);
}
