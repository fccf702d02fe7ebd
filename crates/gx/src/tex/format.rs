//! Texture and palette format ids, block geometry, and image/mip/palette sizes.

use gcio::{Error, ErrorKind, Result};

/// A GX texture format (`GXTexFmt`) as BTI/TEX1 headers store it. Open: unknown ids survive,
/// but every size and codec function refuses them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TexFormat(pub u8);

impl TexFormat {
    /// 4-bit intensity (alpha = intensity), 8 × 8 blocks.
    pub const I4: TexFormat = TexFormat(0x0);
    /// 8-bit intensity (alpha = intensity), 8 × 4 blocks.
    pub const I8: TexFormat = TexFormat(0x1);
    /// 4-bit alpha (high nibble) and 4-bit intensity, 8 × 4 blocks.
    pub const IA4: TexFormat = TexFormat(0x2);
    /// 8-bit alpha then 8-bit intensity, 4 × 4 blocks.
    pub const IA8: TexFormat = TexFormat(0x3);
    /// 16-bit RGB565, 4 × 4 blocks.
    pub const RGB565: TexFormat = TexFormat(0x4);
    /// 16-bit RGB555 or A3RGB444, 4 × 4 blocks.
    pub const RGB5A3: TexFormat = TexFormat(0x5);
    /// 32-bit RGBA, 4 × 4 blocks stored as 32 bytes of AR pairs then 32 bytes of GB pairs.
    pub const RGBA8: TexFormat = TexFormat(0x6);
    /// 4-bit palette index, 8 × 8 blocks.
    pub const C4: TexFormat = TexFormat(0x8);
    /// 8-bit palette index, 8 × 4 blocks.
    pub const C8: TexFormat = TexFormat(0x9);
    /// 14-bit palette index in 16 bits (top two bits ignored), 4 × 4 blocks.
    pub const C14X2: TexFormat = TexFormat(0xA);
    /// DXT1-like compression: 8 × 8 blocks of four 4 × 4 sub-blocks, big-endian colours.
    pub const CMPR: TexFormat = TexFormat(0xE);

    /// Every format with a codec, in id order.
    pub const ALL: [TexFormat; 11] = [
        Self::I4,
        Self::I8,
        Self::IA4,
        Self::IA8,
        Self::RGB565,
        Self::RGB5A3,
        Self::RGBA8,
        Self::C4,
        Self::C8,
        Self::C14X2,
        Self::CMPR,
    ];

    /// The format's name, or `None` for an unknown id.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            Self::I4 => "I4",
            Self::I8 => "I8",
            Self::IA4 => "IA4",
            Self::IA8 => "IA8",
            Self::RGB565 => "RGB565",
            Self::RGB5A3 => "RGB5A3",
            Self::RGBA8 => "RGBA8",
            Self::C4 => "C4",
            Self::C8 => "C8",
            Self::C14X2 => "C14X2",
            Self::CMPR => "CMPR",
            _ => return None,
        })
    }

    /// The format named `name` (case-insensitive; `RGBA32` is accepted for RGBA8).
    pub fn from_name(name: &str) -> Option<TexFormat> {
        let upper = name.to_ascii_uppercase();
        if upper == "RGBA32" {
            return Some(Self::RGBA8);
        }
        Self::ALL
            .into_iter()
            .find(|f| f.name() == Some(upper.as_str()))
    }

    /// `(block width, block height, bytes per block)`, or `None` for an unknown id.
    pub fn block(self) -> Option<(u32, u32, usize)> {
        Some(match self {
            Self::I4 | Self::C4 | Self::CMPR => (8, 8, 32),
            Self::I8 | Self::IA4 | Self::C8 => (8, 4, 32),
            Self::IA8 | Self::RGB565 | Self::RGB5A3 | Self::C14X2 => (4, 4, 32),
            Self::RGBA8 => (4, 4, 64),
            _ => return None,
        })
    }

    /// Bits per pixel (4, 8, 16 or 32), or `None` for an unknown id.
    pub fn bits_per_pixel(self) -> Option<u32> {
        self.block()
            .map(|(w, h, bytes)| (bytes as u32 * 8) / (w * h))
    }

    /// True for the palette formats C4, C8 and C14X2.
    pub fn is_indexed(self) -> bool {
        matches!(self, Self::C4 | Self::C8 | Self::C14X2)
    }

    /// Palette entries the indices can address (16, 256, 16384); 0 for direct formats.
    pub fn max_palette_entries(self) -> usize {
        match self {
            Self::C4 => 16,
            Self::C8 => 256,
            Self::C14X2 => 0x4000,
            _ => 0,
        }
    }

    /// True when decoding loses nothing: every stored bit pattern decodes to a distinct pixel
    /// (I4, I8, IA4, IA8, RGB565, RGBA8), so `encode(decode(bytes)) == bytes`. RGB5A3 is exact
    /// except for alpha-7 A3RGB444 codes that alias RGB555 ones; palette formats are exact at
    /// the index level ([`super::decode_indices`]/[`super::encode_indices`]).
    pub fn is_lossless(self) -> bool {
        matches!(
            self,
            Self::I4 | Self::I8 | Self::IA4 | Self::IA8 | Self::RGB565 | Self::RGBA8
        )
    }

    pub(crate) fn require_block(self) -> Result<(u32, u32, usize)> {
        self.block().ok_or_else(|| {
            Error::without_offset(ErrorKind::Invalid(format!(
                "unknown texture format {:#x}",
                self.0
            )))
        })
    }

    /// Width and height rounded up to whole blocks: the size the stored data covers. Decoding
    /// at this size shows the padding pixels too, and encoding such an image reproduces them.
    pub fn padded(self, width: u32, height: u32) -> Result<(u32, u32)> {
        let (bw, bh, _) = self.require_block()?;
        Ok((width.div_ceil(bw) * bw, height.div_ceil(bh) * bh))
    }
}

