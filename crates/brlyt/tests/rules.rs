//! Golden table: one broken variant of the sample per rule id, and the finding (severity and id)
//! the validator must give for it (`gcio::check_rule_cases`: no other rule may report an error).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use brlyt::model::{Raw, Section};
use brlyt::{Brlyt, Name, build};
use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};

/// The sample with one edit, written.
fn edited(f: fn(&mut Brlyt)) -> Vec<u8> {
    let mut l = build::sample();
    f(&mut l);
    l.write().unwrap()
}

fn raw(magic: &str, body: &[u8]) -> Section {
    Section::Raw(Raw {
        magic: Name::from(magic),
        body: body.to_vec(),
    })
}

/// Applies `f` to the first section `pick` selects.
fn each<T>(l: &mut Brlyt, pick: fn(&mut Section) -> Option<&mut T>, f: impl FnOnce(&mut T)) {
    if let Some(t) = l.sections.iter_mut().find_map(pick) {
        f(t);
    }
}

fn picture(s: &mut Section) -> Option<&mut brlyt::model::Picture> {
    match s {
        Section::Picture(p) => Some(p),
        _ => None,
    }
}

fn text(s: &mut Section) -> Option<&mut brlyt::model::Text> {
    match s {
        Section::Text(t) => Some(t),
        _ => None,
    }
}

fn materials(s: &mut Section) -> Option<&mut Vec<brlyt::Material>> {
    match s {
        Section::Materials(m) => Some(m),
        _ => None,
    }
}

fn group(s: &mut Section) -> Option<&mut brlyt::model::Group> {
    match s {
        Section::Group(g) => Some(g),
        _ => None,
    }
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
        "BRLYT-001",
    ),
    (
        "file size word off",
        || edited(|l| l.frame.declared_size = Some(4)),
        Info,
        "BRLYT-002",
    ),
    (
        "bytes after the sections",
        || edited(|l| l.frame.trailer = vec![0; 4]),
        Info,
        "BRLYT-003",
    ),
    (
        "a usd1 section",
        || edited(|l| l.sections.push(raw("usd1", &[0, 0, 0, 0]))),
        Info,
        "BRLYT-004",
    ),
    (
        "a material offset past the section",
        || edited(|l| l.sections[3] = raw("mat1", &[0, 1, 0, 0, 0, 0, 0xFF, 0xF0])),
        Error,
        "BRLYT-005",
    ),
    (
        "a texture name entry with a non-zero reserved word",
        || {
            edited(|l| {
                l.sections[1] = raw("txl1", &[0, 1, 0, 0, 0, 0, 0, 8, 0, 0, 0, 1, b'a', 0, 0, 0])
            })
        },
        Warning,
        "BRLYT-006",
    ),
    (
        "a pae1 too many",
        || edited(|l| l.sections.insert(11, Section::PaneEnd)),
        Error,
        "BRLYT-007",
    ),
    (
        "picture material out of range",
        || edited(|l| each(l, picture, |p| p.material = 99)),
        Error,
        "BRLYT-008",
    ),
    (
        "texture index out of range",
        || edited(|l| each(l, materials, |m| m[0].tex_maps[0].texture = 5)),
        Error,
        "BRLYT-009",
    ),
    (
        "font index out of range",
        || edited(|l| each(l, text, |t| t.font = 3)),
        Error,
        "BRLYT-010",
    ),
    (
        "group member with no pane",
        || edited(|l| each(l, group, |g| g.panes.push(Name::from("Nope")))),
        Warning,
        "BRLYT-011",
    ),
    (
        "a second top-level pane",
        || {
            edited(|l| {
                l.sections
                    .insert(11, Section::Pane(build::pane("Other", 0.0, 0.0, 1.0, 1.0)))
            })
        },
        Warning,
        "BRLYT-012",
    ),
    (
        "two panes named Pic",
        || edited(|l| each(l, text, |t| t.pane.name = Name::from("Pic"))),
        Warning,
        "BRLYT-013",
    ),
    (
        "nine texture maps",
        || edited(|l| each(l, materials, |m| m[0].tex_maps = vec![m[0].tex_maps[0]; 9])),
        Info,
        "BRLYT-014",
    ),
    (
        "text longer than its buffer",
        || edited(|l| each(l, text, |t| t.buffer_bytes = 2)),
        Warning,
        "BRLYT-015",
    ),
    (
        "version 0x000B",
        || edited(|l| l.frame.version = 0x0B),
        Info,
        "BRLYT-016",
    ),
];

#[test]
fn each_rule_fires() {
    if let Err(e) = check_rule_cases(CASES, |b| brlyt::validate(b)) {
        panic!("{e}");
    }
    assert!(brlyt::validate(&build::sample().write().unwrap()).is_empty());
}

#[test]
fn errors_name_structure_and_offset() {
    let b = build::sample().write().unwrap();
    let e = Brlyt::parse(&b[..0x30]).unwrap_err().to_string();
    assert!(e.contains("RLYT section") && e.contains("0x24"), "{e}");
    let d = brlyt::validate(&edited(|l| each(l, picture, |p| p.material = 99)));
    assert!(
        d[0].message.contains("`Pic`") && d[0].offset.is_some(),
        "{d:?}"
    );
}
