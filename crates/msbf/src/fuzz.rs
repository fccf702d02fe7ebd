//! Fuzz body shared by `fuzz/fuzz_targets/msbf.rs` and the seed replay in `cargo test`.

use crate::Msbf;

/// Parses arbitrary bytes through the view and the model; whatever parses must write back
/// exactly, survive JSON, validate and render without panicking.
pub fn fuzz_msbf(data: &[u8]) {
    if let Ok(v) = crate::view::parse(data) {
        if let Ok(Some(f)) = v.flow() {
            let _ = f.iter().count();
        }
        if let Ok(Some(l)) = v.labels() {
            let _ = l.labels(&gcio::Limits::default()).count();
            let _ = l.find(b"label");
        }
    }
    let Ok(m) = Msbf::parse(data) else { return };
    let out = m.write();
    assert_eq!(
        out.as_deref().ok(),
        Some(data),
        "parse -> write must reproduce the input"
    );
    let _ = m.validate();
    let _ = m.to_dot();
    let back = Msbf::from_json(&m.to_json());
    assert_eq!(back.as_ref().ok(), Some(&m), "JSON must round-trip");
    if let Some(f) = m.flow() {
        let _ = f.cycles();
        let _ = f.walk(0, &gcio::Limits::default());
    }
}
