//! Golden table: one broken variant of the sample per rule id, and the id the validator reports.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use canm::{Canm, build};

fn ids(a: &Canm) -> Vec<String> {
    canm::validate(&a.write().unwrap())
        .into_iter()
        .map(|d| d.rule)
        .collect()
}

#[test]
fn each_rule_fires() {
    type Case = (&'static str, fn() -> Vec<String>);
    let cases: Vec<Case> = vec![
        ("CANM-001", || {
            let mut b = build::sample().write().unwrap();
            b[5] = b'X';
            canm::validate(&b).into_iter().map(|d| d.rule).collect()
        }),
        ("CANM-002", || {
            let mut a = build::sample();
            a.header[0] = 0;
            ids(&a)
        }),
        ("CANM-003", || {
            let mut a = build::sample();
            a.tracks[1].offset = 1000;
            ids(&a)
        }),
        ("CANM-004", || {
            let mut a = build::sample();
            a.tracks[3].count = 0;
            ids(&a)
        }),
        ("CANM-005", || {
            let mut a = build::sample();
            let o = a.tracks[0].offset as usize;
            a.values[o + 3] = 130.0; // key 1 after key 2
            ids(&a)
        }),
        ("CANM-006", || {
            let mut a = build::sample();
            let o = a.tracks[0].offset as usize;
            a.values[o] = 5.0;
            ids(&a)
        }),
        ("CANM-007", || {
            let mut a = build::sample();
            a.frames = 0;
            ids(&a)
        }),
        ("CANM-008", || {
            let mut a = build::sample();
            a.frames = 200;
            ids(&a)
        }),
        ("CANM-009", || {
            let mut a = build::sample();
            a.tracks[7].layout = 2;
            ids(&a)
        }),
        ("CANM-010", || {
            let mut a = build::sample();
            a.gap = vec![0, 0, 0, 1];
            ids(&a)
        }),
        ("CANM-011", || {
            let mut a = build::sample();
            let o = a.tracks[1].offset as usize;
            a.values[o] = f32::INFINITY;
            ids(&a)
        }),
    ];
    let mut missing = Vec::new();
    for (id, make) in cases {
        let got = make();
        if !got.iter().any(|g| g == id) {
            missing.push(format!("{id}: got {got:?}"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
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
