#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Retail sysdolphin files in `../shared/corpus/real/hsd` (skipped when absent): the validator
//! finds no error on files the game loads, `compile` lays each out again in the order of the
//! compiler that wrote it (BNB against the original), and the rebuilt file is a fixed point that
//! round-trips byte for byte. `cargo test -p gcformats-hsd-dat --test real -- --nocapture` prints the
//! figures.

use hsd_dat::Dat;
use hsd_dat::compile::{Detection, Order, compile, detect};

/// Files whose compiler order `compile` does not fully reproduce yet, with the BNB it reaches.
/// Every other model file must reach `MIN_BNB`.
const KNOWN: [(&str, f64); 0] = [];

/// The bar for a rebuilt model.
const MIN_BNB: f64 = 99.5;

/// BNB of each file against its model laid out by the order rules alone (no texture list,
/// `compare::RulesAlone`), as measured (docs/HSD-ORDER.md): a floor, so a rule change that
/// loses ground on any file fails. Files not listed must reach 100 %.
const RULES_ALONE: [(&str, f64); 1] = [("PlMr-PlMrNr.dat", 99.90)];

fn real_files() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/hsd", "hsd-dat real")
    else {
        return Vec::new();
    };
    let entries = std::fs::read_dir(dir).unwrap();
    let mut files: Vec<(String, Vec<u8>)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "dat"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn retail_files_have_no_errors() {
    for (name, bytes) in real_files() {
        let errors: Vec<String> = hsd_dat::validate(&bytes)
            .into_iter()
            .filter(|d| d.severity == gcio::Severity::Error)
            .map(|d| d.to_string())
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}

#[test]
fn retail_files_rebuild_in_their_compilers_order() {
    let files = real_files();
    let mut checked = 0;
    for (name, bytes) in &files {
        let (name, bytes) = (name.as_str(), bytes.as_slice());
        let a = hsd_dat::parse(bytes).unwrap();
        let order = Order::detect(&a);
        let out = compile(&Dat::parse(bytes).unwrap())
            .unwrap()
            .write()
            .unwrap();
        let c = hsd_dat::compare::compare(bytes, &out).unwrap();
        eprintln!(
            "{name}: {order:?}, BNB {:.2} % NBN {:.2} % ({} -> {} bytes)",
            c.bnb,
            c.nbn_percent(),
            bytes.len(),
            out.len()
        );
        for r in &c.regions {
            eprintln!("  {:?} {:?} {:.2}", r.phase, r.bytes, r.bnb);
        }
        let floor = KNOWN.iter().find(|k| k.0 == name).map_or(MIN_BNB, |k| k.1);
        assert!(c.bnb >= floor, "{name}: BNB {:.2} < {floor}", c.bnb);
        let rules = c.rules_alone.unwrap().bnb;
        eprintln!("  rules alone: BNB {rules:.2}");
        let floor = RULES_ALONE
            .iter()
            .find(|k| k.0 == name)
            .map_or(100.0, |k| k.1);
        assert!(
            rules >= floor - 0.005,
            "{name}: rules-alone BNB {rules:.2} < {floor}"
        );
        checked += 1;
        assert_eq!(c.nbn_percent(), 100.0, "{name}: {:?}", c.nbn);
        // The rebuilt file: no errors, round-trips identically, detects the same order and is a
        // fixed point of `compile`.
        let again = Dat::parse(&out).unwrap();
        assert_eq!(again.write().unwrap(), out, "{name}");
        let b = hsd_dat::parse(&out).unwrap();
        assert_eq!(Order::detect(&b), order, "{name}");
        let found = detect(&again).unwrap();
        assert!(
            found == Detection::Compiled(order) || found == Detection::Either,
            "{name}: {found:?}"
        );
        assert!(
            hsd_dat::validate_view(&b)
                .iter()
                .all(|d| d.severity != gcio::Severity::Error),
            "{name}"
        );
        assert!(compile(&again).unwrap().write().unwrap() == out, "{name}");
    }
    assert_eq!(checked, files.len());
    eprintln!("{checked} real files");
}

/// The Melee files detect as Melee; the m-ex data file has no meshes or joints to tell by and
/// takes the default. No retail file is exactly either compiler's output (`detect` says they
/// resemble one), except where both compilers agree on the whole layout.
#[test]
fn retail_orders_are_detected() {
    for (name, bytes) in real_files() {
        let order = Order::detect(&hsd_dat::parse(&bytes).unwrap());
        let found = detect(&Dat::parse(&bytes).unwrap()).unwrap();
        let expect = if name.starts_with("m-ex") {
            assert!(
                matches!(found, Detection::Undecided | Detection::Either),
                "{name}: {found:?}"
            );
            Order::ColosseumXd
        } else {
            assert!(
                matches!(
                    found,
                    Detection::Resembles(Order::Melee) | Detection::Compiled(Order::Melee)
                ),
                "{name}: {found:?}"
            );
            Order::Melee
        };
        assert_eq!(order, expect, "{name}");
        assert_eq!(found.order(), expect, "{name}");
    }
}
