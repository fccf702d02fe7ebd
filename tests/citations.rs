#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
//! Comments and docs cite only what the repository holds: every decision id (`C-NN`) cited in a
//! Rust source is defined in `docs/DECISIONS.md`, and no source or document points at files
//! outside the repository (the project's founding documents and reference notes are not
//! shipped; what we took from them is written down under `docs/`).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Files under `dir` (recursively, skipping `target`) whose name ends with one of `exts`.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name()
                .is_some_and(|n| n != "target" && n != "node_modules")
            {
                files(&p, exts, out);
            }
        } else if exts.iter().any(|x| p.to_string_lossy().ends_with(x)) {
            out.push(p);
        }
    }
}

fn sources() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in [
        "crates", "src", "tests", "benches", "examples", "xtask", "fuzz", "docs",
    ] {
        files(&root().join(d), &[".rs", ".md"], &mut out);
    }
    out.push(root().join("README.md"));
    out.push(root().join("BENCHMARKS.md"));
    out.sort();
    out
}

/// `C-NN` ids in `text` that are not the tail of a longer id such as `RARC-01`.
fn decision_ids(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for i in 0..b.len().saturating_sub(3) {
        let before = i.checked_sub(1).map(|j| b[j]);
        if b[i] == b'C'
            && b[i + 1] == b'-'
            && b[i + 2].is_ascii_digit()
            && b[i + 3].is_ascii_digit()
            && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'-')
            && !b.get(i + 4).is_some_and(u8::is_ascii_digit)
        {
            out.push(text[i..i + 4].to_owned());
        }
    }
    out
}

#[test]
fn decision_ids_resolve_in_docs() {
    let decisions = fs::read_to_string(root().join("docs/DECISIONS.md")).unwrap();
    let defined: BTreeSet<String> = decisions
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| decision_ids(l).into_iter().next())
        .collect();
    let mut missing = Vec::new();
    for p in sources() {
        let text = fs::read_to_string(&p).unwrap();
        for id in decision_ids(&text) {
            if !defined.contains(&id) {
                missing.push(format!("{}: {id}", p.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "undefined decision ids:\n{}",
        missing.join("\n")
    );
}

#[test]
fn nothing_cites_files_outside_the_repository() {
    let outside = ["reference/", "invariants.md", "seeds/", "shared/reference"];
    let mut found = Vec::new();
    for p in sources() {
        if p.ends_with("tests/citations.rs") {
            continue;
        }
        let text = fs::read_to_string(&p).unwrap();
        for (n, line) in text.lines().enumerate() {
            // A test reading the optional shared folder is a read, not a citation.
            let read = line.contains("\"/../../../shared/");
            if !read && outside.iter().any(|o| line.contains(o)) {
                found.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "citations of files outside the repository:\n{}",
        found.join("\n")
    );
}
