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
    t.set(r, "name", Value::StringOffset(b"ab".into())).unwrap();
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
    let diags = bcsv::validate(&d);
    assert!(
        diags.iter().any(|d| d.message.contains("limit")),
        "{diags:?}"
    );
}

#[test]
fn signed_reads_follow_the_game() {
    // The corpus's packed table, when the corpus is present (then it must read).
    let data = gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "bcsv",
        "bcsv packed signed reads",
    )
    .map(|d| std::fs::read(d.join("packed_bits.bcsv")).unwrap());
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
    if let Some(d) = data {
        let v = parse(&d).unwrap();
        let r = v.row(0).unwrap();
        assert_eq!(r.get_u32("Sound_code").unwrap(), 66);
        assert!(r.get_i32("Sound_code").is_err());
        assert_eq!(r.get_i32("l_id").unwrap(), 1567679309);
    }
}

/// Tool-written pools (column-major order, no dedup, unreferenced strings) are kept as stored
/// (BCSV-006) and survive CSV and JSON.
#[test]
fn stored_pools_survive() {
    let mut t = Table::new(&[
        ("name", FieldType::STRING_OFFSET),
        ("l_id", FieldType::LONG),
    ]);
    for s in ["a", "a", "bc"] {
        let r = t.push_default_row();
        t.set(r, "name", Value::StringOffset(s.into())).unwrap();
    }
    // No dedup and reverse order, plus an unreferenced string: "bc\0a\0a\0zz\0".
    t.stored_pool = Some(b"bc\0a\0a\0zz\0".to_vec());
    t.set_string_offsets(0, vec![3]);
    t.set_string_offsets(1, vec![5]);
    t.set_string_offsets(2, vec![0]);
    let bytes = t.write().unwrap();
    let back = Table::parse(&bytes).unwrap();
    assert!(back.stored_pool.is_some());
    assert!(
        bcsv::validate(&bytes).iter().any(|d| d.rule == "BCSV-006"),
        "{:?}",
        bcsv::validate(&bytes)
    );
    assert_eq!(back.write().unwrap(), bytes);
    let csv = bcsv::to_csv(&back);
    assert!(csv.starts_with("#bcsv "), "{csv}");
    assert_eq!(bcsv::from_csv(&csv).unwrap().write().unwrap(), bytes);
    let json = bcsv::to_json(&back);
    assert_eq!(bcsv::from_json(&json).unwrap().write().unwrap(), bytes);
    // Editing a string appends it after the stored bytes; the rest keep their offsets.
    let mut edited = back.clone();
    edited
        .set(1, "name", Value::StringOffset(b"new".into()))
        .unwrap();
    let e = Table::parse(&edited.write().unwrap()).unwrap();
    assert_eq!(e.get(1, "name"), Some(&Value::StringOffset(b"new".into())));
    assert_eq!(e.get(0, "name"), Some(&Value::StringOffset(b"a".into())));
}

/// Odd tails (16-byte padding, zeros) and a gap before the rows are kept.
#[test]
fn tails_and_gaps_survive() {
    let mut t = Table::new(&[("l_id", FieldType::LONG)]);
    t.push_default_row();
    t.tail = bcsv::Tail::Raw(vec![0x40; 4]);
    t.header_gap = vec![1, 2, 3, 4];
    let bytes = t.write().unwrap();
    let back = Table::parse(&bytes).unwrap();
    assert_eq!(back.tail, bcsv::Tail::Raw(vec![0x40; 4]));
    assert_eq!(back.header_gap, [1, 2, 3, 4]);
    assert_eq!(
        bcsv::from_csv(&bcsv::to_csv(&back))
            .unwrap()
            .write()
            .unwrap(),
        bytes
    );
    let rules: Vec<_> = bcsv::validate(&bytes).into_iter().map(|d| d.rule).collect();
    assert!(
        rules.contains(&"BCSV-001".to_owned()) && rules.contains(&"BCSV-007".to_owned()),
        "{rules:?}"
    );
}

#[test]
fn declared_entry_sizes_are_bounded() {
    // Text tables declare the entry size: rows × entry_size past `Limits` is an error, not a
    // multi-gigabyte allocation.
    let json = serde_json::json!({
        "endian": "big", "entry_size": 1u64 << 30,
        "fields": [{"name": "a", "type": "LONG", "offset": 0}],
        "rows": [[1], [2], [3]],
    });
    let e = bcsv::from_json(&json).unwrap().write().unwrap_err();
    assert!(e.to_string().contains("allocation"), "{e}");
    let csv = "#bcsv entry_size=1073741824\na:Int\n1\n2\n3\n";
    let e = bcsv::from_csv(csv).unwrap().write().unwrap_err();
    assert!(e.to_string().contains("allocation"), "{e}");
}

/// `Table::write_with` bounds the row block by the caller's limits: a sample table writes under
/// the defaults and is refused with a limit error under tiny ones.
#[test]
fn write_honours_the_callers_limits() {
    let (name, bytes) = bcsv::build::samples().into_iter().next().unwrap();
    let table = bcsv::Table::parse(&bytes).unwrap();
    assert_eq!(
        table.write_with(&gcio::Limits::default()).unwrap(),
        bytes,
        "{name}"
    );
    let tiny = gcio::Limits {
        max_alloc_bytes: 1,
        ..gcio::Limits::default()
    };
    let e = table.write_with(&tiny).unwrap_err();
    assert!(
        matches!(e.kind(), gcio::ErrorKind::Limit { .. }),
        "{name}: {e}"
    );
}
