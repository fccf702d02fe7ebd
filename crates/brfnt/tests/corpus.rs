//! The real Galaxy archives (`../shared/corpus/real/rarc`, skipped when absent): every `.brfnt`
//! member is recognised, parses, writes back byte-identical with nothing kept raw, converts to
//! JSON and back identically and has no validator finding. The shared archives hold none (the
//! two real fonts we know of are in archives that are not shared), so the walk asserts that, and
//! the built fonts stand in (tests/glyphs.rs).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

#[test]
fn real_fonts() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "brfnt real") else {
        return;
    };
    let mut failures = Vec::new();
    let (mut seen, mut archives) = (0, std::collections::BTreeSet::new());
    for (arc, path, data) in members(&dir) {
        archives.insert(arc.clone());
        if !path.to_ascii_lowercase().ends_with(".brfnt") && !brfnt::sniff(&data) {
            continue;
        }
        seen += 1;
        let font = match brfnt::Brfnt::parse(&data) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{arc}:{path}: {e}"));
                continue;
            }
        };
        if font.write().ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: rewrite differs"));
        }
        if !font.raw_parts().is_empty() {
            failures.push(format!("{arc}:{path}: raw parts"));
        }
        let text = serde_json::to_string(&brfnt::to_json(&font).unwrap()).unwrap();
        let back = brfnt::from_json(&serde_json::from_str(&text).unwrap()).and_then(|t| t.write());
        if back.ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: JSON round trip differs"));
        }
        let diags = brfnt::validate(&data);
        if !diags.is_empty() {
            failures.push(format!("{arc}:{path}: {diags:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(archives.len(), 28, "the 28 real archives were read");
    assert_eq!(seen, 0, "the shared real archives hold no font");
}
