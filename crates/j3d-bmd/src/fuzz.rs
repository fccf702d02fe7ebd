//! Fuzz body shared by cargo-fuzz and `cargo test`.

/// Parses `data` through every layer (view, typed views, geometry, skeleton, OBJ, validator,
/// owned model and writer). Must never panic; a parsed model must write back to the same bytes.
pub fn fuzz_bmd(data: &[u8]) {
    let _ = crate::validate(data);
    let Ok(view) = crate::parse(data) else { return };
    let _ = crate::geometry(&view);
    let _ = crate::skeleton(&view);
    let _ = crate::to_obj(&view);
    let _ = crate::to_glb(&view);
    if let Ok(m) = crate::Bmd::from_view(&view)
        && let Ok(out) = m.write()
    {
        assert_eq!(out, data, "round trip differs");
    }
}

/// A standalone `.bti` through parse and write (byte-exact whenever it parses) and the
/// validator's TEX1 rules on it wrapped in a TEX1 chunk.
pub fn fuzz_bti(data: &[u8]) {
    if let Ok(b) = crate::Bti::parse(data)
        && let Ok(out) = b.write()
    {
        assert_eq!(out, data, "BTI round trip differs");
    }
}

/// A MAT3 chunk (the data starts at its magic): view, owned model in every padding style and
/// alignment, resolved materials and re-deduplication. A model that writes must reproduce the
/// bytes it came from when `Chunk::from_view` keeps it typed.
pub fn fuzz_mat3(data: &[u8]) {
    let r = gcio::Reader::new(data);
    let chunk = crate::Chunk::from_view(&crate::ChunkView {
        magic: *b"MAT3",
        data: r,
    });
    if let crate::Chunk::Mat3(m) = &chunk {
        assert_eq!(
            m.write().ok().as_deref(),
            Some(data),
            "MAT3 round trip differs"
        );
        let mats = m.materials();
        if let Ok(again) = crate::Mat3::from_materials(&mats) {
            // Floats compare by bits, so a NaN in a texture matrix equals itself: the values as
            // text (NaN prints as NaN), and the bytes the re-deduplicated materials write.
            let back = again.materials();
            assert_eq!(
                format!("{back:?}"),
                format!("{mats:?}"),
                "re-deduplication changed materials"
            );
            let rewritten = crate::Mat3::from_materials(&back).and_then(|m| m.write());
            assert_eq!(
                rewritten.ok(),
                again.write().ok(),
                "re-deduplicated materials write different bits"
            );
        }
    }
}
