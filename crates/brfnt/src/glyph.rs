//! Glyph lookup as the runtime does it (`ResFontBase::GetGlyph`): a code through the CMAP list
//! to a glyph index (the alternate index when none maps it), the index to a sheet and a cell,
//! and its widths through the CWDH list (the default widths when none covers it); and the
//! sheets decoded to RGBA.

use gcio::{Error, Result};
use gx::tex::Image;

use crate::model::{Block, Brfnt, CharWidths, CodeMap, Glyphs, Link, Mapping, NOT_FOUND, Widths};

/// Where a glyph is and how wide it is (the runtime's `Glyph`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glyph {
    /// Glyph index.
    pub index: u16,
    /// True when the code has no glyph and this is the alternate character's.
    pub alternate: bool,
    /// Sheet the cell is on.
    pub sheet: usize,
    /// Left edge of the cell's pixels on the sheet (cells are 1 pixel apart).
    pub x: u32,
    /// Top edge of the cell's pixels on the sheet.
    pub y: u32,
    /// Cell width in pixels.
    pub width: u8,
    /// Cell height in pixels.
    pub height: u8,
    /// The glyph's widths.
    pub widths: CharWidths,
}

/// The blocks of a list from `head` along `next`, at most as many as the font has blocks: a list
/// that loops ends there having shown each of its blocks (the runtime would loop for ever on a
/// code no block covers), with no allocation per lookup.
fn chain<'a, T: 'a>(
    blocks: &'a [Block],
    head: Link,
    pick: impl Fn(&'a Block) -> Option<(&'a T, Link)>,
) -> impl Iterator<Item = &'a T> {
    let mut at = head;
    std::iter::from_fn(move || {
        let (t, next) = pick(blocks.get(at?)?)?;
        at = next;
        Some(t)
    })
    .take(blocks.len())
}

impl Brfnt {
    /// The CMAP blocks of the FINF's list, in list order.
    pub fn code_maps(&self) -> impl Iterator<Item = &CodeMap> {
        let head = self.info().and_then(|(_, i)| i.maps);
        chain(&self.blocks, head, |b| match b {
            Block::Map(m) => Some((m, m.next)),
            _ => None,
        })
    }

    /// The CWDH blocks of the FINF's list, in list order.
    pub fn width_tables(&self) -> impl Iterator<Item = &Widths> {
        let head = self.info().and_then(|(_, i)| i.widths);
        chain(&self.blocks, head, |b| match b {
            Block::Widths(w) => Some((w, w.next)),
            _ => None,
        })
    }

    /// The glyph index of `code` (`FindGlyphIndex`): the first CMAP of the list whose range holds
    /// the code decides; [`NOT_FOUND`] when none does or it maps the code to nothing.
    pub fn find_index(&self, code: u16) -> u16 {
        self.code_maps()
            .find(|m| m.code_begin <= code && code <= m.code_end)
            .map_or(NOT_FOUND, |m| map_code(m, code))
    }

    /// The widths of glyph `index`: the first CWDH of the list covering it, else the default.
    pub fn widths_of(&self, index: u16) -> CharWidths {
        let default = self
            .info()
            .map(|(_, i)| i.default_widths)
            .unwrap_or_default();
        self.width_tables()
            .find(|w| w.index_begin <= index && index <= w.index_end)
            .and_then(|w| w.entries.get(usize::from(index - w.index_begin)).copied())
            .unwrap_or(default)
    }

    /// The glyph the runtime draws for `code`: the alternate character's for a code the font
    /// does not map. `None` for a code above 0xFFFF (the runtime's codes are 16-bit), a font
    /// without FINF or TGLP, sheets without cells, or an index past the last sheet.
    pub fn glyph(&self, code: u32) -> Option<Glyph> {
        let code = u16::try_from(code).ok()?;
        let (_, info) = self.info()?;
        let found = self.find_index(code);
        let (index, alternate) = if found == NOT_FOUND {
            (info.alternate_index, true)
        } else {
            (found, false)
        };
        let g = self.glyphs()?;
        let per_sheet = g.cells_per_sheet();
        let (sheet, cell) = (
            u32::from(index).checked_div(per_sheet)?,
            u32::from(index) % per_sheet.max(1),
        );
        let sheet = usize::try_from(sheet)
            .ok()
            .filter(|&s| s < g.sheets.len())?;
        let row = u32::from(g.sheet_row).max(1);
        Some(Glyph {
            index,
            alternate,
            sheet,
            x: (cell % row) * (u32::from(g.cell_width) + 1) + 1,
            y: (cell / row) * (u32::from(g.cell_height) + 1) + 1,
            width: g.cell_width,
            height: g.cell_height,
            widths: self.widths_of(index),
        })
    }

