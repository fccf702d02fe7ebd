#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]
//! The rules catalogue (`docs/rules/*.md`), the README's validate column and the code agree:
//! every rule id the code emits is catalogued and marked `checked`, every id marked `checked` is
//! emitted, the README names exactly the checked ids, and the crates listed in [`TRIGGERED`] have a
//! test naming each id they emit (their broken-variant tables), and the severity each
//! broken-variant table (`crates/*/tests/rules.rs`) expects is one the catalogue gives the id.
//!
//! "Emitted" means a string literal `"FAM-NNN"` in `crates/*/src` (rule ids are never built at run
//! time) or a rule id in a crate's schema data (`crates/*/data/*.txt`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Crates whose tests trigger every rule id their sources emit.
const TRIGGERED: &[&str] = &[
    "bms",
    "msbf",
    "ibnk",
    "gpl-facial",
    "pkx",
    "rarc",
    "yaz0",
    "bcsv",
    "hsd-dat",
    "j3d-bmd",
    "j3d-anim",
    "tpl",
    "canm",
    "kcl",
    "brlyt",
    "brlan",
    "brfnt",
    "bas",
    "jpc",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A rule id: an upper-case family name (letters and digits), `-`, three digits.
fn is_id(s: &str) -> bool {
    let Some((family, number)) = s.split_once('-') else {
        return false;
    };
    family.starts_with(|c: char| c.is_ascii_uppercase())
        && family
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && number.len() == 3
        && number.chars().all(|c| c.is_ascii_digit())
}

fn family(id: &str) -> &str {
    id.split_once('-').map_or(id, |(f, _)| f)
}

/// Files under `dir` (recursively) whose name ends with `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.to_string_lossy().ends_with(ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Ids quoted as string literals in Rust sources (`"BMS-005"`).
fn quoted_ids(paths: &[PathBuf]) -> BTreeSet<String> {
    paths
        .iter()
        .flat_map(|p| {
            read(p)
                .split('"')
                .filter(|s| is_id(s))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Crate directory name → ids its sources and schema data emit.
fn emitted() -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for krate in fs::read_dir(root().join("crates")).unwrap().flatten() {
        let dir = krate.path();
        let name = krate.file_name().to_string_lossy().into_owned();
        let mut ids = quoted_ids(&files(&dir.join("src"), ".rs"));
        for p in files(&dir.join("data"), ".txt") {
            ids.extend(
                read(&p)
                    .split_whitespace()
                    .filter(|w| is_id(w))
                    .map(str::to_owned),
            );
        }
        out.insert(name, ids);
    }
    out
}

/// One catalogue row.
#[derive(Debug)]
struct Row {
    file: String,
    checked: bool,
    /// The severity cell (`error`, `error / warning`, `—`).
    severity: String,
}

/// Every row of `docs/rules/*.md`: id → file and status.
fn catalogue() -> BTreeMap<String, Row> {
    let mut out = BTreeMap::new();
    for p in files(&root().join("docs/rules"), ".md") {
        let file = p.file_name().unwrap().to_string_lossy().into_owned();
        for line in read(&p).lines().filter(|l| l.starts_with("| ")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let Some(&id) = cells.get(1).filter(|c| is_id(c)) else {
                continue;
            };
            assert_eq!(cells.len(), 7, "{file}: {id}: expected 5 columns: {line}");
            let status = cells[5];
            let checked = status == "checked" || status.starts_with("checked — ");
            assert!(
                checked || status.starts_with("not checked — "),
                "{file}: {id}: status must be `checked` or `not checked — why`: {status:?}"
            );
            let old = out.insert(
                id.to_owned(),
                Row {
                    file: file.clone(),
                    checked,
                    severity: cells[4].to_owned(),
                },
            );
            assert!(old.is_none(), "{id} catalogued twice ({file}, {old:?})");
        }
    }
    out
}

/// The ids a README validate cell names. The cell reads `✓ SPEC — free text`: SPEC starts at the
/// first rule id and lists ids and ranges separated by commas or semicolons (`BMS-001…009, 011`);
/// a bare number continues the last family named.
fn readme_cell_ids(cell: &str) -> Result<BTreeSet<String>, String> {
    let spec = cell.split(" — ").next().unwrap_or_default();
    let mut out = BTreeSet::new();
    let mut fam: Option<String> = None;
    for item in spec.split([',', ';', ' ']).filter(|t| !t.is_empty()) {
        let (first, last) = item.split_once('…').unwrap_or((item, ""));
        let start = if is_id(first) {
            fam = Some(family(first).to_owned());
            first.split_once('-').map_or("", |(_, n)| n)
        } else if fam.is_none() {
            continue; // "✓", "yes": text before the first id
        } else {
            first
        };
        let Some(f) = &fam else { continue };
        let number = |s: &str| -> Result<u32, String> {
            if s.len() == 3 {
                s.parse().map_err(|_| format!("{item:?} in {cell:?}"))
            } else {
                Err(format!("{item:?} in {cell:?}: not an id, NNN or a range"))
            }
        };
        let a = number(start)?;
        let b = if last.is_empty() { a } else { number(last)? };
        if b < a {
            return Err(format!("{item:?}: empty range"));
        }
        out.extend((a..=b).map(|n| format!("{f}-{n:03}")));
    }
    Ok(out)
}

/// Ids named by the validate column of the README's format status table.
fn readme() -> BTreeSet<String> {
    let text = read(&root().join("README.md"));
    let mut lines = text.lines().skip_while(|l| !l.starts_with("| format |"));
    let header: Vec<&str> = lines
        .next()
        .expect("format status table")
        .split('|')
        .collect();
    let col = header
        .iter()
        .position(|h| h.trim() == "validate")
        .expect("a validate column");
    let mut out = BTreeSet::new();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cell = line.split('|').nth(col).unwrap_or_default();
        out.extend(readme_cell_ids(cell).unwrap_or_else(|e| panic!("README: {e}")));
    }
    out
}

#[test]
fn readme_cell_grammar() {
    let ids = readme_cell_ids("✓ BMS-001…003, 005; YAZ0-002 — text 007, MSBF-001").unwrap();
    let want = ["BMS-001", "BMS-002", "BMS-003", "BMS-005", "YAZ0-002"];
    assert_eq!(ids.into_iter().collect::<Vec<_>>(), want);
    assert!(readme_cell_ids("yes (no rules)").unwrap().is_empty());
    assert!(readme_cell_ids("✓ BMS-001 (note)").is_err());
    assert!(readme_cell_ids("✓ BMS-004…002").is_err());
}

#[test]
fn catalogue_code_and_readme_agree() {
    let emitted = emitted();
    let all: BTreeSet<&String> = emitted.values().flatten().collect();
    let cat = catalogue();
    let mut problems = Vec::new();
    for id in &all {
        match cat.get(*id) {
            None => problems.push(format!("{id} is emitted but not catalogued")),
            Some(r) if !r.checked => {
                problems.push(format!("{id} is emitted but {} says not checked", r.file))
            }
            Some(_) => {}
        }
    }
    for (id, r) in &cat {
        if r.checked && !all.contains(id) {
            problems.push(format!("{id}: {} says checked, no code emits it", r.file));
        }
    }
    // One file per family, numbered without gaps (ids are never reused or renumbered).
    let mut families: BTreeMap<&str, (BTreeSet<&str>, Vec<u32>)> = BTreeMap::new();
    for (id, r) in &cat {
        let e = families.entry(family(id)).or_default();
        e.0.insert(&r.file);
        e.1.push(id[id.len() - 3..].parse().unwrap());
    }
    for (f, (in_files, numbers)) in &families {
        if in_files.len() != 1 {
            problems.push(format!("{f} ids are spread over {in_files:?}"));
        }
        // Numbered without gaps from 001 (J3DA starts at 000: "does not parse").
        let first = numbers.first().copied().unwrap_or(1).min(1);
        if numbers
            .iter()
            .copied()
            .ne(first..first + numbers.len() as u32)
        {
            problems.push(format!("{f} ids are not numbered without gaps"));
        }
    }
    let checked: BTreeSet<String> = cat
        .iter()
        .filter(|(_, r)| r.checked)
        .map(|(id, _)| id.clone())
        .collect();
    let readme = readme();
    for id in readme.difference(&checked) {
        problems.push(format!(
            "README names {id}, the catalogue does not mark it checked"
        ));
    }
    for id in checked.difference(&readme) {
        problems.push(format!(
            "{id} is checked, the README's validate column omits it"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_emitted_id_has_a_triggering_test() {
    let mut problems = Vec::new();
    for (krate, ids) in emitted() {
        let tested = quoted_ids(&files(
            &root().join("crates").join(&krate).join("tests"),
            ".rs",
        ));
        let missing: Vec<&String> = ids.difference(&tested).collect();
        if missing.is_empty() {
            continue;
        }
        if TRIGGERED.contains(&krate.as_str()) {
            problems.push(format!("{krate}: no test names {missing:?}"));
        } else {
            eprintln!("{krate} (not yet required): no test names {missing:?}");
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// (file, id, severity) of every broken-variant row written `Severity, "ID"` (the shape of the
/// `gcio::RuleCase` tables in `crates/*/tests/rules.rs`).
fn table_severities() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for p in files(&root().join("crates"), "/tests/rules.rs") {
        let text = read(&p);
        let parts: Vec<&str> = text.split('"').collect();
        for (before, id) in parts.iter().zip(parts.iter().skip(1)) {
            if !is_id(id) {
                continue;
            }
            let Some(head) = before.trim_end().strip_suffix(',') else {
                continue;
            };
            let word = head
                .rsplit(|c: char| !c.is_ascii_alphabetic())
                .next()
                .unwrap_or_default();
            if ["Error", "Warning", "Info"].contains(&word) {
                out.push((
                    p.display().to_string(),
                    (*id).to_owned(),
                    word.to_ascii_lowercase(),
                ));
            }
        }
    }
    out
}

#[test]
fn broken_variants_expect_catalogued_severities() {
    let cat = catalogue();
    let rows = table_severities();
    assert!(rows.len() > 100, "found only {} table rows", rows.len());
    let problems: Vec<String> = rows
        .iter()
        .filter(|(_, id, sev)| {
            !cat.get(id)
                .is_some_and(|r| r.severity.split('/').any(|s| s.trim() == sev.as_str()))
        })
        .map(|(file, id, sev)| {
            let listed = cat.get(id).map_or("nothing", |r| r.severity.as_str());
            format!("{file}: {id} expects {sev}, the catalogue lists {listed}")
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A crate with a broken-variant table covers every severity the catalogue gives each id it
/// emits (a rule reported as error or warning has a row for each).
#[test]
fn tables_cover_every_catalogued_severity() {
    let cat = catalogue();
    let mut tested: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (file, id, sev) in table_severities() {
        let krate = Path::new(&file)
            .parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        tested
            .entry(krate)
            .or_default()
            .entry(id)
            .or_default()
            .insert(sev);
    }
    let mut problems = Vec::new();
    for (krate, ids) in emitted() {
        let Some(rows) = tested.get(&krate) else {
            continue;
        };
        for id in ids {
            let Some(r) = cat.get(&id) else { continue };
            let have = rows.get(&id).cloned().unwrap_or_default();
            for want in r.severity.split('/').map(str::trim) {
                if !have.contains(want) {
                    problems.push(format!("{krate}: no {want} row for {id}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
