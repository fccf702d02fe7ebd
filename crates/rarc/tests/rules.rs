#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! One broken variant per rule: for every rule id the validator emits, the smallest archive that
//! triggers it, built from a two-directory packed archive. Each case names the finding (severity
//! and id) it must give, and no other rule may report an error. The workspace test
//! `tests/rules_catalogue.rs` checks that every id `src/` emits has a row here.

use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};
use rarc::{Archive, Attr, Dir, Entry, Item, PackOptions, Target, pack};

fn file(name: &str, fill: u8) -> Item {
    Item::File {
        name: name.as_bytes().to_vec(),
        attr: None,
        data: vec![fill; 32],
        id: None,
    }
}

/// `root/{a, d/{b}}`: nodes root, d; entries [a, d, ., ..] [b, ., ..]; data a then b.
fn base() -> Archive {
    pack(
        &Dir {
            name: b"root".to_vec(),
            children: vec![
                file("a", 1),
                Item::Dir(Dir {
                    name: b"d".to_vec(),
                    children: vec![file("b", 2)],
                }),
            ],
        },
        PackOptions::default(),
    )
}

fn edit(f: impl FnOnce(&mut Archive)) -> Vec<u8> {
    let mut a = base();
    f(&mut a);
    a.write().unwrap()
}

fn poke(at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut b = base().write().unwrap();
    b[at..at + bytes.len()].copy_from_slice(bytes);
    b
}

fn entry(a: &Archive, name: &[u8]) -> usize {
    a.entries.iter().position(|e| e.name == name).unwrap()
}

/// Entry `name` of the root (`a`, `d`, `.`, `..`) or of `d` (`b`).
fn set(name: &'static str, f: impl FnOnce(&mut Entry)) -> Vec<u8> {
    edit(|a| {
        let i = entry(a, name.as_bytes());
        f(&mut a.entries[i]);
    })
}

/// `copies` file entries sharing one Yaz0 stream that expands to `expands_to` bytes (`pack`
/// stores identical payloads once).
fn aliased(copies: usize, expands_to: usize) -> Vec<u8> {
    let stream = yaz0::encode(&vec![0u8; expands_to], yaz0::Encoder::Fast);
    let children = (0..copies)
        .map(|i| Item::File {
            name: format!("m{i}").into_bytes(),
            attr: None,
            data: stream.clone(),
            id: None,
        })
        .collect();
    pack(
        &Dir {
            name: b"root".to_vec(),
            children,
        },
        PackOptions::default(),
    )
    .write()
    .unwrap()
}

