//! Packed fields hold `0..=mask >> shift` (read unsigned, as the game's `(raw & mask) >> shift`):
//! a value inside round-trips through the model, CSV and JSON; a value outside (200 in a 7-bit
//! field, a negative one) is an error naming the row, the column and the allowed range, on every
//! path (`Table::set`, the writer, CSV and JSON import), never a silent truncation. And masked
//! string-offset columns read their strings through the mask and shift (view, column, model).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use bcsv::{Field, FieldType, Table, Value, from_csv, from_json, jgadget_hash, to_csv, to_json};
use proptest::prelude::*;

/// `l_id` (plain LONG) and `Sound_code` (7 bits at mask 0x7F00, shift 8) sharing nothing.
fn sound_code_table() -> Table {
    let mut t = Table::new(&[("l_id", FieldType::LONG)]);
    t.fields.push(Field {
        hash: jgadget_hash(b"Sound_code"),
        mask: 0x0000_7F00,
        offset: 4,
        shift: 8,
        kind: FieldType::LONG,
    });
    t.entry_size = 8;
    t
}

/// The row, column and range an out-of-range error must name.
fn names_row_column_range(e: &str, row: usize) {
    assert!(e.contains(&format!("row {row}")), "{e}");
    assert!(e.contains("Sound_code"), "{e}");
    assert!(e.contains("0..=127") && e.contains("7-bit"), "{e}");
    assert!(e.contains("0x00007F00") && e.contains("shift 8"), "{e}");
}

#[test]
fn in_range_round_trips_and_edges_are_exact() {
    let mut t = sound_code_table();
    for v in [0, 1, 72, 127] {
        let r = t.push_default_row();
        t.set(r, "l_id", Value::Long(-5)).unwrap();
        t.set(r, "Sound_code", Value::Long(v)).unwrap();
    }
    let bytes = t.write().unwrap();
    // Golden: row 3 is `FFFFFFFB 00007F00` (127 << 8 under the mask).
    let row3 = &bytes[0x10 + 2 * 12 + 3 * 8..][..8];
    assert_eq!(row3, [0xFF, 0xFF, 0xFF, 0xFB, 0, 0, 0x7F, 0]);
    let back = Table::parse(&bytes).unwrap();
    assert_eq!(back, t);
    assert_eq!(from_csv(&to_csv(&t)).unwrap().write().unwrap(), bytes);
    assert_eq!(from_json(&to_json(&t)).unwrap().write().unwrap(), bytes);
}

#[test]
fn out_of_range_is_an_error_on_every_path() {
    let mut t = sound_code_table();
    t.push_default_row();
    t.push_default_row();
    for bad in [128, 200, 0x7F00, -1, i32::MIN] {
        // The setter refuses and leaves the cell as it was.
        let e = t.set(1, "Sound_code", Value::Long(bad)).unwrap_err();
        names_row_column_range(&e.to_string(), 1);
        assert_eq!(t.get(1, "Sound_code"), Some(&Value::Long(0)));
        // A value placed without the setter: the writer refuses (200 would read back as 72).
        let mut edited = t.clone();
        edited.row_mut(1).unwrap()[1] = Value::Long(bad);
        let e = edited.write().unwrap_err().to_string();
        names_row_column_range(&e, 1);
        assert!(e.contains(&bad.to_string()), "{e}");
        if bad < 0 {
            assert!(e.contains("unsigned"), "{e}");
        }
        // CSV and JSON import: the CSV line, the row and the column.
        let csv = to_csv(&t).replacen(",0\n", &format!(",{bad}\n"), 2);
        let csv = csv.replacen(&format!(",{bad}\n"), ",0\n", 1);
        let e = from_csv(&csv).unwrap_err().to_string();
        names_row_column_range(&e, 1);
        assert!(e.contains("CSV line 3") && e.contains("column 2"), "{e}");
        let mut json = to_json(&t);
        json["rows"][1][1] = serde_json::json!(bad);
        let e = from_json(&json).unwrap_err().to_string();
        names_row_column_range(&e, 1);
    }
    // The first value past the range of a plain field's width is the old width error.
    let mut json = to_json(&t);
    json["rows"][0][0] = serde_json::json!(1u64 << 32);
    assert!(from_json(&json).is_err());
}

