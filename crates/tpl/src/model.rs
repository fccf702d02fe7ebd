//! The owned model: every header field as stored, every structure's offset, the texel and palette
//! bytes, and the file size. Offsets are layout facts (two retail layouts differ only there), so a
//! parsed file writes back byte for byte; [`Tpl::relayout`] lays out an edited or new library.

use gx::tex::{PaletteFormat, TexFormat};

/// File magic (the "version number" of Nintendo's SDK header).
pub const MAGIC: u32 = 0x0020_AF30;
/// Bytes of the file header: magic, image count, image table offset.
pub const FILE_HEADER_SIZE: usize = 0x0C;
/// Bytes of one image table entry: image header offset, palette header offset (0: none).
pub const TABLE_ENTRY_SIZE: usize = 8;
/// Bytes of an image header.
pub const IMAGE_HEADER_SIZE: usize = 0x24;
/// Bytes of a palette (CLUT) header.
pub const PALETTE_HEADER_SIZE: usize = 0x0C;

/// An image header (`TPLHeader` in Nintendo's SDK), 0x24 bytes, every field as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct ImageHeader {
    /// Height of level 0 in pixels.
    pub height: u16,
    /// Width of level 0 in pixels.
    pub width: u16,
    /// GX texture format id (`GXTexFmt`: 0 I4 … 0xE CMPR).
    pub format: u32,
    /// File offset of the texel data.
    pub data_offset: u32,
    /// Horizontal wrap mode (`GXTexWrapMode`: 0 clamp, 1 repeat, 2 mirror).
    pub wrap_s: u32,
    /// Vertical wrap mode.
    pub wrap_t: u32,
    /// Minification filter (`GXTexFilter`: 0 near … 5 lin-mip-lin).
    pub min_filter: u32,
    /// Magnification filter (0 near, 1 linear).
    pub mag_filter: u32,
    /// LOD bias (any bits: a NaN converts to JSON as hex bits).
    #[cfg_attr(feature = "json", serde(with = "gcio::json_f32"))]
    pub lod_bias: f32,
    /// Edge LOD enable (0 or 1).
    pub edge_lod: u8,
    /// Smallest LOD used; with `max_lod` it gives the number of stored levels.
    pub min_lod: u8,
    /// Largest LOD used.
    pub max_lod: u8,
    /// "Unpacked" flag of the SDK (0 in files from Nintendo's converter).
    pub unpacked: u8,
}

impl ImageHeader {
    /// The GX format, when the id is one `gx::tex` knows.
    pub fn tex_format(&self) -> Option<TexFormat> {
        let f = TexFormat(u8::try_from(self.format).ok()?);
        f.block().map(|_| f)
    }

    /// Stored mip levels: `max_lod - min_lod + 1` (one when `max_lod < min_lod`).
    pub fn levels(&self) -> u32 {
        u32::from(self.max_lod.saturating_sub(self.min_lod)) + 1
    }

    /// Bytes of the texel data of every level; `None` for an unknown format.
    pub fn data_size(&self) -> Option<usize> {
        let f = self.tex_format()?;
        gx::tex::image_size(
            f,
            u32::from(self.width),
            u32::from(self.height),
            self.levels(),
        )
        .ok()
    }

    /// The header as stored.
    pub fn to_bytes(&self) -> [u8; IMAGE_HEADER_SIZE] {
        let mut b = [0u8; IMAGE_HEADER_SIZE];
        let words = [
            (u32::from(self.height) << 16) | u32::from(self.width),
            self.format,
            self.data_offset,
            self.wrap_s,
            self.wrap_t,
            self.min_filter,
            self.mag_filter,
            self.lod_bias.to_bits(),
            u32::from_be_bytes([self.edge_lod, self.min_lod, self.max_lod, self.unpacked]),
        ];
        for (dst, w) in b.chunks_exact_mut(4).zip(words) {
            dst.copy_from_slice(&w.to_be_bytes());
        }
        b
    }
}

/// A palette header (`TPLClutHeader`), 0x0C bytes, every field as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct PaletteHeader {
    /// Number of 16-bit entries.
    pub entries: u16,
    /// "Unpacked" flag of the SDK.
    pub unpacked: u8,
    /// Padding byte (0 in every file seen; kept).
    pub pad: u8,
    /// Entry format (`GXTlutFmt`: 0 IA8, 1 RGB565, 2 RGB5A3).
    pub format: u32,
    /// File offset of the entries.
    pub data_offset: u32,
}

impl PaletteHeader {
    /// The GX palette format, when known.
    pub fn palette_format(&self) -> Option<PaletteFormat> {
        let f = PaletteFormat(u8::try_from(self.format).ok()?);
        f.name().map(|_| f)
    }

    /// Bytes of the entries.
    pub fn data_size(&self) -> usize {
        gx::tex::palette_size(usize::from(self.entries))
    }

    /// The header as stored.
    pub fn to_bytes(&self) -> [u8; PALETTE_HEADER_SIZE] {
        let mut b = [0u8; PALETTE_HEADER_SIZE];
        let words = [
            u32::from_be_bytes([
                (self.entries >> 8) as u8,
                self.entries as u8,
                self.unpacked,
                self.pad,
            ]),
            self.format,
            self.data_offset,
        ];
        for (dst, w) in b.chunks_exact_mut(4).zip(words) {
            dst.copy_from_slice(&w.to_be_bytes());
        }
        b
    }
}