    /// Sheet `i` of the font's TGLP decoded to RGBA (intensity formats as grey with their alpha).
    pub fn sheet_rgba(&self, i: usize) -> Result<Image> {
        let g = self
            .glyphs()
            .ok_or_else(|| Error::message("the font has no FINF naming a TGLP block"))?;
        sheet_image(g, i)
    }

    /// Replaces sheet `i` of the font's TGLP by `img` (the sheet's size) encoded in the sheets'
    /// format. Stored texels that already decode to `img` are kept, so an unchanged image leaves
    /// the font byte for byte as it was; bytes past the texture in a larger sheet are kept too.
    pub fn set_sheet_rgba(&mut self, i: usize, img: &Image) -> Result<()> {
        if self.sheet_rgba(i)? == *img {
            return Ok(());
        }
        let at = self
            .info()
            .and_then(|(_, x)| x.glyphs)
            .ok_or_else(|| Error::message("the font has no FINF naming a TGLP block"))?;
        let Some(Block::Glyphs(g)) = self.blocks.get_mut(at) else {
            return Err(Error::message(
                "the FINF's glyph pointer names no TGLP block",
            ));
        };
        if (img.width(), img.height()) != (u32::from(g.sheet_width), u32::from(g.sheet_height)) {
            return Err(Error::message(format!(
                "sheet {i}: the image is {}x{}, the sheets {}x{}",
                img.width(),
                img.height(),
                g.sheet_width,
                g.sheet_height
            )));
        }
        let format = g
            .tex_format()
            .ok_or_else(|| Error::message("the sheets' format is not a GX format"))?;
        let texels = gx::tex::encode(format, img)?;
        let sheet = g
            .sheets
            .get_mut(i)
            .ok_or_else(|| Error::message(format!("no sheet {i}")))?;
        let Some(head) = sheet.data.get_mut(..texels.len()) else {
            return Err(Error::message(format!(
                "sheet {i}: {:#x} bytes of texels do not fit the sheet size {:#x}",
                texels.len(),
                sheet.data.len()
            )));
        };
        head.copy_from_slice(&texels);
        Ok(())
    }
}

/// Sheet `i` of `g` decoded to RGBA.
pub fn sheet_image(g: &Glyphs, i: usize) -> Result<Image> {
    let s = g
        .sheets
        .get(i)
        .ok_or_else(|| Error::message(format!("sheet {i} of {}", g.sheets.len())))?;
    let format = g
        .tex_format()
        .filter(|f| !f.is_indexed() && g.sheet_format & crate::model::COMPRESSED_FLAG == 0)
        .ok_or_else(|| {
            Error::message(format!(
                "sheet format {:#06x} is not a direct GX format",
                g.sheet_format
            ))
        })?;
    gx::tex::decode(
        format,
        u32::from(g.sheet_width),
        u32::from(g.sheet_height),
        &s.data,
        None,
    )
    .map_err(|e| e.context(format!("sheet {i}")))
}

/// `FindGlyphIndex(map, code)` for a code inside the map's range.
fn map_code(m: &CodeMap, code: u16) -> u16 {
    let off = code.wrapping_sub(m.code_begin);
    match &m.mapping {
        Mapping::Direct { first } => first.wrapping_add(off),
        Mapping::Table { indices } => indices.get(usize::from(off)).copied().unwrap_or(NOT_FOUND),
        Mapping::Scan { entries } => {
            // The runtime's bisection, step for step: on unsorted entries it misses as the game does.
            let (mut first, mut last) = (0i64, entries.len() as i64 - 1);
            while first <= last {
                let mid = first + (last - first) / 2;
                let Some(e) = usize::try_from(mid).ok().and_then(|m| entries.get(m)) else {
                    break;
                };
                if e.code < code {
                    first = mid + 1;
                } else if code < e.code {
                    last = mid - 1;
                } else {
                    return e.index;
                }
            }
            NOT_FOUND
        }
        Mapping::Other { .. } => NOT_FOUND,
    }
}
