//! Golden table: one broken variant of the sample per rule id, and the finding (severity and id)
//! the validator must give for it (`gcio::check_rule_cases`: no other rule may report an error).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use canm::{Canm, build};
use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};

fn ids(a: &Canm) -> Vec<String> {
    canm::validate(&a.write().unwrap())
        .into_iter()
        .map(|d| d.rule)
        .collect()
}

/// The sample with one edit, written.
fn edited(f: fn(&mut Canm)) -> Vec<u8> {
    let mut a = build::sample();
    f(&mut a);
    a.write().unwrap()
}

const CASES: &[RuleCase<'static, Vec<u8>>] = &[
    (
        "type tag neither CANM nor CKAN",
        || {
            let mut b = build::sample().write().unwrap();
            b[5] = b'X';
            b
        },
        Error,
        "CANM-001",
    ),
    (
        "header word 0x08 is 0",
        || edited(|a| a.header[0] = 0),
        Error,
        "CANM-002",
    ),
    (
        "track values past the table",
        || edited(|a| a.tracks[1].offset = 1000),
        Error,
        "CANM-003",
    ),
    (
        "track count 0",
        || edited(|a| a.tracks[3].count = 0),
        Error,
        "CANM-004",
    ),
    (
        "key 1 after key 2",
        || {
            edited(|a| {
                let o = a.tracks[0].offset as usize;
                a.values[o + 3] = 130.0;
            })
        },
        Warning,
        "CANM-005",
    ),
    (
        "first key after frame 0",
        || {
            edited(|a| {
                let o = a.tracks[0].offset as usize;
                a.values[o] = 5.0;
            })
        },
        Warning,
        "CANM-006",
    ),
    ("0 frames", || edited(|a| a.frames = 0), Warning, "CANM-007"),
    (
        "last key before the last frame",
        || edited(|a| a.frames = 200),
        Warning,
        "CANM-008",
    ),
    (
        "key layout word 2",
        || edited(|a| a.tracks[7].layout = 2),
        Info,
        "CANM-009",
    ),
    (
        "non-zero gap",
        || edited(|a| a.gap = vec![0, 0, 0, 1]),
        Info,
        "CANM-010",
    ),
    (
        "infinite value",
        || {
            edited(|a| {
                let o = a.tracks[1].offset as usize;
                a.values[o] = f32::INFINITY;
            })
        },
        Warning,
        "CANM-011",
    ),
];

#[test]
fn each_rule_fires() {
    if let Err(e) = check_rule_cases(CASES, |b| canm::validate(b)) {
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
