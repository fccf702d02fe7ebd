//! Golden table: one broken variant of the sample per rule id, and the id the validator reports.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use canm::{Canm, build};
use gcio::{RuleCase, Severity, check_rule_cases};

fn ids(a: &Canm) -> Vec<String> {
    canm::validate(&a.write().unwrap())
        .into_iter()
        .map(|d| d.rule)
        .collect()
}

fn bytes(t: &Canm) -> Vec<u8> {
    t.write().unwrap_or_else(|e| panic!("{e}"))
}

/// The severity `docs/rules` gives each rule.
fn severity(id: &str) -> Severity {
    match id {
        "CANM-001" | "CANM-002" | "CANM-003" | "CANM-004" => Severity::Error,
        "CANM-005" | "CANM-006" | "CANM-007" | "CANM-008" | "CANM-011" => Severity::Warning,
        _ => Severity::Info,
    }
}

#[test]
fn each_rule_fires() {
    type Case = (&'static str, fn() -> Vec<u8>);
    let cases: Vec<Case> = vec![
        ("CANM-001", || {
            let mut b = build::sample().write().unwrap();
            b[5] = b'X';
            b
        }),
        ("CANM-002", || {
            let mut a = build::sample();
            a.header[0] = 0;
            bytes(&a)
        }),
        ("CANM-003", || {
            let mut a = build::sample();
            a.tracks[1].offset = 1000;
            bytes(&a)
        }),
        ("CANM-004", || {
            let mut a = build::sample();
            a.tracks[3].count = 0;
            bytes(&a)
        }),
        ("CANM-005", || {
            let mut a = build::sample();
            let o = a.tracks[0].offset as usize;
            a.values[o + 3] = 130.0; // key 1 after key 2
            bytes(&a)
        }),
        ("CANM-006", || {
            let mut a = build::sample();
            let o = a.tracks[0].offset as usize;
            a.values[o] = 5.0;
            bytes(&a)
        }),
        ("CANM-007", || {
            let mut a = build::sample();
            a.frames = 0;
            bytes(&a)
        }),
        ("CANM-008", || {
            let mut a = build::sample();
            a.frames = 200;
            bytes(&a)
        }),
        ("CANM-009", || {
            let mut a = build::sample();
            a.tracks[7].layout = 2;
            bytes(&a)
        }),
        ("CANM-010", || {
            let mut a = build::sample();
            a.gap = vec![0, 0, 0, 1];
            bytes(&a)
        }),
        ("CANM-011", || {
            let mut a = build::sample();
            let o = a.tracks[1].offset as usize;
            a.values[o] = f32::INFINITY;
            bytes(&a)
        }),
    ];
    let table: Vec<RuleCase<'_, Vec<u8>>> = cases
        .iter()
        .map(|&(id, make)| (id, make, severity(id), id))
        .collect();
    if let Err(e) = check_rule_cases(&table, |b| canm::validate(b)) {
        panic!("{e}");
    }
    assert!(ids(&build::sample()).is_empty());
    assert!(ids(&build::sample_frames()).is_empty());
}

#[test]
fn errors_name_structure_and_offset() {
    let mut b = build::sample().write().unwrap();
    b[0x1C..0x20].copy_from_slice(&0x10u32.to_be_bytes());
    let e = canm::Canm::parse(&b).unwrap_err().to_string();
    assert!(
        e.contains("overlaps the track table") && e.contains("0x1c"),
        "{e}"
    );
    let b = build::sample().write().unwrap();
    let e = canm::Canm::parse(&b[..0x90]).unwrap_err().to_string();
    assert!(e.contains("value block"), "{e}");
}
