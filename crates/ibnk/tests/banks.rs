#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Generated banks of both versions: byte-exact round trips, JSON round trips, clean validation,
//! hand-worked "what plays" answers, and broken variants that fire their rules.

use ibnk::build::{self, Design};
use ibnk::model::*;
use ibnk::{Bank, F32, Link, Silence};

fn both() -> [(Bank, u32); 2] {
    let d = build::demo();
    // The drum kit is program 3 in version 1 and 0xE4 in version 0.
    [(d.to_v1(9), 3), (d.to_v0(9), 0xE4)]
}

fn rules(bytes: &[u8]) -> Vec<String> {
    let mut r: Vec<String> = ibnk::validate(bytes).into_iter().map(|d| d.rule).collect();
    r.dedup();
    r
}

#[test]
fn generated_banks_round_trip_and_validate_clean() {
    for (bank, _) in both() {
        let bytes = bank.write().unwrap();
        let back = ibnk::Bank::parse(&bytes).unwrap();
        assert_eq!(back, bank, "version {}", bank.version());
        assert_eq!(back.write().unwrap(), bytes);
        assert_eq!(ibnk::validate(&bytes), vec![], "version {}", bank.version());
        assert_eq!(
            u32::from_be_bytes(bytes[4..8].try_into().unwrap()) as usize,
            bytes.len() - 8
        );
    }
    let big = build::orchestra(40, 8);
    for bank in [big.to_v1(1), big.to_v0(1)] {
        let bytes = bank.write().unwrap();
        assert_eq!(ibnk::Bank::parse(&bytes).unwrap().write().unwrap(), bytes);
        assert_eq!(ibnk::validate(&bytes), vec![]);
    }
}

#[test]
fn version1_layout_follows_the_tools() {
    let bytes = build::demo().to_v1(9).write().unwrap();
    let v = ibnk::parse(&bytes).unwrap();
    let ids: Vec<[u8; 4]> = v.chunks().map(|c| c.unwrap().id).collect();
    assert_eq!(
        ids,
        [
            b"ENVT", b"OSCT", b"RAND", b"SENS", b"INST", b"PMAP", b"PERC", b"LIST"
        ]
        .map(|x| *x)
    );
    for c in v.chunks() {
        assert_eq!(
            c.unwrap().offset % 4,
            0,
            "chunks are 4-byte aligned (IBNK-008)"
        );
    }
}

