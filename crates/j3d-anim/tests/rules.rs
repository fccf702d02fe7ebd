//! One broken variant per rule: for every rule id the validator emits, a built file or model that
//! breaks exactly that rule. Each case names the finding (severity and id) it must give, and no
//! other rule may report an error; the file-rule cases also give no other finding at all. The
//! workspace test `tests/rules_catalogue.rs` checks that every id `src/` emits has a row here.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};
use j3d_anim::bind::{Target, check_binding};
use j3d_anim::{Anim, Data, Gap, KeyTrack, Kind, build};

fn rules_of(a: &Anim) -> Vec<String> {
    j3d_anim::validate(&a.write().unwrap())
        .into_iter()
        .map(|d| d.rule)
        .collect()
}

fn edit(kind: Kind, f: impl FnOnce(&mut Anim)) -> Anim {
    let mut a = build::sample(kind);
    f(&mut a);
    a
}

fn bytes(a: Anim) -> Vec<u8> {
    a.write().unwrap()
}

/// The chunk magic changed: nothing the game would read.
fn unparseable() -> Vec<u8> {
    let mut b = build::sample_bck();
    b[0x20] ^= 1;
    b
}

/// The sample BCK stored without the last 4 bytes of its end padding.
fn end_padding_cut() -> Vec<u8> {
    let mut b = build::sample_bck();
    b.truncate(b.len() - 4);
    b
}

/// The sample BCK whose size word counts one byte more than the file and no padding.
fn file_size_off() -> Vec<u8> {
    let mut b = build::sample_bck();
    b[11] ^= 1;
    b
}

/// A BTP whose material ids are its last texture index (the tables share two bytes).
fn tables_overlap() -> Anim {
    edit(Kind::Btp, |a| {
        a.tables[1].data = Data::U16(vec![1, 0]);
        a.layout.order[2].gap = Gap::Overlap(2);
    })
}

fn track_count_plus_one() -> Anim {
    edit(Kind::Btk, |a| a.layout.count_extra = 1)
}

/// The BTP's material name 4 bytes after the entries, behind bytes of no string.
fn names_not_packed() -> Anim {
    edit(Kind::Btp, |a| {
        if let Data::Names(n) = &mut a.tables[3].data {
            n.strings = Some(j3d_anim::Strings {
                offsets: vec![12],
                bytes: b"xyz\0mat\0".to_vec(),
            });
        }
    })
}

fn two_chunks_counted() -> Vec<u8> {
    let mut b = build::sample_bck();
    b[15] = 2;
    b
}

fn chunk_size_inside_the_tables() -> Anim {
    edit(Kind::Bva, |a| {
        a.layout.size = j3d_anim::ChunkSize::InsideData(2)
    })
}

fn loop_mode_9() -> Anim {
    edit(Kind::Bck, |a| {
        a.values.insert("loop_mode".into(), 9);
    })
}

fn track_past_table() -> Anim {
    edit(Kind::Bck, |a| {
        if let Data::KeySrt(j) = &mut a.tables[0].data {
            j[0][2] = KeyTrack {
                count: 3,
                index: 1,
                tangent: 0,
            };
        }
    })
}

fn tangent_mode_2() -> Anim {
    edit(Kind::Bck, |a| {
        if let Data::KeySrt(j) = &mut a.tables[0].data {
            j[0][2].tangent = 2;
        }
    })
}

fn keys_out_of_order() -> Anim {
    edit(Kind::Bck, |a| {
        if let Data::F32(t) = &mut a.tables[3].data {
            t[4] = -1.0; // second key's time before the first
        }
    })
}

fn frames_past_table() -> Anim {
    edit(Kind::Bva, |a| {
        if let Data::Full(v) = &mut a.tables[0].data {
            v[1].count = 9;
        }
    })
}

/// A BTP whose name table gains the BTK's names (the writer refuses mismatched material ids, so
/// the break is in the names).
fn names_longer_than_entries() -> Anim {
    edit(Kind::Btp, |a| {
        if let (Data::Names(n), Data::Names(m)) = (
            &mut a.tables[3].data,
            build::sample(Kind::Btk).tables[2].data.clone(),
        ) {
            n.entries.extend(m.entries);
        }
    })
}

fn name_key_off() -> Anim {
    edit(Kind::Btk, |a| {
        if let Data::Names(n) = &mut a.tables[2].data {
            n.entries[0].key ^= 1;
        }
    })
}

fn raw_gap() -> Anim {
    edit(Kind::Bck, |a| {
        a.layout.order[1].gap = Gap::Raw(b"xyz".to_vec())
    })
}

fn duration_0x9000() -> Anim {
    edit(Kind::Bck, |a| {
        a.values.insert("duration".into(), 0x9000);
    })
}

fn stale_padding() -> Anim {
    edit(Kind::Btp, |a| {
        a.layout.order[1].gap = Gap::Stale {
            align: 32,
            bytes: vec![1; 0x18],
        }
    })
}

fn bla_track_without_frames() -> Anim {
    edit(Kind::Bla, |a| {
        if let Data::Full(v) = &mut a.tables[0].data {
            v[1].count = 0;
        }
    })
}

fn blk_clusters_then_raw_bytes() -> Anim {
    edit(Kind::Blk, |a| {
        a.layout.order[1].gap = Gap::Raw(b"xyz".to_vec())
    })
}

