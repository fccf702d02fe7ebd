//! Fuzz body shared by cargo-fuzz and `cargo test`.

/// Parses `data` through every layer (view, typed views, geometry, skeleton, OBJ, validator,
/// owned model and writer). Must never panic; a parsed model must write back to the same bytes.
pub fn fuzz_bmd(data: &[u8]) {
    let _ = crate::validate(data);
    let Ok(view) = crate::parse(data) else { return };
    let _ = crate::geometry(&view);
    let _ = crate::skeleton(&view);
    let _ = crate::to_obj(&view);
    if let Ok(m) = crate::Bmd::from_view(&view)
        && let Ok(out) = m.write()
    {
        assert_eq!(out, data, "round trip differs");
    }
}
