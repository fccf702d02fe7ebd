//! The real Galaxy archives' camera animations (`../shared/corpus/real/rarc`, skipped when
//! absent): every `.canm` member is recognised, parses, writes back byte-identical with nothing
//! kept raw, converts to JSON and back identically, has no validator error, and evaluates.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

#[test]
fn real_camera_animations() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "canm real") else {
        return;
    };
    let mut failures = Vec::new();
    let mut seen = 0;
    for (arc, path, data) in members(&dir) {
        let is_canm = path.to_ascii_lowercase().ends_with(".canm");
        if canm::sniff(&data).is_some() != is_canm {
            failures.push(format!("{arc}:{path}: sniff {:?}", canm::sniff(&data)));
        }
        if !is_canm {
            continue;
        }
        seen += 1;
        let anim = match canm::Canm::parse(&data) {
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
            failures.push(format!("{arc}:{path}: raw parts"));
        }
        let text = serde_json::to_string(&canm::to_json(&anim).unwrap()).unwrap();
        let back = canm::from_json(&serde_json::from_str(&text).unwrap()).and_then(|a| a.write());
        if back.ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: JSON round trip differs"));
        }
        let diags: Vec<_> = canm::validate(&data)
            .into_iter()
            .filter(|d| d.severity != gcio::Severity::Info)
            .collect();
        if !diags.is_empty() {
            failures.push(format!("{arc}:{path}: {diags:?}"));
        }
        // Every frame evaluates to finite values, and the keyed curves pass through their keys.
        for f in 0..anim.frames {
            let p = canm::eval::pose(&anim, f as f32).unwrap();
            let all = p.pos.iter().chain(&p.watch).chain([&p.twist, &p.fovy]);
            if !all.into_iter().all(|v| v.is_finite()) {
                failures.push(format!("{arc}:{path}: frame {f}: {p:?}"));
            }
        }
        for (i, t) in anim.tracks.iter().enumerate() {
            let v = anim.track_values(i).unwrap();
            if t.count > 1 {
                for k in v.chunks_exact(t.stride(anim.kind)) {
                    let got = canm::eval::track(&anim, i, k[0]).unwrap();
                    if got != k[1] {
                        failures.push(format!("{arc}:{path}: track {i} at key {}: {got}", k[0]));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(seen, 3, "the real archives hold 3 camera animations");
}
