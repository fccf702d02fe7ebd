//! The owned model: the NW4R frame and the blocks in file order, each typed as the runtime's
//! `nw4r::ut::ResFont` reads it. Pointers become block indices ([`Link`]); the writer derives
//! them, the sizes and counts back from the layout.

use brlyt::frame::{Frame, SECTION_HEADER};
use brlyt::json::Name;
use brlyt::model::Raw;
use gcio::{Context, Error, Limits, Reader, Result};

use crate::view::View;

/// File magic.
pub const MAGIC: &[u8; 4] = b"RFNT";
/// Bytes of the fixed FINF body before the metrics (type … code map pointer).
pub const INFO_SIZE: usize = 0x14;
/// Bytes of the FINF metrics (height, width, ascent, padding) that versions 1.2 and later hold.
pub const METRICS_SIZE: usize = 4;
/// Bytes of the fixed TGLP body (cell sizes … sheet pointer).
pub const GLYPHS_SIZE: usize = 0x18;
/// Bytes of the fixed CWDH body (index range, next pointer).
pub const WIDTHS_SIZE: usize = 8;
/// Bytes of the fixed CMAP body (code range, method, reserved, next pointer).
pub const MAP_SIZE: usize = 0x0C;
/// The glyph index the runtime uses for "no glyph" (`GLYPH_INDEX_NOT_FOUND`).
pub const NOT_FOUND: u16 = 0xFFFF;
/// The bit of the sheet format word that marks compressed sheets (archive fonts only).
pub const COMPRESSED_FLAG: u16 = 0x8000;

/// A pointer of the file as the index of the block whose data (the byte after its 8-byte header)
/// it names; `None` for a null pointer.
pub type Link = Option<usize>;

/// A font: its frame and its blocks in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Brfnt {
    /// Version, header extra bytes, trailer and a file size word the writer cannot derive.
    pub frame: Frame,
    /// The blocks in file order.
    pub blocks: Vec<Block>,
}

/// One block of the font.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum Block {
    /// `FINF`: the font's information and the heads of its lists.
    Info(Info),
    /// `TGLP`: the glyph sheets.
    Glyphs(Glyphs),
    /// `CWDH`: character widths for a range of glyph indices.
    Widths(Widths),
    /// `CMAP`: character codes to glyph indices for a range of codes.
    Map(CodeMap),
    /// Any other block (`GLGR`, which the runtime skips, or one it refuses), as bytes.
    Raw(Raw),
}

impl Block {
    /// The block's magic.
    pub fn magic(&self) -> [u8; 4] {
        match self {
            Block::Info(_) => *b"FINF",
            Block::Glyphs(_) => *b"TGLP",
            Block::Widths(_) => *b"CWDH",
            Block::Map(_) => *b"CMAP",
            Block::Raw(r) => {
                let mut m = [0; 4];
                for (d, s) in m.iter_mut().zip(&r.magic.0) {
                    *d = *s;
                }
                m
            }
        }
    }
}

/// The three widths of a glyph (`CharWidths`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct CharWidths {
    /// Space left of the glyph's pixels.
    pub left: i8,
    /// Width of the glyph's pixels in its cell.
    pub glyph_width: u8,
    /// Advance to the next character.
    pub char_width: i8,
}

impl CharWidths {
    fn from_bytes([left, glyph_width, char_width]: [u8; 3]) -> CharWidths {
        CharWidths {
            left: i8::from_be_bytes([left]),
            glyph_width,
            char_width: i8::from_be_bytes([char_width]),
        }
    }

    pub(crate) fn to_bytes(self) -> [u8; 3] {
        [
            self.left.to_be_bytes()[0],
            self.glyph_width,
            self.char_width.to_be_bytes()[0],
        ]
    }
}

/// Font metrics of FINF versions 1.2 and later (0x14–0x17 of the body).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Metrics {
    /// Font height (`GetHeight`).
    pub height: u8,
    /// Font width (`GetWidth`).
    pub width: u8,
    /// Ascent (`GetAscent`; descent = height − ascent).
    pub ascent: u8,
    /// The padding byte after the ascent.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad: u8,
}

/// `FINF` (`FontInformation`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Info {
    /// Font type (1 = glyph texture font in every known file).
    pub font_type: u8,
    /// Line feed in pixels.
    pub line_feed: i8,
    /// Glyph index drawn for codes the font has no glyph for.
    pub alternate_index: u16,
    /// Widths of glyphs no CWDH block covers.
    pub default_widths: CharWidths,
    /// Character encoding (0 UTF-8, 1 UTF-16, 2 Shift-JIS, 3 CP1252).
    pub encoding: u8,
    /// The TGLP block (`pGlyph`).
    pub glyphs: Link,
    /// The first CWDH block of the width list (`pWidth`).
    pub widths: Link,
    /// The first CMAP block of the code map list (`pMap`).
    pub maps: Link,
    /// Height, width and ascent; `None` when the block ends before them.
    pub metrics: Option<Metrics>,
    /// Bytes after the fields, to the end of the block.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "brlyt::json::hex"
        )
    )]
    pub tail: Vec<u8>,
}

