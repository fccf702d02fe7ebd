//! BCSV ⇄ JSON: `{"endian", "encoding", "entry_size", "fields": [{name, type, offset, mask?, shift?}],
//! "rows": [[…]]}` plus, only when present, `header_gap`, `pool`, `tail` (hex), `residue`
//! (row index → hex) and `string_offsets` (per row). Integers are numbers (signed where the game
//! reads them signed), floats are numbers (non-finite ones are hex-bit strings), strings are text.

use gcio::{Error, ErrorKind, Result};
use serde_json::{Map, Value as Json, json};

use crate::convert::{apply_meta, float_text, int_text, meta, parse_value, string_text};
use crate::hash::parse_name;
use crate::model::{Table, Value};
use crate::names::display_name;
use crate::types::{Field, FieldType};
use gcio::text::{Encoding, from_hex, to_hex};

fn cell_json(f: &Field, v: &Value, enc: Encoding) -> Json {
    match v {
        Value::Float(x) if x.is_finite() => serde_json::Number::from_f64(f64::from(*x))
            .map_or_else(|| Json::String(float_text(*x)), Json::Number),
        Value::Float(x) => Json::String(float_text(*x)),
        v => match string_text(v, enc) {
            Some(s) => Json::String(s),
            None => {
                let t = int_text(f, v.bits().unwrap_or(0));
                t.parse::<i64>().map_or(Json::String(t), |n| json!(n))
            }
        },
    }
}

/// The table as a JSON value.
pub fn to_json(table: &Table) -> Json {
    let fields: Vec<Json> = table
        .fields
        .iter()
        .map(|f| {
            let mut m = Map::new();
            m.insert("name".into(), json!(display_name(f.hash)));
            m.insert("type".into(), json!(f.kind.to_string()));
            m.insert("offset".into(), json!(f.offset));
            if f.mask != f.kind.default_mask() {
                m.insert("mask".into(), json!(format!("0x{:08X}", f.mask)));
            }
            if f.shift != 0 {
                m.insert("shift".into(), json!(f.shift));
            }
            Json::Object(m)
        })
        .collect();
    let rows: Vec<Json> = table
        .rows()
        .map(|r| {
            Json::Array(
                table
                    .fields
                    .iter()
                    .zip(r)
                    .map(|(f, v)| cell_json(f, v, table.encoding))
                    .collect(),
            )
        })
        .collect();
    let mut root = Map::new();
    root.insert(
        "endian".into(),
        json!(if table.endian == gcio::Endian::Big {
            "big"
        } else {
            "little"
        }),
    );
    root.insert("encoding".into(), json!(table.encoding.name()));
    root.insert("entry_size".into(), json!(table.entry_size));
    root.insert("fields".into(), Json::Array(fields));
    root.insert("rows".into(), Json::Array(rows));
    for (k, v) in meta(table) {
        if matches!(k, "header_gap" | "pool" | "tail") {
            root.insert(k.into(), json!(v));
        }
    }
    let residue: Map<String, Json> = (0..table.len())
        .map(|i| (i, table.residue(i)))
        .filter(|(_, r)| !r.is_empty())
        .map(|(i, r)| (i.to_string(), json!(to_hex(r))))
        .collect();
    if !residue.is_empty() {
        root.insert("residue".into(), Json::Object(residue));
    }
    if table.stored_pool.is_some() {
        let offs: Vec<Json> = (0..table.len())
            .map(|i| json!(table.string_offsets(i)))
            .collect();
        root.insert("string_offsets".into(), Json::Array(offs));
    }
    Json::Object(root)
}

fn bad(m: impl Into<String>) -> Error {
    Error::without_offset(ErrorKind::Invalid(format!("JSON: {}", m.into())))
}

