//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/brfnt.rs`.

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the
/// rewrite must equal them and JSON must convert back to the same bytes; every glyph lookup and
/// sheet decode must return.
pub fn fuzz_brfnt(data: &[u8]) {
    let _ = crate::validate(data);
    let _ = crate::sniff(data);
    let Ok(font) = crate::Brfnt::parse(data) else {
        return;
    };
    assert_eq!(font.write().ok().as_deref(), Some(data), "round trip");
    #[cfg(feature = "json")]
    {
        let back = crate::to_json(&font)
            .and_then(|j| crate::from_json(&j))
            .and_then(|f| f.write());
        assert_eq!(back.ok().as_deref(), Some(data), "JSON round trip");
    }
    for code in [0, 0x20, 0x41, 0x61, 0x3042, 0xFFFF, 0x1_0000] {
        let _ = font.glyph(code);
    }
    if let Some(g) = font.glyphs() {
        for i in 0..g.sheets.len().min(4) {
            let _ = font.sheet_rgba(i);
        }
    }
}
