//! Property tests: any model writes and parses back equal (and through CSV and JSON); arbitrary
//! and mutated bytes never panic.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use bcsv::{Field, FieldType, Table, Tail, Value, from_csv, from_json, to_csv, to_json};
use proptest::prelude::*;

fn value(kind: FieldType) -> BoxedStrategy<Value> {
    match kind.0 {
        0 => any::<i32>().prop_map(Value::Long).boxed(),
        1 => proptest::collection::vec(any::<u8>(), 0..=32)
            .prop_map(|b| Value::inline(&b).unwrap())
            .boxed(),
        2 => any::<u32>()
            .prop_map(|b| Value::Float(f32::from_bits(b)))
            .boxed(),
        3 => any::<u32>().prop_map(Value::Long2).boxed(),
        4 => any::<i16>().prop_map(Value::Short).boxed(),
        5 => any::<i8>().prop_map(Value::Char).boxed(),
        // Up to 40 bytes: both the inline (<= 30) and the boxed form of `Str`.
        _ => proptest::collection::vec(1u8..=255, 0..40)
            .prop_map(|b| Value::StringOffset(b.into()))
            .boxed(),
    }
}

fn table() -> impl Strategy<Value = Table> {
    let kinds = proptest::collection::vec(0u8..7, 1..6);
    (kinds, any::<bool>(), 0usize..6, any::<bool>())
        .prop_flat_map(|(kinds, le, nrows, raw_tail)| {
            let kinds: Vec<FieldType> = kinds.into_iter().map(FieldType).collect();
            let row = kinds.iter().map(|&k| value(k)).collect::<Vec<_>>();
            let rows = proptest::collection::vec(row, nrows);
            (Just(kinds), Just(le), rows, Just(raw_tail))
        })
        .prop_map(|(kinds, le, rows, raw_tail)| {
            let names: Vec<String> = (0..kinds.len()).map(|i| format!("f{i}")).collect();
            let cols: Vec<(&str, FieldType)> =
                names.iter().map(String::as_str).zip(kinds).collect();
            let mut t = Table::new(&cols);
            if le {
                t.endian = gcio::Endian::Little;
                t.encoding = bcsv::Encoding::Utf8;
            }
            if raw_tail {
                t.tail = Tail::Raw(vec![0, 0x40]);
            }
            for r in rows {
                t.push_row(r).unwrap();
            }
            t
        })
}

fn same(a: &Table, b: &Table) -> bool {
    a.fields == b.fields
        && a.len() == b.len()
        && a.rows()
            .zip(b.rows())
            .all(|(x, y)| x.iter().zip(y).all(|(p, q)| p.same(q)))
}

proptest! {
    #[test]
    fn model_round_trips(t in table()) {
        let bytes = t.write().unwrap();
        let back = Table::parse(&bytes).unwrap();
        prop_assert!(same(&t, &back), "{t:?}\n{back:?}");
        prop_assert_eq!(back.write().unwrap(), bytes.clone());
        prop_assert_eq!(from_csv(&to_csv(&back)).unwrap().write().unwrap(), bytes.clone());
        prop_assert_eq!(from_json(&to_json(&back)).unwrap().write().unwrap(), bytes.clone());
        bcsv::fuzz_bcsv(&bytes);
    }

    #[test]
    fn packed_fields_survive(words in proptest::collection::vec(any::<u32>(), 1..8)) {
        // Three fields in one word plus uncovered bits: resave keeps every bit (BCSV-009).
        let mut t = Table::new(&[("a", FieldType::LONG)]);
        t.fields[0].mask = 0xFF;
        t.fields.push(Field { hash: 2, mask: 0x7F00, offset: 0, shift: 8, kind: FieldType::LONG });
        t.fields.push(Field { hash: 3, mask: 0x0300_0000, offset: 0, shift: 25, kind: FieldType::LONG });
        let mut bytes = t.write().unwrap();
        bytes.truncate(16 + 36);
        bytes[0..4].copy_from_slice(&(words.len() as u32).to_be_bytes());
        for w in &words {
            bytes.extend(w.to_be_bytes());
        }
        let back = Table::parse(&bytes).unwrap();
        prop_assert_eq!(back.write().unwrap(), bytes.clone());
        for (row, w) in back.rows().zip(&words) {
            prop_assert_eq!(&row[1], &Value::Long(((w & 0x7F00) >> 8) as i32));
        }
    }

    #[test]
    fn parsed_tables_write_as_rebuilt_after_edits(
        rows in proptest::collection::vec((0u8..6, 0u8..6, any::<i32>()), 16..60),
        edits in proptest::collection::vec((any::<usize>(), any::<bool>(), 0u8..6), 0..4),
    ) {
        // Enough string cells for the parse to keep its offsets (the writer's shortcut while the
        // rows are untouched); repeated strings of varying lengths, so that stale offsets after an
        // edit would place strings wrongly.
        let words: [&[u8]; 6] = [b"Kuribo", b"", b"AB", b"CD", b"a name longer than thirty bytes!", b"x"];
        let mut t = Table::new(&[("a", FieldType::STRING_OFFSET), ("n", FieldType::LONG), ("b", FieldType::STRING_OFFSET)]);
        for &(a, b, n) in &rows {
            t.push_row([
                Value::StringOffset(words[usize::from(a)].into()),
                Value::Long(n),
                Value::StringOffset(words[usize::from(b)].into()),
            ]).unwrap();
        }
        let bytes = t.write().unwrap();
        let mut back = Table::parse(&bytes).unwrap();
        prop_assert_eq!(back.write().unwrap(), bytes.clone());
        for &(at, second, w) in &edits {
            let r = at % rows.len();
            let key = if second { "b" } else { "a" };
            let v = Value::StringOffset(words[usize::from(w)].into());
            back.set(r, key, v.clone()).unwrap();
            t.set(r, key, v).unwrap();
        }
        prop_assert_eq!(back.write().unwrap(), t.write().unwrap());
        // Rows added or removed: the same.
        back.push_default_row();
        t.push_default_row();
        prop_assert_eq!(back.write().unwrap(), t.write().unwrap());
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..256)) {
        bcsv::fuzz_bcsv(&data);
    }

    #[test]
    fn mutated_tables_never_panic(t in table(), flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let mut bytes = t.write().unwrap();
        for (at, b) in flips {
            let n = bytes.len();
            bytes[at % n] ^= b;
        }
        bcsv::fuzz_bcsv(&bytes);
    }
}
