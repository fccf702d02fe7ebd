//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/brlan.rs`.

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the
/// rewrite must equal them, JSON must convert back to the same bytes, and evaluation must not
/// panic.
pub fn fuzz_brlan(data: &[u8]) {
    let _ = crate::validate(data);
    let _ = crate::sniff(data);
    let Ok(anim) = crate::Brlan::parse(data) else {
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
    if let Some(a) = anim.anim() {
        for c in &a.contents {
            for f in [-1.0, 0.0, 0.5, 3.7, 1e9, f32::NAN] {
                let _ = crate::eval::content(c, f);
            }
        }
    }
}