#[test]
fn shared_objects_stay_shared() {
    let Body::V0(b) = build::demo().to_v0(1).body else {
        unreachable!()
    };
    // Oscillator 0 is used by piano, strings and bass; envelope 1 by both oscillators.
    let insts: Vec<&Inst0> = b
        .objects
        .iter()
        .filter_map(|p| match &p.object {
            Object::Inst(i) => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(insts[0].osc[0], insts[1].osc[1]);
    assert_eq!(insts[0].osc[0], insts[2].osc[0]);
    let releases: Vec<Link> = b
        .objects
        .iter()
        .filter_map(|p| match &p.object {
            Object::Osc(o) => Some(o.release),
            _ => None,
        })
        .collect();
    assert_eq!(releases.len(), 2);
    assert_eq!(releases[0], releases[1]);
    let bytes = ibnk::Bank {
        body: Body::V0(b),
        ..build::demo().to_v0(1)
    }
    .write()
    .unwrap();
    let back = ibnk::Bank::parse(&bytes).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
}

#[test]
fn json_round_trips_identically() {
    for (bank, _) in both() {
        let bytes = bank.write().unwrap();
        let json = serde_json::to_string_pretty(&ibnk::Bank::parse(&bytes).unwrap()).unwrap();
        let back: Bank = serde_json::from_str(&json).unwrap();
        assert_eq!(back.write().unwrap(), bytes);
    }
    for row in ibnk::golden::table() {
        let json = serde_json::to_string(&row.bank).unwrap();
        let back: Bank = serde_json::from_str(&json).unwrap();
        assert_eq!(back.write().unwrap(), row.bytes, "{}", row.name);
    }
}

#[test]
fn json_keeps_odd_floats() {
    let mut bank = build::demo().to_v1(1);
    let Body::V1(b) = &mut bank.body else {
        unreachable!()
    };
    let ChunkData::Inst(t) = &mut b.chunks[4].data else {
        unreachable!()
    };
    t.items[0].volume = F32::from_bits(0x7FC0_1234); // a NaN with payload
    t.items[0].pitch = F32::new(-0.0);
    t.items[1].volume = F32::new(f32::INFINITY);
    let bytes = bank.write().unwrap();
    let json = serde_json::to_string(&bank).unwrap();
    assert!(json.contains("\"0x7fc01234\""));
    let back: Bank = serde_json::from_str(&json).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
}

/// Hand-worked answers from the demo design (see `build::demo`).
#[test]
fn what_plays_instruments() {
    for (bank, _) in both() {
        let v = bank.version();
        // Piano: key 60 is in the second region (≤ 71); velocity 100 is the loud layer (≤ 127).
        let n = bank.play(0, 60, 100).unwrap();
        assert_eq!((n.wave, n.volume, n.pitch), (0x11, 1.0, 1.0), "v{v}");
        assert_eq!(n.effects, 1, "v{v}: the sense effect");
        // Velocity 63 is the soft layer's upper bound (inclusive).
        let n = bank.play(0, 60, 63).unwrap();
        assert_eq!((n.wave, n.volume), (0x10, 0.7));
        // Key 47 is the first region's upper bound; key 48 starts the second.
        assert_eq!(bank.play(0, 47, 10).unwrap().wave, 0x01);
        assert_eq!(bank.play(0, 48, 10).unwrap().wave, 0x10);
        assert_eq!(bank.play(0, 127, 127).unwrap().wave, 0x21);
        // Strings: volume 0.9 × 1.0; the upper region halves the pitch.
        let n = bank.play(1, 80, 1).unwrap();
        assert_eq!((n.wave, n.volume, n.pitch, n.pan), (0x31, 0.9, 0.5, None));
        // Bass: pitch 2.0 × 1.0, volume 0.8 × 0.75 in the middle layer.
        let n = bank.play(2, 30, 41).unwrap();
        assert_eq!((n.wave, n.volume, n.pitch), (0x41, 0.8 * 0.75, 2.0));
        assert_eq!(bank.play(2, 30, 40).unwrap().wave, 0x40);
        assert_eq!(bank.play(2, 30, 0).unwrap().wave, 0x40);
        // Velocity 128 is above every region.
        assert_eq!(
            bank.play(2, 30, 128),
            Err(Silence::VelocityAboveRegions {
                velocity: 128,
                highest: Some(127)
            })
        );
        assert_eq!(
            bank.play(0, 200, 1),
            Err(Silence::KeyAboveRegions {
                key: 200,
                highest: Some(127)
            })
        );
        assert_eq!(
            bank.play(5, 60, 100),
            Err(Silence::NoProgram { program: 5 })
        );
        assert_eq!(
            bank.play(1000, 60, 100),
            Err(Silence::NoProgram { program: 1000 })
        );
    }
}

#[test]
fn what_plays_drums() {
    for (bank, kit) in both() {
        let v = bank.version();
        let n = bank.play(kit, 38, 80).unwrap();
        assert_eq!((n.wave, n.volume), (0x51, 0.8), "v{v}");
        assert_eq!(n.pan, Some(64.0 / 127.0));
        assert_eq!(n.release, Some(1000));
        assert_eq!(n.effects, 1, "v{v}: the snare's random effect");
        assert_eq!(bank.play(kit, 38, 81).unwrap().wave, 0x52);
        let n = bank.play(kit, 46, 1).unwrap();
        assert_eq!(
            (n.wave, n.pan, n.release),
            (0x54, Some(40.0 / 127.0), Some(2000))
        );
        let n = bank.play(kit, 49, 127).unwrap();
        assert_eq!((n.wave, n.pitch, n.volume), (0x55, 0.98, 0.9));
        assert_eq!(bank.play(kit, 37, 100), Err(Silence::NoDrum { key: 37 }));
        assert_eq!(bank.play(kit, 100, 100), Err(Silence::NoDrum { key: 100 }));
        assert_eq!(
            bank.play(kit, 0x80, 100),
            Err(Silence::NoDrum { key: 0x80 })
        );
    }
}

#[test]
fn what_plays_version0_specifics() {
    let bank = build::demo().to_v0(1);
    assert_eq!(
        bank.play(0x90, 60, 100),
        Err(Silence::UnusedSlot { program: 0x90 })
    );
    assert_eq!(
        bank.play(0xE5, 60, 100),
        Err(Silence::NoProgram { program: 0xE5 })
    );
    // A PERC (not PER2) drum set gets the runtime defaults: pan 0.5, release 1000.
    let mut b = bank.clone();
    let Body::V0(b0) = &mut b.body else {
        unreachable!()
    };
    for p in &mut b0.objects {
        if let Object::Perc(perc) = &mut p.object {
            perc.magic = *b"PERC";
            perc.pan.clear();
            perc.release.clear();
        }
    }
    let n = b.play(0xE4, 46, 1).unwrap();
    assert_eq!((n.pan, n.release), (Some(0.5), Some(1000)));
    let bytes = b.write().unwrap();
    assert_eq!(ibnk::Bank::parse(&bytes).unwrap(), b);
}

#[test]
fn what_plays_explains_broken_links() {
    let mut bank = build::demo().to_v1(1);
    let Body::V1(b) = &mut bank.body else {
        unreachable!()
    };
    let ChunkData::List(list) = &mut b.chunks[7].data else {
        unreachable!()
    };
    list.items[1] = Link::Raw(0x1233);
    list.items[2] = Link::Inst(99);
    let e = bank.play(1, 60, 60).unwrap_err();
    assert!(matches!(e, Silence::Broken { .. }));
    assert!(e.to_string().contains("not an Inst or Perc"), "{e}");
    assert!(
        bank.play(2, 60, 60)
            .unwrap_err()
            .to_string()
            .contains("missing Inst 99")
    );
}

fn v1_edit(edit: impl FnOnce(&mut Bank1)) -> Vec<u8> {
    let mut bank = build::demo().to_v1(1);
    let Body::V1(b) = &mut bank.body else {
        unreachable!()
    };
    edit(b);
    bank.write().unwrap()
}

fn v0_edit(edit: impl FnOnce(&mut Bank0)) -> Vec<u8> {
    let mut bank = build::demo().to_v0(1);
    let Body::V0(b) = &mut bank.body else {
        unreachable!()
    };
    edit(b);
    bank.write().unwrap()
}

fn inst(b: &mut Bank1, i: usize) -> &mut Inst {
    let ChunkData::Inst(t) = &mut b.chunks[4].data else {
        unreachable!()
    };
    &mut t.items[i]
}

#[test]
fn broken_header_variants() {
    let good = build::demo().to_v1(1).write().unwrap();
    let mut b = good.clone();
    b[7] ^= 1;
    assert_eq!(rules(&b), ["IBNK-001"]);
    assert_eq!(
        ibnk::Bank::parse(&b).unwrap().write().unwrap(),
        b,
        "kept byte-exact"
    );
    let mut b = good.clone();
    b[0xF] = 2;
    assert_eq!(rules(&b), ["IBNK-002"]);
    let mut b = good.clone();
    b[0x13] = 1;
    assert_eq!(rules(&b), ["IBNK-003"]);
    assert_eq!(ibnk::Bank::parse(&b).unwrap().write().unwrap(), b);
    assert_eq!(rules(b"RIFF0000"), ["IBNK-001"]);
}

#[test]
fn broken_v1_variants_fire_their_rules() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "IBNK-004",
            v1_edit(|b| {
                let ChunkData::List(t) = &mut b.chunks[7].data else {
                    unreachable!()
                };
                t.tail = vec![0; 4];
            }),
        ),
        ("IBNK-005", v1_edit(|b| inst(b, 0).keys.swap(0, 1))),
        (
            "IBNK-005",
            v1_edit(|b| inst(b, 2).keys[0].velocities[2].velocity = 0x80),
        ),
        (
            "IBNK-006",
            v1_edit(|b| {
                let ChunkData::List(t) = &mut b.chunks[7].data else {
                    unreachable!()
                };
                t.items[0] = Link::Pmap(0);
            }),
        ),
        (
            "IBNK-006",
            v1_edit(|b| {
                let ChunkData::Perc(t) = &mut b.chunks[6].data else {
                    unreachable!()
                };
                t.items[0].keys[36] = Link::Inst(0);
            }),
        ),
        (
            "IBNK-006",
            v1_edit(|b| inst(b, 0).effects = vec![Link::Raw(0x9999)]),
        ),
        (
            "IBNK-007",
            v1_edit(|b| {
                let ChunkData::List(t) = &mut b.chunks[7].data else {
                    unreachable!()
                };
                t.items.resize(0xF1, Link::Empty);
            }),
        ),
        (
            "IBNK-008",
            v1_edit(|b| {
                for i in 0..3 {
                    inst(b, i).oscillators.clear();
                }
                b.chunks.remove(1);
            }),
        ),
        (
            "IBNK-009",
            v1_edit(|b| {
                let ChunkData::Envt(e) = &mut b.chunks[0].data else {
                    unreachable!()
                };
                e.tail = vec![0, 1, 0, 2, 0, 3];
            }),
        ),
        (
            "IBNK-009",
            v1_edit(|b| {
                let ChunkData::Osct(t) = &mut b.chunks[1].data else {
                    unreachable!()
                };
                t.items[0].attack = Link::Raw(6);
            }),
        ),
        ("IBNK-010", v1_edit(|b| inst(b, 0).oscillators = vec![7])),
        (
            "IBNK-010",
            v1_edit(|b| inst(b, 1).oscillators = vec![0, 1, 0]),
        ),
    ];
    for (rule, bytes) in cases {
        assert_eq!(rules(&bytes), [rule], "variant for {rule}");
        assert_eq!(
            ibnk::Bank::parse(&bytes).unwrap().write().unwrap(),
            bytes,
            "{rule}"
        );
    }
}