#[test]
fn other_widths_and_masks_with_holes() {
    // A SHORT of 12 bits and a CHAR of 3 bits under a shift: negatives and wide values refused.
    let mut t = Table::new(&[("a", FieldType::SHORT), ("b", FieldType::CHAR)]);
    t.fields[0].mask = 0x0FFF;
    t.fields[1].mask = 0x70;
    t.fields[1].shift = 4;
    let r = t.push_default_row();
    t.set(r, "a", Value::Short(4095)).unwrap();
    t.set(r, "b", Value::Char(7)).unwrap();
    let e = t.set(r, "a", Value::Short(-1)).unwrap_err().to_string();
    assert!(e.contains("0..=4095") && e.contains("12-bit"), "{e}");
    let e = t.set(r, "b", Value::Char(8)).unwrap_err().to_string();
    assert!(e.contains("0..=7") && e.contains("3-bit"), "{e}");
    assert_eq!(Table::parse(&t.write().unwrap()).unwrap(), t);
    // A mask with a hole: only its bits are allowed.
    let mut t = Table::new(&[("a", FieldType::LONG)]);
    t.fields[0].mask = 0x0F0F;
    let r = t.push_default_row();
    t.set(r, "a", Value::Long(0x0F0F)).unwrap();
    let e = t.set(r, "a", Value::Long(0x10)).unwrap_err().to_string();
    assert!(e.contains("within the bits 0xF0F"), "{e}");
    // A FLOAT under a partial mask is checked on its bits.
    let mut t = Table::new(&[("a", FieldType::FLOAT)]);
    t.fields[0].mask = 0xFFFF_0000;
    let r = t.push_default_row();
    t.set(r, "a", Value::Float(1.0)).unwrap();
    let e = t.set(r, "a", Value::Float(0.1)).unwrap_err().to_string();
    assert!(e.contains("0x3DCCCCCD"), "{e}");
    // Plain fields take every value of their width, negatives included.
    let mut t = Table::new(&[("a", FieldType::CHAR), ("b", FieldType::LONG)]);
    let r = t.push_default_row();
    t.set(r, "a", Value::Char(i8::MIN)).unwrap();
    t.set(r, "b", Value::Long(i32::MIN)).unwrap();
}

#[test]
fn string_offsets_past_a_narrow_mask_are_refused() {
    // An 8-bit string-offset field: the pool outgrows it at the 256th byte.
    let mut t = Table::new(&[("name", FieldType::STRING_OFFSET)]);
    t.fields[0].mask = 0xFF;
    for i in 0..40 {
        t.push_row([Value::StringOffset(
            format!("string number {i:02}").as_str().into(),
        )])
        .unwrap();
    }
    let e = t.write().unwrap_err().to_string();
    assert!(e.contains("string pool offset 272"), "{e}");
    assert!(
        e.contains("row 16, column name") && e.contains("0..=255"),
        "{e}"
    );
}

/// Rows of a table whose string column `name` shares its word with two packed LONG fields:
/// `name` at mask 0x00FFFF00, shift 8, `hi` at 0xFF000000 >> 24 and `lo` at 0x000000FF, so every
/// stored word has bits outside the string's mask on both sides of it.
fn masked_strings(rows: usize) -> (Table, Vec<String>) {
    let mut t = Table::new(&[
        ("name", FieldType::STRING_OFFSET),
        ("hi", FieldType::LONG),
        ("lo", FieldType::LONG),
    ]);
    for (f, (mask, shift)) in
        t.fields
            .iter_mut()
            .zip([(0x00FF_FF00, 8), (0xFF00_0000, 24), (0xFF, 0)])
    {
        (f.offset, f.mask, f.shift) = (0, mask, shift);
    }
    t.entry_size = 4;
    let mut names = Vec::new();
    for i in 0..rows {
        // Repeats and new strings, so offsets both grow and point back.
        let s = format!("name{}", (i * 7) % 23);
        t.push_row([
            Value::StringOffset(s.as_str().into()),
            Value::Long(0xA5 ^ (i as i32 & 0x3F)),
            Value::Long(0xFF - (i as i32 & 0x7F)),
        ])
        .unwrap();
        names.push(s);
    }
    (t, names)
}

