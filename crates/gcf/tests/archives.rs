//! Archives as modders use them: extract a (Yaz0) archive, edit, pack back. On the real game
//! archives of the shared corpus (skipped when absent): `extract` matches what another tool listed
//! (`expect/`: paths, flags, IDs, SHA-256), `extract` + `pack` is byte-identical at both levels,
//! `roundtrip --deep` passes, and a table edited through CSV changes only that member's bytes.
//! The same edit runs on an archive built in code, so the test also runs without the corpus.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::expect_used)]

mod support;

use std::path::{Path, PathBuf};

use support::scratch;

fn real() -> Option<PathBuf> {
    gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real", "gcf real archives")
}

/// The real archives `../shared/corpus/real/index.tsv` lists with an expectation.
const REAL_ARCHIVES: usize = 28;

fn real_archives() -> Vec<(PathBuf, serde_json::Value)> {
    let Some(root) = real() else {
        return Vec::new();
    };
    let index = std::fs::read_to_string(root.join("index.tsv")).unwrap();
    index
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let (path, expect) = (cols.first()?, cols.get(10)?);
            (path.starts_with("rarc/") && !expect.is_empty()).then(|| {
                let json = std::fs::read_to_string(root.join(expect)).unwrap();
                (root.join(path), serde_json::from_str(&json).unwrap())
            })
        })
        .collect()
}

/// SHA-256 in hex, to compare extracted members with the listing's digests.
fn sha256(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Manifest `file` lines as path → (attr, id).
fn manifest_files(dir: &Path) -> std::collections::HashMap<String, (u64, u64)> {
    let text = std::fs::read_to_string(dir.join(".gcf-rarc.txt")).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("file\t"))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let get = |k: &str| {
                let v = cols
                    .iter()
                    .find_map(|c| c.strip_prefix(&format!("{k}=")))
                    .unwrap();
                match v.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16).unwrap(),
                    None => v.parse().unwrap(),
                }
            };
            (cols[0].to_owned(), (get("attr"), get("id")))
        })
        .collect()
}

#[test]
fn real_archives_extract_as_listed_and_pack_back_exactly() {
    let mut checked = 0;
    for (path, expect) in real_archives() {
        let data = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let dir = scratch("real").join("x");
        let x = gcf::archive::extract_into(&data, &name, {
            std::fs::create_dir(&dir).unwrap();
            &dir
        })
        .unwrap_or_else(|e| panic!("{e}"));
        // The listing: every member with its flags, ID and SHA-256; every folder.
        let files = manifest_files(&dir);
        let listed = expect["files"].as_array().unwrap();
        assert_eq!(x.files, listed.len(), "{name}");
        for f in listed {
            let p = f["path"].as_str().unwrap();
            let bytes = std::fs::read(dir.join(p)).unwrap_or_else(|e| panic!("{name}: {p}: {e}"));
            assert_eq!(
                sha256(&bytes),
                f["decompressed_sha256"].as_str().unwrap(),
                "{name}: {p}"
            );
            let (attr, id) = files[p];
            assert_eq!(attr, f["flags"].as_u64().unwrap(), "{name}: {p} flags");
            assert_eq!(id, f["id"].as_u64().unwrap(), "{name}: {p} id");
        }
        for d in expect["dirs"].as_array().unwrap() {
            assert!(dir.join(d.as_str().unwrap()).is_dir(), "{name}: {d}");
        }
        // Pack back: the RARC exactly, and the .arc exactly when its encoder is known.
        let policy = gcf::output::Policy::default();
        let packed = gcf::archive::pack(&dir, Path::new("out.arc"), &gcf::Options::new(), &policy)
            .unwrap_or_else(|e| panic!("{e}"));
        let inner = |b: &[u8]| rarc::layer::peel_all(b, 4).unwrap().1;
        assert!(inner(&packed.bytes) == inner(&data), "{name}: RARC differs");
        if x.layers.iter().all(|l| !l.contains("unknown")) {
            assert!(packed.bytes == data, "{name}: compressed file differs");
        }
        // roundtrip --deep: every known member identical, unknown ones kept.
        let mut out = Vec::new();
        gcf::examine(&name, &data, true, &gcf::Options::new(), &mut out);
        for e in &out {
            assert!(e.roundtrip.is_ok(), "{}: {}", e.path, e.roundtrip);
        }
        let _ = std::fs::remove_dir_all(dir.parent().unwrap());
        checked += 1;
    }
    // Every listed real archive, debug builds included (Yaz0 is optimised in the dev profile).
    if real().is_some() {
        assert_eq!(checked, REAL_ARCHIVES, "real archives checked");
    }
}

