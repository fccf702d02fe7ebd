//! Validation: container rules `BCSV-*` on the bytes, and the seed's table rules `TBL-*` when a
//! schema recognises the table (see [`crate::schema`]).

use std::collections::HashMap;

use gcio::Diagnostic;

use crate::hash::display_name;
use crate::model::{Table, Tail};
use crate::types::FieldType;
use crate::view::{Cell, FIELD_SIZE, HEADER_SIZE, View, parse};

/// Validates a file: structure errors become one `BCSV-*` error diagnostic; otherwise every
/// container rule and the matching schema's rules are checked.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    let view = match parse(data) {
        Ok(v) => v,
        Err(e) => {
            return vec![Diagnostic::error("BCSV-002", e.offset(), e.to_string())];
        }
    };
    let mut out = validate_view(&view);
    if let Ok(table) = Table::from_view(&view, &gcio::Limits::default()) {
        out.extend(validate_table(&table));
    }
    out
}

fn field_at(i: usize) -> Option<u64> {
    Some((HEADER_SIZE + i * FIELD_SIZE) as u64)
}

/// Container rules that need the file's bytes (offsets, pool, padding).
fn validate_view(view: &View<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let h = view.header();
    if u64::from(h.data_offset) != h.field_table_end() {
        out.push(Diagnostic::warning(
            "BCSV-001",
            Some(8),
            format!(
                "data offset {:#x}, expected {:#x}",
                h.data_offset,
                h.field_table_end()
            ),
        ));
    }
    if !h.entry_size.is_multiple_of(4) {
        out.push(Diagnostic::warning(
            "BCSV-003",
            Some(12),
            format!("entry size {} is not a multiple of 4", h.entry_size),
        ));
    }
    let fields: Vec<_> = view.fields().collect();
    let mut by_offset: HashMap<u16, Vec<usize>> = HashMap::new();
    for (i, f) in fields.iter().enumerate() {
        by_offset.entry(f.offset).or_default().push(i);
    }
    for (i, f) in fields.iter().enumerate() {
        let m = f.mask & f.width_mask();
        for &j in by_offset
            .get(&f.offset)
            .into_iter()
            .flatten()
            .filter(|&&j| j > i)
        {
            let Some(g) = fields.get(j) else { continue };
            if f.kind != FieldType::STRING && g.kind != FieldType::STRING && m & g.mask != 0 {
                out.push(Diagnostic::warning(
                    "BCSV-008",
                    field_at(j),
                    format!(
                        "{} and {} share offset {} with overlapping masks {:#x} / {:#x}",
                        display_name(f.hash),
                        display_name(g.hash),
                        f.offset,
                        f.mask,
                        g.mask
                    ),
                ));
            }
        }
    }
    let enc = view.encoding();
    let pool_base = view.header().pool_offset();
    'rows: for row in view.rows() {
        for f in &fields {
            match row.cell(f) {
                Err(e) => {
                    out.push(Diagnostic::error("BCSV-005", e.offset(), e.to_string()));
                    break 'rows;
                }
                Ok(Cell::StringOffset(s)) => {
                    if let Err(i) = enc.decode(s) {
                        let off = row.raw(f).map_or(0, |r| f.decode(r));
                        out.push(Diagnostic::warning(
                            "BCSV-005",
                            Some(pool_base + u64::from(off) + i as u64),
                            format!(
                                "row {} {}: invalid {} text (kept as bytes)",
                                row.index(),
                                display_name(f.hash),
                                enc.name()
                            ),
                        ));
                    }
                }
                Ok(_) => {}
            }
        }
    }
    out
}

/// Model-level rules: pool layout, padding, names, signedness, and the recognised schema's rules.
pub fn validate_table(table: &Table) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if table.stored_pool.is_some() {
        out.push(Diagnostic::info(
            "BCSV-006",
            None,
            "string pool is not the first-use, deduplicated layout; kept as stored",
        ));
    }
    if let Tail::Raw(t) = &table.tail {
        out.push(Diagnostic::warning(
            "BCSV-007",
            None,
            format!(
                "file end is not '@' padding to 32 ({} tail bytes kept)",
                t.len()
            ),
        ));
    }
    for (i, f) in table.fields.iter().enumerate() {
        if crate::names::lookup(f.hash).is_none() {
            out.push(Diagnostic::info(
                "BCSV-010",
                field_at(i),
                format!("field hash {:08X} is not a known name", f.hash),
            ));
        }
        if f.mask != f.kind.default_mask() && f.kind == FieldType::STRING {
            out.push(Diagnostic::info(
                "BCSV-013",
                field_at(i),
                format!(
                    "inline string {} has mask {:#x} (ignored)",
                    display_name(f.hash),
                    f.mask
                ),
            ));
        }
    }
    out.extend(crate::schema::check(table));
    out
}
