#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Corpus check: every J3D file under `../shared/corpus` (when present) has every chunk typed,
//! round-trips byte for byte, decodes and validates without panicking. Passes without the corpus.

use std::path::Path;

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn corpus_models_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    walk(&root, &mut files);
    for f in files {
        let Ok(data) = std::fs::read(&f) else {
            continue;
        };
        if !data.starts_with(b"J3D2") {
            continue;
        }
        let m = j3d_bmd::Bmd::parse(&data).unwrap();
        // Identical only through the typed writers: a raw chunk would be copied, not rewritten.
        let v = j3d_bmd::parse(&data).unwrap();
        for c in v.chunks() {
            assert_eq!(
                j3d_bmd::Chunk::raw_reason(c),
                None,
                "{}: {}",
                f.display(),
                c.name()
            );
        }
        assert_eq!(m.write().unwrap(), data, "{}", f.display());
        let v = j3d_bmd::parse(&data).unwrap();
        let _ = j3d_bmd::geometry(&v);
        let _ = j3d_bmd::validate(&data);
    }
}