/// Extracts `arc`, edits one cell of `table` through CSV, packs, and checks that the packed RARC
/// differs from the original only inside that member's bytes (the edit keeps the table's size,
/// so nothing derived moves) and that the compressed file decodes to it.
fn edit_one_table(arc: &[u8], table: &str, edit: impl Fn(&str) -> String) {
    let root = scratch("edit");
    let dir = root.join("x");
    std::fs::create_dir(&dir).unwrap();
    gcf::archive::extract_into(arc, "arc", &dir).unwrap();
    let bcsv = gcf::format_by_name("bcsv").unwrap();
    let member = dir.join(table);
    let (opts, none) = (gcf::Options::new(), gcf::Companions::new());
    let bytes = std::fs::read(&member).unwrap();
    let csv = bcsv.convert(&gcformats::Conversion {
        input: &bytes,
        from: table,
        to: "t.csv",
        opts: &opts,
        companions: &none,
        limits: &gcio::Limits::default(),
    });
    let text = String::from_utf8(csv.unwrap().unwrap().remove(0).1).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text);
    let back = bcsv.convert(&gcformats::Conversion {
        input: edited.as_bytes(),
        from: "t.csv",
        to: "t.bcsv",
        opts: &opts,
        companions: &none,
        limits: &gcio::Limits::default(),
    });
    let back = back.unwrap().unwrap().remove(0).1;
    std::fs::write(&member, &back).unwrap();
    let policy = gcf::output::Policy::default();
    let packed = gcf::archive::pack(&dir, Path::new("out.arc"), &opts, &policy).unwrap();
    let before = rarc::layer::peel_all(arc, 4).unwrap().1;
    let after = rarc::layer::peel_all(&packed.bytes, 4).unwrap().1;
    assert_eq!(before.len(), after.len());
    let v = rarc::parse(&before).unwrap();
    let e = v.lookup(table).unwrap().unwrap();
    let start = v.data_at() + e.data as usize;
    let range = start..start + e.size as usize;
    let diff: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .collect();
    assert!(!diff.is_empty());
    assert!(
        diff.iter().all(|i| range.contains(i)),
        "bytes outside {table} changed: {:x?}",
        diff.iter()
            .filter(|i| !range.contains(i))
            .collect::<Vec<_>>()
    );
    let v = rarc::parse(&after).unwrap();
    let e = v.lookup(table).unwrap().unwrap();
    assert_eq!(v.file_bytes(&e).unwrap(), back);
    let _ = std::fs::remove_dir_all(&root);
}

/// Replaces the first number of the first data row with another of the same width.
fn bump_first_number(csv: &str) -> String {
    let mut lines: Vec<String> = csv.lines().map(str::to_owned).collect();
    let row = &mut lines[1];
    let cells: Vec<String> = row.split(',').map(str::to_owned).collect::<Vec<_>>();
    let mut done = false;
    let cells: Vec<String> = cells
        .into_iter()
        .map(|c| match c.parse::<i64>() {
            Ok(n) if !done => {
                done = true;
                let m = if n % 10 == 9 { n - 1 } else { n + 1 };
                m.to_string()
            }
            _ => c,
        })
        .collect();
    *row = cells.join(",");
    lines.join("\n") + "\n"
}

#[test]
fn csv_edit_of_one_table_changes_only_that_member_built() {
    let arc = support::table_archive();
    let szs = yaz0::encode(&arc, yaz0::Encoder::Matching(yaz0::Matching::Nintendo));
    edit_one_table(&szs, "jmp/ObjInfo", bump_first_number);
}

#[test]
fn csv_edit_of_one_table_changes_only_that_member_real() {
    for (path, _) in real_archives() {
        if path.ends_with("SystemData-BlueCoinIDRangeTable.arc") {
            let data = std::fs::read(&path).unwrap();
            edit_one_table(&data, "BlueCoinIDRangeTable.bcsv", bump_first_number);
        }
    }
}

/// `replace` through every kind of nesting: a Yaz0 file holding a RARC whose member is a
/// Yaz0-compressed RARC (stored with the compression flags) holding the target. Every layer keeps
/// its encoder, and the sibling members keep their bytes.
#[test]
fn replace_reaches_into_nested_compressed_archives() {
    let file = |name: &str, data: Vec<u8>, attr: Option<rarc::Attr>| rarc::Item::File {
        name: name.as_bytes().to_vec(),
        attr,
        data,
        id: None,
    };
    let gclib = yaz0::Encoder::Matching(yaz0::Matching::Gclib);
    let nintendo = yaz0::Encoder::Matching(yaz0::Matching::Nintendo);
    let inner = rarc::Dir {
        name: b"Inner".to_vec(),
        children: vec![
            file("target.bin", vec![1; 40], None),
            file("keep.bin", vec![2; 40], None),
        ],
    };
    let inner = rarc::pack(&inner, rarc::PackOptions::default())
        .write()
        .unwrap();
    let outer = rarc::Dir {
        name: b"Outer".to_vec(),
        children: vec![
            file("inner.arc", yaz0::encode(&inner, gclib), None),
            file("other.bin", vec![3; 70], None),
        ],
    };
    let outer = rarc::pack(&outer, rarc::PackOptions::default())
        .write()
        .unwrap();
    let szs = yaz0::encode(&outer, nintendo);
    let out = gcf::archive::replace(&szs, "inner.arc:target.bin", vec![9; 50], "new.bin").unwrap();
    assert_eq!(
        gcf::archive::member(&out, "inner.arc:target.bin").unwrap(),
        vec![9; 50]
    );
    assert_eq!(
        gcf::archive::member(&out, "inner.arc:keep.bin").unwrap(),
        vec![2; 40]
    );
    assert_eq!(
        gcf::archive::member(&out, "other.bin").unwrap(),
        vec![3; 70]
    );
    let layer = |b: &[u8]| rarc::layer::Layer::peel(b).unwrap().unwrap().0.encoder;
    assert_eq!(layer(&out), Some(nintendo));
    let stored = {
        let (_, a) = rarc::layer::peel_all(&out, 4).unwrap();
        let v = rarc::parse(&a).unwrap();
        let e = v.lookup("inner.arc").unwrap().unwrap();
        v.file_bytes(&e).unwrap().to_vec()
    };
    let decoded = yaz0::decode(&stored).unwrap();
    assert_eq!(yaz0::encode(&decoded, gclib), stored);
    // Putting the original back gives the original file.
    let back = gcf::archive::replace(&out, "inner.arc:target.bin", vec![1; 40], "new.bin").unwrap();
    assert_eq!(back, szs);
    assert!(gcf::archive::replace(&szs, "inner.arc:nope", vec![], "new.bin").is_err());
}
