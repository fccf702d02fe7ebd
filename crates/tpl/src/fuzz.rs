//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/tpl.rs`.

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the
/// rewrite must equal them, and the folder conversion must rebuild the same bytes.
pub fn fuzz_tpl(data: &[u8]) {
    let _ = crate::validate(data);
    let _ = crate::sniff(data);
    let Ok(tpl) = crate::Tpl::parse(data) else {
        return;
    };
    assert_eq!(tpl.write().ok().as_deref(), Some(data), "round trip");
    // Keep the decode work bounded: only small libraries go through PNG.
    #[cfg(feature = "export")]
    if data.len() <= 1 << 16
        && tpl
            .images
            .iter()
            .all(|e| e.header.width <= 256 && e.header.height <= 256)
        && let Ok(files) = crate::folder::to_folder(&tpl)
    {
        let back = crate::folder::from_folder(|n| {
            files.iter().find(|(f, _)| f == n).map(|(_, b)| b.clone())
        });
        assert_eq!(
            back.and_then(|t| t.write()).ok().as_deref(),
            Some(data),
            "folder round trip"
        );
    }
}
