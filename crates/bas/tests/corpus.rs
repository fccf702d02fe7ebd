//! The real Galaxy archives' sound animation tables (`../shared/corpus/real/rarc`, skipped when
//! absent): every `.bas` member is recognised, parses, writes back byte-identical with nothing
//! kept raw, converts to JSON and back identically and has no validator finding.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

#[test]
fn real_sound_animations() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "bas real") else {
        return;
    };
    let mut failures = Vec::new();
    let (mut seen, mut sounds) = (0, 0);
    for (arc, path, data) in members(&dir) {
        if !path.to_ascii_lowercase().ends_with(".bas") {
            continue;
        }
        seen += 1;
        if !bas::sniff(&data) {
            failures.push(format!("{arc}:{path}: not recognised"));
        }
        let table = match bas::Bas::parse(&data) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{arc}:{path}: {e}"));
                continue;
            }
        };
        sounds += table.sounds.len();
        if table.write().ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: rewrite differs"));
        }
        if !table.raw_parts().is_empty() {
            failures.push(format!("{arc}:{path}: raw parts"));
        }
        let text = serde_json::to_string(&bas::to_json(&table).unwrap()).unwrap();
        let back = bas::from_json(&serde_json::from_str(&text).unwrap()).and_then(|t| t.write());
        if back.ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: JSON round trip differs"));
        }
        let diags = bas::validate(&data);
        if !diags.is_empty() {
            failures.push(format!("{arc}:{path}: {diags:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(seen, 7, "the real archives hold 7 sound animation tables");
    assert_eq!(sounds, 13, "with 13 sounds between them");
}