/// A palette: its header's place, the header and the entries' bytes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Palette {
    /// File offset of the palette header (the image table's second word).
    pub header_offset: u32,
    /// The header.
    pub header: PaletteHeader,
    /// The entries as stored (2 bytes each).
    #[cfg_attr(feature = "json", serde(skip))]
    pub data: Vec<u8>,
}

/// One image of the library.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Entry {
    /// File offset of the image header (the image table's first word).
    pub header_offset: u32,
    /// The header.
    pub header: ImageHeader,
    /// Texel data of every level as stored.
    #[cfg_attr(feature = "json", serde(skip))]
    pub data: Vec<u8>,
    /// The palette, for indexed formats (any image may have one; the game ignores it for direct
    /// formats).
    pub palette: Option<Palette>,
}

impl Entry {
    /// A zero-copy GX texture over this entry's data, for decoding.
    pub fn texture(&self) -> Option<gx::tex::Texture<'_>> {
        texture(
            &self.header,
            &self.data,
            self.palette.as_ref().map(|p| (&p.header, &p.data[..])),
        )
    }
}

/// The GX texture an image header describes over `data`, with its palette when the palette's
/// format is known; `None` for an unknown texture format.
pub(crate) fn texture<'a>(
    h: &ImageHeader,
    data: &'a [u8],
    palette: Option<(&PaletteHeader, &'a [u8])>,
) -> Option<gx::tex::Texture<'a>> {
    let f = h.tex_format()?;
    let mut t = gx::tex::Texture::new(f, u32::from(h.width), u32::from(h.height), data)
        .with_mips(h.levels())
        .at(u64::from(h.data_offset));
    if let Some((p, d)) = palette
        && let Some(pf) = p.palette_format()
    {
        t = t.with_palette(gx::tex::Palette::new(pf, d));
    }
    Some(t)
}

/// Bytes outside every structure that are not zero, kept so the file writes back exactly.
/// Empty on every retail file seen.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Fill {
    /// File offset of the first byte.
    pub offset: u32,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// A TPL texture palette library.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Tpl {
    /// File offset of the image table (0x0C in every file seen).
    pub table_offset: u32,
    /// The images in table order.
    pub images: Vec<Entry>,
    /// File size: the end of the last structure, or more when the file is padded.
    pub size: u32,
    /// Non-zero bytes between structures (see [`Fill`]).
    pub fill: Vec<Fill>,
}

/// Rounds `n` up to a multiple of `a` (a power of two).
fn align(n: usize, a: usize) -> usize {
    n.div_ceil(a) * a
}

impl Tpl {
    /// Parses `data` into the owned model with the default [`gcio::Limits`].
    pub fn parse(data: &[u8]) -> gcio::Result<Tpl> {
        Tpl::parse_with(data, &gcio::Limits::default())
    }

    /// Parses `data` into the owned model; `limits` bound the image count and the copied bytes.
    pub fn parse_with(data: &[u8], limits: &gcio::Limits) -> gcio::Result<Tpl> {
        Tpl::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view.
    pub fn from_view(v: &crate::View<'_>, limits: &gcio::Limits) -> gcio::Result<Tpl> {
        v.to_model(limits)
    }

    /// An empty library.
    pub fn new() -> Tpl {
        Tpl {
            table_offset: FILE_HEADER_SIZE as u32,
            images: Vec::new(),
            size: FILE_HEADER_SIZE as u32,
            fill: Vec::new(),
        }
    }

    /// Parts kept as bytes rather than structure (non-zero fill between structures), named
    /// like every model's `raw_parts()` in the workspace.
    pub fn raw_parts(&self) -> Vec<String> {
        self.fill
            .iter()
            .map(|f| format!("fill at {:#x} ({} bytes)", f.offset, f.bytes.len()))
            .collect()
    }

    /// Lays the library out afresh the way Nintendo's converter does for one image: table at
    /// 0x0C, image headers packed after it, palette headers after those, then each image's texels
    /// and each palette's entries on 32-byte boundaries, the file ending at the last byte of data.
    /// Drops [`Tpl::fill`]. Fails when an offset does not fit 32 bits.
    pub fn relayout(&mut self) -> gcio::Result<()> {
        let overflow = || gcio::Error::without_offset(gcio::ErrorKind::Overflow("TPL layout"));
        let fit = |n: usize| u32::try_from(n).map_err(|_| overflow());
        self.table_offset = FILE_HEADER_SIZE as u32;
        let mut at = FILE_HEADER_SIZE + TABLE_ENTRY_SIZE * self.images.len();
        for e in &mut self.images {
            e.header_offset = fit(at)?;
            at += IMAGE_HEADER_SIZE;
        }
        for p in self.images.iter_mut().filter_map(|e| e.palette.as_mut()) {
            p.header_offset = fit(at)?;
            at += PALETTE_HEADER_SIZE;
        }
        for e in &mut self.images {
            at = align(at, 32);
            e.header.data_offset = fit(at)?;
            at = at.checked_add(e.data.len()).ok_or_else(overflow)?;
        }
        for p in self.images.iter_mut().filter_map(|e| e.palette.as_mut()) {
            at = align(at, 32);
            p.header.data_offset = fit(at)?;
            p.header.entries = u16::try_from(p.data.len() / 2).map_err(|_| overflow())?;
            at = at.checked_add(p.data.len()).ok_or_else(overflow)?;
        }
        self.size = fit(at)?;
        self.fill.clear();
        Ok(())
    }
}

impl Default for Tpl {
    fn default() -> Self {
        Tpl::new()
    }
}
