#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Corpus check: every J3D model under `../shared/corpus/real/j3d` (when present) has every chunk typed,
//! round-trips byte for byte, decodes and validates without panicking. Passes without the corpus.

/// The real models (`real/j3d`): the owned model keeps no chunk raw, and writes them back.
#[test]
fn corpus_models_round_trip() {
    let Some(root) = gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "real/j3d",
        "j3d-bmd corpus models",
    ) else {
        return;
    };
    let files = gcio::corpus::files(&root);
    let mut seen = 0;
    for f in files {
        let data = std::fs::read(&f).unwrap();
        if !data.starts_with(b"J3D2") {
            continue;
        }
        seen += 1;
        let m = j3d_bmd::Bmd::parse(&data).unwrap();
        // Identical only through the typed writers: a raw chunk would be copied, not rewritten.
        assert_eq!(m.raw_parts(), Vec::<String>::new(), "{}", f.display());
        assert_eq!(m.write().unwrap(), data, "{}", f.display());
        let v = j3d_bmd::parse(&data).unwrap();
        let _ = j3d_bmd::geometry(&v);
        let _ = j3d_bmd::validate(&data);
    }
    assert!(seen >= 4, "{seen} models");
}
