#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
//! docs/ARCHITECTURE.md's tables agree with the code: every module its module table names exists
//! in the format crates (and every format crate has the contract module, `format.rs`), and every
//! (crate, feature) pair its feature table names is a feature of that crate's Cargo.toml.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap()
}

/// The rows of the markdown table whose header row starts with `| first |`, as cells.
fn table(doc: &str, first: &str) -> Vec<Vec<String>> {
    let mut lines = doc
        .lines()
        .skip_while(|l| !l.starts_with(&format!("| {first} |")));
    lines.next();
    lines.next();
    lines
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

/// The names in backticks of a cell (`` `a`, `b` `` → a, b).
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The format crates: every crate under `crates/` but the shared ones, the CLI and the Python
/// binding.
fn format_crates() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !matches!(n.as_str(), "gcio" | "gx" | "gcf" | "py"))
        .collect();
    v.sort();
    v
}

#[test]
fn module_table_names_modules_that_exist() {
    let rows = table(&architecture(), "module");
    assert!(rows.len() >= 8, "module table not found");
    let crates = format_crates();
    for row in rows {
        for module in ticked(&row[0]) {
            let holders: Vec<&String> = crates
                .iter()
                .filter(|c| {
                    root()
                        .join("crates")
                        .join(c)
                        .join("src")
                        .join(&module)
                        .exists()
                })
                .collect();
            assert!(!holders.is_empty(), "{module}: in no format crate");
        }
    }
    for c in &crates {
        assert!(
            root().join("crates").join(c).join("src/format.rs").exists(),
            "{c}: no format.rs (its gcio::FileFormat contract)"
        );
    }
}

#[test]
fn feature_table_names_features_that_exist() {
    let rows = table(&architecture(), "crate | feature");
    assert!(rows.len() >= 10, "feature table not found");
    for row in &rows {
        for feature in ticked(&row[1]) {
            for krate in ticked(&row[0]) {
                let manifest = if krate == "gcformats" {
                    root().join("Cargo.toml")
                } else {
                    root().join("crates").join(&krate).join("Cargo.toml")
                };
                let text = std::fs::read_to_string(&manifest)
                    .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
                let section = text.split("[features]").nth(1).unwrap_or("");
                let section = section.split("\n[").next().unwrap_or("");
                assert!(
                    section
                        .lines()
                        .any(|l| l.starts_with(&format!("{feature} ="))),
                    "{krate}: no feature {feature:?} (docs/ARCHITECTURE.md feature table)"
                );
            }
        }
    }
}
