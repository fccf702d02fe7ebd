//! BCSV ⇄ CSV. The header row names each column `name:TYPE` (plus `mask=`, `shift=`, `offset=`
//! where not the default); an optional first line `#bcsv key=value …` carries table properties
//! that are not default; optional trailing columns `#residue` and `#string_offsets` carry per-row
//! bits that no field holds. Together they make `bcsv → csv → bcsv` byte-identical.

use gcio::{Error, Result};

use crate::convert::{apply_meta, column_specs, meta, parse_columns, parse_value, value_text};
use crate::model::Table;
use crate::names::display_name;
use crate::types::FieldType;
use gcio::text::{from_hex, to_hex};

const META: &str = "#bcsv";
const RESIDUE: &str = "#residue";
const OFFSETS: &str = "#string_offsets";

fn push_cell(out: &mut String, s: &str) {
    if s.contains([',', '"', '\n', '\r']) || s.starts_with('#') && out.is_empty() {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(s);
    }
}

fn push_line(out: &mut String, cells: impl IntoIterator<Item = String>) {
    let mut line = String::new();
    for (i, c) in cells.into_iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        push_cell(&mut line, &c);
    }
    // A lone empty cell is quoted so the line is not read as blank.
    out.push_str(if line.is_empty() { "\"\"" } else { &line });
    out.push('\n');
}

/// Writes a table as CSV (UTF-8 text, `\n` line ends, RFC 4180 quoting).
pub fn to_csv(table: &Table) -> String {
    let mut out = String::new();
    let m = meta(table);
    if !m.is_empty() {
        out.push_str(META);
        for (k, v) in m {
            out.push_str(&format!(" {k}={v}"));
        }
        out.push('\n');
    }
    let residue = table.has_residue();
    let offsets = table.stored_pool.is_some();
    let mut header = column_specs(table);
    if residue {
        header.push(RESIDUE.to_owned());
    }
    if offsets {
        header.push(OFFSETS.to_owned());
    }
    push_line(&mut out, header);
    for (r, row) in table.rows().enumerate() {
        let mut cells: Vec<String> = table
            .fields
            .iter()
            .zip(row)
            .map(|(f, v)| value_text(f, v, table.encoding))
            .collect();
        if residue {
            cells.push(to_hex(table.residue(r)));
        }
        if offsets {
            let o: Vec<String> = table.string_offsets(r).iter().map(u32::to_string).collect();
            cells.push(o.join(" "));
        }
        push_line(&mut out, cells);
    }
    out
}

/// Splits CSV text into records of cells (quoted cells may span lines).
fn records(text: &str) -> std::result::Result<Vec<(usize, Vec<String>)>, String> {
    let mut out = Vec::new();
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut start_line = 1;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                c => {
                    if c == '\n' {
                        line += 1;
                    }
                    cell.push(c);
                }
            }
            continue;
        }
        match c {
            '"' if cell.is_empty() => {
                quoted = true;
                any = true;
            }
            ',' => {
                cells.push(std::mem::take(&mut cell));
                any = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                if any || !cell.is_empty() {
                    cells.push(std::mem::take(&mut cell));
                    out.push((start_line, std::mem::take(&mut cells)));
                }
                any = false;
                line += 1;
                start_line = line;
            }
            c => cell.push(c),
        }
    }
    if quoted {
        return Err(format!("line {start_line}: unterminated quoted cell"));
    }
    if any || !cell.is_empty() {
        cells.push(cell);
        out.push((start_line, cells));
    }
    Ok(out)
}

/// Reads a table from [`to_csv`] output (or any CSV with `name:TYPE` headers).
pub fn from_csv(text: &str) -> Result<Table> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let (meta_line, body) = match text.strip_prefix(META) {
        Some(rest) => rest.split_once('\n').unwrap_or((rest, "")),
        None => ("", text),
    };
    let err = |line: usize, m: String| {
        Error::without_offset(gcio::ErrorKind::Invalid(format!("CSV line {line}: {m}")))
    };
    let skip = usize::from(!meta_line.is_empty() || text.starts_with(META));
    let recs = records(body).map_err(|m| err(0, m))?;
    let mut recs = recs.into_iter();
    let Some((hl, header)) = recs.next() else {
        return Err(err(1, "no header row".to_owned()));
    };
    let hl = hl + skip;
    // A table without fields writes its header as one empty (quoted) cell, and so its rows.
    let no_columns = header.len() == 1 && header.first().is_some_and(String::is_empty);
    let header = if no_columns { Vec::new() } else { header };
    let residue_col = header.iter().position(|h| h == RESIDUE);
    let offsets_col = header.iter().position(|h| h == OFFSETS);
    let specs = header
        .iter()
        .filter(|h| !h.starts_with('#'))
        .map(String::as_str);
    let (fields, defaults): (Vec<_>, Vec<_>) = parse_columns(specs)
        .map_err(|m| err(hl, m))?
        .into_iter()
        .unzip();
    let mut table = Table::default();
    table.entry_size = crate::convert::natural_entry_size(&fields);
    table.fields = fields;
    for kv in meta_line.split_whitespace() {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        apply_meta(&mut table, k, v).map_err(|m| err(1, m))?;
    }
    if !meta_line.contains("encoding=") {
        table.encoding = gcio::text::Encoding::for_endian(table.endian);
    }
    for (line, cells) in recs {
        let line = line + skip;
        let cells = if no_columns && cells.len() == 1 && cells.first().is_some_and(String::is_empty)
        {
            Vec::new()
        } else {
            cells
        };
        if cells.len() != header.len() {
            return Err(err(
                line,
                format!("{} cells for {} columns", cells.len(), header.len()),
            ));
        }
        let mut values_out = Vec::with_capacity(table.fields.len());
        let mut residue = Vec::new();
        let mut string_offsets = Vec::new();
        let mut values = table.fields.iter().zip(&defaults);
        for (i, cell) in cells.iter().enumerate() {
            if Some(i) == residue_col {
                residue = from_hex(cell).ok_or_else(|| err(line, "bad #residue hex".to_owned()))?;
            } else if Some(i) == offsets_col {
                string_offsets = cell
                    .split_whitespace()
                    .map(str::parse)
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| err(line, "bad #string_offsets".to_owned()))?;
            } else if let Some((f, default)) = values.next() {
                let numeric = !matches!(f.kind, FieldType::STRING | FieldType::STRING_OFFSET);
                let cell = match default {
                    Some(d) if cell.is_empty() && numeric => d,
                    _ => cell,
                };
                let v = parse_value(f, cell, table.encoding).map_err(|m| {
                    let (r, name) = (table.len(), display_name(f.hash));
                    err(line, format!("row {r}, column {} {name}: {m}", i + 1))
                })?;
                values_out.push(v);
            }
        }
        let r = table
            .push_row(values_out)
            .map_err(|e| err(line, e.to_string()))?;
        table.set_residue(r, residue);
        table.set_string_offsets(r, string_offsets);
    }
    Ok(table)
}