#[test]
fn masked_string_columns_read_through_mask_and_shift() {
    // 40 rows: the parse keeps its string offsets (the writer's shortcut); 3 rows: it does not.
    for rows in [40, 3] {
        let (t, names) = masked_strings(rows);
        let bytes = t.write().unwrap();
        let view = bcsv::parse(&bytes).unwrap();
        let name = view.field(0).unwrap();
        // The stored words carry the neighbours' bits: a read that drops the mask or the shift
        // lands elsewhere in (or past) the pool.
        let first = &bytes[0x10 + 3 * 12..][..4];
        assert_eq!(first, [0xA5, 0x00, 0x00, 0xFF], "row 0: hi, offset 0, lo");
        let column: Vec<&[u8]> = view
            .pool_strings(&name)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let want: Vec<&[u8]> = names.iter().map(String::as_bytes).collect();
        assert_eq!(column, want);
        for (row, s) in view.rows().zip(&names) {
            assert_eq!(row.get_str("name").unwrap(), s.as_str());
            assert_eq!(
                row.cell(&name).unwrap(),
                bcsv::Cell::StringOffset(s.as_bytes())
            );
            assert!(row.get_u32("hi").unwrap() & 0x80 != 0);
        }
        let back = Table::parse(&bytes).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.write().unwrap(), bytes);
        assert_eq!(from_csv(&to_csv(&back)).unwrap().write().unwrap(), bytes);
        assert!(
            bcsv::validate(&bytes)
                .iter()
                .all(|d| d.severity != gcio::Severity::Error)
        );
    }
}

/// A packed integer field of any width, mask and shift.
fn packed_field() -> impl Strategy<Value = Field> {
    (
        prop_oneof![Just(0u8), Just(3), Just(4), Just(5)],
        any::<u32>(),
        0u8..34,
    )
        .prop_map(|(kind, mask, shift)| Field {
            hash: jgadget_hash(b"packed"),
            mask,
            offset: 0,
            shift,
            kind: FieldType(kind),
        })
}

fn value_of(kind: FieldType, bits: u32) -> Value {
    match kind {
        FieldType::LONG => Value::Long(bits as i32),
        FieldType::LONG_2 => Value::Long2(bits),
        FieldType::SHORT => Value::Short(bits as u16 as i16),
        _ => Value::Char(bits as u8 as i8),
    }
}

proptest! {
    #[test]
    fn values_inside_round_trip_values_outside_are_refused(
        f in packed_field(),
        raw in any::<u32>(),
        inside in any::<bool>(),
    ) {
        let width = f.width_mask();
        // Inside: any bits of the value mask; outside: those plus a bit of the width it lacks.
        let outside_bits = width & !f.value_mask();
        let bits = if inside || outside_bits == 0 {
            raw & f.value_mask()
        } else {
            (raw & width) | (1 << outside_bits.trailing_zeros())
        };
        let fits = bits & !f.value_mask() == 0;
        let mut t = Table::new(&[]);
        t.fields.push(f);
        t.entry_size = 4;
        t.push_row([value_of(f.kind, bits)]).unwrap();
        match t.write() {
            Ok(bytes) => {
                prop_assert!(fits);
                let back = Table::parse(&bytes).unwrap();
                prop_assert_eq!(&back.row(0).unwrap()[0], &value_of(f.kind, bits));
                prop_assert_eq!(from_csv(&to_csv(&back)).unwrap().write().unwrap(), bytes);
            }
            Err(e) => {
                prop_assert!(!fits);
                let e = e.to_string();
                let column = format!("row 0, column {}", bcsv::display_name(f.hash));
                prop_assert!(e.contains(&column) && e.contains("allowed"), "{}", e);
                prop_assert!(t.set(0, "packed", value_of(f.kind, bits)).is_err());
            }
        }
    }
}