/// A GX palette (TLUT) format (`GXTlutFmt`): every entry is 16 bits. Open like [`TexFormat`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct PaletteFormat(pub u8);

impl PaletteFormat {
    /// Alpha byte then intensity byte.
    pub const IA8: PaletteFormat = PaletteFormat(0);
    /// RGB565, opaque.
    pub const RGB565: PaletteFormat = PaletteFormat(1);
    /// RGB555 or A3RGB444.
    pub const RGB5A3: PaletteFormat = PaletteFormat(2);

    /// Every known palette format.
    pub const ALL: [PaletteFormat; 3] = [Self::IA8, Self::RGB565, Self::RGB5A3];

    /// The format's name, or `None` for an unknown id.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            Self::IA8 => "IA8",
            Self::RGB565 => "RGB565",
            Self::RGB5A3 => "RGB5A3",
            _ => return None,
        })
    }

    /// The format named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<PaletteFormat> {
        let upper = name.to_ascii_uppercase();
        Self::ALL
            .into_iter()
            .find(|f| f.name() == Some(upper.as_str()))
    }

    pub(crate) fn require_known(self) -> Result<PaletteFormat> {
        if self.name().is_some() {
            Ok(self)
        } else {
            Err(Error::without_offset(ErrorKind::Invalid(format!(
                "unknown palette format {:#x}",
                self.0
            ))))
        }
    }
}

/// Size of mip level `level` of a `width × height` texture: each level halves both sides,
/// never below 1.
pub fn level_dims(width: u32, height: u32, level: u32) -> (u32, u32) {
    let shift = level.min(31);
    ((width >> shift).max(1), (height >> shift).max(1))
}

/// Bytes of one image (one mip level): whole blocks covering `width × height`.
pub fn level_size(format: TexFormat, width: u32, height: u32) -> Result<usize> {
    let (bw, bh, bytes) = format.require_block()?;
    // Block sides are powers of two: shifts, not divisions (this runs once per decoded level).
    let blocks_along =
        |v: u32, side: u32| (u64::from(v) + u64::from(side - 1)) >> side.trailing_zeros();
    let blocks = blocks_along(width, bw) * blocks_along(height, bh);
    blocks
        .checked_mul(bytes as u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| Error::without_offset(ErrorKind::Overflow("texture size")))
}

/// Bytes of a texture with `mips` levels (at least one counts): the levels follow one another.
/// Each level is a whole number of 32-byte blocks, so levels stay 32-byte aligned.
pub fn image_size(format: TexFormat, width: u32, height: u32, mips: u32) -> Result<usize> {
    let overflow = || Error::without_offset(ErrorKind::Overflow("texture size"));
    let mut total = 0usize;
    for level in 0..mips.max(1) {
        let (w, h) = level_dims(width, height, level);
        let size = level_size(format, w, h)?;
        if (w, h) == (1, 1) {
            // Every further level is 1 × 1 too: O(log size) for any mip count.
            let rest = usize::try_from(mips.max(1) - level).map_err(|_| overflow())?;
            return size
                .checked_mul(rest)
                .and_then(|n| n.checked_add(total))
                .ok_or_else(overflow);
        }
        total = total.checked_add(size).ok_or_else(overflow)?;
    }
    Ok(total)
}

/// Offset of mip level `level` from the start of the image data.
pub fn level_offset(format: TexFormat, width: u32, height: u32, level: u32) -> Result<usize> {
    if level == 0 {
        return Ok(0);
    }
    image_size(format, width, height, level)
}

/// Bytes of a palette with `entries` entries (all palette formats are 16-bit).
pub fn palette_size(entries: usize) -> usize {
    entries.saturating_mul(2)
}
