//! Golden table: one broken variant of the sample per rule id, and the finding (severity and id)
//! the validator must give for it (`gcio::check_rule_cases`: no other rule may report an error).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};
use jpc::{Jpc, Part, Value, build};

/// The sample with one edit, written.
fn edited(f: fn(&mut Jpc)) -> Vec<u8> {
    let mut j = build::sample();
    f(&mut j);
    j.write().unwrap()
}

const CASES: &[RuleCase<'static, Vec<u8>>] = &[
    (
        "texture table offset past the end",
        || {
            let mut b = build::sample().write().unwrap();
            b[0x0C] = 0x7F;
            b
        },
        Error,
        "JPC-001",
    ),
    (
        "header announces 2 FLD1 blocks",
        || edited(|j| j.resources[0].field_count = 2),
        Error,
        "JPC-002",
    ),
    (
        "effect ids out of order",
        || edited(|j| j.resources[1].id = 0),
        Warning,
        "JPC-003",
    ),
    (
        "effect without BSP1",
        || {
            edited(|j| {
                j.resources[1].blocks.remove(1);
            })
        },
        Error,
        "JPC-004",
    ),
    (
        "KFA1 announcing more keys than it holds",
        || edited(|j| j.resources[0].blocks[4].fields[1] = Value::U8(9)),
        Warning,
        "JPC-005",
    ),
    (
        "TDB1 index past the textures",
        || edited(|j| j.resources[1].blocks[2].parts[0] = Part::U16s(vec![7])),
        Error,
        "JPC-006",
    ),
    (
        "non-zero padding",
        || edited(|j| j.resources[1].blocks[2].parts[1] = Part::Pad(vec![0, 1])),
        Info,
        "JPC-007",
    ),
    (
        "BTI image that does not fit",
        || {
            let mut b = build::sample().write().unwrap();
            let tex = u32::from_be_bytes(b[12..16].try_into().unwrap()) as usize;
            // The first image's data offset (BTI header +0x1C) past its block.
            b[tex + 0x20 + 0x1C] = 0x7F;
            b
        },
        Error,
        "JPC-008",
    ),
    (
        "bytes after the textures",
        || edited(|j| j.trailer = vec![0; 4]),
        Info,
        "JPC-009",
    ),
];

#[test]
fn each_rule_fires() {
    if let Err(e) = check_rule_cases(CASES, |b| jpc::validate(b)) {
        panic!("{e}");
    }
    for (name, b) in build::samples() {
        assert!(
            jpc::validate(&b).is_empty(),
            "{name}: {:?}",
            jpc::validate(&b)
        );
    }
}

#[test]
fn errors_name_structure_and_offset() {
    let b = build::sample().write().unwrap();
    let e = Jpc::parse(&b[..0x30]).unwrap_err().to_string();
    assert!(e.contains("texture table offset"), "{e}");
    let mut c = b.clone();
    c[0x1C..0x20].copy_from_slice(&4u32.to_be_bytes());
    let e = Jpc::parse(&c).unwrap_err().to_string();
    assert!(
        e.contains("resource 0 block 0") && e.contains("0x18"),
        "{e}"
    );
}
