//! The validator: rule ids `BRFNT-001`… catalogued in `docs/rules/brfnt.md`. Errors are what
//! makes `ResFont::SetResource` refuse the font or the runtime read outside it; what it ignores
//! is a warning or info, never a parse error.

use brlyt::frame::SECTION_HEADER;
use gcio::{Diagnostic, Limits};

use crate::model::{Block, Brfnt, GLYPHS_SIZE, Link, Mapping, NOT_FOUND, range_len};
use crate::view::View;

/// Versions `ResFont::SetResource` accepts (1.4, else it checks for 1.2).
pub const VERSIONS: [u16; 2] = [0x0104, 0x0102];
/// Block kinds `ResFont::Rebuild` knows; any other makes it refuse the font.
pub const KNOWN_BLOCKS: [&[u8; 4]; 5] = [b"FINF", b"TGLP", b"CWDH", b"CMAP", b"GLGR"];

/// Validates a font. A file that does not parse gives one `BRFNT-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `BRFNT-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    let parsed =
        View::parse_with(data, limits).and_then(|v| Brfnt::from_view(&v, limits).map(|m| (v, m)));
    match parsed {
        Ok((v, m)) => validate_parsed(&v, &m),
        Err(e) => vec![Diagnostic::error("BRFNT-001", e.offset(), e.to_string())],
    }
}

/// Validates a parsed view (typing its blocks; a block that does not type gives `BRFNT-001`).
pub fn validate_view(v: &View<'_>) -> Vec<Diagnostic> {
    match Brfnt::from_view(v, &Limits::default()) {
        Ok(m) => validate_parsed(v, &m),
        Err(e) => vec![Diagnostic::error("BRFNT-001", e.offset(), e.to_string())],
    }
}

