//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/bcsv.rs`.

use crate::{Table, from_csv, from_json, to_csv, to_json, validate};

/// Parses arbitrary bytes every way the crate can; must never panic. When the bytes parse, the
/// rewrite must equal them and the CSV and JSON forms must convert back to the same bytes.
pub fn fuzz_bcsv(data: &[u8]) {
    let _ = validate(data);
    if let Ok(view) = crate::parse(data) {
        for row in view.rows().take(64) {
            for f in view.fields() {
                let _ = row.cell(&f);
                let _ = row.get_i32(f.hash);
                let _ = row.get_str(f.hash);
            }
        }
    }
    let Ok(table) = Table::parse(data) else {
        return;
    };
    let written = table.write();
    assert_eq!(written.as_deref().ok(), Some(data), "round trip");
    let csv = from_csv(&to_csv(&table)).and_then(|t| t.write());
    assert_eq!(csv.as_deref().ok(), Some(data), "CSV round trip");
    let json = from_json(&to_json(&table)).and_then(|t| t.write());
    assert_eq!(json.as_deref().ok(), Some(data), "JSON round trip");
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = from_csv(text);
    }
}
