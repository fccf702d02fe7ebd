//! Fuzz body shared by cargo-fuzz and `cargo test`.

use crate::{Block, BlockView, FacialSection, validate_section};

/// Parses `data` as a block and as a bare facial section, validates, and checks that whatever
/// parses writes back to something that parses to the same model. Must never panic.
pub fn fuzz_gpl_facial(data: &[u8]) {
    if let Ok(v) = BlockView::parse(data) {
        let _ = v.validate();
    }
    if let Ok(b) = Block::parse(data)
        && let Ok(out) = b.write()
    {
        let again = Block::parse(&out).ok().and_then(|b2| b2.facial().cloned());
        assert_eq!(
            again.as_ref(),
            b.facial(),
            "block re-parse changed the facial model"
        );
    }
    let _ = validate_section(data);
    if let Ok(s) = FacialSection::parse(data)
        && let Ok(out) = s.write()
    {
        assert_eq!(
            FacialSection::parse(&out).ok(),
            Some(s),
            "section re-parse changed the model"
        );
    }
}
