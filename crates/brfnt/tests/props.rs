//! Properties over generated fonts: any font the model can hold writes, parses back equal and
//! survives JSON; table and scan lookups give what their entries say (a sorted scan finds every
//! code, as the runtime's bisection does); edits of the bytes never panic.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use brfnt::{Block, Brfnt, CharWidths, Mapping, ScanEntry, build};
use proptest::prelude::*;

/// The latin font with its table map's indices, its scan entries, its first width table and the
/// block tails replaced.
fn font(
    table: Vec<u16>,
    scan: Vec<(u16, u16)>,
    widths: Vec<(i8, u8, i8)>,
    tails: (Vec<u8>, Vec<u8>),
) -> Brfnt {
    let mut f = build::latin();
    if let Block::Map(m) = &mut f.blocks[5] {
        m.code_end = m.code_begin + table.len() as u16 - 1;
        m.mapping = Mapping::Table { indices: table };
        m.tail = tails.0;
    }
    if let Block::Map(m) = &mut f.blocks[6] {
        m.code_end = 0x3100;
        m.mapping = Mapping::Scan {
            entries: scan
                .into_iter()
                .map(|(code, index)| ScanEntry { code, index })
                .collect(),
        };
    }
    if let Block::Widths(w) = &mut f.blocks[2] {
        w.index_end = w.index_begin + widths.len() as u16 - 1;
        w.entries = widths
            .into_iter()
            .map(|(left, glyph_width, char_width)| CharWidths {
                left,
                glyph_width,
                char_width,
            })
            .collect();
        w.tail = tails.1;
    }
    f
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fonts_round_trip(
        table in prop::collection::vec(any::<u16>(), 1..40),
        scan in prop::collection::vec((any::<u16>(), any::<u16>()), 0..40),
        widths in prop::collection::vec(any::<(i8, u8, i8)>(), 1..40),
        tails in (prop::collection::vec(any::<u8>(), 0..6), prop::collection::vec(any::<u8>(), 0..6)),
    ) {
        let f = font(table, scan, widths, tails);
        let bytes = f.write().unwrap();
        prop_assert_eq!(&Brfnt::parse(&bytes).unwrap(), &f);
        let back = brfnt::from_json(&brfnt::to_json(&f).unwrap()).unwrap();
        prop_assert_eq!(back.write().unwrap(), bytes.clone());
        let _ = brfnt::validate(&bytes);
    }

    #[test]
    fn table_and_scan_lookups(
        table in prop::collection::vec(0u16..24, 1..6),
        codes in prop::collection::btree_map(0x3000u16..0x3100, 0u16..24, 1..30),
    ) {
        let scan: Vec<(u16, u16)> = codes.iter().map(|(&c, &i)| (c, i)).collect();
        let f = font(table.clone(), scan, vec![(0, 1, 2)], (vec![], vec![]));
        for (i, &idx) in table.iter().enumerate() {
            let g = f.glyph(0x61 + i as u32).unwrap();
            prop_assert_eq!(g.index, idx);
        }
        for (&code, &idx) in &codes {
            prop_assert_eq!(f.glyph(u32::from(code)).unwrap().index, idx);
        }
        // A code between the scan's entries is the alternate glyph.
        let missing = (0x3000u16..0x3100).find(|c| !codes.contains_key(c)).unwrap();
        prop_assert!(f.glyph(u32::from(missing)).unwrap().alternate);
    }

    #[test]
    fn edited_bytes_never_panic(at in 0usize..0x50C, v in any::<u8>(), cut in 0usize..0x50C) {
        let mut b = build::latin().write().unwrap();
        b[at] = v;
        brfnt::fuzz_brfnt(&b);
        brfnt::fuzz_brfnt(&b[..cut]);
    }
}
