//! Validation: container rules `BCSV-*` on the bytes, and the table rules `TBL-*` when a
//! schema recognises the table (see [`crate::schema`]).

use std::collections::HashMap;

use gcio::{Diagnostic, Limits};

use crate::model::{Table, Tail};
use crate::names::display_name;
use crate::types::FieldType;
use crate::view::{Cell, FIELD_SIZE, HEADER_SIZE, View, parse_with};

/// Most BCSV-008 findings listed one by one.
const MAX_OVERLAP_REPORTS: usize = 32;

/// Validates a file: structure errors become one `BCSV-*` error diagnostic (the rule the parser
/// names, else BCSV-002); otherwise every
/// container rule and the matching schema's rules are checked.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (they bound the cells checked and the owned copy).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    let view = match parse_with(data, limits) {
        Ok(v) => v,
        Err(e) => {
            // The parser names the rule a broken header or field table breaks; anything else
            // (a cut-off table or pool) is BCSV-002.
            let msg = e.to_string();
            let rule = ["BCSV-001", "BCSV-003", "BCSV-004"]
                .into_iter()
                .find(|r| msg.contains(r))
                .unwrap_or("BCSV-002");
            return vec![Diagnostic::error(rule, e.offset(), msg)];
        }
    };
    let mut out = view_rules(&view, limits);
    if let Ok(table) = Table::from_view(&view, limits) {
        out.extend(validate_model(&table));
    }
    out
}

fn field_at(i: usize) -> Option<u64> {
    Some((HEADER_SIZE + i * FIELD_SIZE) as u64)
}

/// Container rules that need the file's bytes (offsets, pool, padding).
fn view_rules(view: &View<'_>, limits: &Limits) -> Vec<Diagnostic> {
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
    // One pass: each field is compared with the union of the masks of earlier fields at its
    // offset (linear, however many fields a hostile file stacks on one offset).
    let mut owned: HashMap<u16, (u32, usize)> = HashMap::new();
    let mut overlaps = 0usize;
    for (i, f) in fields.iter().enumerate() {
        if f.kind == FieldType::STRING {
            continue;
        }
        let m = f.mask & f.width_mask();
        let (union, first) = owned.entry(f.offset).or_insert((0, i));
        if m & *union != 0 {
            overlaps += 1;
            if overlaps <= MAX_OVERLAP_REPORTS {
                let earlier = fields.get(*first).map_or(0, |g| g.hash);
                out.push(Diagnostic::warning(
                    "BCSV-008",
                    field_at(i),
                    format!(
                        "{} (mask {:#x}) overlaps the masks of earlier fields at offset {} (first: {})",
                        display_name(f.hash),
                        f.mask,
                        f.offset,
                        display_name(earlier)
                    ),
                ));
            }
        }
        *union |= m;
    }
    if overlaps > MAX_OVERLAP_REPORTS {
        out.push(Diagnostic::warning(
            "BCSV-008",
            None,
            format!(
                "{} more overlapping fields not listed",
                overlaps - MAX_OVERLAP_REPORTS
            ),
        ));
    }
    let enc = view.encoding();
    let pool_base = view.header().pool_offset();
    // Fields and rows share the file's bytes, so their product can grow with the square of its size:
    // the same bound as the model's keeps checking time linear.
    let cells = (view.len() as u64).saturating_mul(fields.len() as u64);
    if let Err(e) = limits.check_elements(cells, 0) {
        out.push(Diagnostic::error(
            "BCSV-002",
            None,
            format!("cells not checked: {e}"),
        ));
        return out;
    }
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
pub fn validate_model(table: &Table) -> Vec<Diagnostic> {
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
