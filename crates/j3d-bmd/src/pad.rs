//! Padding styles: Nintendo's tools fill alignment gaps with a prefix of a fixed sentence.

use gcio::Writer;

/// The sentence Nintendo-style files pad with (a pad of N bytes uses its first N bytes).
pub const NINTENDO_PAD: &[u8] = b"This is padding data to alignme";
/// The sentence SuperBMD pads with.
pub const SUPERBMD_PAD: &[u8] = b"Model made with SuperBMD by Gamma.";

/// Which bytes fill alignment gaps when a chunk is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Pad {
    /// `"This is padding data to alignme"` (retail files).
    #[default]
    Nintendo,
    /// `"Model made with SuperBMD by Gamma."`.
    SuperBmd,
    /// Zero bytes.
    Zero,
}

impl Pad {
    /// Every style, in the order a parser tries them.
    pub const ALL: [Pad; 3] = [Pad::Nintendo, Pad::SuperBmd, Pad::Zero];

    /// The fill pattern (empty = zeros).
    pub fn pattern(self) -> &'static [u8] {
        match self {
            Pad::Nintendo => NINTENDO_PAD,
            Pad::SuperBmd => SUPERBMD_PAD,
            Pad::Zero => b"",
        }
    }

    /// Pads `w` to a multiple of `align`.
    pub fn align(self, w: &mut Writer, align: usize) {
        w.pad_with(align, self.pattern());
    }

    /// Whether `gap` is what this style writes for a gap of that length.
    pub fn matches(self, gap: &[u8]) -> bool {
        let p = self.pattern();
        if p.is_empty() {
            gap.iter().all(|&b| b == 0)
        } else {
            gap.iter().zip(p.iter().cycle()).all(|(a, b)| a == b)
        }
    }
}
