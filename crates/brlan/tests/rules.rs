//! Golden table: one broken variant of the sample per rule id, and the finding (severity and id)
//! the validator must give for it (`gcio::check_rule_cases`: no other rule may report an error).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use brlan::build::{self, hermite, info, target};
use brlan::model::{Anim, Section};
use brlan::{Brlan, Keys};
use brlyt::Name;
use brlyt::model::Raw;
use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};

/// The sample with one edit, written.
fn edited(f: fn(&mut Brlan)) -> Vec<u8> {
    let mut a = build::sample();
    f(&mut a);
    a.write().unwrap()
}

/// The sample with an edit of its animation block.
fn anim(f: fn(&mut Anim)) -> Vec<u8> {
    let mut a = build::sample();
    if let Section::Anim(x) = &mut a.sections[1] {
        f(x);
    }
    a.write().unwrap()
}

fn raw(magic: &str, body: &[u8]) -> Section {
    Section::Raw(Raw {
        magic: Name::from(magic),
        body: body.to_vec(),
    })
}

const CASES: &[RuleCase<'static, Vec<u8>>] = &[
    (
        "byte order mark FF FE",
        || {
            let mut b = build::sample().write().unwrap();
            b[4..6].copy_from_slice(&[0xFF, 0xFE]);
            b
        },
        Error,
        "BRLAN-001",
    ),
    (
        "file size word off",
        || edited(|a| a.frame.declared_size = Some(4)),
        Info,
        "BRLAN-002",
    ),
    (
        "bytes after the sections",
        || edited(|a| a.frame.trailer = vec![0; 4]),
        Info,
        "BRLAN-003",
    ),
    (
        "a pah1 section",
        || edited(|a| a.sections.push(raw("pah1", &[0, 0, 0, 0]))),
        Info,
        "BRLAN-004",
    ),
    (
        "a content offset past the section",
        || {
            edited(|a| {
                a.sections[1] = raw(
                    "pai1",
                    &[0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x14, 0, 0, 0xFF, 0xFF],
                )
            })
        },
        Error,
        "BRLAN-005",
    ),
    (
        "a content table away from the header",
        || {
            edited(|a| {
                a.sections[1] = raw("pai1", &[0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x18, 0, 0, 0, 0])
            })
        },
        Warning,
        "BRLAN-006",
    ),
    (
        "no pai1",
        || edited(|a| a.sections.truncate(1)),
        Error,
        "BRLAN-007",
    ),
    (
        "key frames decrease",
        || {
            anim(|a| {
                a.contents[0].infos[0].targets[0].keys =
                    hermite(&[[30.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
            })
        },
        Warning,
        "BRLAN-008",
    ),
    (
        "visibility with Hermite keys",
        || anim(|a| a.contents[1].infos[0].targets[0].keys = hermite(&[[0.0, 1.0, 0.0]])),
        Error,
        "BRLAN-009",
    ),
    (
        "an unknown tag",
        || anim(|a| a.contents[0].infos.push(info("XXXX", vec![]))),
        Info,
        "BRLAN-010",
    ),
    (
        "pane SRT element 10",
        || {
            anim(|a| {
                a.contents[0].infos[0]
                    .targets
                    .push(target(0, 10, hermite(&[[0.0, 1.0, 0.0]])))
            })
        },
        Warning,
        "BRLAN-011",
    ),
    (
        "a target without keys",
        || anim(|a| a.contents[0].infos[0].targets[0].keys = Keys::Hermite(Vec::new())),
        Error,
        "BRLAN-012",
    ),
    (
        "content kind 2",
        || anim(|a| a.contents[2].kind = 2),
        Info,
        "BRLAN-013",
    ),
    (
        "0 frames",
        || anim(|a| a.frame_size = 0),
        Warning,
        "BRLAN-014",
    ),
    (
        "version 0x000B",
        || edited(|a| a.frame.version = 0x0B),
        Info,
        "BRLAN-015",
    ),
    (
        "texture pattern index past the files",
        || anim(|a| a.contents[2].infos[0].targets[0].keys = build::step(&[(0.0, 5)])),
        Error,
        "BRLAN-016",
    ),
];

#[test]
fn each_rule_fires() {
    if let Err(e) = check_rule_cases(CASES, |b| brlan::validate(b)) {
        panic!("{e}");
    }
    assert!(brlan::validate(&build::sample().write().unwrap()).is_empty());
}

#[test]
fn errors_name_structure_and_offset() {
    let b = build::sample().write().unwrap();
    let e = Brlan::parse(&b[..0x30]).unwrap_err().to_string();
    assert!(e.contains("RLAN section") && e.contains("0x10"), "{e}");
    let d = brlan::validate(&anim(|a| {
        a.contents[1].infos[0].targets[0].keys = hermite(&[[0.0, 1.0, 0.0]])
    }));
    assert!(
        d[0].message.contains("`Txt` RLVI") && d[0].offset.is_some(),
        "{d:?}"
    );
}
