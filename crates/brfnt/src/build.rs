//! Builders of fonts for tests, samples and benches, laid out as the NW4R font converter lays
//! real fonts out (from the documented layout; no real font is shared): header, FINF, TGLP with
//! its sheets 32-byte aligned, then the CWDH and CMAP blocks, each padded to 4 bytes.
//!
//! Every glyph's cell is filled with one intensity (I4: glyph index % 15 + 1, in steps of 17;
//! IA4: the same with alpha 0xFF), its border 0, so a test reads the glyph it looked up back off
//! the decoded sheet.

use brlyt::frame::Frame;
use gx::tex::{Image, TexFormat};

use crate::model::{
    Block, Brfnt, CharWidths, CodeMap, GLYPHS_SIZE, Glyphs, Info, Mapping, Metrics, NOT_FOUND,
    ScanEntry, Sheet, Widths,
};

/// Bytes of zero padding that take `len` to a multiple of 4.
fn pad4(len: usize) -> Vec<u8> {
    vec![0; (4 - len % 4) % 4]
}

/// Cell geometry and sheets of a font: `(cell width, cell height, cells per row, rows,
/// sheet width, sheet height, format, sheet count)`.
type Geometry = (u8, u8, u16, u16, u16, u16, TexFormat, usize);

/// The intensity (0–15) a glyph's cell is filled with.
pub fn cell_level(index: u32) -> u8 {
    (index % 15) as u8 + 1
}

/// The TGLP of `geo`, its sheets drawn (every cell its glyph's level), placed right after a
/// 0x20-byte FINF so its sheets start 32-byte aligned.
fn glyph_block(geo: Geometry, baseline: i8, max_char_width: u8) -> Glyphs {
    let (cw, ch, row, line, w, h, format, count) = geo;
    let per_sheet = u32::from(row) * u32::from(line);
    let sheets: Vec<Sheet> = (0..count as u32)
        .map(|s| {
            let img = Image::from_fn(u32::from(w), u32::from(h), |x, y| {
                let (cx, cy) = (x / (u32::from(cw) + 1), y / (u32::from(ch) + 1));
                let inside = x % (u32::from(cw) + 1) != 0
                    && y % (u32::from(ch) + 1) != 0
                    && cx < u32::from(row)
                    && cy < u32::from(line);
                let v = if inside {
                    cell_level(s * per_sheet + cy * u32::from(row) + cx) * 17
                } else {
                    0
                };
                [v, v, v, if format == TexFormat::IA4 { 0xFF } else { v }]
            })
            .and_then(|img| gx::tex::encode(format, &img))
            .unwrap_or_default();
            Sheet { data: img }
        })
        .collect();
    // FINF block at 0x10 (0x20 bytes), TGLP data at 0x38: fields end at 0x50.
    let fields_end = 0x38 + GLYPHS_SIZE;
    Glyphs {
        cell_width: cw,
        cell_height: ch,
        baseline,
        max_char_width,
        sheet_size: sheets.first().map_or(0, |s| s.data.len() as u32),
        sheet_format: u16::from(format.0),
        sheet_row: row,
        sheet_line: line,
        sheet_width: w,
        sheet_height: h,
        gap: vec![0; (32 - fields_end % 32) % 32],
        sheets,
        tail: Vec::new(),
    }
}

fn widths(begin: u16, entries: Vec<CharWidths>, next: Option<usize>) -> Block {
    let tail = pad4(8 + 8 + entries.len() * 3);
    Block::Widths(Widths {
        index_begin: begin,
        index_end: begin + entries.len() as u16 - 1,
        next,
        entries,
        tail,
    })
}

fn map(begin: u16, end: u16, mapping: Mapping, next: Option<usize>) -> Block {
    let data = match &mapping {
        Mapping::Direct { .. } => 2,
        Mapping::Table { indices } => indices.len() * 2,
        Mapping::Scan { entries } => 2 + entries.len() * 4,
        Mapping::Other { .. } => 0,
    };
    Block::Map(CodeMap {
        code_begin: begin,
        code_end: end,
        reserved: 0,
        next,
        mapping,
        tail: pad4(8 + 0x0C + data),
    })
}