/// One glyph sheet's stored texels.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Sheet {
    /// The texels as stored (`sheet_size` bytes).
    #[cfg_attr(feature = "json", serde(with = "brlyt::json::hex"))]
    pub data: Vec<u8>,
}

/// `TGLP` (`FontTextureGlyph`): cell geometry and the sheets, which follow inside the block.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Glyphs {
    /// Cell width in pixels (the cells are 1 pixel apart).
    pub cell_width: u8,
    /// Cell height in pixels.
    pub cell_height: u8,
    /// Baseline from the cell's top.
    pub baseline: i8,
    /// Widest character.
    pub max_char_width: u8,
    /// Bytes of one sheet.
    pub sheet_size: u32,
    /// GX texture format of the sheets, with [`COMPRESSED_FLAG`].
    pub sheet_format: u16,
    /// Cells per sheet row.
    pub sheet_row: u16,
    /// Cell rows per sheet.
    pub sheet_line: u16,
    /// Sheet width in pixels.
    pub sheet_width: u16,
    /// Sheet height in pixels.
    pub sheet_height: u16,
    /// Bytes between the fields and the first sheet (alignment).
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "brlyt::json::hex"
        )
    )]
    pub gap: Vec<u8>,
    /// The sheets (their count is the sheet count word).
    pub sheets: Vec<Sheet>,
    /// Bytes after the last sheet, to the end of the block.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "brlyt::json::hex"
        )
    )]
    pub tail: Vec<u8>,
}

impl Glyphs {
    /// The sheets' GX texture format (the format word without [`COMPRESSED_FLAG`]).
    pub fn tex_format(&self) -> Option<gx::tex::TexFormat> {
        let f = gx::tex::TexFormat(u8::try_from(self.sheet_format & !COMPRESSED_FLAG).ok()?);
        f.name().map(|_| f)
    }

    /// Cells on one sheet (`sheetRow × sheetLine`).
    pub fn cells_per_sheet(&self) -> u32 {
        u32::from(self.sheet_row) * u32::from(self.sheet_line)
    }

    /// Glyphs the sheets hold.
    pub fn glyph_count(&self) -> u64 {
        u64::from(self.cells_per_sheet()) * self.sheets.len() as u64
    }
}

/// `CWDH` (`FontWidth`): the widths of glyph indices `index_begin..=index_end`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Widths {
    /// First glyph index.
    pub index_begin: u16,
    /// Last glyph index (below `index_begin`: no entries).
    pub index_end: u16,
    /// The next CWDH block of the list.
    pub next: Link,
    /// One entry per index of the range.
    pub entries: Vec<CharWidths>,
    /// Bytes after the entries (alignment), to the end of the block.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "brlyt::json::hex"
        )
    )]
    pub tail: Vec<u8>,
}

/// How a CMAP block maps its codes (`mappingMethod` and `mapInfo`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum Mapping {
    /// Method 0: index = `first` + (code − begin).
    Direct {
        /// Glyph index of the range's first code.
        first: u16,
    },
    /// Method 1: one index per code of the range ([`NOT_FOUND`] for none).
    Table {
        /// Indices, code `begin + i` at `i`.
        indices: Vec<u16>,
    },
    /// Method 2: (code, index) pairs searched by bisection (sorted by code).
    Scan {
        /// The pairs.
        entries: Vec<ScanEntry>,
    },
    /// Another method: the runtime finds no glyph through it; the data stays in the block's tail.
    Other {
        /// The method word.
        method: u16,
    },
}

impl Mapping {
    /// The `mappingMethod` word.
    pub fn method(&self) -> u16 {
        match self {
            Mapping::Direct { .. } => 0,
            Mapping::Table { .. } => 1,
            Mapping::Scan { .. } => 2,
            Mapping::Other { method } => *method,
        }
    }
}

/// One pair of a scan mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct ScanEntry {
    /// Character code.
    pub code: u16,
    /// Its glyph index.
    pub index: u16,
}

