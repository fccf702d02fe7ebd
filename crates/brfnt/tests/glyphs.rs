//! Golden tables computed by hand from the documented layout: where the writer puts every block
//! and pointer of the built fonts, and what the runtime's lookup gives for chosen codes (index,
//! sheet, cell position, widths), checked against the decoded sheets' pixels.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use brfnt::{Brfnt, CharWidths, build};

fn word(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// (offset, magic, size) of each block, and the pointer words, by hand: FINF 0x20 bytes at 0x10;
/// TGLP at 0x30 (0x20 of fields, 0x10 gap, 2 × 0x200 sheet bytes); CWDH 0..9 (8 + 8 + 30 → 48);
/// CWDH 15..17 (8 + 8 + 9 → 28); CMAP direct (8 + 12 + 2 → 24), table (8 + 12 + 12 = 32),
/// scan (8 + 12 + 2 + 16 → 40).
#[test]
fn latin_layout() {
    let b = build::latin().write().unwrap();
    assert_eq!(
        &b[..16],
        b"RFNT\xfe\xff\x01\x04\x00\x00\x05\x0c\x00\x10\x00\x07"
    );
    let blocks = [
        (0x10, b"FINF", 0x20),
        (0x30, b"TGLP", 0x430),
        (0x460, b"CWDH", 0x30),
        (0x490, b"CWDH", 0x1C),
        (0x4AC, b"CMAP", 0x18),
        (0x4C4, b"CMAP", 0x20),
        (0x4E4, b"CMAP", 0x28),
    ];
    for (at, magic, size) in blocks {
        assert_eq!(&b[at..at + 4], magic, "{at:#x}");
        assert_eq!(word(&b, at + 4), size, "{at:#x}");
    }
    assert_eq!(b.len(), 0x50C);
    // FINF: type 1, line feed 9, alternate 17, default widths 0/6/7, UTF-16.
    assert_eq!(&b[0x18..0x20], &[1, 9, 0, 17, 0, 6, 7, 1]);
    // pGlyph, pWidth, pMap: block offsets + 8; then height, width, ascent, pad.
    assert_eq!(
        [word(&b, 0x20), word(&b, 0x24), word(&b, 0x28)],
        [0x38, 0x468, 0x4B4]
    );
    assert_eq!(&b[0x2C..0x30], &[8, 6, 6, 0]);
    // TGLP: cells 6x7, baseline 6, max width 7, sheet 0x200 bytes, 2 sheets, I4, 4x3, 32x32,
    // sheets at 0x60 (32-byte aligned).
    assert_eq!(&b[0x38..0x3C], &[6, 7, 6, 7]);
    assert_eq!(word(&b, 0x3C), 0x200);
    assert_eq!(&b[0x40..0x4C], &[0, 2, 0, 0, 0, 4, 0, 3, 0, 32, 0, 32]);
    assert_eq!(word(&b, 0x4C), 0x60);
    // Width list: 0..=9 then 15..=17, next of the first = 0x498.
    assert_eq!(&b[0x468..0x46C], &[0, 0, 0, 9]);
    assert_eq!(word(&b, 0x46C), 0x498);
    assert_eq!(word(&b, 0x49C), 0);
    // Code maps: direct 0x41..=0x4A from 0 → table → scan (4 entries).
    assert_eq!(&b[0x4B4..0x4B8], &[0, 0x41, 0, 0x4A]);
    assert_eq!(word(&b, 0x4B8), 0);
    assert_eq!(word(&b, 0x4BC), 0x4CC);
    assert_eq!(&b[0x4CC..0x4D0], &[0, 0x61, 0, 0x66]);
    assert_eq!(word(&b, 0x4D0), 1 << 16);
    assert_eq!(word(&b, 0x4D4), 0x4EC);
    assert_eq!(&b[0x4EC..0x4F0], &[0, 0x20, 0x30, 0xA2]);
    assert_eq!(word(&b, 0x4F0), 2 << 16);
    assert_eq!(&b[0x4F8..0x4FC], &[0, 4, 0, 0x20]);
}

fn cw(left: i8, glyph_width: u8, char_width: i8) -> CharWidths {
    CharWidths {
        left,
        glyph_width,
        char_width,
    }
}

/// (code, index, alternate, sheet, x, y, widths) by hand: 12 cells per sheet (4 per row), cells
/// 6x7 one pixel apart from (1, 1): cell c is at (1 + 7·(c % 4), 1 + 8·(c / 4)).
#[test]
fn latin_lookup() {
    let font = build::latin();
    let golden: [(u32, u16, bool, usize, u32, u32, CharWidths); 12] = [
        ('A' as u32, 0, false, 0, 1, 1, cw(0, 5, 6)),
        ('E' as u32, 4, false, 0, 1, 9, cw(0, 5, 7)),
        ('J' as u32, 9, false, 0, 8, 17, cw(1, 5, 6)),
        ('a' as u32, 10, false, 0, 15, 17, cw(0, 6, 7)),
        ('b' as u32, 11, false, 0, 22, 17, cw(0, 6, 7)),
        ('c' as u32, 17, true, 1, 8, 9, cw(0, 6, 8)),
        ('f' as u32, 12, false, 1, 1, 1, cw(0, 6, 7)),
        (' ' as u32, 15, false, 1, 22, 1, cw(0, 4, 5)),
        ('.' as u32, 16, false, 1, 1, 9, cw(1, 2, 4)),
        (0x3042, 20, false, 1, 1, 17, cw(0, 6, 7)),
        (0x30A2, 23, false, 1, 22, 17, cw(0, 6, 7)),
        // Inside the scan map's range (0x20..=0x30A2) but not listed: the map decides, no glyph.
        ('Z' as u32, 17, true, 1, 8, 9, cw(0, 6, 8)),
    ];
    let sheets = [font.sheet_rgba(0).unwrap(), font.sheet_rgba(1).unwrap()];
    for (code, index, alternate, sheet, x, y, widths) in golden {
        let g = font.glyph(code).unwrap();
        assert_eq!(
            (g.index, g.alternate, g.sheet, g.x, g.y, g.widths),
            (index, alternate, sheet, x, y, widths),
            "code {code:#x}"
        );
        assert_eq!((g.width, g.height), (6, 7));
        // The cell's corners hold the glyph's level, the pixel before it the border.
        let level = build::cell_level(u32::from(index)) * 17;
        for (px, py) in [(x, y), (x + 5, y + 6)] {
            assert_eq!(
                sheets[sheet].pixel(px, py).unwrap(),
                [level; 4],
                "{code:#x}"
            );
        }
        assert_eq!(sheets[sheet].pixel(x - 1, y).unwrap(), [0; 4], "{code:#x}");
    }
    // A 17-bit code reaches no glyph; codes outside every range take the alternate.
    assert_eq!(font.glyph(0x1_0041), None);
    assert_eq!(font.glyph(0x10).unwrap().index, 17);
    assert_eq!(font.find_index('c' as u16), 0xFFFF);
}

#[test]
fn badge_lookup() {
    let font = build::badge();
    // 2 cells per row of 10x12: cell c at (1 + 11·(c % 2), 1 + 13·(c / 2)); default widths.
    let sheet = font.sheet_rgba(0).unwrap();
    for (code, index, alternate, x, y) in [
        ('A', 0, false, 1, 1),
        ('B', 1, false, 12, 1),
        ('C', 3, false, 12, 14),
        ('D', 2, true, 1, 14),
    ] {
        let g = font.glyph(code as u32).unwrap();
        assert_eq!(
            (g.index, g.alternate, g.sheet, g.x, g.y),
            (index, alternate, 0, x, y)
        );
        assert_eq!(g.widths, cw(1, 10, 11));
        let level = build::cell_level(u32::from(index)) * 17;
        assert_eq!(sheet.pixel(x, y).unwrap(), [level, level, level, 0xFF]);
    }
    let b = font.write().unwrap();
    assert_eq!(&b[4..8], b"\xfe\xff\x01\x02");
    assert_eq!(Brfnt::parse(&b).unwrap(), font);
}

/// Lookups through lists that loop end (the runtime would not).
#[test]
fn looping_lists_end() {
    let mut font = build::latin();
    if let brfnt::Block::Map(m) = &mut font.blocks[6] {
        m.next = Some(4);
    }
    if let brfnt::Block::Widths(w) = &mut font.blocks[3] {
        w.next = Some(2);
    }
    let back = Brfnt::parse(&font.write().unwrap()).unwrap();
    assert_eq!(back.glyph(0x7E).unwrap().index, 17);
    assert_eq!(back.widths_of(20), cw(0, 6, 7));
}

/// A sheet replaced by an edited image: the glyph's cell reads the new level, the font's other
/// bytes stay; the unchanged image leaves the font as it was.
#[test]
fn sheet_replaced_from_rgba() {
    let mut font = build::latin();
    let bytes = font.write().unwrap();
    let same = font.sheet_rgba(1).unwrap();
    font.set_sheet_rgba(1, &same).unwrap();
    assert_eq!(font.write().unwrap(), bytes);
    let g = font.glyph('f' as u32).unwrap();
    let edited = gx::tex::Image::from_fn(32, 32, |x, y| {
        let v = if (x, y) == (g.x, g.y) {
            0xFF
        } else {
            same.pixel(x, y).unwrap()[0]
        };
        [v; 4]
    })
    .unwrap();
    font.set_sheet_rgba(1, &edited).unwrap();
    assert_eq!(font.sheet_rgba(1).unwrap(), edited);
    let after = font.write().unwrap();
    assert_eq!(after.len(), bytes.len());
    // The cell at (1, 1) of sheet 1: row 1 of the first 8x8 I4 block (4 bytes a row), pixel 1 of
    // its first byte (the low nibble).
    let at = 0x60 + 0x200 + 4;
    assert_eq!(after[at] & 0xF, 0xF);
    let diff: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] != after[i]).collect();
    assert_eq!(diff, [at]);
    assert!(
        font.set_sheet_rgba(0, &gx::tex::Image::filled(8, 8, [0; 4]).unwrap())
            .is_err()
    );
}
