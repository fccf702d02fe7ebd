//! Fuzz body shared by `fuzz/fuzz_targets/msbf.rs` and the seed replay in `cargo test`.

use crate::Msbf;

/// Parses arbitrary bytes through the view and the model; whatever parses must write back
/// exactly, survive JSON, validate and render without panicking.
pub fn fuzz_msbf(data: &[u8]) {
    if let Ok(v) = crate::parse(data) {
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
    let _ = crate::validate_model(&m);
    let _ = m.to_dot();
    #[cfg(feature = "json")]
    {
        let back = Msbf::from_json(&m.to_json());
        assert_eq!(back.as_ref().ok(), Some(&m), "JSON must round-trip");
    }
    if let Some(f) = m.flow() {
        let _ = f.cycles();
        let _ = f.walk(0, &gcio::Limits::default());
    }
}

#[cfg(feature = "json")]
/// JSON → MSBF, the path of `gcf convert x.json x.msbf`: a sample's JSON with the edits the input
/// chooses ([`gcio::mutate_text`]); whatever converts must write a file that parses and writes
/// back to the same bytes. Never panics, hangs or allocates without bound.
pub fn fuzz_msbf_json(data: &[u8]) {
    static TEMPLATES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let templates = TEMPLATES.get_or_init(|| {
        crate::build::samples()
            .iter()
            .filter_map(|(_, b)| Msbf::parse(b).ok().map(|m| m.to_json()))
            .collect()
    });
    let (Some(&pick), Some(edits)) = (data.first(), data.get(1..)) else {
        return;
    };
    let Some(template) = templates.get(usize::from(pick) % templates.len().max(1)) else {
        return;
    };
    let Ok(m) = Msbf::from_json(&gcio::mutate_text(template, edits)) else {
        return;
    };
    let Ok(bytes) = m.write() else { return };
    let back = Msbf::parse(&bytes);
    assert!(back.is_ok(), "a written MSBF parses: {back:?}");
    let Ok(back) = back else { return };
    assert_eq!(back.write().ok(), Some(bytes), "written MSBF round-trips");
}
