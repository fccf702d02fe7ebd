//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/jpc.rs`.

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the
/// rewrite must equal them.
pub fn fuzz_jpc(data: &[u8]) {
    let _ = crate::validate(data);
    let _ = crate::sniff(data);
    let Ok(jpc) = crate::Jpc::parse(data) else {
        return;
    };
    assert_eq!(jpc.write().ok().as_deref(), Some(data), "round trip");
    let _ = jpc.raw_parts();
}