fn w(left: i8, glyph_width: u8, char_width: i8) -> CharWidths {
    CharWidths {
        left,
        glyph_width,
        char_width,
    }
}

/// A font of two I4 sheets (32×32, 4×3 cells of 6×7: 24 glyphs), version 1.4, with a CMAP of
/// each kind: direct `A`…`J` → 0…9, table `a`…`f` → 10, 11, none, 13, 14, 12, scan
/// (space → 15, `.` → 16, U+3042 → 20, U+30A2 → 23); alternate glyph 17; widths for 0…9
/// (left `i % 2`, glyph 5, advance `6 + i % 3`) and 15…17 (0, 4, 5 / 1, 2, 4 / 0, 6, 8),
/// default (0, 6, 7).
pub fn latin() -> Brfnt {
    let scan = vec![
        ScanEntry {
            code: 0x20,
            index: 15,
        },
        ScanEntry {
            code: 0x2E,
            index: 16,
        },
        ScanEntry {
            code: 0x3042,
            index: 20,
        },
        ScanEntry {
            code: 0x30A2,
            index: 23,
        },
    ];
    Brfnt {
        frame: Frame {
            version: 0x0104,
            ..Frame::default()
        },
        blocks: vec![
            Block::Info(Info {
                font_type: 1,
                line_feed: 9,
                alternate_index: 17,
                default_widths: w(0, 6, 7),
                encoding: 1,
                glyphs: Some(1),
                widths: Some(2),
                maps: Some(4),
                metrics: Some(Metrics {
                    height: 8,
                    width: 6,
                    ascent: 6,
                    pad: 0,
                }),
                tail: Vec::new(),
            }),
            Block::Glyphs(glyph_block((6, 7, 4, 3, 32, 32, TexFormat::I4, 2), 6, 7)),
            widths(
                0,
                (0..10).map(|i| w(i % 2, 5, 6 + i % 3)).collect(),
                Some(3),
            ),
            widths(15, vec![w(0, 4, 5), w(1, 2, 4), w(0, 6, 8)], None),
            map(0x41, 0x4A, Mapping::Direct { first: 0 }, Some(5)),
            map(
                0x61,
                0x66,
                Mapping::Table {
                    indices: vec![10, 11, NOT_FOUND, 13, 14, 12],
                },
                Some(6),
            ),
            map(0x20, 0x30A2, Mapping::Scan { entries: scan }, None),
        ],
    }
}

/// A font of one IA4 sheet (24×28, 2×2 cells of 10×12: 4 glyphs), version 1.2, no width list
/// (every glyph has the default widths 1, 10, 11), one scan CMAP (`A` → 0, `B` → 1, `C` → 3),
/// alternate glyph 2.
pub fn badge() -> Brfnt {
    let entries = [(0x41, 0), (0x42, 1), (0x43, 3)]
        .map(|(code, index)| ScanEntry { code, index })
        .to_vec();
    Brfnt {
        frame: Frame {
            version: 0x0102,
            ..Frame::default()
        },
        blocks: vec![
            Block::Info(Info {
                font_type: 1,
                line_feed: 14,
                alternate_index: 2,
                default_widths: w(1, 10, 11),
                encoding: 1,
                glyphs: Some(1),
                widths: None,
                maps: Some(2),
                metrics: Some(Metrics {
                    height: 12,
                    width: 10,
                    ascent: 10,
                    pad: 0,
                }),
                tail: Vec::new(),
            }),
            Block::Glyphs(glyph_block(
                (10, 12, 2, 2, 24, 28, TexFormat::IA4, 1),
                10,
                11,
            )),
            map(0x41, 0x43, Mapping::Scan { entries }, None),
        ],
    }
}

/// The samples' bytes (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    [("latin.brfnt", latin()), ("badge.brfnt", badge())]
        .into_iter()
        .filter_map(|(n, f)| f.write().ok().map(|b| (n.to_owned(), b)))
        .collect()
}
