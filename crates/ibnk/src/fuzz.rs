//! Fuzz body shared by `fuzz/fuzz_targets/ibnk.rs` and the seed replay in `cargo test`.

/// Runs every entry point on arbitrary bytes: view, chunk walk, model read, write, re-read,
/// "what plays", validation and the WSYS reader. Must never panic, hang or allocate without bound.
pub fn fuzz_ibnk(data: &[u8]) {
    let _ = crate::validate(data);
    if let Ok(v) = crate::parse(data) {
        for c in v.chunks().take(64) {
            let _ = c.map(|c| c.counted::<crate::raw::Rand1>());
        }
        let _ = v.program_offset(0);
    }
    if let Ok(bank) = crate::Bank::parse(data) {
        if let Ok(bytes) = bank.write() {
            let _ = crate::Bank::parse(&bytes);
        }
        for (p, k, v) in [(0, 60, 100), (1, 0, 0), (3, 38, 127), (0xE4, 36, 64)] {
            let _ = bank.play(p, k, v);
        }
        let _ = bank.wave_uses();
        let _ = crate::validate_model(&bank);
    }
    if let Ok(ws) = crate::wsys::parse(data) {
        let _ = ws.wave_ids();
        for a in ws.archives().take(64).flatten() {
            let _ = a.wave(0);
        }
    }
}

#[cfg(feature = "json")]
/// JSON → IBNK, the path of `gcf convert x.json x.bnk`: a sample bank's JSON with the edits the
/// input chooses ([`gcio::mutate_text`]). Whatever converts writes a bank that reads back and
/// writes the same bytes, unless the model validator already calls the model broken (a version-0
/// link to an object of the wrong kind, IBNK-011, writes offsets the game and our reader follow as
/// that kind). Never panics, hangs or allocates without bound.
pub fn fuzz_ibnk_json(data: &[u8]) {
    static TEMPLATES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let templates = TEMPLATES.get_or_init(|| {
        crate::build::samples()
            .iter()
            .filter_map(|(_, b)| serde_json::to_string(&crate::Bank::parse(b).ok()?).ok())
            .collect()
    });
    let (Some(&pick), Some(edits)) = (data.first(), data.get(1..)) else {
        return;
    };
    let Some(template) = templates.get(usize::from(pick) % templates.len().max(1)) else {
        return;
    };
    let Ok(bank) = serde_json::from_str::<crate::Bank>(&gcio::mutate_text(template, edits)) else {
        return;
    };
    let Ok(bytes) = bank.write() else { return };
    let back = crate::Bank::parse(&bytes);
    let broken = || {
        crate::validate_model(&bank)
            .iter()
            .any(|d| d.severity == gcio::Severity::Error)
    };
    assert!(
        back.is_ok() || broken(),
        "a valid bank writes a readable file: {back:?}"
    );
    let Ok(back) = back else { return };
    assert_eq!(back.write().ok(), Some(bytes), "written bank round-trips");
}