/// The findings on a view and its model.
fn validate_parsed(v: &View<'_>, m: &Brfnt) -> Vec<Diagnostic> {
    let f = &v.frame;
    let mut out = Vec::new();
    let at = |i: usize| v.frame.sections.get(i).map(|s| s.offset as u64);
    let data_at = |i: usize, off: usize| v.data_offset(i).map(|o| (o + off) as u64);
    if !VERSIONS.contains(&f.version) || f.file_size < 0x20 || f.sections.len() < 2 {
        out.push(Diagnostic::error(
            "BRFNT-002",
            Some(6),
            format!(
                "version {:#06x}, file size word {:#x}, {} blocks: the runtime takes versions 0x0104 and 0x0102 with a size word of at least 0x20 and 2 blocks or more",
                f.version,
                f.file_size,
                f.sections.len()
            ),
        ));
    }
    if f.file_size as usize != v.data.len() || !f.header_extra.is_empty() || !f.trailer.is_empty() {
        out.push(Diagnostic::info(
            "BRFNT-003",
            Some(8),
            format!(
                "file size word {:#x} for {:#x} bytes, {} header bytes past 0x10, {} bytes after the blocks (the runtime reads none of them; kept)",
                f.file_size,
                v.data.len(),
                f.header_extra.len(),
                f.trailer.len()
            ),
        ));
    }
    for (i, s) in f.sections.iter().enumerate() {
        if !KNOWN_BLOCKS.contains(&&s.magic) {
            out.push(Diagnostic::error(
                "BRFNT-004",
                Some(s.offset as u64),
                format!(
                    "block {i} `{}`: the runtime refuses a font with a block it does not know",
                    brlyt::json::Name(s.magic.to_vec())
                ),
            ));
        }
    }
    let Some((fi, info)) = m.info() else {
        out.push(Diagnostic::error(
            "BRFNT-005",
            None,
            "no FINF block: the runtime finds no font information",
        ));
        return out;
    };
    let kind_of = |l: Link| l.and_then(|i| m.blocks.get(i)).map(Block::magic);
    if kind_of(info.glyphs) != Some(*b"TGLP") {
        out.push(Diagnostic::error(
            "BRFNT-005",
            data_at(fi, 8),
            "the FINF's glyph pointer does not name a TGLP block (the runtime follows it unchecked)",
        ));
    }
    if m.blocks
        .iter()
        .filter(|b| matches!(b, Block::Info(_)))
        .count()
        > 1
    {
        out.push(Diagnostic::info(
            "BRFNT-020",
            at(fi),
            "more than one FINF block: the runtime uses the last",
        ));
    }
    if info.metrics.is_none() {
        out.push(Diagnostic::error(
            "BRFNT-008",
            at(fi),
            "the FINF ends before height, width and ascent, which the runtime reads",
        ));
    }
    lists(m, info.widths, info.maps, fi, &at, &data_at, &mut out);
    let glyphs = m.glyphs();
    let count = glyphs.map_or(0, |g| g.glyph_count());
    if let (Some(g), Some(gi)) = (glyphs, info.glyphs) {
        let tex = g.tex_format();
        if tex.is_none_or(|t| t.is_indexed()) || g.sheet_format & crate::model::COMPRESSED_FLAG != 0
        {
            out.push(Diagnostic::error(
                "BRFNT-009",
                data_at(gi, 0x0A),
                format!(
                    "sheet format {:#06x} is not a direct GX texture format (a resource font's sheets are not compressed)",
                    g.sheet_format
                ),
            ));
        }
        if let Some(t) = tex
            && let Ok(size) =
                gx::tex::level_size(t, u32::from(g.sheet_width), u32::from(g.sheet_height))
            && size != g.sheet_size as usize
        {
            out.push(Diagnostic::warning(
                "BRFNT-010",
                data_at(gi, 4),
                format!(
                    "sheet size {:#x}; a {}x{} {} texture takes {size:#x}",
                    g.sheet_size,
                    g.sheet_width,
                    g.sheet_height,
                    t.name().unwrap_or("?")
                ),
            ));
        }
        let image = v.data_offset(gi).map(|o| o + GLYPHS_SIZE + g.gap.len());
        if let Some(image) = image.filter(|o| o % 32 != 0) {
            out.push(Diagnostic::warning(
                "BRFNT-011",
                data_at(gi, 0x14),
                format!("sheet data at {image:#x} is not 32-byte aligned, as GX textures must be"),
            ));
        }
        if g.sheet_row == 0 || g.sheet_line == 0 {
            out.push(Diagnostic::error(
                "BRFNT-012",
                data_at(gi, 0x0C),
                format!(
                    "{} cells per row and {} rows: the runtime divides glyph indices by their product",
                    g.sheet_row, g.sheet_line
                ),
            ));
        } else if u32::from(g.sheet_row) * (u32::from(g.cell_width) + 1) > u32::from(g.sheet_width)
            || u32::from(g.sheet_line) * (u32::from(g.cell_height) + 1) > u32::from(g.sheet_height)
        {
            out.push(Diagnostic::warning(
                "BRFNT-013",
                data_at(gi, 0x0C),
                format!(
                    "{}x{} cells of {}x{} pixels (1 apart) pass the {}x{} sheet",
                    g.sheet_row,
                    g.sheet_line,
                    g.cell_width,
                    g.cell_height,
                    g.sheet_width,
                    g.sheet_height
                ),
            ));
        }
        if g.cells_per_sheet() != 0 && u64::from(info.alternate_index) >= count {
            out.push(Diagnostic::error(
                "BRFNT-014",
                data_at(fi, 2),
                format!(
                    "alternate glyph index {} is not one of the {count} glyphs (drawn for every unmapped code)",
                    info.alternate_index
                ),
            ));
        }
    }
    maps(m, count, glyphs.is_some(), &data_at, &mut out);
    padding(m, &at, &mut out);
    out
}

/// BRFNT-006/007/020: the lists' links name blocks of their kind, end, and hold every block.
fn lists(
    m: &Brfnt,
    widths: Link,
    maps: Link,
    fi: usize,
    at: &dyn Fn(usize) -> Option<u64>,
    data_at: &dyn Fn(usize, usize) -> Option<u64>,
    out: &mut Vec<Diagnostic>,
) {
    let mut listed = vec![false; m.blocks.len()];
    for (head, head_off, kind, name) in [
        (widths, 0x0C, *b"CWDH", "width"),
        (maps, 0x10, *b"CMAP", "code map"),
    ] {
        let (mut link, mut from) = (head, data_at(fi, head_off));
        while let Some(i) = link {
            let Some(b) = m.blocks.get(i).filter(|b| b.magic() == kind) else {
                out.push(Diagnostic::error(
                    "BRFNT-006",
                    from,
                    format!("a {name} list pointer names block {i}, which is not a {name} block"),
                ));
                break;
            };
            if std::mem::replace(listed.get_mut(i).unwrap_or(&mut true), true) {
                out.push(Diagnostic::warning(
                    "BRFNT-007",
                    from,
                    format!(
                        "the {name} list comes back to block {i}: the runtime loops for ever on a code or index no block covers"
                    ),
                ));
                break;
            }
            (link, from) = match b {
                Block::Widths(w) => (w.next, data_at(i, 4)),
                Block::Map(c) => (c.next, data_at(i, 8)),
                _ => (None, None),
            };
        }
    }
    for (i, b) in m.blocks.iter().enumerate() {
        if matches!(b, Block::Widths(_) | Block::Map(_)) && listed.get(i) == Some(&false) {
            out.push(Diagnostic::info(
                "BRFNT-020",
                at(i),
                format!("block {i} is in no list the FINF starts: the runtime never reads it"),
            ));
        }
    }
}

