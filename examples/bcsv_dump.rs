//! Dumps BCSV tables: the fields, then every row decoded as the game reads it, then a check.
//!
//! ```text
//! cargo run --example bcsv_dump --features bcsv -- scenariodata.bcsv [--csv]
//! ```
//! With `--csv` it prints the lossless CSV instead (convert back with `gcf convert a.csv a.bcsv`).
#![allow(clippy::print_stdout)]

use gcformats::bcsv::{self, Cell, display_name};

fn dump(path: &str, data: &[u8], csv: bool) -> Result<(), String> {
    if csv {
        let table = bcsv::Table::parse(data).map_err(|e| e.to_string())?;
        print!("{}", bcsv::to_csv(&table));
        return Ok(());
    }
    let view = bcsv::parse(data).map_err(|e| e.to_string())?;
    println!(
        "{path}: {} rows, entry size {}, {:?}",
        view.len(),
        view.entry_size(),
        view.endian()
    );
    for f in view.fields() {
        println!(
            "  field {:<20} {:<13} offset {:>3} mask {:08X} shift {}",
            display_name(f.hash),
            f.kind.to_string(),
            f.offset,
            f.mask,
            f.shift
        );
    }
    let fields: Vec<_> = view.fields().collect();
    for row in view.rows() {
        let cells: Vec<String> = fields
            .iter()
            .map(|f| match row.cell(f) {
                Ok(Cell::StringOffset(_) | Cell::InlineString(_)) => row
                    .get_str(f.hash)
                    .map(|s| format!("{s:?}"))
                    .unwrap_or_else(|e| format!("<{e}>")),
                Ok(Cell::Float(v)) => v.to_string(),
                // Signed where the game reads signed (plain fields), else the unsigned bit field.
                Ok(_) if f.is_plain() => row
                    .get_i32(f.hash)
                    .map_or_else(|e| e.to_string(), |v| v.to_string()),
                Ok(_) => row
                    .get_u32(f.hash)
                    .map_or_else(|e| e.to_string(), |v| v.to_string()),
                Err(e) => format!("<{e}>"),
            })
            .collect();
        println!("  {:>4}: {}", row.index(), cells.join(" | "));
    }
    for d in bcsv::validate(data) {
        println!("  {d}");
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let csv = args.iter().any(|a| a == "--csv");
    let mut status = 0;
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let result = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|d| dump(path, &d, csv));
        if let Err(e) = result {
            eprintln!("{path}: {e}");
            status = 1;
        }
    }
    if args.is_empty() {
        // No file given: dump a built-in sample table.
        let bytes = bcsv::build::every_type(4).write().unwrap_or_default();
        let _ = dump("<built-in>", &bytes, csv);
    }
    std::process::exit(status);
}