/// `CMAP` (`FontCodeMap`): the glyph indices of codes `code_begin..=code_end`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct CodeMap {
    /// First code.
    pub code_begin: u16,
    /// Last code.
    pub code_end: u16,
    /// The word after the method (0 in files).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub reserved: u16,
    /// The next CMAP block of the list.
    pub next: Link,
    /// The mapping.
    pub mapping: Mapping,
    /// Bytes after the mapping data (alignment), to the end of the block.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "brlyt::json::hex"
        )
    )]
    pub tail: Vec<u8>,
}

/// Entries of the range `begin..=end` (0 when `end < begin`).
pub fn range_len(begin: u16, end: u16) -> usize {
    if end < begin {
        0
    } else {
        usize::from(end - begin) + 1
    }
}

impl Brfnt {
    /// Parses with the default [`Limits`].
    pub fn parse(data: &[u8]) -> Result<Brfnt> {
        Self::parse_with(data, &Limits::default())
    }

    /// Parses within `limits`.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Brfnt> {
        Self::from_view(&View::parse_with(data, limits)?, limits)
    }

    /// The owned model of a view: every block typed, every pointer resolved to a block.
    pub fn from_view(view: &View<'_>, limits: &Limits) -> Result<Brfnt> {
        let f = &view.frame;
        let mut blocks = Vec::with_capacity(f.sections.len());
        for (i, s) in f.sections.iter().enumerate() {
            let body = s.bytes.get(SECTION_HEADER..).unwrap_or_default();
            let at = s.offset + SECTION_HEADER;
            let r = Reader::with_base(body, at as u64);
            let ctx = || {
                format!(
                    "BRFNT block {i} `{}` at {:#x}",
                    Name(s.magic.to_vec()),
                    s.offset
                )
            };
            let link =
                |ptr: u32, off: usize, what: &str| view.link(ptr, at + off, what).with_context(ctx);
            let b = match &s.magic {
                b"FINF" => {
                    let fixed = r.bytes(0, INFO_SIZE).with_context(ctx)?;
                    let metrics = r.array::<METRICS_SIZE>(INFO_SIZE).ok();
                    let tail_at = INFO_SIZE + if metrics.is_some() { METRICS_SIZE } else { 0 };
                    let fr = Reader::with_base(fixed, at as u64);
                    Block::Info(Info {
                        font_type: fr.u8(0)?,
                        line_feed: fr.i8(1)?,
                        alternate_index: fr.u16(2)?,
                        default_widths: CharWidths::from_bytes(fr.array(4)?),
                        encoding: fr.u8(7)?,
                        glyphs: link(fr.u32(8)?, 8, "glyph pointer")?,
                        widths: link(fr.u32(0x0C)?, 0x0C, "width list pointer")?,
                        maps: link(fr.u32(0x10)?, 0x10, "code map list pointer")?,
                        metrics: metrics.map(|m| Metrics {
                            height: m[0],
                            width: m[1],
                            ascent: m[2],
                            pad: m[3],
                        }),
                        tail: r.rest(tail_at).with_context(ctx)?.to_vec(),
                    })
                }
                b"TGLP" => Block::Glyphs(glyphs(&r, at, limits).with_context(ctx)?),
                b"CWDH" => {
                    let (begin, end) = (r.u16(0).with_context(ctx)?, r.u16(2).with_context(ctx)?);
                    let next = link(r.u32(4).with_context(ctx)?, 4, "next pointer")?;
                    let n = range_len(begin, end);
                    limits.check_alloc(n as u64, 3, at as u64)?;
                    let table = r.bytes(WIDTHS_SIZE, n * 3).with_context(|| {
                        format!("{}: {n} width entries for indices {begin}..={end}", ctx())
                    })?;
                    Block::Widths(Widths {
                        index_begin: begin,
                        index_end: end,
                        next,
                        entries: table
                            .chunks_exact(3)
                            .filter_map(|c| c.try_into().ok().map(CharWidths::from_bytes))
                            .collect(),
                        tail: r.rest(WIDTHS_SIZE + n * 3).with_context(ctx)?.to_vec(),
                    })
                }
                b"CMAP" => {
                    let begin = r.u16(0).with_context(ctx)?;
                    let end = r.u16(2).with_context(ctx)?;
                    let method = r.u16(4).with_context(ctx)?;
                    let reserved = r.u16(6).with_context(ctx)?;
                    let next = link(r.u32(8).with_context(ctx)?, 8, "next pointer")?;
                    let (mapping, used) =
                        mapping(&r, method, begin, end, limits).with_context(ctx)?;
                    Block::Map(CodeMap {
                        code_begin: begin,
                        code_end: end,
                        reserved,
                        next,
                        mapping,
                        tail: r.rest(MAP_SIZE + used).with_context(ctx)?.to_vec(),
                    })
                }
                m => Block::Raw(Raw {
                    magic: Name(m.to_vec()),
                    body: body.to_vec(),
                }),
            };
            blocks.push(b);
        }
        Ok(Brfnt {
            frame: f.to_frame(view.data.len()),
            blocks,
        })
    }

    /// Descriptions of what the model keeps as bytes (blocks it does not type, the frame's
    /// extra bytes); empty for every font the runtime reads.
    pub fn raw_parts(&self) -> Vec<String> {
        self.frame
            .raw_parts(self.blocks.iter().enumerate().filter_map(|(i, b)| match b {
                Block::Raw(r) => Some((i, r)),
                _ => None,
            }))
    }

    /// The FINF block the runtime uses: the last one (`ResFont::Rebuild` keeps the last it
    /// meets), with its index.
    pub fn info(&self) -> Option<(usize, &Info)> {
        self.blocks
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, b)| match b {
                Block::Info(x) => Some((i, x)),
                _ => None,
            })
    }

    /// The TGLP block the FINF names.
    pub fn glyphs(&self) -> Option<&Glyphs> {
        match self.blocks.get(self.info()?.1.glyphs?)? {
            Block::Glyphs(g) => Some(g),
            _ => None,
        }
    }
}