#[test]
fn broken_v0_variants_fire_their_rules() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("IBNK-011", v0_edit(|b| b.slots[0x90] = b.slots[0])),
        ("IBNK-011", v0_edit(|b| b.slots.swap(0, 0xE4))),
        (
            "IBNK-005",
            v0_edit(|b| {
                for p in &mut b.objects {
                    if let Object::Keymap(k) = &mut p.object {
                        k.high_key = 0x90;
                    }
                }
            }),
        ),
        (
            "IBNK-006",
            v0_edit(|b| {
                let first_inst = b.slots[0];
                for p in &mut b.objects {
                    if let Object::Perc(perc) = &mut p.object {
                        perc.keys[3] = first_inst;
                    }
                }
            }),
        ),
    ];
    for (rule, bytes) in cases {
        assert_eq!(rules(&bytes), [rule], "variant for {rule}");
        assert_eq!(
            ibnk::Bank::parse(&bytes).unwrap().write().unwrap(),
            bytes,
            "{rule}"
        );
    }
}

#[test]
fn wsys_check_reports_programs_with_missing_waves() {
    let design: Design = build::demo();
    let waves = design.waves();
    let full = ibnk::wsys::build(0, &[("demo_0.aw", &waves)]);
    let ws = ibnk::wsys::parse(&full).unwrap();
    assert_eq!(ws.wave_ids().unwrap().len(), waves.len());
    let arc = ws.archives().next().unwrap().unwrap();
    assert_eq!(arc.name, b"demo_0.aw");
    assert_eq!(arc.wave(0).unwrap().base_key, 60);
    for (bank, kit) in both() {
        assert_eq!(ibnk::wsys::missing_waves(&bank, &full).unwrap(), vec![]);
        // Split the waves over two groups: still complete.
        let (a, b) = waves.split_at(5);
        let two = ibnk::wsys::build(0, &[("a.aw", a), ("b.aw", b)]);
        assert_eq!(ibnk::wsys::missing_waves(&bank, &two).unwrap(), vec![]);
        // Drop the snare's loud layer and the bass's middle layer.
        let partial: Vec<u16> = waves
            .iter()
            .copied()
            .filter(|w| ![0x52, 0x41].contains(w))
            .collect();
        let ws = ibnk::wsys::build(4, &[("demo_0.aw", &partial)]);
        let found = ibnk::wsys::missing_waves(&bank, &ws).unwrap();
        let msgs: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "program 2: wave(s) 0x0041 missing from WSYS 4".to_string(),
                format!("program {kit}: wave(s) 0x0052 missing from WSYS 4"),
            ]
        );
        assert!(found.iter().all(|d| d.rule == "IBNK-012"));
        // Each finding points at the program's table entry.
        let written = bank.write().unwrap();
        let v = ibnk::parse(&written).unwrap();
        let entry = if bank.version() == 0 {
            0x24 + 4 * 2
        } else {
            v.chunk(b"LIST").unwrap().unwrap().offset as u64 + 12 + 4 * 2
        };
        assert_eq!(found[0].offset, Some(entry));
    }
    assert!(ibnk::wsys::missing_waves(&build::demo().to_v1(0), b"WSYS").is_err());
}

