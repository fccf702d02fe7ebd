//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/bas.rs`.

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the
/// rewrite must equal them and JSON must convert back to the same bytes (non-finite values too).
pub fn fuzz_bas(data: &[u8]) {
    let _ = crate::validate(data);
    let _ = crate::sniff(data);
    let Ok(table) = crate::Bas::parse(data) else {
        return;
    };
    assert_eq!(table.write().ok().as_deref(), Some(data), "round trip");
    #[cfg(feature = "json")]
    {
        let back = crate::to_json(&table)
            .and_then(|j| crate::from_json(&j))
            .and_then(|a| a.write());
        assert_eq!(back.ok().as_deref(), Some(data), "JSON round trip");
    }
    for f in [-1.0, 0.0, 24.5, f32::NAN] {
        let _ = table.start_index(f);
    }
}
