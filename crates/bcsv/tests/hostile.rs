//! Hostile input: every structural lie is an error with a file offset, never a panic or a huge
//! allocation.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use bcsv::{FieldType, Table, Value, parse};

fn be(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_be_bytes()).collect()
}

/// A valid one-field (STRING_OFFSET) one-row table: header, field, row, pool "ab\0", padding.
fn base() -> Vec<u8> {
    let mut t = Table::new(&[("name", FieldType::STRING_OFFSET)]);
    let r = t.push_default_row();
    t.set(r, "name", Value::StringOffset(b"ab".to_vec()))
        .unwrap();
    t.write().unwrap()
}

fn err(data: &[u8]) -> String {
    let e = Table::parse(data).unwrap_err();
    assert!(e.offset().is_some(), "{e}");
    e.to_string()
}

#[test]
fn base_is_valid() {
    let d = base();
    assert_eq!(&d[..16], &be(&[1, 1, 0x1C, 4])[..]);
    assert_eq!(Table::parse(&d).unwrap().write().unwrap(), d);
}

#[test]
fn counts_and_sizes() {
    // Negative row count.
    let mut d = base();
    d[..4].copy_from_slice(&0x8000_0000u32.to_be_bytes());
    assert!(err(&d).contains("negative entry count"));
    // count × size overflowing 32 bits and past the end.
    let mut d = base();
    d[..4].copy_from_slice(&0x7FFF_FFFFu32.to_be_bytes());
    d[12..16].copy_from_slice(&0xFFFF_FFFCu32.to_be_bytes());
    let e = err(&d);
    assert!(e.contains("past end") || e.contains("overflow"), "{e}");
    // Field table past the end.
    let mut d = base();
    d[4..8].copy_from_slice(&0x0100_0000u32.to_be_bytes());
    assert!(err(&d).contains("field table"));
    // Data offset inside the field table.
    let mut d = base();
    d[8..12].copy_from_slice(&0x10u32.to_be_bytes());
    assert!(err(&d).contains("BCSV-001"));
    // Data offset past the end.
    let mut d = base();
    d[8..12].copy_from_slice(&0xFFFF_0000u32.to_be_bytes());
    assert!(err(&d).contains("past end"));
    // Entry size 0 with rows.
    let mut d = base();
    d[12..16].copy_from_slice(&0u32.to_be_bytes());
    assert!(err(&d).contains("entry size 0"));
    // Truncated header.
    assert!(Table::parse(&d[..10]).is_err());
    assert!(Table::parse(&[]).is_err());
}

#[test]
fn fields_and_strings() {
    // Field past the entry size (offset 2 + 4 > 4).
    let mut d = base();
    d[0x18..0x1A].copy_from_slice(&2u16.to_be_bytes());
    let e = err(&d);
    assert!(e.contains("BCSV-003") && e.contains("0x18"), "{e}");
    // Unknown type 7.
    let mut d = base();
    d[0x1B] = 7;
    assert!(err(&d).contains("BCSV-004"));
    // String offset outside the pool.
    let mut d = base();
    d[0x1C..0x20].copy_from_slice(&0x1000u32.to_be_bytes());
    let e = err(&d);
    assert!(e.contains("BCSV-005") && e.contains("past end"), "{e}");
    // Unterminated string (pool without NUL up to the end).
    let mut d = base();
    let n = d.len();
    d[0x20..n].fill(b'x');
    assert!(err(&d).contains("no terminator"));
    // The view parses lazily: the same file opens, the bad cell fails on read.
    let view = parse(&d).unwrap();
    assert!(view.row(0).unwrap().get_bytes("name").is_err());
    assert!(!bcsv::validate(&d).is_empty());
}

#[test]
fn cell_count_is_bounded() {
    // 4000 CHAR fields all at offset 0 of a 4-byte entry, and as many rows as the file holds:
    // the cell count grows quadratically, so Limits refuse it before allocating.
    let fields = 4000u32;
    let rows = 40_000u32;
    let mut d = be(&[rows, fields, 0x10 + 12 * fields, 4]);
    for _ in 0..fields {
        d.extend(be(&[0, 0xFF, 5]));
    }
    d.resize(d.len() + (rows * 4) as usize, 0);
    let e = Table::parse(&d).unwrap_err().to_string();
    assert!(e.contains("limit"), "{e}");
}

#[test]
fn signed_reads_follow_the_game() {
    let data = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/bcsv/packed_bits.bcsv"
    ));
    let mut t = Table::new(&[
        ("SW_A", FieldType::SHORT),
        ("ShapeModelNo", FieldType::CHAR),
    ]);
    t.fields[0].mask = 0x0F;
    let r = t.push_default_row();
    t.set(r, "SW_A", Value::Short(9)).unwrap();
    t.set(r, "ShapeModelNo", Value::Char(-2)).unwrap();
    let bytes = t.write().unwrap();
    let view = parse(&bytes).unwrap();
    let row = view.row(0).unwrap();
    assert_eq!(row.get_u32("SW_A").unwrap(), 9);
    let e = row.get_i32("SW_A").unwrap_err().to_string();
    assert!(e.contains("BCSV-012"), "{e}");
    assert_eq!(row.get_i32("ShapeModelNo").unwrap(), -2);
    assert_eq!(row.get_u32("ShapeModelNo").unwrap(), 254);
    assert!(row.get_f32("ShapeModelNo").is_err());
    assert!(
        row.get_i32("nope")
            .unwrap_err()
            .to_string()
            .contains("no field")
    );
    if let Ok(d) = data {
        let v = parse(&d).unwrap();
        let r = v.row(0).unwrap();
        assert_eq!(r.get_u32("Sound_code").unwrap(), 66);
        assert!(r.get_i32("Sound_code").is_err());
        assert_eq!(r.get_i32("l_id").unwrap(), 1567679309);
    }
}