/// The TGLP body: fields, alignment gap, sheets, tail.
fn glyphs(r: &Reader<'_>, at: usize, limits: &Limits) -> Result<Glyphs> {
    let sheet_size = r.u32(4)?;
    let count = r.u16(8)?;
    let image = r.u32(0x14)? as usize;
    let start = image
        .checked_sub(at)
        .filter(|&s| s >= GLYPHS_SIZE && s <= r.len());
    let Some(start) = start else {
        return Err(Error::invalid(
            (at + 0x14) as u64,
            format!(
                "sheet pointer {image:#x} is not inside the block after its fields ({:#x}..={:#x})",
                at + GLYPHS_SIZE,
                at + r.len()
            ),
        ));
    };
    let total = limits.check_alloc(u64::from(count), u64::from(sheet_size), (at + 8) as u64)?;
    let data = r.bytes(start, total).map_err(|_| {
        Error::invalid(
            (at + 4) as u64,
            format!(
                "{count} sheets of {sheet_size:#x} bytes from {image:#x} pass the block's end {:#x}",
                at + r.len()
            ),
        )
    })?;
    let sheets = if sheet_size == 0 {
        vec![Sheet { data: Vec::new() }; usize::from(count)]
    } else {
        data.chunks_exact(sheet_size as usize)
            .map(|c| Sheet { data: c.to_vec() })
            .collect()
    };
    Ok(Glyphs {
        cell_width: r.u8(0)?,
        cell_height: r.u8(1)?,
        baseline: r.i8(2)?,
        max_char_width: r.u8(3)?,
        sheet_size,
        sheet_format: r.u16(0x0A)?,
        sheet_row: r.u16(0x0C)?,
        sheet_line: r.u16(0x0E)?,
        sheet_width: r.u16(0x10)?,
        sheet_height: r.u16(0x12)?,
        gap: r.bytes(GLYPHS_SIZE, start - GLYPHS_SIZE)?.to_vec(),
        sheets,
        tail: r.rest(start + total)?.to_vec(),
    })
}

/// The mapping data of a CMAP body and the bytes it takes after the fixed fields.
fn mapping(
    r: &Reader<'_>,
    method: u16,
    begin: u16,
    end: u16,
    limits: &Limits,
) -> Result<(Mapping, usize)> {
    let u16s = |from: usize, n: usize| -> Result<Vec<u16>> {
        limits.check_alloc(n as u64, 2, r.abs(from))?;
        let b = r.bytes(from, n * 2)?;
        Ok(b.chunks_exact(2)
            .filter_map(|c| c.try_into().ok().map(u16::from_be_bytes))
            .collect())
    };
    Ok(match method {
        0 => (
            Mapping::Direct {
                first: r.u16(MAP_SIZE)?,
            },
            2,
        ),
        1 => {
            let n = range_len(begin, end);
            let indices = u16s(MAP_SIZE, n).context("table mapping")?;
            (Mapping::Table { indices }, n * 2)
        }
        2 => {
            let n = usize::from(r.u16(MAP_SIZE).context("scan mapping count")?);
            let words = u16s(MAP_SIZE + 2, n * 2).context("scan mapping entries")?;
            let entries = words
                .chunks_exact(2)
                .filter_map(|c| match c {
                    &[code, index] => Some(ScanEntry { code, index }),
                    _ => None,
                })
                .collect();
            (Mapping::Scan { entries }, 2 + n * 4)
        }
        method => (Mapping::Other { method }, 0),
    })
}
