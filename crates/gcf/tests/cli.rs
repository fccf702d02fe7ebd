//! The registry and the committed samples.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::path::Path;

#[test]
fn garbage_is_unknown_not_a_crash() {
    for data in [&b""[..], b"\0\0\0\0", b"RARC", &[0xFFu8; 100]] {
        let d = gcf::identify(data, "x.bin");
        let mut out = Vec::new();
        gcf::examine("x.bin", data, true, &gcf::Options::new(), &mut out);
        assert!(!out.is_empty());
        let _ = d;
    }
    assert_eq!(gcf::identify(b"hello world", "x.bin").format, gcf::UNKNOWN);
}

#[test]
fn committed_samples_are_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    for (name, bytes) in gcf::samples() {
        let on_disk = std::fs::read(dir.join(&name))
            .unwrap_or_else(|e| panic!("samples/{name}: {e}; run `cargo xtask gen-samples`"));
        assert!(
            on_disk == bytes,
            "samples/{name} is stale; run `cargo xtask gen-samples`"
        );
    }
}

#[test]
fn every_sample_round_trips_and_is_identified() {
    for (name, bytes) in gcf::samples() {
        let file = gcf::open_with(&bytes, &gcf::OpenOptions::named(&name))
            .unwrap_or_else(|_| panic!("{name}: not identified"));
        assert_eq!(
            gcf::roundtrip_of(&file),
            gcf::RoundTrip::Identical,
            "{name}"
        );
    }
}

/// Detection is unambiguous: across the samples and the shared corpus (when present), no file is
/// claimed by two formats, and every sample is claimed by the format whose folder holds it. This
/// is what keeps the headerless formats (bcsv, hsd-dat, gpl, bms) from stealing each other's files.
#[test]
fn every_file_is_claimed_by_at_most_one_format() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for dir in [root.join("samples"), root.join("../shared/corpus")] {
        let Ok(files) = gcf::survey::files_under(&dir) else {
            continue;
        };
        for f in files {
            let data = std::fs::read(&f).unwrap();
            let path = f.to_string_lossy();
            let claims: Vec<&str> = gcf::formats::FORMATS
                .iter()
                .filter(|fmt| fmt.detect(&data, &path).is_some())
                .map(|fmt| fmt.name())
                .collect();
            assert!(claims.len() <= 1, "{path} claimed by {claims:?}");
            if let Ok(rel) = f.strip_prefix(root.join("samples")) {
                let folder = rel
                    .components()
                    .next()
                    .unwrap()
                    .as_os_str()
                    .to_string_lossy();
                if rel.components().count() > 1 {
                    assert_eq!(claims, [folder.as_ref()], "{path}");
                }
            }
        }
    }
}

/// `identify`, `check` and `roundtrip` take directories: every file under one, an unrecognised
/// file found there kept (not an error), the same file named on the command line an error.
#[test]
fn commands_walk_directories() {
    let dir = std::env::temp_dir().join(format!("gcf-dir-walk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let samples = gcf::samples();
    let (path, bytes) = samples.iter().find(|(n, _)| n.ends_with(".tpl")).unwrap();
    let name = path.rsplit('/').next().unwrap();
    std::fs::write(dir.join("sub").join(name), bytes).unwrap();
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, b"not a game file").unwrap();
    let run = |args: &[&Path]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gcf"))
            .args(args)
            .output()
            .unwrap()
    };
    for cmd in ["identify", "check", "roundtrip"] {
        let o = run(&[Path::new(cmd), &dir]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{cmd}: {out}");
        assert!(cmd == "check" || out.contains(name), "{cmd}: {out}");
    }
    let rt = run(&[Path::new("roundtrip"), &dir]);
    let rt = String::from_utf8_lossy(&rt.stdout);
    assert!(
        rt.contains("identical") && rt.contains("notes.txt\tunknown\tkept"),
        "{rt}"
    );
    assert!(!run(&[Path::new("roundtrip"), &notes]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}
