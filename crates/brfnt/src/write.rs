//! The writer: blocks laid out in model order; pointers, sizes, counts and the sheet pointer
//! derived from that layout.

use brlyt::frame::{HEADER_SIZE, SECTION_HEADER, section};
use gcio::{Error, ErrorKind, Result};

use crate::model::{
    Block, Brfnt, GLYPHS_SIZE, INFO_SIZE, Link, MAGIC, MAP_SIZE, Mapping, WIDTHS_SIZE, range_len,
};

fn overflow(what: &'static str) -> Error {
    Error::without_offset(ErrorKind::Overflow(what))
}

fn invalid(m: String) -> Error {
    Error::without_offset(ErrorKind::Invalid(m))
}

impl Block {
    /// Bytes of the block's body (after its 8-byte header) as the writer lays it out.
    fn body_size(&self) -> usize {
        match self {
            Block::Info(x) => {
                INFO_SIZE + x.metrics.map_or(0, |_| crate::model::METRICS_SIZE) + x.tail.len()
            }
            Block::Glyphs(g) => {
                GLYPHS_SIZE
                    + g.gap.len()
                    + g.sheets.iter().map(|s| s.data.len()).sum::<usize>()
                    + g.tail.len()
            }
            Block::Widths(w) => WIDTHS_SIZE + w.entries.len() * 3 + w.tail.len(),
            Block::Map(m) => {
                MAP_SIZE
                    + match &m.mapping {
                        Mapping::Direct { .. } => 2,
                        Mapping::Table { indices } => indices.len() * 2,
                        Mapping::Scan { entries } => 2 + entries.len() * 4,
                        Mapping::Other { .. } => 0,
                    }
                    + m.tail.len()
            }
            Block::Raw(r) => r.body.len(),
        }
    }
}

impl Brfnt {
    /// Writes the font. A parsed font comes back byte for byte; links, sizes, counts and the
    /// sheet pointer are derived (a link to a block that does not exist, or a range whose entry
    /// count does not match its entries, is an error).
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut data_at = Vec::with_capacity(self.blocks.len());
        let mut at = HEADER_SIZE + self.frame.header_extra.len();
        for b in &self.blocks {
            data_at.push(at + SECTION_HEADER);
            at = at
                .checked_add(SECTION_HEADER + b.body_size())
                .ok_or_else(|| overflow("file size"))?;
        }
        let ptr = |l: Link, what: &str| -> Result<u32> {
            match l {
                None => Ok(0),
                Some(i) => data_at
                    .get(i)
                    .and_then(|&o| u32::try_from(o).ok())
                    .ok_or_else(|| invalid(format!("{what} names block {i}, which is not there"))),
            }
        };
        let mut sections = Vec::with_capacity(self.blocks.len());
        for (i, (b, &here)) in self.blocks.iter().zip(&data_at).enumerate() {
            let what = |w: &str| format!("block {i}: {w}");
            let mut o = Vec::with_capacity(b.body_size());
            match b {
                Block::Info(x) => {
                    o.push(x.font_type);
                    o.extend(x.line_feed.to_be_bytes());
                    o.extend(x.alternate_index.to_be_bytes());
                    o.extend(x.default_widths.to_bytes());
                    o.push(x.encoding);
                    o.extend(ptr(x.glyphs, &what("glyph pointer"))?.to_be_bytes());
                    o.extend(ptr(x.widths, &what("width list pointer"))?.to_be_bytes());
                    o.extend(ptr(x.maps, &what("code map list pointer"))?.to_be_bytes());
                    if let Some(m) = x.metrics {
                        o.extend([m.height, m.width, m.ascent, m.pad]);
                    }
                    o.extend(&x.tail);
                }
                Block::Glyphs(g) => {
                    let count =
                        u16::try_from(g.sheets.len()).map_err(|_| overflow("sheet count"))?;
                    if let Some(s) = g
                        .sheets
                        .iter()
                        .position(|s| s.data.len() != g.sheet_size as usize)
                    {
                        return Err(invalid(what(&format!(
                            "sheet {s} has {:#x} bytes, the sheet size is {:#x}",
                            g.sheets.get(s).map_or(0, |s| s.data.len()),
                            g.sheet_size
                        ))));
                    }
                    let image = u32::try_from(here + GLYPHS_SIZE + g.gap.len())
                        .map_err(|_| overflow("sheet pointer"))?;
                    o.extend([g.cell_width, g.cell_height]);
                    o.extend(g.baseline.to_be_bytes());
                    o.push(g.max_char_width);
                    o.extend(g.sheet_size.to_be_bytes());
                    o.extend(count.to_be_bytes());
                    for w in [
                        g.sheet_format,
                        g.sheet_row,
                        g.sheet_line,
                        g.sheet_width,
                        g.sheet_height,
                    ] {
                        o.extend(w.to_be_bytes());
                    }
                    o.extend(image.to_be_bytes());
                    o.extend(&g.gap);
                    for s in &g.sheets {
                        o.extend(&s.data);
                    }
                    o.extend(&g.tail);
                }
                Block::Widths(w) => {
                    let n = range_len(w.index_begin, w.index_end);
                    if n != w.entries.len() {
                        return Err(invalid(what(&format!(
                            "indices {}..={} need {n} width entries, there are {}",
                            w.index_begin,
                            w.index_end,
                            w.entries.len()
                        ))));
                    }
                    o.extend(w.index_begin.to_be_bytes());
                    o.extend(w.index_end.to_be_bytes());
                    o.extend(ptr(w.next, &what("next pointer"))?.to_be_bytes());
                    for e in &w.entries {
                        o.extend(e.to_bytes());
                    }
                    o.extend(&w.tail);
                }
                Block::Map(m) => {
                    o.extend(m.code_begin.to_be_bytes());
                    o.extend(m.code_end.to_be_bytes());
                    o.extend(m.mapping.method().to_be_bytes());
                    o.extend(m.reserved.to_be_bytes());
                    o.extend(ptr(m.next, &what("next pointer"))?.to_be_bytes());
                    match &m.mapping {
                        Mapping::Direct { first } => o.extend(first.to_be_bytes()),
                        Mapping::Table { indices } => {
                            let n = range_len(m.code_begin, m.code_end);
                            if n != indices.len() {
                                return Err(invalid(what(&format!(
                                    "codes {:#x}..={:#x} need {n} table entries, there are {}",
                                    m.code_begin,
                                    m.code_end,
                                    indices.len()
                                ))));
                            }
                            for x in indices {
                                o.extend(x.to_be_bytes());
                            }
                        }
                        Mapping::Scan { entries } => {
                            let n = u16::try_from(entries.len())
                                .map_err(|_| overflow("scan entry count"))?;
                            o.extend(n.to_be_bytes());
                            for e in entries {
                                o.extend(e.code.to_be_bytes());
                                o.extend(e.index.to_be_bytes());
                            }
                        }
                        Mapping::Other { .. } => {}
                    }
                    o.extend(&m.tail);
                }
                Block::Raw(r) => {
                    if r.magic.0.len() != 4 {
                        return Err(invalid(what(&format!(
                            "magic {:?} is not 4 bytes",
                            r.magic
                        ))));
                    }
                    o.extend(&r.body);
                }
            }
            sections.push(section(&b.magic(), &o)?);
        }
        self.frame.write(MAGIC, &sections)
    }
}
