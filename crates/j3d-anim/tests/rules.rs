//! One test per rule id: a built file or model that breaks exactly that rule.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use j3d_anim::bind::{Target, check_binding};
use j3d_anim::{Data, Gap, KeyTrack, Kind, build};

fn rules_of(a: &j3d_anim::Anim) -> Vec<String> {
    j3d_anim::validate(&a.write().unwrap())
        .into_iter()
        .map(|d| d.rule)
        .collect()
}

fn edit(kind: Kind, f: impl FnOnce(&mut j3d_anim::Anim)) -> j3d_anim::Anim {
    let mut a = build::sample(kind);
    f(&mut a);
    a
}

#[test]
fn j3da_000_unparseable() {
    let mut b = build::sample_bck();
    b[8] ^= 1;
    assert_eq!(j3d_anim::validate(&b)[0].rule, "J3DA-000");
}

#[test]
fn j3da_001_loop_mode() {
    let a = edit(Kind::Bck, |a| {
        a.values.insert("loop_mode".into(), 9);
    });
    assert_eq!(rules_of(&a), ["J3DA-001"]);
}

#[test]
fn j3da_002_track_past_table() {
    let a = edit(Kind::Bck, |a| {
        if let Data::KeySrt(j) = &mut a.tables[0].data {
            j[0][2] = KeyTrack {
                count: 3,
                index: 1,
                tangent: 0,
            };
        }
    });
    assert_eq!(rules_of(&a), ["J3DA-002"]);
}

#[test]
fn j3da_003_tangent_mode() {
    let a = edit(Kind::Bck, |a| {
        if let Data::KeySrt(j) = &mut a.tables[0].data {
            j[0][2].tangent = 2;
        }
    });
    assert_eq!(rules_of(&a), ["J3DA-003"]);
}

#[test]
fn j3da_004_key_order() {
    let a = edit(Kind::Bck, |a| {
        if let Data::F32(t) = &mut a.tables[3].data {
            t[4] = -1.0; // second key's time before the first
        }
    });
    assert_eq!(rules_of(&a), ["J3DA-004"]);
}

#[test]
fn j3da_005_frames_past_table() {
    let a = edit(Kind::Bva, |a| {
        if let Data::Full(v) = &mut a.tables[0].data {
            v[1].count = 9;
        }
    });
    assert_eq!(rules_of(&a), ["J3DA-005"]);
}

#[test]
fn j3da_007_parallel_tables() {
    // The writer refuses material ids that do not match the entries…
    let a = edit(Kind::Btp, |a| a.tables[2].data = Data::U16(vec![0, 1]));
    assert!(a.write().is_err());
    // …and the validator flags a name table that does not.
    let a = edit(Kind::Btp, |a| {
        if let (Data::Names(n), Data::Names(m)) = (
            &mut a.tables[3].data,
            build::sample(Kind::Btk).tables[2].data.clone(),
        ) {
            n.entries.extend(m.entries);
        }
    });
    assert_eq!(rules_of(&a), ["J3DA-007"]);
}

#[test]
fn j3da_008_name_key() {
    let a = edit(Kind::Btk, |a| {
        if let Data::Names(n) = &mut a.tables[2].data {
            n.entries[0].key ^= 1;
        }
    });
    assert_eq!(rules_of(&a), ["J3DA-008"]);
}

#[test]
fn j3da_009_raw_bytes() {
    let a = edit(Kind::Bck, |a| {
        a.layout.order[1].gap = Gap::Raw(b"xyz".to_vec())
    });
    assert_eq!(rules_of(&a), ["J3DA-009"]);
    assert_eq!(a.raw_parts().len(), 1);
}

#[test]
fn j3da_010_duration() {
    let a = edit(Kind::Bck, |a| {
        a.values.insert("duration".into(), 0x9000);
    });
    assert_eq!(rules_of(&a), ["J3DA-010"]);
}

#[test]
fn j3da_011_stale_padding() {
    let a = edit(Kind::Btp, |a| {
        a.layout.order[1].gap = Gap::Stale {
            align: 32,
            bytes: vec![1; 0x18],
        }
    });
    let b = a.write().unwrap();
    let back = j3d_anim::parse(&b).unwrap();
    assert_eq!(back.write().unwrap(), b);
    assert_eq!(rules_of(&back), ["J3DA-011"]);
}

#[test]
fn j3da_020_to_022_binding() {
    let bck = build::sample(Kind::Bck);
    let t = Target {
        joints: 3,
        materials: vec![b"mat".to_vec()],
        shapes: 1,
    };
    assert_eq!(check_binding(&bck, &t)[0].rule, "J3DA-020");
    assert!(
        check_binding(
            &bck,
            &Target {
                joints: 2,
                ..t.clone()
            }
        )
        .is_empty()
    );
    let btk = build::sample(Kind::Btk);
    let d = check_binding(&btk, &t);
    assert_eq!(
        (d[0].rule.as_str(), d[0].severity),
        ("J3DA-021", gcio::Severity::Warning)
    );
    let both = Target {
        materials: vec![b"water".to_vec()],
        ..t.clone()
    };
    assert!(check_binding(&btk, &both).is_empty());
    let bva = build::sample(Kind::Bva);
    assert_eq!(check_binding(&bva, &t)[0].rule, "J3DA-022");
}
