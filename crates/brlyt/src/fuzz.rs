//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/brlyt.rs`.

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the
/// rewrite must equal them, JSON must convert back to the same bytes, the tree must build, and
/// (feature `render`) the layout must render or refuse its screen size.
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
    #[cfg(feature = "render")]
    {
        // A screen of at most 64 × 64 keeps each case cheap; every pane is still placed and
        // clipped.
        let mut small = lyt;
        for s in &mut small.sections {
            if let crate::Section::Layout(l) = s {
                l.size = l.size.map(|v| gcio::F32::new(v.get().min(64.0)));
            }
        }
        let _ = crate::render::render(&small, |_| None, None, &Default::default());
    }
}