fn field_from_json(j: &Json) -> Result<Field> {
    let name = j
        .get("name")
        .and_then(Json::as_str)
        .ok_or_else(|| bad("field without name"))?;
    let ty = j
        .get("type")
        .and_then(Json::as_str)
        .ok_or_else(|| bad("field without type"))?;
    let kind = FieldType::from_name(ty)
        .or_else(|| {
            ty.strip_prefix("TYPE")
                .and_then(|n| n.parse().ok())
                .map(FieldType)
        })
        .ok_or_else(|| bad(format!("unknown type {ty:?}")))?;
    let mut f = Field::new(parse_name(name), kind, 0);
    let num = |k: &str| -> Result<Option<u64>> {
        match j.get(k) {
            None => Ok(None),
            Some(Json::String(s)) => {
                let h = s.trim_start_matches("0x").trim_start_matches("0X");
                u64::from_str_radix(h, 16)
                    .map(Some)
                    .map_err(|_| bad(format!("{name}: bad {k}")))
            }
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| bad(format!("{name}: bad {k}"))),
        }
    };
    let range = || bad(format!("{name}: value out of range"));
    if let Some(m) = num("mask")? {
        f.mask = u32::try_from(m).map_err(|_| range())?;
    }
    if let Some(s) = num("shift")? {
        f.shift = u8::try_from(s).map_err(|_| range())?;
    }
    f.offset = u16::try_from(num("offset")?.ok_or_else(|| bad(format!("{name}: no offset")))?)
        .map_err(|_| range())?;
    Ok(f)
}

/// Reads a table from [`to_json`] output.
pub fn from_json(j: &Json) -> Result<Table> {
    let fields = j
        .get("fields")
        .and_then(Json::as_array)
        .ok_or_else(|| bad("no fields array"))?
        .iter()
        .map(field_from_json)
        .collect::<Result<Vec<_>>>()?;
    let mut table = Table::default();
    table.entry_size = crate::convert::natural_entry_size(&fields);
    table.fields = fields;
    if let Some(e) = j.get("endian").and_then(Json::as_str) {
        apply_meta(&mut table, "endian", e).map_err(bad)?;
    }
    table.encoding = Encoding::for_endian(table.endian);
    for key in ["encoding", "header_gap", "pool", "tail"] {
        if let Some(v) = j.get(key).and_then(Json::as_str) {
            apply_meta(&mut table, key, v).map_err(bad)?;
        }
    }
    if let Some(n) = j.get("entry_size") {
        table.entry_size = n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| bad("bad entry_size"))?;
    }
    let rows = j
        .get("rows")
        .and_then(Json::as_array)
        .ok_or_else(|| bad("no rows array"))?;
    let residue = j.get("residue").and_then(Json::as_object);
    let offsets = j.get("string_offsets").and_then(Json::as_array);
    for (i, r) in rows.iter().enumerate() {
        let cells = r
            .as_array()
            .ok_or_else(|| bad(format!("row {i} is not an array")))?;
        if cells.len() != table.fields.len() {
            return Err(bad(format!(
                "row {i} has {} cells for {} fields",
                cells.len(),
                table.fields.len()
            )));
        }
        let mut values = Vec::with_capacity(cells.len());
        for (f, c) in table.fields.iter().zip(cells) {
            let text = match c {
                Json::String(s) => s.clone(),
                Json::Number(n) => n.to_string(),
                other => return Err(bad(format!("row {i}: unexpected {other}"))),
            };
            let v = match (f.kind, c) {
                // Exact: the f64 holds the f32 value unchanged.
                (FieldType::FLOAT, Json::Number(n)) => {
                    Value::Float(n.as_f64().unwrap_or(0.0) as f32)
                }
                _ => parse_value(f, &text, table.encoding)
                    .map_err(|m| bad(format!("row {i} {}: {m}", display_name(f.hash))))?,
            };
            values.push(v);
        }
        table
            .push_row(values)
            .map_err(|e| bad(format!("row {i}: {e}")))?;
        if let Some(h) = residue
            .and_then(|m| m.get(&i.to_string()))
            .and_then(Json::as_str)
        {
            let residue = from_hex(h).ok_or_else(|| bad(format!("row {i}: bad residue")))?;
            table.set_residue(i, residue);
        }
        if let Some(o) = offsets.and_then(|o| o.get(i)).and_then(Json::as_array) {
            let offsets = o
                .iter()
                .map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok()))
                .collect::<Option<_>>()
                .ok_or_else(|| bad(format!("row {i}: bad string_offsets")))?;
            table.set_string_offsets(i, offsets);
        }
    }
    Ok(table)
}
