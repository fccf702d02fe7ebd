#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Real game models under `../shared/corpus/real` (top-level files and archive members): every
//! chunk typed, no `error`, byte-identical round trip. Passes (skips) without the corpus.

mod common;

use gcio::Severity;
use j3d_bmd::{Bmd, Chunk};

#[test]
fn real_models_are_typed_valid_and_round_trip() {
    let models = common::real_models();
    for (name, data) in &models {
        let m = Bmd::parse(data).unwrap();
        let raw: Vec<String> = j3d_bmd::parse(data)
            .unwrap()
            .chunks()
            .iter()
            .filter_map(|c| Chunk::raw_reason(c).map(|r| format!("{}: {r}", c.name())))
            .collect();
        assert!(raw.is_empty(), "{name}: raw chunks {raw:?}");
        assert!(
            m.chunks.iter().all(|c| !matches!(c, Chunk::Raw(_))),
            "{name}"
        );
        assert_eq!(m.write().unwrap(), *data, "{name}: round trip");
        let errors: Vec<_> = j3d_bmd::validate(data)
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert!(
            j3d_bmd::geometry(&j3d_bmd::parse(data).unwrap()).is_ok(),
            "{name}"
        );
    }
}

/// Every real `.bti` (standalone and archive members) parses, decodes every level and writes
/// back unchanged.
#[test]
fn real_textures_decode_and_round_trip() {
    for (name, data) in common::real_files() {
        if !name.to_ascii_lowercase().ends_with(".bti") {
            continue;
        }
        let b = j3d_bmd::Bti::parse(&data).unwrap();
        let levels = b.decode().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!levels.is_empty(), "{name}");
        assert_eq!(b.write().unwrap(), data, "{name}");
        let errors: Vec<_> = j3d_bmd::validate_bti(&data)
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}

/// Moving one vertex, changing one texture's wrap mode or one material colour in a real model
/// and writing it back changes exactly those bytes.
#[test]
fn edits_on_real_models_change_only_their_bytes() {
    let mut synced = 0;
    for (name, data) in common::real_models() {
        let n = common::check_edits(&name, &data);
        println!("{name}: {n} MDL3 byte(s) synced");
        synced += n;
    }
    // Galaxy 2's BDLs use their first texture and colour: some packet carries them.
    assert_eq!(
        synced > 0,
        common::real_models()
            .iter()
            .any(|(_, d)| d.starts_with(b"J3D2bdl"))
    );
}

#[test]
#[ignore = "measurement: prints every raw chunk of the real models and why"]
fn report_raw_chunks() {
    let dump = std::env::var_os("J3D_DUMP");
    for (name, data) in common::real_models() {
        if let Some(d) = &dump {
            let f = std::path::Path::new(d).join(name.replace('/', "__"));
            std::fs::write(f, &data).unwrap();
        }
        let v = j3d_bmd::parse(&data).unwrap();
        let mut line = format!("{name} ({} bytes)", data.len());
        for c in v.chunks() {
            match j3d_bmd::Chunk::raw_reason(c) {
                None => line += &format!(" {}", c.name()),
                Some(why) => line += &format!("\n    RAW {} @{:#x}: {why}", c.name(), c.offset()),
            }
        }
        println!("{line}");
    }
}

#[test]
#[ignore = "measurement: prints every validator finding on the real models"]
fn report_findings() {
    for (name, data) in common::real_models() {
        for d in j3d_bmd::validate(&data) {
            println!("{name}\t{:?}\t{}\t{}", d.severity, d.rule, d.message);
        }
    }
}
