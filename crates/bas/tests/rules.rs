//! Golden table: one broken variant of the sample per rule id, and the finding (severity and id)
//! the validator must give for it (`gcio::check_rule_cases`: no other rule may report an error).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use bas::{Bas, build};
use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};

/// The sample with one edit, written.
fn edited(f: fn(&mut Bas)) -> Vec<u8> {
    let mut t = build::sample();
    f(&mut t);
    t.write().unwrap()
}

const CASES: &[RuleCase<'static, Vec<u8>>] = &[
    (
        "count past the file",
        || {
            let mut b = build::sample().write().unwrap();
            b[1] = 9;
            b
        },
        Error,
        "BAS-001",
    ),
    (
        "control word set",
        || edited(|t| t.control = 0x8040_0000),
        Error,
        "BAS-002",
    ),
    (
        "sound 2 before sound 1",
        || edited(|t| t.sounds[2].note_on = 1.0),
        Warning,
        "BAS-003",
    ),
    (
        "NaN pitch",
        || edited(|t| t.sounds[0].pitch = f32::NAN),
        Warning,
        "BAS-004",
    ),
    (
        "interval sound with interval 0",
        || edited(|t| t.sounds[1].repeat_interval = 0),
        Warning,
        "BAS-005",
    ),
    (
        "unknown flag bit",
        || edited(|t| t.sounds[0].flags = 0x100),
        Info,
        "BAS-006",
    ),
    (
        "bytes after the table",
        || edited(|t| t.trailer = vec![0; 4]),
        Info,
        "BAS-007",
    ),
    (
        "non-zero padding",
        || edited(|t| t.sounds[2].padding[4] = 1),
        Info,
        "BAS-008",
    ),
];

#[test]
fn each_rule_fires() {
    if let Err(e) = check_rule_cases(CASES, |b| bas::validate(b)) {
        panic!("{e}");
    }
    for (name, b) in build::samples() {
        assert!(bas::validate(&b).is_empty(), "{name}");
    }
}

#[test]
fn errors_name_structure_and_offset() {
    let b = build::sample().write().unwrap();
    let e = Bas::parse(&b[..0x30]).unwrap_err().to_string();
    assert!(e.contains("sound table") && e.contains("3 sounds"), "{e}");
    let e = Bas::parse(&b[..3]).unwrap_err().to_string();
    assert!(e.contains("BAS header"), "{e}");
}