/// BRFNT-015…018: the code maps of the list.
fn maps(
    m: &Brfnt,
    count: u64,
    has_glyphs: bool,
    data_at: &dyn Fn(usize, usize) -> Option<u64>,
    out: &mut Vec<Diagnostic>,
) {
    let index_of = |c: &crate::CodeMap| {
        m.blocks
            .iter()
            .position(|b| matches!(b, Block::Map(x) if std::ptr::eq(x, c)))
            .unwrap_or(0)
    };
    let mut earlier: Vec<(u16, u16)> = Vec::new();
    for c in m.code_maps() {
        let i = index_of(c);
        if c.code_end < c.code_begin
            || earlier
                .iter()
                .any(|&(b, e)| b <= c.code_begin && c.code_end <= e)
        {
            out.push(Diagnostic::warning(
                "BRFNT-017",
                data_at(i, 0),
                format!(
                    "codes {:#x}..={:#x}: an empty range, or inside an earlier code map's, which decides them all",
                    c.code_begin, c.code_end
                ),
            ));
        }
        earlier.push((c.code_begin, c.code_end));
        let past = |x: u16| has_glyphs && x != NOT_FOUND && u64::from(x) >= count;
        let bad = match &c.mapping {
            Mapping::Direct { first } => {
                let last = u32::from(*first) + range_len(c.code_begin, c.code_end) as u32;
                has_glyphs && range_len(c.code_begin, c.code_end) > 0 && u64::from(last) > count
            }
            Mapping::Table { indices } => indices.iter().any(|&x| past(x)),
            Mapping::Scan { entries } => {
                if entries
                    .windows(2)
                    .any(|w| matches!(w, [a, b] if a.code >= b.code))
                {
                    out.push(Diagnostic::warning(
                        "BRFNT-016",
                        data_at(i, 0x0C),
                        "scan entries not in ascending code order: the runtime's bisection misses codes",
                    ));
                }
                entries.iter().any(|e| past(e.index))
            }
            Mapping::Other { method } => {
                out.push(Diagnostic::warning(
                    "BRFNT-018",
                    data_at(i, 4),
                    format!(
                        "mapping method {method}: the runtime knows 0 (direct), 1 (table) and 2 (scan) and maps no code through it"
                    ),
                ));
                false
            }
        };
        if bad {
            out.push(Diagnostic::warning(
                "BRFNT-015",
                data_at(i, 0x0C),
                format!("a code maps to a glyph index past the font's {count} glyphs"),
            ));
        }
    }
}

/// BRFNT-019: non-zero bytes where the layout has padding (kept).
fn padding(m: &Brfnt, at: &dyn Fn(usize) -> Option<u64>, out: &mut Vec<Diagnostic>) {
    let nz = |b: &[u8]| b.iter().any(|&x| x != 0);
    for (i, b) in m.blocks.iter().enumerate() {
        let dirty = match b {
            Block::Info(x) => nz(&x.tail) || x.metrics.is_some_and(|m| m.pad != 0),
            Block::Glyphs(g) => nz(&g.gap) || nz(&g.tail),
            Block::Widths(w) => nz(&w.tail),
            Block::Map(c) => {
                (!matches!(c.mapping, Mapping::Other { .. }) && nz(&c.tail)) || c.reserved != 0
            }
            Block::Raw(_) => false,
        };
        if dirty {
            out.push(Diagnostic::info(
                "BRFNT-019",
                at(i).map(|o| o + SECTION_HEADER as u64),
                format!("block {i}: non-zero padding or reserved bytes, kept"),
            ));
        }
    }
}
