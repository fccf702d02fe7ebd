//! The README and `gcf convert --help` agree with the registry: the identify list names exactly
//! the names detection reports, the format table has a row for every format, and the help lists
//! every conversion the formats declare — which must cover the conversions the tool has always
//! offered (the pairs below, from the hand-written help text the registry replaced).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod support;

use std::collections::BTreeSet;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap()
}

/// The names in backticks of `text` that look like format names.
fn names_in(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|n| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn readme_identify_list_is_the_registry_names() {
    let text = readme();
    let start = text.find("- `gcf identify FILE...`").unwrap();
    let end = start + text[start..].find("\n- `gcf ").unwrap();
    let listed = names_in(&text[start..end]);
    let mut all = BTreeSet::from(["unknown".to_owned()]);
    let mut required = all.clone();
    for f in gcformats::registry() {
        all.insert(f.name().to_owned());
        all.extend(f.aliases().iter().map(|a| (*a).to_owned()));
        // A family reports its variants' names; a format without variants its own.
        if f.aliases().is_empty() {
            required.insert(f.name().to_owned());
        }
        required.extend(f.aliases().iter().map(|a| (*a).to_owned()));
    }
    let unknown: Vec<_> = listed.difference(&all).collect();
    assert!(unknown.is_empty(), "README names no format: {unknown:?}");
    let missing: Vec<_> = required.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "README's identify list lacks {missing:?}"
    );
}

#[test]
fn readme_format_table_has_a_row_per_format() {
    let text = readme();
    let firsts: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("| format |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split(" | ").next().unwrap_or("").to_ascii_lowercase())
        .collect();
    assert!(firsts.len() >= 10, "format table not found");
    for f in gcformats::registry() {
        assert!(
            firsts.iter().any(|c| c.contains(f.name())),
            "README's format table has no row for {}",
            f.name()
        );
    }
    let rows: BTreeSet<&String> = firsts.iter().collect();
    assert_eq!(rows.len(), firsts.len(), "a README row appears twice");
}

#[test]
fn convert_help_lists_every_declared_conversion() {
    let help = support::run(&["convert", "--help"])
        .succeeds()
        .stdout
        .clone();
    let mut declared = BTreeSet::new();
    for f in gcformats::registry() {
        for c in f.conversions() {
            assert!(
                help.contains(&c.line()),
                "{}: {:?} not in the help",
                f.name(),
                c
            );
            for from in c.from {
                for to in c.to {
                    declared.insert((*from, *to));
                }
            }
        }
    }
    for pair in [
        ("szs", "arc"),
        ("arc", "szs"),
        ("bcsv", "csv"),
        ("bcsv", "json"),
        ("csv", "bcsv"),
        ("json", "bcsv"),
        ("bms", "txt"),
        ("bms", "mid"),
        ("txt", "bms"),
        ("bti", "png"),
        ("png", "bti"),
        ("tpl", ""),
        ("", "tpl"),
        ("canm", "json"),
        ("json", "canm"),
        ("brlyt", "json"),
        ("json", "brlyt"),
        ("brlan", "json"),
        ("json", "brlan"),
        ("bas", "json"),
        ("json", "bas"),
        ("bmd", "glb"),
        ("bdl", "obj"),
        ("dat", "obj"),
        ("dat", "glb"),
        ("dat", ""),
        ("pkx", "json"),
        ("json", "pkx"),
        ("gpl", "json"),
        ("bnk", "json"),
        ("json", "bnk"),
        ("msbf", "json"),
        ("msbf", "dot"),
        ("json", "msbf"),
        ("kcl", "obj"),
        ("obj", "kcl"),
        ("bck", "json"),
        ("json", "bck"),
    ] {
        let (from, to) = pair;
        let covered = declared
            .iter()
            .any(|&(f, t)| (f == from || f == "*") && (t == to || t == "*"));
        assert!(covered, "no format declares {pair:?}");
    }
}

#[test]
fn check_help_lists_every_check_option() {
    let help = support::run(&["check", "--help"]).succeeds().stdout.clone();
    let mut keys = 0;
    for f in gcformats::registry() {
        for (key, what) in f.check_options() {
            assert!(
                help.contains(&format!("{key}={what}")),
                "{}: {key}",
                f.name()
            );
            keys += 1;
        }
    }
    // model (j3d-anim), wsys (ibnk), object and messages (msbf), kind (pkx).
    assert!(keys >= 5, "{help}");
}