#[test]
fn chunk_padding_is_kept_and_checked() {
    // Non-zero padding after a 6-byte ENVT table: kept verbatim, reported as info.
    let mut bank = build::demo().to_v1(1);
    let Body::V1(b) = &mut bank.body else {
        unreachable!()
    };
    let ChunkData::Envt(e) = &mut b.chunks[0].data else {
        unreachable!()
    };
    e.tables.truncate(1);
    e.tables[0].points.truncate(1);
    e.tables[0].points[0].mode = 0xF;
    for o in b.oscillators_mut() {
        o.attack = Link::Env(0);
        o.release = Link::Env(0);
    }
    b.chunks[0].pad = Some(vec![0xAB, 0xCD]);
    let bytes = bank.write().unwrap();
    assert_eq!(&bytes[0x2E..0x30], &[0xAB, 0xCD]);
    assert_eq!(ibnk::Bank::parse(&bytes).unwrap(), bank);
    let found = ibnk::validate(&bytes);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].rule.as_str(), found[0].severity),
        ("IBNK-008", gcio::Severity::Info)
    );
    // Padding cut short by the end of the file: the last chunk ends unaligned.
    let mut bank = build::demo().to_v1(1);
    let Body::V1(b) = &mut bank.body else {
        unreachable!()
    };
    b.chunks.push(Chunk {
        data: ChunkData::Unknown {
            id: *b"XTRA",
            data: vec![1, 2, 3, 4, 5],
        },
        pad: Some(vec![]),
    });
    let bytes = bank.write().unwrap();
    assert_eq!(bytes.len() % 4, 1);
    assert_eq!(ibnk::Bank::parse(&bytes).unwrap().write().unwrap(), bytes);
}

#[test]
fn findings_point_at_the_structure() {
    let bytes = v1_edit(|b| {
        let ChunkData::List(t) = &mut b.chunks[7].data else {
            unreachable!()
        };
        t.items[2] = Link::Pmap(0);
    });
    let list = ibnk::parse(&bytes)
        .unwrap()
        .chunk(b"LIST")
        .unwrap()
        .unwrap();
    let found = ibnk::validate(&bytes);
    assert_eq!(found[0].offset, Some(list.offset as u64 + 12 + 8));
    // An Inst finding sits at the Inst (program 1's LIST offset).
    let bytes = v1_edit(|b| inst(b, 1).oscillators = vec![9]);
    let v = ibnk::parse(&bytes).unwrap();
    assert_eq!(
        ibnk::validate(&bytes)[0].offset,
        Some(u64::from(v.program_offset(1).unwrap().unwrap()))
    );
    let bytes = v0_edit(|b| b.slots[0x90] = b.slots[0]);
    assert_eq!(ibnk::validate(&bytes)[0].offset, Some(0x24 + 4 * 0x90));
}
