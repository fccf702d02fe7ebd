//! `gcf convert` of an edited CSV back to BCSV: a value inside a packed field's range converts and
//! reads back; a value outside (200 in the 7-bit `Sound_code`, a negative one) fails with the row,
//! the column and the allowed range, and writes nothing (no silently truncated table).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::path::{Path, PathBuf};

use support::{gcf_in, scratch};

/// The builder's table as CSV with row `row`'s `Sound_code` cell (7 bits: mask 0x7F00, shift 8)
/// replaced by `value`.
fn edited_csv(row: usize, value: &str) -> String {
    let csv = bcsv::to_csv(&bcsv::build::every_type(4));
    let mut lines: Vec<String> = csv.lines().map(str::to_owned).collect();
    let header = lines.iter().position(|l| !l.starts_with("#bcsv")).unwrap();
    let col = lines[header]
        .split(',')
        .position(|c| c.starts_with("Sound_code:"))
        .unwrap();
    // The builder's first rows hold no quoted cells: commas separate every cell.
    let line = &mut lines[header + 1 + row];
    let mut cells: Vec<&str> = line.split(',').collect();
    cells[col] = value;
    *line = cells.join(",");
    lines.join("\n") + "\n"
}

fn convert(dir: &Path, name: &str, csv: &str) -> (support::Run, PathBuf) {
    std::fs::write(dir.join(format!("{name}.csv")), csv).unwrap();
    let out = format!("{name}.bcsv");
    let run = gcf_in(dir, &["convert", &format!("{name}.csv"), &out]);
    (run, dir.join(out))
}

#[test]
fn convert_refuses_values_past_a_packed_field() {
    let dir = scratch("bcsv-range");
    // In range: converts, and the value reads back.
    let (run, out) = convert(&dir, "edge", &edited_csv(2, "127"));
    run.succeeds();
    let t = bcsv::Table::parse(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(t.get(2, "Sound_code"), Some(&bcsv::Value::Long(127)));
    for (name, value) in [("wide", "200"), ("negative", "-1")] {
        let (run, out) = convert(&dir, name, &edited_csv(2, value));
        // The CSV line (header on line 1), the row, the column and the range.
        run.fails_with(&["line 4", "row 2", "Sound_code", "0..=127", value]);
        assert!(!out.exists(), "{name}: output written");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
