//! Builders of realistic tables for tests, benches and `samples/`: every type, packed bit fields,
//! Shift-JIS and UTF-8 strings with repeats (so the pool dedups), little-endian variants.

use gcio::Endian;

use crate::model::{Table, Value};
use crate::types::{Field, FieldType};
use gcio::text::Encoding;

/// Appends a row built here (one value per field by construction).
fn push<const N: usize>(t: &mut Table, values: [Value; N]) {
    let pushed = t.push_row(values);
    debug_assert!(pushed.is_ok());
}

const NAMES: [&str; 8] = [
    "Kuribo",
    "マリオ",
    "ギャラクシー",
    "RedBlueExStepA",
    "",
    "ｶﾀｶﾅ",
    "スター",
    "a,b \"c\"",
];

/// A table with one column of each type plus three fields packed into one LONG word, `rows` rows.
/// Strings repeat every few rows, as in game tables.
pub fn every_type(rows: usize) -> Table {
    let mut t = Table::new(&[
        ("name", FieldType::STRING_OFFSET),
        ("l_id", FieldType::LONG),
        ("pos_x", FieldType::FLOAT),
        ("ObjName", FieldType::STRING),
        ("Obj_arg0", FieldType::LONG_2),
        ("SW_A", FieldType::SHORT),
        ("ShapeModelNo", FieldType::CHAR),
    ]);
    // Three packed fields sharing one word after the string offset, as Nintendo places them.
    let word = u16::try_from(t.entry_size).unwrap_or(0);
    let packed = [
        ("camera_id", 0x0000_00FF, 0),
        ("Sound_code", 0x0000_7F00, 8),
        ("Camera_through", 0x0200_0000, 25),
    ];
    for (name, mask, shift) in packed {
        t.fields.push(Field {
            hash: crate::jgadget_hash(name.as_bytes()),
            mask,
            offset: word,
            shift,
            kind: FieldType::LONG,
        });
    }
    t.entry_size += 4;
    let mut x: u32 = 0x1234_5678;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for i in 0..rows {
        let r = next();
        let name = NAMES.get(i % NAMES.len()).copied().unwrap_or("");
        let name = if i % 5 == 0 {
            format!("{name}{}", i % 97)
        } else {
            name.to_owned()
        };
        let enc = t.encoding;
        let obj = enc
            .from_text(NAMES.get((i / 3) % NAMES.len()).copied().unwrap_or(""))
            .unwrap_or_default();
        push(
            &mut t,
            [
                Value::StringOffset(enc.from_text(&name).unwrap_or_default().into()),
                Value::Long(r as i32),
                Value::Float((r % 100_000) as f32 / 7.0 - 5000.0),
                Value::inline(obj.get(..obj.len().min(31)).unwrap_or_default())
                    .unwrap_or(Value::InlineString([0; 32])),
                Value::Long2(next()),
                Value::Short((r >> 7) as i16),
                Value::Char((r >> 3) as i8),
                Value::Long((r & 0xFF) as i32),
                Value::Long(((r >> 8) & 0x7F) as i32),
                Value::Long(((r >> 20) & 1) as i32),
            ],
        );
    }
    t
}

/// [`every_type`] as a little-endian, UTF-8 table (the Switch port's layout).
pub fn every_type_le(rows: usize) -> Table {
    let mut t = every_type(rows);
    t.endian = Endian::Little;
    t.encoding = Encoding::Utf8;
    let utf8 = |b: &[u8]| Encoding::ShiftJis.to_text(b).into_bytes();
    for row in t.rows_mut() {
        for v in row {
            match v {
                Value::StringOffset(s) => *s = utf8(s).into(),
                Value::InlineString(b) => {
                    let end = b.iter().position(|&c| c == 0).unwrap_or(32);
                    let text = utf8(b.get(..end).unwrap_or_default());
                    *v = Value::inline(text.get(..text.len().min(32)).unwrap_or_default())
                        .unwrap_or(Value::InlineString([0; 32]));
                }
                _ => {}
            }
        }
    }
    t
}

/// A SoundIdToInstList table (seed schema, TBL-001: sorted by SoundId), `rows` rows.
pub fn sound_id_to_inst_list(rows: usize) -> Table {
    let mut t = Table::new(&[
        ("SoundId", FieldType::LONG),
        ("BankProgNoName", FieldType::STRING_OFFSET),
        ("BankProgNo", FieldType::SHORT),
    ]);
    for i in 0..rows {
        let id = i32::try_from(i).unwrap_or(0);
        push(
            &mut t,
            [
                Value::Long(0x0001_0000 + id * 3),
                Value::StringOffset(format!("BANK_{:02}", i % 7).as_str().into()),
                Value::Short(i16::try_from(i % 128).unwrap_or(0)),
            ],
        );
    }
    t
}

/// Sample files for `samples/bcsv/` (name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let empty = Table::new(&[
        ("name", FieldType::STRING_OFFSET),
        ("l_id", FieldType::LONG),
    ]);
    for (name, table) in [
        ("every_type.bcsv", every_type(24)),
        ("every_type_switch.bcsv", every_type_le(8)),
        ("empty.bcsv", empty),
        ("SoundIdToInstList.bcsv", sound_id_to_inst_list(12)),
    ] {
        if let Ok(bytes) = table.write() {
            out.push((name.to_owned(), bytes));
        }
    }
    out
}
