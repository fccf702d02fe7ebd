//! Fuzz body shared by cargo-fuzz and `cargo test`.

/// Parses `data` through every layer (view, typed views, geometry, skeleton, OBJ, validator,
/// owned model and writer). Must never panic; a parsed model must write back to the same bytes.
pub fn fuzz_bmd(data: &[u8]) {
    let _ = crate::validate(data);
    let Ok(view) = crate::parse(data) else { return };
    let _ = crate::geometry(&view);
    let _ = crate::skeleton(&view);
    #[cfg(feature = "export")]
    {
        let _ = crate::to_obj(&view);
        let _ = crate::to_glb(&view);
    }
    if let Ok(m) = crate::Bmd::from_view(&view, view.limits())
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

/// PNG → BTI, the path of `gcf convert x.png x.bti`: `data` is read as a PNG as it is, and also
/// drives a generated one (the first bytes choose width, height, texture format and mip count,
/// the rest are pixels). Whatever converts must write a BTI that parses, writes back to the same
/// bytes and decodes to the image's size. Never panics or allocates past
/// [`gx::tex::MAX_PIXELS`].
#[cfg(feature = "export")]
pub fn fuzz_png_bti(data: &[u8]) {
    const FORMATS: [gx::tex::TexFormat; 10] = [
        gx::tex::TexFormat::I4,
        gx::tex::TexFormat::I8,
        gx::tex::TexFormat::IA4,
        gx::tex::TexFormat::IA8,
        gx::tex::TexFormat::RGB565,
        gx::tex::TexFormat::RGB5A3,
        gx::tex::TexFormat::RGBA8,
        gx::tex::TexFormat::C4,
        gx::tex::TexFormat::C8,
        gx::tex::TexFormat::CMPR,
    ];
    let _ = gx::png::decode(data);
    let [w, h, f, mips, pixels @ ..] = data else {
        return;
    };
    let (w, h) = (u32::from(*w % 64) + 1, u32::from(*h % 64) + 1);
    let px = |i: usize| pixels.get(i % pixels.len().max(1)).copied().unwrap_or(0);
    let Ok(img) = gx::tex::Image::from_fn(w, h, |x, y| {
        let i = ((y * w + x) * 4) as usize;
        [px(i), px(i + 1), px(i + 2), px(i + 3)]
    }) else {
        return;
    };
    let Ok(png) = gx::png::encode(&img) else {
        return;
    };
    let decoded = gx::png::decode(&png);
    assert_eq!(decoded.as_ref().ok(), Some(&img), "PNG round trip");
    let Some(&format) = FORMATS.get(usize::from(*f) % FORMATS.len()) else {
        return;
    };
    let Ok(bti) = crate::Bti::encode(&img, format, mips % 4 + 1) else {
        return;
    };
    let bytes = bti.write();
    assert!(bytes.is_ok(), "an encoded BTI writes: {bytes:?}");
    let Ok(bytes) = bytes else { return };
    let back = crate::Bti::parse(&bytes);
    assert!(back.is_ok(), "a written BTI parses: {back:?}");
    let Ok(back) = back else { return };
    assert_eq!(
        back.write().ok().as_ref(),
        Some(&bytes),
        "written BTI round-trips"
    );
    let levels = back.decode();
    let first = levels.as_ref().ok().and_then(|l| l.first());
    assert_eq!(
        first.map(|i| (i.width(), i.height())),
        Some((w, h)),
        "BTI decodes to the image's size"
    );
    if format == gx::tex::TexFormat::RGBA8 {
        assert_eq!(first, Some(&img), "RGBA8 is lossless");
    }
}

/// The glbs of the in-code samples that export (the import fuzz body's templates).
#[cfg(feature = "import")]
fn import_templates() -> &'static [Vec<u8>] {
    static GLBS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    GLBS.get_or_init(|| {
        crate::build::samples()
            .iter()
            .filter_map(|(_, bytes)| crate::to_glb(&crate::parse(bytes).ok()?).ok())
            .collect()
    })
}

/// The glTF → BMD/BDL import (`fuzz/fuzz_targets/j3d_bmd_import.rs`), structure-aware: an
/// in-code sample's glb with the input's edits to its JSON or binary chunk
/// ([`gx::scene::edited_glb`]), read as a glb and imported as a BMD and as a BDL. Never
/// panics, hangs or allocates without bound; every model it imports parses and validates
/// without errors (the import's own promise, asserted again here).
#[cfg(feature = "import")]
pub fn fuzz_import(data: &[u8]) {
    use crate::import::{ImportOptions, import};
    let Some(glb) = gx::scene::edited_glb(import_templates(), data) else {
        return;
    };
    let Ok(scene) = gx::scene::Scene::from_glb(&glb) else {
        return;
    };
    for bdl in [false, true] {
        let opts = ImportOptions {
            bdl,
            ..ImportOptions::default()
        };
        let Ok(out) = import(&scene, &opts) else {
            continue;
        };
        assert!(
            crate::parse(&out.bytes).is_ok(),
            "the import wrote what does not parse"
        );
        let errors = crate::validate(&out.bytes)
            .into_iter()
            .filter(|d| d.severity == gcio::Severity::Error)
            .count();
        assert_eq!(errors, 0, "the import wrote a model with validator errors");
    }
}
