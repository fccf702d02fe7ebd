#![allow(clippy::indexing_slicing)]
//! One broken variant per rule: for every rule id the validator emits, the smallest hand-assembled
//! stream that triggers it. Each case names the finding (severity and id) it must give, and no
//! other rule may report an error. The workspace test `tests/rules_catalogue.rs` checks that every
//! id `src/` emits has a row here.

use bms::validate;
use gcio::Severity::{self, Error, Info, Warning};

const CASES: &[(&str, &[u8], Severity, &str)] = &[
    ("empty file has no root track", &[], Error, "BMS-001"),
    (
        "note velocity above 0x7f",
        &[0x3C, 0x01, 0x90, 0xFF],
        Warning,
        "BMS-002",
    ),
    (
        "note-off 0x88 closes no voice",
        &[0x88, 0xFF],
        Info,
        "BMS-003",
    ),
    (
        "open_track 16",
        &[0xC1, 0x10, 0x00, 0x00, 0x06, 0xFF, 0xFF],
        Error,
        "BMS-004",
    ),
    (
        "jump past the end",
        &[0xC7, 0x12, 0x34, 0x56],
        Error,
        "BMS-005",
    ),
    (
        "jump into its own argument",
        &[0xC7, 0x00, 0x00, 0x02],
        Error,
        "BMS-005",
    ),
    (
        "register-selected table entry past the end",
        // reg_load r0 = 5; jmp_table r0 → table at 0xb: entry 5 lies past the end.
        &[
            0xD8, 0x00, 0x00, 0x05, 0xC9, 0x00, 0x00, 0x00, 0x0B, 0xFF, 0x00, 0x00, 0x00, 0x09,
        ],
        Error,
        "BMS-005",
    ),
    (
        "five-byte VLQ wait",
        &[0xF0, 0x81, 0x82, 0x83, 0x84, 0xFF],
        Warning,
        "BMS-006",
    ),
    ("code runs off the end", &[0xF0, 0x10], Warning, "BMS-007"),
    (
        "instruction cut off by the end",
        &[0xC7, 0x00],
        Error,
        "BMS-007",
    ),
    ("ret without a call", &[0xC5], Warning, "BMS-008"),
    ("NULL opcode 0xa0", &[0xA0, 0xFF], Warning, "BMS-009"),
    (
        "prefix before a note",
        &[0x90, 0x80, 0x3C, 0x01, 0x01],
        Error,
        "BMS-011",
    ),
    (
        "unknown register read",
        &[0xD8, 0x55, 0x00, 0x01, 0xFF],
        Warning,
        "BMS-011",
    ),
    (
        "printf with five conversions",
        b"\xFD%d%d%d%d%d\x00\x01\x02\x03\x04\x05\xFF",
        Error,
        "BMS-012",
    ),
    (
        "printf conversion %q",
        b"\xFD%q\x00\x01\xFF",
        Warning,
        "BMS-012",
    ),
    (
        "jmp_f condition 9",
        &[0xC8, 0x09, 0x00, 0x00, 0x00, 0xFF],
        Error,
        "BMS-013",
    ),
    (
        "table offset past the end",
        &[0xE8, 0x00, 0x10, 0x00, 0x00, 0xFF],
        Error,
        "BMS-014",
    ),
    (
        "extended opcode 0x05",
        &[0xB0, 0x05, 0xFF],
        Warning,
        "BMS-015",
    ),
    (
        "jump to itself",
        &[0xC7, 0x00, 0x00, 0x00],
        Error,
        "BMS-016",
    ),
    (
        "wait-free loop left only by a conditional jump",
        &[0xC8, 0x01, 0x00, 0x00, 0x09, 0xC7, 0x00, 0x00, 0x00, 0xFF],
        Warning,
        "BMS-016",
    ),
];

#[test]
fn every_rule_has_a_broken_variant() {
    for &(name, bytes, severity, rule) in CASES {
        let found = validate(bytes);
        let shown: Vec<String> = found
            .iter()
            .map(|d| format!("{:?} {} {}", d.severity, d.rule, d.message))
            .collect();
        assert!(
            found
                .iter()
                .any(|d| d.rule == rule && d.severity == severity),
            "{name}: no {severity:?} {rule}: {shown:#?}"
        );
        assert!(
            found.iter().all(|d| d.severity != Error || d.rule == rule),
            "{name}: another rule reports an error: {shown:#?}"
        );
    }
}
