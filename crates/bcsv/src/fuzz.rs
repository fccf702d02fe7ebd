//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/bcsv.rs`.

use crate::{Table, from_csv, to_csv, validate};
#[cfg(feature = "json")]
use crate::{from_json, to_json};

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
        columns_agree(&view);
    }
    let Ok(table) = Table::parse(data) else {
        return;
    };
    let written = table.write();
    assert_eq!(written.as_deref().ok(), Some(data), "round trip");
    let csv = from_csv(&to_csv(&table)).and_then(|t| t.write());
    assert_eq!(csv.as_deref().ok(), Some(data), "CSV round trip");
    #[cfg(feature = "json")]
    {
        let json = from_json(&to_json(&table)).and_then(|t| t.write());
        assert_eq!(json.as_deref().ok(), Some(data), "JSON round trip");
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = from_csv(text);
    }
}

/// The bulk column reads ([`crate::View::numbers`], `pool_strings`, `inline_strings`) give
/// what the per-cell reads give, for the first 64 rows of every field.
fn columns_agree(view: &crate::View<'_>) {
    use crate::Cell;
    for f in view.fields() {
        let rows = view.rows().take(64);
        if let Some(numbers) = view.numbers(&f) {
            for (n, row) in numbers.zip(rows) {
                let bits = match row.cell(&f) {
                    Ok(Cell::Long(v)) => Some(v as u32),
                    Ok(Cell::Float(v)) => Some(v.to_bits()),
                    Ok(Cell::Long2(v)) => Some(v),
                    Ok(Cell::Short(v)) => Some(u32::from(v as u16)),
                    Ok(Cell::Char(v)) => Some(u32::from(v as u8)),
                    _ => None,
                };
                assert_eq!(Some(n), bits, "column of numbers");
            }
        } else if let Some(strings) = view.pool_strings(&f) {
            for (s, row) in strings.zip(rows) {
                let cell = row.cell(&f);
                let same = match (&s, &cell) {
                    (Ok(a), Ok(Cell::StringOffset(b))) => a == b,
                    (Err(_), Err(_)) => true,
                    _ => false,
                };
                assert!(same, "column of pool strings: {s:?} {cell:?}");
            }
        } else if let Some(inline) = view.inline_strings(&f) {
            for (b, row) in inline.zip(rows) {
                assert!(
                    matches!(row.cell(&f), Ok(Cell::InlineString(c)) if c == b),
                    "column of inline strings"
                );
            }
        } else {
            assert!(f.kind.size().is_none(), "a field without a column read");
        }
    }
}

/// The samples' text forms (`to_csv` or `to_json`), the templates the text fuzz bodies edit.
#[cfg(feature = "test-support")]
fn templates(json: bool) -> &'static [String] {
    static CSV: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    static JSON: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let make = move || {
        crate::build::samples()
            .iter()
            .filter_map(|(_, b)| Table::parse(b).ok())
            .map(|t| {
                #[cfg(feature = "json")]
                if json {
                    return serde_json::to_string_pretty(&to_json(&t)).unwrap_or_default();
                }
                to_csv(&t)
            })
            .collect()
    };
    if json {
        JSON.get_or_init(make)
    } else {
        CSV.get_or_init(make)
    }
}

/// Converts a sample's text form with the edits `data` chooses ([`gcio::mutate_text`]) the way
/// `gcf convert` does; whatever converts must write a table that parses and writes back to the
/// same bytes. Never panics, hangs or allocates without bound (declared entry sizes included).
#[cfg(feature = "test-support")]
fn fuzz_text(data: &[u8], json: bool) {
    let templates = templates(json);
    let (Some(&pick), Some(edits)) = (data.first(), data.get(1..)) else {
        return;
    };
    let Some(template) = templates.get(usize::from(pick) % templates.len().max(1)) else {
        return;
    };
    let text = gcio::mutate_text(template, edits);
    let table = match json {
        #[cfg(feature = "json")]
        true => match serde_json::from_str(&text) {
            Ok(j) => from_json(&j),
            Err(_) => return,
        },
        _ => from_csv(&text),
    };
    let Ok(bytes) = table.and_then(|t| t.write()) else {
        return;
    };
    let back = Table::parse(&bytes);
    assert!(back.is_ok(), "a written table parses: {back:?}");
    let Ok(back) = back else { return };
    assert_eq!(back.write().ok(), Some(bytes), "written table round-trips");
}

/// CSV → BCSV, the path of `gcf convert x.csv x.bcsv` (see `fuzz_text`).
#[cfg(feature = "test-support")]
pub fn fuzz_bcsv_csv(data: &[u8]) {
    fuzz_text(data, false);
}

/// JSON → BCSV, the path of `gcf convert x.json x.bcsv` (see `fuzz_text`).
#[cfg(all(feature = "json", feature = "test-support"))]
pub fn fuzz_bcsv_json(data: &[u8]) {
    fuzz_text(data, true);
}
