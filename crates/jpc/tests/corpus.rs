//! The real Galaxy archives' particle containers (`../shared/corpus/real/rarc`, skipped when
//! absent): every `.jpc` member is recognised, parses, writes back byte-identical with nothing
//! kept raw, and has no validator finding above info.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

#[test]
fn real_particle_containers() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "jpc real") else {
        return;
    };
    let mut failures = Vec::new();
    let (mut seen, mut effects, mut textures) = (0, 0, 0);
    for (arc, path, data) in members(&dir) {
        let is_jpc = path.to_ascii_lowercase().ends_with(".jpc");
        if jpc::sniff(&data) != is_jpc {
            failures.push(format!("{arc}:{path}: sniff {}", jpc::sniff(&data)));
        }
        if !is_jpc {
            continue;
        }
        seen += 1;
        let j = match jpc::Jpc::parse(&data) {
            Ok(j) => j,
            Err(e) => {
                failures.push(format!("{arc}:{path}: {e}"));
                continue;
            }
        };
        effects += j.resources.len();
        textures += j.textures.len();
        let out = j.write().unwrap();
        if out != data {
            let at = gcio::first_difference(&out, &data);
            failures.push(format!("{arc}:{path}: rewrite differs at {at:?}"));
        }
        if !j.raw_parts().is_empty() {
            failures.push(format!("{arc}:{path}: raw parts {:?}", j.raw_parts()));
        }
        let diags: Vec<_> = jpc::validate(&data)
            .into_iter()
            .filter(|d| d.severity != gcio::Severity::Info)
            .collect();
        if !diags.is_empty() {
            failures.push(format!("{arc}:{path}: {:?}", &diags[..diags.len().min(5)]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(seen, 1, "the real archives hold 1 particle container");
    assert_eq!((effects, textures), (4160, 196));
}
