//! BCSV / JMap tables: the crate's contract (`bcsv::Format`: strict header-arithmetic detection
//! with no magic, where the extension only breaks ties; parse, write, the validator) presented
//! with `info` (the table), survey facts and `convert` BCSV ⇄ CSV and BCSV ⇄ JSON losslessly.

use bcsv::Table;
#[cfg(feature = "convert")]
use gcio::Error;
use gcio::Result;
use std::fmt::Write as _;

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The BCSV format's presentation.
pub struct Bcsv;

/// The registry entry.
pub static ENTRY: Registered<bcsv::Format, Bcsv> = Registered::new(Bcsv);

/// Rows `info` prints before summarising the rest.
const INFO_ROWS: usize = 200;

#[cfg(feature = "convert")]
fn is_table_path(name: &str) -> bool {
    bcsv::EXTENSIONS.contains(&extension_of(name).as_str())
}

/// The table as aligned text columns (header = column specs).
fn table_text(table: &Table) -> String {
    let header: Vec<String> = table
        .fields
        .iter()
        .map(|f| format!("{}:{}", bcsv::display_name(f.hash), f.kind))
        .collect();
    let rows: Vec<Vec<String>> = table
        .rows()
        .take(INFO_ROWS)
        .map(|r| {
            table
                .fields
                .iter()
                .zip(r)
                .map(|(f, v)| {
                    let c = bcsv::cell_text(f, v, table.encoding);
                    c.replace('\n', "\\n").replace('\t', "\\t")
                })
                .collect()
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    for line in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .map(|(c, &w)| format!("{c}{}", " ".repeat(w.saturating_sub(c.chars().count()))))
            .collect();
        let _ = writeln!(out, "  {}", cells.join("  ").trim_end());
    }
    if table.len() > INFO_ROWS {
        let _ = writeln!(
            out,
            "  … {} more rows (gcf convert FILE out.csv for all)",
            table.len() - INFO_ROWS
        );
    }
    out
}

impl Present<bcsv::Format> for Bcsv {
    fn info(&self, _data: &Input<'_>, table: &Table) -> Result<Info> {
        let mut text = format!(
            "{} rows × {} fields, entry size {}, {}-endian, {}\n",
            table.len(),
            table.fields.len(),
            table.entry_size,
            if table.endian == gcio::Endian::Big {
                "big"
            } else {
                "little"
            },
            table.encoding.name()
        );
        text.push_str("fields:\n");
        for f in &table.fields {
            let _ = writeln!(
                text,
                "  {:<24} {:<13} hash {:08X} offset {:>4} mask {:08X} shift {:>2}",
                bcsv::display_name(f.hash),
                f.kind.to_string(),
                f.hash,
                f.offset,
                f.mask,
                f.shift
            );
        }
        text.push_str("rows:\n");
        text.push_str(&table_text(table));
        let schema = bcsv::schema::recognise(table);
        if let Some(schema) = schema {
            text.insert_str(0, &format!("schema: {}\n", schema.name));
        }
        #[cfg(feature = "json")]
        let json = {
            let mut json = bcsv::to_json(table);
            if let Some(obj) = json.as_object_mut() {
                obj.insert("row_count".into(), serde_json::json!(table.len()));
                if let Some(schema) = schema {
                    obj.insert("schema".into(), serde_json::json!(schema.name));
                }
            }
            json
        };
        #[cfg(not(feature = "json"))]
        let json = ();
        Ok(Info { text, json })
    }

    /// Survey facts: field hashes no dictionary name matches (`unknown hash [XXXXXXXX]`, to grow
    /// the dictionary from real discs), packed (masked) fields, and the byte order.
    fn facts(&self, _data: &Input<'_>, table: &Table) -> Vec<(String, u64)> {
        let mut facts = vec![(format!("byte order {:?}", table.endian), 1)];
        for f in &table.fields {
            if bcsv::names::lookup(f.hash).is_none() {
                facts.push((format!("unknown hash [{:08X}]", f.hash), 1));
            }
            if !f.is_plain() {
                facts.push(("packed field".to_owned(), 1));
            }
        }
        facts
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        let (src, dst) = (extension_of(from), extension_of(to));
        let bytes_in = is_table_path(from)
            || (!matches!(src.as_str(), "csv" | "json") && bcsv::sniff(input).is_some());
        let result = match (bytes_in, dst.as_str(), src.as_str()) {
            (true, "csv", _) => {
                Table::parse_with(input, limits).map(|t| bcsv::to_csv(&t).into_bytes())
            }
            (true, "json", _) => Table::parse_with(input, limits).and_then(|t| {
                serde_json::to_vec_pretty(&bcsv::to_json(&t))
                    .map_err(|e| Error::message(e.to_string()))
            }),
            (false, _, "csv") if is_table_path(to) => std::str::from_utf8(input)
                .map_err(|e| Error::message(format!("CSV is not UTF-8: {e}")))
                .and_then(bcsv::from_csv)
                .and_then(|t| t.write_with(limits)),
            (false, _, "json") if is_table_path(to) => serde_json::from_slice(input)
                .map_err(|e| Error::message(format!("JSON: {e}")))
                .and_then(|j| bcsv::from_json(&j))
                .and_then(|t| t.write_with(limits)),
            _ => return Ok(None),
        };
        result.map(|out| Some(one_file(to, out)))
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        bcsv::build::samples()
    }
}
