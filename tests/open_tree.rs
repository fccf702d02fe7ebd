//! The library API end to end, as a downstream crate uses it: `gcformats::open` on a Yaz0 → RARC
//! → BCSV/BDL tree (made by the builders, and the real archives when the shared corpus is
//! present), every file validated and written back, with no code from `gcf`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../examples/open_tree.rs"]
mod open_tree;

use open_tree::{Walk, built_archive, walk};

#[test]
fn built_archive_walks_validates_and_writes_back() {
    let bytes = built_archive();
    let file = gcformats::open(&bytes).unwrap();
    assert_eq!(file.format(), "yaz0");
    assert_eq!(file.detail(), Some("rarc"));
    let mut w = Walk::default();
    walk(&file, &mut w).unwrap();
    assert_eq!(
        w.formats,
        vec!["yaz0", "rarc", "bcsv", "j3d-bdl"],
        "{}",
        w.text
    );
    assert!(w.differs.is_empty(), "{:?}\n{}", w.differs, w.text);
    // The members are files of their own: BCSV rows, a BDL that validates clean.
    let payload = file.members().unwrap().remove(0);
    assert_eq!(payload.name(), "payload");
    let members = payload.members().unwrap();
    let names: Vec<&str> = members.iter().map(|m| m.name()).collect();
    assert_eq!(names, ["table.bcsv", "model/rigid.bdl"]);
    assert!(members.iter().all(|m| m.depth() == 2));
    assert!(members[1].validate().unwrap().is_empty());
    assert!(gcformats::identify(&bytes).is_some_and(|d| d.format == "yaz0"));
}

#[test]
fn limits_bound_the_members() {
    let bytes = built_archive();
    let tight = gcformats::gcio::Limits {
        max_alloc_bytes: 64,
        ..Default::default()
    };
    let file = gcformats::open_with(
        &bytes,
        &gcformats::OpenOptions::named("x.szs").limits(tight),
    )
    .unwrap();
    assert!(file.members().is_err());
    assert!(gcformats::open(b"plain text, no format").is_err());
}

#[test]
fn real_archives_walk_and_write_back() {
    let Some(dir) = gcformats::gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "real/rarc",
        "gcformats open_tree corpus",
    ) else {
        return;
    };
    let mut walked = 0;
    for path in gcformats::gcio::corpus::files(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let Ok(file) = gcformats::open_with(&bytes, &gcformats::OpenOptions::named(&name)) else {
            continue;
        };
        let mut w = Walk::default();
        walk(&file, &mut w).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(w.differs.is_empty(), "{name}: {:?}", w.differs);
        walked += w.formats.len();
    }
    assert!(walked > 0, "no file under {} opened", dir.display());
}

/// The one door takes a path too: the file is read and named by its path (a BTI, which has no
/// magic, is told by that name).
#[test]
fn open_reads_a_path() {
    let dir = std::env::temp_dir().join(format!("gcformats-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (name, bytes) = gcformats::samples()
        .into_iter()
        .find(|(n, _)| n.ends_with(".bti"))
        .unwrap();
    let path = dir.join(name.rsplit('/').next().unwrap());
    std::fs::write(&path, &bytes).unwrap();
    let file = gcformats::open(&path).unwrap();
    assert_eq!(file.format(), "bti");
    assert_eq!(file.bytes(), &bytes[..]);
    assert!(gcformats::open(&dir.join("missing.bti")).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
