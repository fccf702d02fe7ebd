//! The real Galaxy 2 layout animations (`../shared/corpus/real/rarc`, skipped when absent):
//! every `.brlan` member is recognised, parses, writes back byte-identical with nothing kept
//! raw, converts to JSON and back identically, has no validator finding, and evaluates at
//! every frame to finite values that pass through the keys.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

use brlan::{Keys, eval};

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

#[test]
fn real_animations() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "brlan real") else {
        return;
    };
    let mut failures = Vec::new();
    let (mut seen, mut targets) = (0, 0);
    for (arc, path, data) in members(&dir) {
        let is_anim = path.to_ascii_lowercase().ends_with(".brlan");
        if brlan::sniff(&data) != is_anim {
            failures.push(format!("{arc}:{path}: sniff {}", brlan::sniff(&data)));
        }
        if !is_anim {
            continue;
        }
        seen += 1;
        let anim = match brlan::Brlan::parse(&data) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{arc}:{path}: {e}"));
                continue;
            }
        };
        if anim.write().ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: rewrite differs"));
        }
        if !anim.raw_parts().is_empty() {
            failures.push(format!("{arc}:{path}: raw parts {:?}", anim.raw_parts()));
        }
        let text = serde_json::to_string(&brlan::to_json(&anim).unwrap()).unwrap();
        let back = brlan::from_json(&serde_json::from_str(&text).unwrap()).and_then(|a| a.write());
        if back.ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: JSON round trip differs"));
        }
        let diags = brlan::validate(&data);
        if !diags.is_empty() {
            failures.push(format!("{arc}:{path}: {diags:?}"));
        }
        let a = anim.anim().unwrap();
        for c in &a.contents {
            for f in 0..=a.frame_size {
                if eval::content(c, f32::from(f))
                    .iter()
                    .any(|s| !s.value.to_f32().is_finite())
                {
                    failures.push(format!("{arc}:{path}: `{}` frame {f}", c.name));
                }
            }
            for i in &c.infos {
                for t in &i.targets {
                    targets += 1;
                    if let Keys::Hermite(k) = &t.keys {
                        for (j, key) in k.iter().enumerate() {
                            // A key shared by two on the same frame takes the later one.
                            let later = k[j + 1..]
                                .iter()
                                .take_while(|n| n.frame == key.frame)
                                .last();
                            let want = later.unwrap_or(key).value.get();
                            let got = eval::hermite(k, key.frame.get()).unwrap();
                            if got != want {
                                failures.push(format!("{arc}:{path}: key {j}: {got} != {want}"));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(seen, 31, "the shared archives hold 31 layout animations");
    assert_eq!(targets, 1723, "animated targets of the 31 files");
}
