//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/canm.rs`.

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the
/// rewrite must equal them, JSON must convert back to the same bytes (non-finite values too), and
/// evaluation must not panic.
pub fn fuzz_canm(data: &[u8]) {
    let _ = crate::validate(data);
    let _ = crate::sniff(data);
    let Ok(anim) = crate::Canm::parse(data) else {
        return;
    };
    assert_eq!(anim.write().ok().as_deref(), Some(data), "round trip");
    #[cfg(feature = "json")]
    {
        let back = crate::to_json(&anim)
            .and_then(|j| crate::from_json(&j))
            .and_then(|a| a.write());
        assert_eq!(back.ok().as_deref(), Some(data), "JSON round trip");
    }
    for f in [-1.0, 0.0, 0.5, 3.7, 1e9, f32::NAN] {
        let _ = crate::eval::pose(&anim, f);
    }
}