const CASES: &[RuleCase<'_, Vec<u8>>] = &[
    ("magic is not RARC", || poke(0, b"RARX"), Error, "RARC-001"),
    (
        "size word is not the file length",
        || edit(|a| a.file_size = Some(0x1000)),
        Error,
        "RARC-001",
    ),
    (
        "data-header offset 0x40",
        || poke(8, &0x40u32.to_be_bytes()),
        Error,
        "RARC-002",
    ),
    (
        "node table at 0x30",
        || poke(0x24, &0x30u32.to_be_bytes()),
        Error,
        "RARC-003",
    ),
    (
        "file data starts inside the string table",
        || {
            let b = base().write().unwrap();
            let at = u32::from_be_bytes(b[0x0C..0x10].try_into().unwrap()) - 0x20;
            poke(0x0C, &at.to_be_bytes())
        },
        Error,
        "RARC-004",
    ),
    (
        "MRAM size one file too big",
        || edit(|a| a.mram_size += 32),
        Warning,
        "RARC-005",
    ),
    (
        "ARAM file stored before an MRAM file",
        || set("a", |e| e.attr = Attr::FILE | Attr::ARAM),
        Error,
        "RARC-006",
    ),
    (
        "data offset 1",
        || {
            set("a", |e| {
                e.target = Target::File {
                    region: 0,
                    offset: 1,
                }
            })
        },
        Error,
        "RARC-007",
    ),
    (
        "sync byte 2",
        || edit(|a| a.sync_ids = 2),
        Warning,
        "RARC-008",
    ),
    (
        "data-header byte 0x1B set",
        || edit(|a| a.info_reserved[0] = 1),
        Info,
        "RARC-009",
    ),
    (
        "node type XXXX",
        || edit(|a| a.nodes[1].ty = *b"XXXX"),
        Warning,
        "RARC-010",
    ),
    (
        "root block leaves out its \"..\"",
        || edit(|a| a.nodes[0].entry_count -= 1),
        Error,
        "RARC-011",
    ),
    (
        "\".\" of d points at the root",
        || {
            edit(|a| {
                let i = a.nodes[1].first_entry as usize + 1;
                a.entries[i].target = Target::Dir(0);
            })
        },
        Warning,
        "RARC-012",
    ),
    (
        "root \"..\" is 0",
        || set("..", |e| e.target = Target::Dir(0)),
        Warning,
        "RARC-012",
    ),
    (
        "subdirectory entry ID 0",
        || set("d", |e| e.id = 0),
        Warning,
        "RARC-013",
    ),
    (
        // Outside every directory block, so the tree walk (RARC-020) never follows it.
        "directory entry naming node 99",
        || {
            edit(|a| {
                let d = entry(a, b"d");
                let mut e = a.entries[d].clone();
                e.target = Target::Dir(99);
                a.entries.push(e);
            })
        },
        Error,
        "RARC-013",
    ),
    (
        "subdirectory entry size 0x20",
        || set("d", |e| e.size = 0x20),
        Info,
        "RARC-013",
    ),
    (
        "file without the FILE attribute",
        || set("a", |e| e.attr = Attr::MRAM),
        Warning,
        "RARC-014",
    ),
    (
        "file data past the data section",
        || set("b", |e| e.size = 0x1000),
        Error,
        "RARC-014",
    ),
    (
        "YAZ0 without COMPRESSED",
        || set("a", |e| e.attr |= Attr::YAZ0),
        Error,
        "RARC-015",
    ),
    (
        "file without a load attribute",
        || set("a", |e| e.attr = Attr::FILE),
        Warning,
        "RARC-016",
    ),
    (
        // An entry outside every directory block, so the tree walk never reads it.
        "name offset past the string table",
        || {
            let mut a = base();
            let extra = a.entries[0].clone();
            a.entries.push(extra);
            let mut b = a.write().unwrap();
            let at = u32::from_be_bytes(b[0x2C..0x30].try_into().unwrap()) as usize + 0x20;
            let name = at + (a.entries.len() - 1) * 0x14 + 5;
            b[name..name + 3].copy_from_slice(&[0xFF; 3]);
            b
        },
        Error,
        "RARC-017",
    ),
    (
        "stale entry hash",
        || set("a", |e| e.hash ^= 1),
        Warning,
        "RARC-018",
    ),
    (
        "stale node hash",
        || edit(|a| a.nodes[1].hash ^= 1),
        Warning,
        "RARC-018",
    ),
    (
        "entry's final word 1",
        || set("a", |e| e.reserved = 1),
        Info,
        "RARC-019",
    ),
    (
        "d's block runs past the entry table",
        || edit(|a| a.nodes[1].entry_count = 50),
        Error,
        "RARC-020",
    ),
    (
        "string-table size without its padding",
        || {
            edit(|a| {
                let used = a.strings.iter().rposition(|&b| b != 0).unwrap() + 2;
                a.strings.truncate(used);
            })
        },
        Info,
        "RARC-021",
    ),
    (
        "entry table at 0x70",
        || {
            edit(|a| {
                a.after_nodes.bytes = vec![0; 0x10];
                a.after_nodes.at = 0x60;
            })
        },
        Warning,
        "RARC-021",
    ),
    (
        "sync on, next-free ID 0",
        || {
            edit(|a| {
                a.sync_ids = 1;
                a.next_id = 0;
            })
        },
        Warning,
        "RARC-022",
    ),
    (
        "string table in first-use order",
        || {
            edit(|a| {
                a.strings.clear();
                for n in &mut a.nodes {
                    n.name_offset = 0xFF_FFFF;
                }
                for e in &mut a.entries {
                    e.name_offset = 0xFF_FFFF;
                }
            })
        },
        Info,
        "RARC-024",
    ),
    (
        "d's entry block before the root's",
        || {
            edit(|a| {
                a.entries.rotate_left(4);
                a.nodes[0].first_entry = 3;
                a.nodes[1].first_entry = 0;
            })
        },
        Info,
        "RARC-025",
    ),
    (
        "b stores a's payload again",
        || edit(|a| a.regions[1].data = a.regions[0].data.clone()),
        Info,
        "RARC-026",
    ),
    (
        "DVD size 32 without DVD files",
        || edit(|a| a.dvd_size = 32),
        Info,
        "RARC-028",
    ),
    (
        "name with a path separator",
        || set("a", |e| e.name = b"x/a".to_vec()),
        Warning,
        "RARC-029",
    ),
    (
        "two entries share one compressed member",
        || aliased(2, 64),
        Info,
        "RARC-030",
    ),
    (
        "sixteen entries share a 1 MiB stream (a decompression bomb)",
        || aliased(16, 1 << 20),
        Warning,
        "RARC-030",
    ),
];

#[test]
fn the_base_archive_is_clean() {
    let found = rarc::validate(&base().write().unwrap());
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn every_rule_has_a_broken_variant() {
    if let Err(e) = check_rule_cases(CASES, |b| rarc::validate(b)) {
        panic!("{e}");
    }
}
