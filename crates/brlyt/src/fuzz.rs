//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/brlyt.rs`.

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the
/// rewrite must equal them, JSON must convert back to the same bytes, and the tree must build.
pub fn fuzz_brlyt(data: &[u8]) {
    let _ = crate::validate(data);
    let _ = crate::sniff(data);
    let Ok(lyt) = crate::Brlyt::parse(data) else {
        return;
    };
    assert_eq!(lyt.write().ok().as_deref(), Some(data), "round trip");
    #[cfg(feature = "json")]
    {
        let back = crate::to_json(&lyt)
            .and_then(|j| crate::from_json(&j))
            .and_then(|l| l.write());
        assert_eq!(back.ok().as_deref(), Some(data), "JSON round trip");
    }
    let t = lyt.tree();
    for r in t.roots() {
        let _ = t.walk(r);
    }
}
