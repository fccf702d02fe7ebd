//! Golden table: one broken variant of a built font per rule id, and the finding (severity and
//! id) the validator must give for it (`gcio::check_rule_cases`: no other rule may report an
//! error).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use brfnt::{Block, Brfnt, Mapping, build};
use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};

/// The latin font with one edit, written.
fn edited(f: fn(&mut Brfnt)) -> Vec<u8> {
    let mut t = build::latin();
    f(&mut t);
    t.write().unwrap()
}

fn info(f: &mut Brfnt) -> &mut brfnt::Info {
    match &mut f.blocks[0] {
        Block::Info(i) => i,
        _ => panic!("block 0 is the FINF"),
    }
}

fn glyphs(f: &mut Brfnt) -> &mut brfnt::Glyphs {
    match &mut f.blocks[1] {
        Block::Glyphs(g) => g,
        _ => panic!("block 1 is the TGLP"),
    }
}

fn map(f: &mut Brfnt, i: usize) -> &mut brfnt::CodeMap {
    match &mut f.blocks[i] {
        Block::Map(m) => m,
        _ => panic!("block {i} is a CMAP"),
    }
}

const CASES: &[RuleCase<'static, Vec<u8>>] = &[
    (
        "cut inside the TGLP",
        || build::latin().write().unwrap()[..0x40].to_vec(),
        Error,
        "BRFNT-001",
    ),
    (
        "version 1.5",
        || edited(|t| t.frame.version = 0x0105),
        Error,
        "BRFNT-002",
    ),
    (
        "file size word below 0x20",
        || edited(|t| t.frame.declared_size = Some(0x10)),
        Error,
        "BRFNT-002",
    ),
    (
        "bytes after the blocks",
        || edited(|t| t.frame.trailer = vec![0; 4]),
        Info,
        "BRFNT-003",
    ),
    (
        "unknown block",
        || {
            edited(|t| {
                t.blocks.push(Block::Raw(brlyt::model::Raw {
                    magic: "KRNG".into(),
                    body: vec![0; 8],
                }))
            })
        },
        Error,
        "BRFNT-004",
    ),
    (
        "glyph pointer names a CWDH",
        || edited(|t| info(t).glyphs = Some(2)),
        Error,
        "BRFNT-005",
    ),
    (
        "width list starts at a CMAP",
        || edited(|t| info(t).widths = Some(4)),
        Error,
        "BRFNT-006",
    ),
    (
        "code map list loops",
        || edited(|t| map(t, 6).next = Some(4)),
        Warning,
        "BRFNT-007",
    ),
    (
        "FINF without metrics",
        || edited(|t| info(t).metrics = None),
        Error,
        "BRFNT-008",
    ),
    (
        "compressed sheets",
        || edited(|t| glyphs(t).sheet_format |= 0x8000),
        Error,
        "BRFNT-009",
    ),
    (
        "sheet size of a 32x32 texture for a 64x32 sheet",
        || edited(|t| glyphs(t).sheet_width = 64),
        Warning,
        "BRFNT-010",
    ),
    (
        "sheets 4 bytes off alignment",
        || edited(|t| glyphs(t).gap = vec![0; 0x14]),
        Warning,
        "BRFNT-011",
    ),
    (
        "no cells per row",
        || edited(|t| glyphs(t).sheet_row = 0),
        Error,
        "BRFNT-012",
    ),
    (
        "cells taller than the sheet",
        || edited(|t| glyphs(t).cell_height = 12),
        Warning,
        "BRFNT-013",
    ),
    (
        "alternate glyph past the glyphs",
        || edited(|t| info(t).alternate_index = 24),
        Error,
        "BRFNT-014",
    ),
    (
        "table maps past the glyphs",
        || {
            edited(|t| {
                if let Mapping::Table { indices } = &mut map(t, 5).mapping {
                    indices[0] = 30;
                }
            })
        },
        Warning,
        "BRFNT-015",
    ),
    (
        "scan entries out of order",
        || {
            edited(|t| {
                if let Mapping::Scan { entries } = &mut map(t, 6).mapping {
                    entries.swap(0, 3);
                }
            })
        },
        Warning,
        "BRFNT-016",
    ),
    (
        "empty code range",
        || edited(|t| map(t, 4).code_end = 0x40),
        Warning,
        "BRFNT-017",
    ),
    (
        "unknown mapping method",
        || edited(|t| map(t, 4).mapping = Mapping::Other { method: 7 }),
        Warning,
        "BRFNT-018",
    ),
    (
        "reserved word set",
        || edited(|t| map(t, 4).reserved = 1),
        Info,
        "BRFNT-019",
    ),
    (
        "CWDH in no list",
        || {
            edited(|t| {
                if let Block::Widths(w) = &mut t.blocks[2] {
                    w.next = None;
                }
            })
        },
        Info,
        "BRFNT-020",
    ),
];

#[test]
fn each_rule_fires() {
    if let Err(e) = check_rule_cases(CASES, |b| brfnt::validate(b)) {
        panic!("{e}");
    }
    for (name, b) in build::samples() {
        assert!(brfnt::validate(&b).is_empty(), "{name}");
    }
}

#[test]
fn errors_name_structure_and_offset() {
    let b = build::latin().write().unwrap();
    let e = Brfnt::parse(&b[..0x40]).unwrap_err().to_string();
    assert!(e.contains("BRFNT section 1 at 0x30"), "{e}");
    let mut bad = b.clone();
    bad[0x18 + 8..0x18 + 12].copy_from_slice(&0x39u32.to_be_bytes());
    let e = Brfnt::parse(&bad).unwrap_err();
    assert_eq!(e.offset(), Some(0x20), "{e}");
    assert!(e.to_string().contains("glyph pointer 0x39"), "{e}");
    let e = Brfnt::parse(&b"RFNT\xff\xfe\x01\x04"[..])
        .unwrap_err()
        .to_string();
    assert!(e.contains("byte order mark"), "{e}");
}
