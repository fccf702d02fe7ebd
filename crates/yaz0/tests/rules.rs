#![allow(clippy::indexing_slicing)]
//! One broken variant per rule: for every rule id the validator emits, the smallest hand-assembled
//! stream that triggers it. Each case names the finding (severity and id) it must give, and no
//! other rule may report an error. The workspace test `tests/rules_catalogue.rs` checks that every
//! id `src/` emits has a row here.

use gcio::Severity::{Error, Info};
use gcio::{RuleCase, check_rule_cases};

/// A stream: `Yaz0`, the decoded size, the 8 header bytes 0x08..0x10, then the groups.
fn stream(size: u32, reserved: [u8; 8], groups: &[u8]) -> Vec<u8> {
    let mut s = b"Yaz0".to_vec();
    s.extend_from_slice(&size.to_be_bytes());
    s.extend_from_slice(&reserved);
    s.extend_from_slice(groups);
    s
}

/// "aaaa": a literal, then a 3-byte copy from 1 back.
const AAAA: &[u8] = &[0x80, b'a', 0x10, 0x00];

const CASES: &[RuleCase<'_, Vec<u8>>] = &[
    (
        "magic Yaz1",
        || {
            let mut s = stream(4, [0; 8], AAAA);
            s[3] = b'1';
            s
        },
        Error,
        "YAZ0-001",
    ),
    ("header cut off", || b"Yaz0\0\0".to_vec(), Error, "YAZ0-001"),
    (
        "size 5, 4 bytes decoded",
        || stream(5, [0; 8], AAAA),
        Error,
        "YAZ0-001",
    ),
    (
        "header byte 0x0B is 0x20 (Wii U alignment)",
        || stream(4, [0, 0, 0, 0x20, 0, 0, 0, 0], AAAA),
        Info,
        "YAZ0-002",
    ),
    (
        "copy before the output start",
        || stream(3, [0; 8], &[0x00, 0x10, 0x00]),
        Error,
        "YAZ0-003",
    ),
    (
        "copy from 2 back after one byte",
        || stream(4, [0; 8], &[0x80, b'a', 0x10, 0x01]),
        Error,
        "YAZ0-003",
    ),
    (
        "two zero bytes after the last group",
        || {
            let mut s = stream(4, [0; 8], AAAA);
            s.extend_from_slice(&[0, 0]);
            s
        },
        Info,
        "YAZ0-004",
    ),
];

#[test]
fn the_base_stream_is_clean() {
    let s = stream(4, [0; 8], AAAA);
    assert_eq!(yaz0::decode(&s).unwrap(), b"aaaa");
    assert!(yaz0::validate(&s).is_empty());
}

#[test]
fn every_rule_has_a_broken_variant() {
    if let Err(e) = check_rule_cases(CASES, |s| yaz0::validate(s)) {
        panic!("{e}");
    }
}
