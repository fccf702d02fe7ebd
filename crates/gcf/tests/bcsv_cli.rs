//! `gcf convert` of an edited CSV back to BCSV: a value inside a packed field's range converts and
//! reads back; a value outside (200 in the 7-bit `Sound_code`, a negative one) fails with the row,
//! the column and the allowed range, and writes nothing (no silently truncated table).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::Path;
use std::process::Command;

fn gcf(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcf"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

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

fn convert(dir: &Path, name: &str, csv: &str) -> (bool, String, std::path::PathBuf) {
    let src = dir.join(format!("{name}.csv"));
    std::fs::write(&src, csv).unwrap();
    let out = dir.join(format!("{name}.bcsv"));
    let (ok, text) = gcf(&["convert", src.to_str().unwrap(), out.to_str().unwrap()]);
    (ok, text, out)
}

#[test]
fn convert_refuses_values_past_a_packed_field() {
    let dir = std::env::temp_dir().join(format!("gcf-bcsv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // In range: converts, and the value reads back.
    let (ok, text, out) = convert(&dir, "edge", &edited_csv(2, "127"));
    assert!(ok, "{text}");
    let t = bcsv::Table::parse(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(t.get(2, "Sound_code"), Some(&bcsv::Value::Long(127)));
    for (name, value) in [("wide", "200"), ("negative", "-1")] {
        let (ok, text, out) = convert(&dir, name, &edited_csv(2, value));
        assert!(!ok, "{name}: {text}");
        // The CSV line (header on line 1), the row, the column and the range.
        for want in ["line 4", "row 2", "Sound_code", "0..=127", value] {
            assert!(text.contains(want), "{name}: no {want:?} in {text}");
        }
        assert!(!out.exists(), "{name}: output written");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