const CASES: &[RuleCase<'_, Vec<u8>>] = &[
    ("chunk magic changed", unparseable, Error, "J3DA-000"),
    ("loop mode 9", || bytes(loop_mode_9()), Warning, "J3DA-001"),
    (
        "track past its value table",
        || bytes(track_past_table()),
        Error,
        "J3DA-002",
    ),
    (
        "tangent mode 2",
        || bytes(tangent_mode_2()),
        Error,
        "J3DA-003",
    ),
    (
        "second key before the first",
        || bytes(keys_out_of_order()),
        Warning,
        "J3DA-004",
    ),
    (
        "frames past the table",
        || bytes(frames_past_table()),
        Error,
        "J3DA-005",
    ),
    (
        "more names than entries",
        || bytes(names_longer_than_entries()),
        Error,
        "J3DA-007",
    ),
    (
        "name key off by one",
        || bytes(name_key_off()),
        Warning,
        "J3DA-008",
    ),
    ("raw bytes in a gap", || bytes(raw_gap()), Info, "J3DA-009"),
    (
        "duration 0x9000",
        || bytes(duration_0x9000()),
        Warning,
        "J3DA-010",
    ),
    ("stale padding", || bytes(stale_padding()), Info, "J3DA-011"),
    (
        "BLA cluster track without frames",
        || bytes(bla_track_without_frames()),
        Error,
        "J3DA-012",
    ),
    (
        "BLK clusters followed by raw bytes",
        || bytes(blk_clusters_then_raw_bytes()),
        Warning,
        "J3DA-013",
    ),
    ("end padding not stored", end_padding_cut, Info, "J3DA-014"),
    ("file size one off", file_size_off, Warning, "J3DA-014"),
    (
        "material ids inside the texture indices",
        || bytes(tables_overlap()),
        Warning,
        "J3DA-015",
    ),
    (
        "chunk size inside the tables",
        || bytes(chunk_size_inside_the_tables()),
        Warning,
        "J3DA-016",
    ),
    (
        "TTK1 track count one above whole entries",
        || bytes(track_count_plus_one()),
        Warning,
        "J3DA-017",
    ),
    (
        "name string behind bytes of no string",
        || bytes(names_not_packed()),
        Info,
        "J3DA-018",
    ),
    ("chunk count 2", two_chunks_counted, Warning, "J3DA-019"),
];

/// Three joints, one material `mat`, one shape.
fn target() -> Target {
    Target {
        joints: 3,
        materials: vec![b"mat".to_vec()],
        shapes: 1,
    }
}

const BINDING: &[RuleCase<'_, (Anim, Target)>] = &[
    (
        "BCK of two joints on three",
        || (build::sample(Kind::Bck), target()),
        Warning,
        "J3DA-020",
    ),
    (
        "BTK naming a material the model lacks",
        || (build::sample(Kind::Btk), target()),
        Warning,
        "J3DA-021",
    ),
    (
        "BTK naming one material the model has and one it lacks",
        || {
            let t = Target {
                materials: vec![b"water".to_vec()],
                ..target()
            };
            let mut a = build::sample(Kind::Btk);
            if let Data::Names(n) = &mut a.tables[2].data {
                let mut extra = n.entries[0].clone();
                extra.name = b"lava".to_vec();
                n.entries.push(extra);
            }
            (a, t)
        },
        Info,
        "J3DA-021",
    ),
    (
        "BVA of another shape count",
        || (build::sample(Kind::Bva), target()),
        Warning,
        "J3DA-022",
    ),
];

#[test]
fn every_rule_has_a_broken_variant() {
    if let Err(e) = check_rule_cases(CASES, |b| j3d_anim::validate(b)) {
        panic!("{e}");
    }
    if let Err(e) = check_rule_cases(BINDING, |(a, t)| check_binding(a, t)) {
        panic!("{e}");
    }
}

#[test]
fn each_file_case_gives_only_its_rule() {
    for &(name, build, _, rule) in CASES {
        let mut found: Vec<String> = j3d_anim::validate(&build())
            .into_iter()
            .map(|d| d.rule)
            .collect();
        found.dedup();
        assert_eq!(found, [rule], "{name}");
    }
}

#[test]
fn the_writer_refuses_mismatched_material_ids() {
    let a = edit(Kind::Btp, |a| a.tables[2].data = Data::U16(vec![0, 1]));
    assert!(a.write().is_err());
}

#[test]
fn raw_bytes_are_counted() {
    assert_eq!(rules_of(&raw_gap()), ["J3DA-009"]);
    assert_eq!(raw_gap().raw_parts().len(), 1);
}

#[test]
fn stale_padding_survives_a_round_trip() {
    let b = bytes(stale_padding());
    let back = j3d_anim::Anim::parse(&b).unwrap();
    assert_eq!(back.write().unwrap(), b);
    assert_eq!(rules_of(&back), ["J3DA-011"]);
}

#[test]
fn binding_fits_its_target() {
    let t = target();
    let two = Target { joints: 2, ..t };
    assert!(check_binding(&build::sample(Kind::Bck), &two).is_empty());
    let water = Target {
        materials: vec![b"water".to_vec()],
        ..target()
    };
    assert!(check_binding(&build::sample(Kind::Btk), &water).is_empty());
}

/// `Target::from_model_with` parses the model companion with the caller's limits: a model whose
/// facts read under the defaults is refused with a limit error under tiny ones.
#[test]
fn model_companion_honours_the_callers_limits() {
    let model = j3d_bmd::build::skinned_bmd().write().unwrap();
    let defaults = gcio::Limits::default();
    let target = j3d_anim::Target::from_model_with(&model, &defaults).unwrap();
    assert_eq!(target, j3d_anim::Target::from_model(&model).unwrap());
    assert!(target.joints > 1);
    let tiny = gcio::Limits {
        max_elements: 1,
        ..defaults
    };
    let e = j3d_anim::Target::from_model_with(&model, &tiny).unwrap_err();
    assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
}
