//! What CSV and JSON share: column specs (`name:TYPE` plus mask, shift and offset where not the
//! default), table metadata that is not default, and value text.

use gcio::Endian;

use crate::hash::parse_name;
use crate::model::{Table, Tail, Value};
use crate::names::display_name;
use crate::types::{Field, FieldType, auto_layout};
use gcio::text::{Encoding, from_hex, to_hex};

/// The offsets the auto layout would give these fields.
fn auto_offsets(fields: &[Field]) -> Vec<u16> {
    let mut copy = fields.to_vec();
    auto_layout(&mut copy);
    copy.iter().map(|f| f.offset).collect()
}

/// The entry size implied by the fields: their end, rounded up to 4.
pub(crate) fn natural_entry_size(fields: &[Field]) -> u32 {
    let end = fields
        .iter()
        .map(|f| usize::from(f.offset) + f.size())
        .max()
        .unwrap_or(0);
    u32::try_from(end.next_multiple_of(4)).unwrap_or(u32::MAX)
}

/// One column header: `name:TYPE[:mask=0x…][:shift=N][:offset=N]`.
pub(crate) fn column_specs(table: &Table) -> Vec<String> {
    let auto = auto_offsets(&table.fields);
    table
        .fields
        .iter()
        .zip(auto)
        .map(|(f, auto)| {
            let mut s = format!("{}:{}", display_name(f.hash), f.kind);
            if f.mask != f.kind.default_mask() {
                s.push_str(&format!(":mask=0x{:08X}", f.mask));
            }
            if f.shift != 0 {
                s.push_str(&format!(":shift={}", f.shift));
            }
            if f.offset != auto {
                s.push_str(&format!(":offset={}", f.offset));
            }
            s
        })
        .collect()
}

/// Parses column headers back into fields (explicit offsets win, the rest follow the auto layout),
/// each with its default: the bare third component of Nintendo's `Name:Type:Default` syntax, used
/// for empty cells as pyjmap does.
pub(crate) fn parse_columns<'s>(
    specs: impl Iterator<Item = &'s str>,
) -> Result<Vec<(Field, Option<String>)>, String> {
    let mut fields = Vec::new();
    let mut defaults = Vec::new();
    let mut explicit = Vec::new();
    for spec in specs {
        let mut parts = spec.trim().split(':');
        let name = parts.next().unwrap_or("");
        let ty = parts
            .next()
            .ok_or_else(|| format!("column {spec:?} has no :TYPE"))?;
        let kind = FieldType::from_name(ty)
            .or_else(|| {
                ty.strip_prefix("TYPE")
                    .and_then(|n| n.parse().ok())
                    .map(FieldType)
            })
            .ok_or_else(|| format!("column {spec:?}: unknown type {ty:?}"))?;
        let mut f = Field::new(parse_name(name), kind, 0);
        let mut offset = None;
        let mut default = None;
        for p in parts {
            let num = |v: &str| -> Result<u64, String> {
                let v = v.trim();
                match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => v.parse(),
                }
                .map_err(|_| format!("column {spec:?}: bad number {v:?}"))
            };
            let too_big = || format!("column {spec:?}: value out of range");
            match p.split_once('=') {
                Some(("mask", v)) => f.mask = u32::try_from(num(v)?).map_err(|_| too_big())?,
                Some(("shift", v)) => f.shift = u8::try_from(num(v)?).map_err(|_| too_big())?,
                Some(("offset", v)) => {
                    offset = Some(u16::try_from(num(v)?).map_err(|_| too_big())?)
                }
                Some(_) => {}
                None => default = Some(p.to_owned()),
            }
        }
        fields.push(f);
        explicit.push(offset);
        defaults.push(default);
    }
    auto_layout(&mut fields);
    for (f, o) in fields.iter_mut().zip(explicit) {
        if let Some(o) = o {
            f.offset = o;
        }
    }
    Ok(fields.into_iter().zip(defaults).collect())
}

/// Table properties that differ from what the columns imply, as `key=value` pairs.
pub(crate) fn meta(table: &Table) -> Vec<(&'static str, String)> {
    let mut m = Vec::new();
    if table.endian == Endian::Little {
        m.push(("endian", "little".to_owned()));
    }
    if table.encoding != Encoding::for_endian(table.endian) {
        m.push(("encoding", table.encoding.name().to_owned()));
    }
    if table.entry_size != natural_entry_size(&table.fields) {
        m.push(("entry_size", table.entry_size.to_string()));
    }
    if !table.header_gap.is_empty() {
        m.push(("header_gap", to_hex(&table.header_gap)));
    }
    if let Some(p) = &table.stored_pool {
        m.push(("pool", to_hex(p)));
    }
    if let Tail::Raw(t) = &table.tail {
        m.push(("tail", to_hex(t)));
    }
    m
}

