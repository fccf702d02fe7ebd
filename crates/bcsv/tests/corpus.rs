//! Every BCSV in the shared corpus: byte-exact round trip, CSV and JSON round trips, and the values
//! the corpus's independent reader (pyjmap) saw. Skips when the corpus is absent (recorded by
//! `gcio::corpus::dir`); when present, every test asserts how many files it read.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};

use bcsv::{Cell, Table, display_name, from_csv, from_json, to_csv, to_json};
use serde_json::Value as Json;

/// The shared corpus root (its `bcsv/` present), looked up through [`gcio::corpus::dir`] so CI
/// records whether `who` ran.
fn corpus(who: &str) -> Option<PathBuf> {
    gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "bcsv", who)
        .and_then(|p| p.parent().map(PathBuf::from))
}

/// The corpus's five tables (path, bytes) in path order; `None` when the corpus is absent.
fn files(who: &str) -> Option<Vec<(PathBuf, Vec<u8>)>> {
    let root = corpus(who)?;
    let out: Vec<_> = gcio::corpus::files(&root.join("bcsv"))
        .into_iter()
        .map(|p| {
            let d = std::fs::read(&p).unwrap();
            (p, d)
        })
        .collect();
    assert_eq!(out.len(), 5, "the corpus's five BCSV tables");
    Some(out)
}

#[test]
fn round_trips() {
    let Some(all) = files("bcsv corpus round trips") else {
        return;
    };
    for (path, data) in all {
        let t = Table::parse(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Identical through the typed writer: pool and tail rebuilt, not copied.
        assert!(
            t.raw_parts().is_empty(),
            "{}: {:?}",
            path.display(),
            t.raw_parts()
        );
        assert_eq!(t.write().unwrap(), data, "{}", path.display());
        let csv = to_csv(&t);
        assert_eq!(
            from_csv(&csv).unwrap().write().unwrap(),
            data,
            "{} via CSV",
            path.display()
        );
        let json = serde_json::to_string_pretty(&to_json(&t)).unwrap();
        let back = from_json(&serde_json::from_str(&json).unwrap()).unwrap();
        assert_eq!(back.write().unwrap(), data, "{} via JSON", path.display());
        let diags = bcsv::validate(&data);
        assert!(
            diags.iter().all(|d| d.severity != gcio::Severity::Error),
            "{}: {diags:?}",
            path.display()
        );
        bcsv::fuzz_bcsv(&data);
    }
}

#[test]
fn values_match_expectations() {
    let who = "bcsv corpus values";
    let (Some(root), Some(all)) = (corpus(who), files(who)) else {
        return;
    };
    for (path, data) in all {
        let name = path.file_name().unwrap().to_str().unwrap();
        let exp: Json = serde_json::from_slice(
            &std::fs::read(root.join("expect/bcsv").join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        let view = bcsv::parse(&data).unwrap();
        assert_eq!(
            view.len() as u64,
            exp["entry_count"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            view.entry_size() as u64,
            exp["entry_size"].as_u64().unwrap(),
            "{name}"
        );
        let fields: Vec<_> = view.fields().collect();
        let exp_fields = exp["fields"].as_array().unwrap();
        assert_eq!(
            fields.len() as u64,
            exp["field_count"].as_u64().unwrap(),
            "{name} field_count"
        );
        assert_eq!(fields.len(), exp_fields.len(), "{name} fields listed");
        let exp_rows = exp["rows"].as_array().unwrap();
        assert_eq!(view.len(), exp_rows.len(), "{name} rows listed");
        for (f, e) in fields.iter().zip(exp["fields"].as_array().unwrap()) {
            assert_eq!(u64::from(f.hash), e["hash"].as_u64().unwrap(), "{name}");
            assert_eq!(u64::from(f.mask), e["mask"].as_u64().unwrap());
            assert_eq!(u64::from(f.shift), e["shift"].as_u64().unwrap());
            assert_eq!(u64::from(f.offset), e["offset"].as_u64().unwrap());
            assert_eq!(u64::from(f.kind.0), e["type_id"].as_u64().unwrap());
            match e["name"].as_str() {
                Some(n) => assert_eq!(display_name(f.hash), n),
                None => assert!(display_name(f.hash).starts_with('[')),
            }
        }
        for (row, erow) in view.rows().zip(exp_rows) {
            let erow = erow.as_array().unwrap();
            assert_eq!(erow.len(), fields.len(), "{name} row {} cells", row.index());
            for (f, e) in fields.iter().zip(erow) {
                let cell = row.cell(f).unwrap();
                match cell {
                    Cell::StringOffset(_) | Cell::InlineString(_) => {
                        let s = row.get_str(f.hash).unwrap();
                        assert_eq!(s, e.as_str().unwrap(), "{name} row {}", row.index());
                    }
                    Cell::Float(v) => {
                        assert_eq!(v.to_bits(), (e.as_f64().unwrap() as f32).to_bits())
                    }
                    _ => {
                        // pyjmap sign-extends every integer; the game does so only for plain fields,
                        // and the corpus's packed values are all small and positive.
                        let got = if f.is_plain() {
                            i64::from(row.get_i32(f.hash).unwrap())
                        } else {
                            i64::from(row.get_u32(f.hash).unwrap())
                        };
                        assert_eq!(got, e.as_i64().unwrap(), "{name} row {}", row.index());
                    }
                }
            }
        }
    }
}

/// Every non-BCSV file in the corpus and in `samples/` of other formats: BCSV detection must not
/// claim it strongly (the extension is only a tie-breaker).
#[test]
fn does_not_claim_other_formats() {
    // Files of every folder of `root` but the BCSV ones and the expectations.
    let others = |root: &Path| -> usize {
        let mut n = 0;
        for dir in std::fs::read_dir(root).unwrap().map(|e| e.unwrap().path()) {
            if !dir.is_dir() || dir.ends_with("bcsv") || dir.ends_with("expect") {
                continue;
            }
            for p in gcio::corpus::files(&dir) {
                let data = std::fs::read(&p).unwrap();
                assert_ne!(
                    bcsv::sniff(&data),
                    Some(bcsv::Confidence::Strong),
                    "{} claimed as BCSV",
                    p.display()
                );
                n += 1;
            }
        }
        n
    };
    // `samples/` is in the repository; its count changes with the builders of other formats.
    let samples = others(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples"));
    assert!(samples >= 20, "{samples} sample files of other formats");
    if let Some(root) = corpus("bcsv corpus detection") {
        assert_eq!(others(&root), 96, "the corpus's other-format files");
    }
}

/// `samples/bcsv/` holds exactly what the builders make (regenerate with `cargo xtask gen-samples`).
#[test]
fn samples_match_builders() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/bcsv");
    let built = bcsv::build::samples();
    assert_eq!(built.len(), 4);
    assert_eq!(
        gcio::corpus::files(&dir).len(),
        built.len(),
        "files in samples/bcsv"
    );
    for (name, bytes) in built {
        let on_disk = std::fs::read(dir.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(on_disk, bytes, "{name}");
    }
}
