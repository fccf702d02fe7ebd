//! Detection. A model block has no magic of its own, so the header must be consistent: +0x00 is
//! 0, GPL < ACT < TEX (< SKN) < trailing pointers, every pointer 32-aligned and inside the
//! block, and the GPL (and SKN, facial) sections parse. The GPL and ACT version words then make
//! it strong; without them only the `.gpl` extension claims the file.

use crate::block::slot;
use crate::mesh::{ACT_VERSION, GPL_VERSION};

/// How sure [`sniff`] is: [`Confidence::Strong`] with a consistent header and both version
/// words, [`Confidence::Weak`] with a consistent header and parsing sections but unexpected
/// version words.
pub use gcio::Confidence;

/// Whether `data` looks like a model block (the workspace's name for [`sniff`]).
pub fn detect(data: &[u8]) -> Option<Confidence> {
    sniff(data)
}

/// Whether `data` looks like a model block.
pub fn sniff(data: &[u8]) -> Option<Confidence> {
    let v = crate::parse(data).ok()?;
    if v.word(0) != 0 {
        return None;
    }
    let lead = [slot::GPL, slot::ACT, slot::TEX].map(|i| v.word(i));
    if lead.contains(&0) || !lead.is_sorted_by(|a, b| a < b) {
        return None;
    }
    let mut last = lead[2];
    for i in [slot::SKN, slot::PTR6, slot::FACIAL, slot::PTR8] {
        let p = v.word(i);
        if p != 0 {
            if p <= last {
                return None;
            }
            last = p;
        }
    }
    if (1..8).any(|i| !v.word(i).is_multiple_of(32)) {
        return None;
    }
    v.mesh().ok()?;
    if let Some(f) = v.facial() {
        let f = f.ok()?;
        f.object_table().ok()?;
        f.descriptors().ok()?;
    }
    let version = |i: usize| v.section(i).and_then(|r| r.u32(0).ok());
    if version(slot::GPL) == Some(GPL_VERSION) && version(slot::ACT) == Some(ACT_VERSION) {
        Some(Confidence::Strong)
    } else {
        Some(Confidence::Weak)
    }
}

/// True when `path` has the `.gpl` extension (the tie-breaker for [`Confidence::Weak`]).
pub fn has_gpl_extension(path: &str) -> bool {
    std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gpl"))
}