/// Applies one metadata pair to a table whose fields are already set.
pub(crate) fn apply_meta(table: &mut Table, key: &str, value: &str) -> Result<(), String> {
    let hex = |v: &str| from_hex(v).ok_or_else(|| format!("{key}: bad hex"));
    match key {
        "endian" => {
            table.endian = match value {
                "big" => Endian::Big,
                "little" => Endian::Little,
                _ => return Err(format!("endian {value:?}")),
            };
        }
        "encoding" => {
            table.encoding =
                Encoding::from_name(value).ok_or_else(|| format!("encoding {value:?}"))?
        }
        "entry_size" => {
            table.entry_size = value.parse().map_err(|_| format!("entry_size {value:?}"))?
        }
        "header_gap" => table.header_gap = hex(value)?,
        "pool" => table.stored_pool = Some(hex(value)?),
        "tail" => table.tail = Tail::Raw(hex(value)?),
        _ => return Err(format!("unknown table property {key:?}")),
    }
    Ok(())
}

/// An integer cell's value: signed where the game reads it signed (plain fields), else unsigned
/// (what the CSV and JSON forms print, and what bindings hand out without going through text).
pub fn int_value(field: &Field, bits: u32) -> i64 {
    if field.is_plain() {
        i64::from(match field.size() {
            1 => i32::from(bits as u8 as i8),
            2 => i32::from(bits as u16 as i16),
            _ => bits as i32,
        })
    } else {
        i64::from(bits)
    }
}

/// An integer cell as text ([`int_value`]).
pub(crate) fn int_text(field: &Field, bits: u32) -> String {
    int_value(field, bits).to_string()
}

/// A float cell as text: the shortest decimal that reads back to the same bits; NaNs as hex bits.
pub(crate) fn float_text(v: f32) -> String {
    if v.is_nan() {
        format!("0x{:08X}", v.to_bits())
    } else {
        format!("{v:?}")
    }
}

/// A string cell as text (inline strings lose their trailing NULs, which read back as padding).
pub(crate) fn string_text(value: &Value, enc: Encoding) -> Option<String> {
    match value {
        Value::StringOffset(s) => Some(enc.to_text(s)),
        Value::InlineString(b) => {
            let end = b.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
            Some(enc.to_text(b.get(..end).unwrap_or_default()))
        }
        _ => None,
    }
}

/// A cell as its CSV text: strings in the table's encoding `enc` (inline strings without their
/// trailing NULs), integers as the field reads them, floats in their shortest form (NaN as its
/// bits, `0x…`).
pub fn value_text(field: &Field, value: &Value, enc: Encoding) -> String {
    match value {
        Value::Float(v) => float_text(*v),
        v => string_text(v, enc).unwrap_or_else(|| int_text(field, v.bits().unwrap_or(0))),
    }
}

/// Parses an integer given signed or unsigned, decimal or `0x` hex, into the field's width.
fn parse_int(field: &Field, s: &str) -> Result<u32, String> {
    let s = s.trim();
    let v: i64 = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16),
        None => s.parse(),
    }
    .map_err(|_| format!("{s:?} is not an integer"))?;
    let width = u32::try_from(field.size() * 8).unwrap_or(32);
    let min = -(1i64 << (width - 1));
    let max = (1i64 << width) - 1;
    if v < min || v > max {
        return Err(format!("{v} does not fit {} bits", width));
    }
    Ok((v as u64 & u64::from(field.width_mask())) as u32)
}

/// Parses a cell of `field`'s type from text; a number outside the field's range (a packed
/// field's bits, [`Value::check_fits`]) is an error, not truncated on write.
pub(crate) fn parse_value(field: &Field, s: &str, enc: Encoding) -> Result<Value, String> {
    let v = parse_unchecked(field, s, enc)?;
    v.check_fits(field)?;
    Ok(v)
}

/// [`parse_value`] without the range check.
fn parse_unchecked(field: &Field, s: &str, enc: Encoding) -> Result<Value, String> {
    Ok(match field.kind {
        FieldType::LONG => Value::Long(parse_int(field, s)? as i32),
        FieldType::LONG_2 => Value::Long2(parse_int(field, s)?),
        FieldType::SHORT => Value::Short(parse_int(field, s)? as u16 as i16),
        FieldType::CHAR => Value::Char(parse_int(field, s)? as u8 as i8),
        FieldType::FLOAT => {
            let t = s.trim();
            match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => Value::Float(f32::from_bits(
                    u32::from_str_radix(h, 16).map_err(|_| format!("{s:?} is not a float"))?,
                )),
                None => Value::Float(t.parse().map_err(|_| format!("{s:?} is not a float"))?),
            }
        }
        FieldType::STRING_OFFSET => Value::StringOffset(enc.from_text(s)?.into()),
        FieldType::STRING => {
            let bytes = enc.from_text(s)?;
            Value::inline(&bytes)
                .ok_or_else(|| format!("inline string of {} bytes exceeds 32", bytes.len()))?
        }
        other => return Err(format!("field type {} has no values", other.0)),
    })
}
