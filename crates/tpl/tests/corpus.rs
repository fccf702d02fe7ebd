//! The real Galaxy archives' textures (`../shared/corpus/real/rarc`, skipped when absent): every
//! `.tpl` member is recognised, parses, writes back byte-identical with nothing kept raw, has no
//! validator error, and rebuilds byte for byte from its PNG folder.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

#[test]
fn real_textures() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "tpl real") else {
        return;
    };
    let mut failures = Vec::new();
    let mut seen = 0;
    for (arc, path, data) in members(&dir) {
        let is_tpl = path.to_ascii_lowercase().ends_with(".tpl");
        if tpl::sniff(&data) != is_tpl {
            failures.push(format!("{arc}:{path}: sniff says {}", tpl::sniff(&data)));
        }
        if !is_tpl {
            continue;
        }
        seen += 1;
        let lib = match tpl::Tpl::parse(&data) {
            Ok(l) => l,
            Err(e) => {
                failures.push(format!("{arc}:{path}: {e}"));
                continue;
            }
        };
        if lib.write().ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: rewrite differs"));
        }
        if !lib.raw_parts().is_empty() {
            failures.push(format!("{arc}:{path}: raw parts {:?}", lib.raw_parts()));
        }
        let diags: Vec<_> = tpl::validate(&data)
            .into_iter()
            .filter(|d| d.severity != gcio::Severity::Info)
            .collect();
        if !diags.is_empty() {
            failures.push(format!("{arc}:{path}: {diags:?}"));
        }
        let files = tpl::folder::to_folder(&lib).unwrap();
        let back = tpl::folder::from_folder(|n| {
            files.iter().find(|(f, _)| f == n).map(|(_, b)| b.clone())
        })
        .and_then(|t| t.write());
        if back.ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: folder rebuild differs"));
        }
        // Without the stored texels every image here is in a lossless format: re-encoding the
        // PNG must give the same bytes too (an independent check of the decode/encode pair).
        let lossless = lib.images.iter().all(|e| {
            e.header.tex_format().is_some_and(|f| f.is_lossless())
                && e.header.width % 8 == 0
                && e.header.height % 8 == 0
        });
        if lossless {
            let again = tpl::folder::from_folder(|n| {
                (!n.ends_with(".texels"))
                    .then(|| files.iter().find(|(f, _)| f == n).map(|(_, b)| b.clone()))
                    .flatten()
            })
            .and_then(|t| t.write());
            if again.ok().as_deref() != Some(&data[..]) {
                failures.push(format!("{arc}:{path}: re-encoded from PNG differs"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(seen, 17, "the real archives hold 17 TPL files");
}
