//! Fuzz body shared by cargo-fuzz and `cargo test`.

use crate::{Block, FacialSection, Run, validate_section};

/// True when every run list ends with a zero-length pair. Only then is a list's extent fixed by
/// the bytes themselves; an unterminated list ends at the next pointer target, and after a
/// repack that may be the padding.
fn terminated(s: &FacialSection) -> bool {
    s.objects
        .iter()
        .flat_map(|o| &o.attributes)
        .all(|a| a.runs.last().is_some_and(|r: &Run| r.len == 0))
}

/// Parses `data` as a block and as a bare facial section, validates both, and checks that a
/// parsed model writes back to bytes that parse to the same model. Must never panic.
pub fn fuzz_gpl_facial(data: &[u8]) {
    if let Ok(v) = crate::parse(data) {
        let _ = crate::validate_view(&v);
        #[cfg(feature = "json")]
        let _ = crate::block_json(&v);
    }
    #[cfg(feature = "json")]
    if let Some(s) = Block::parse(data).ok().as_ref().and_then(Block::facial) {
        let _ = crate::poses_json(s);
    }
    if let Ok(b) = Block::parse(data)
        && b.facial().is_none_or(terminated)
        && let Ok(out) = b.write()
    {
        let again = Block::parse(&out).ok().map(|b2| b2.facial().cloned());
        assert_eq!(
            again,
            Some(b.facial().cloned()),
            "block re-parse changed the facial model"
        );
    }
    let _ = validate_section(data);
    if let Ok(s) = FacialSection::parse(data)
        && terminated(&s)
        && let Ok(out) = s.write()
    {
        assert_eq!(
            FacialSection::parse(&out).ok(),
            Some(s),
            "section re-parse changed the model"
        );
    }
}
