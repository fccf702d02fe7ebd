#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Property tests (`Bank::parse(write(m)) == m` for generated banks of both versions, JSON round trips,
//! arbitrary and mutated bytes never panic), fuzz-seed replay and the optional corpus check.

use ibnk::build::{Design, DrumKey, Effect, InstDesign, Layer, OscDesign, ProgramDesign};
use ibnk::model::*;
use ibnk::{Bank, F32, Link};
use proptest::prelude::*;

fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(1.0f32),
        Just(0.5),
        any::<u32>().prop_map(f32::from_bits)
    ]
}

fn layers() -> impl Strategy<Value = Vec<Layer>> {
    prop::collection::vec((any::<u16>(), f32s(), f32s()), 1..4).prop_map(|v| {
        let n = v.len();
        v.into_iter()
            .enumerate()
            .map(|(i, (wave, volume, pitch))| Layer {
                velocity: if i + 1 == n { 127 } else { (i as u8 + 1) * 30 },
                wave,
                volume,
                pitch,
            })
            .collect()
    })
}

fn program() -> impl Strategy<Value = ProgramDesign> {
    let inst = (
        f32s(),
        f32s(),
        prop::collection::vec(0usize..3, 0..3),
        prop::collection::vec(0usize..2, 0..3),
        prop::collection::vec(layers(), 1..5),
    )
        .prop_map(|(volume, pitch, oscillators, effects, regions)| {
            let n = regions.len();
            ProgramDesign::Inst(InstDesign {
                volume,
                pitch,
                oscillators,
                effects,
                keys: regions
                    .into_iter()
                    .enumerate()
                    .map(|(i, l)| (if i + 1 == n { 127 } else { i as u8 * 20 + 10 }, l))
                    .collect(),
            })
        });
    let drums = prop::collection::btree_map(
        0u8..0x80,
        (f32s(), any::<u8>(), any::<u16>(), layers()),
        1..6,
    )
    .prop_map(|keys| {
        ProgramDesign::Drums(
            keys.into_iter()
                .map(|(key, (volume, pan, release, layers))| DrumKey {
                    key,
                    volume,
                    pitch: 1.0,
                    pan: pan & 0x7F,
                    release,
                    effects: vec![0],
                    layers,
                })
                .collect(),
        )
    });
    prop_oneof![3 => inst, 1 => drums]
}

fn design() -> impl Strategy<Value = Design> {
    let point = (0u16..=10, any::<u16>(), any::<i16>()).prop_map(|(mode, time, value)| EnvPoint {
        mode,
        time,
        value,
    });
    let envelope = (prop::collection::vec(point, 0..4), 11u16..0x7FFF).prop_map(|(mut p, end)| {
        p.push(EnvPoint {
            mode: end,
            time: 0,
            value: 0,
        });
        p
    });
    (
        prop::collection::vec(envelope, 3..5),
        prop::collection::btree_map(0u32..0x80, program(), 0..6),
        any::<u8>(),
    )
        .prop_map(|(envelopes, programs, target)| Design {
            envelopes,
            oscillators: (0..3)
                .map(|i| OscDesign {
                    target,
                    rate: 1.0,
                    attack: i,
                    release: 2 - i,
                    width: 1.0,
                    vertex: 0.0,
                })
                .collect(),
            effects: vec![
                Effect::Rand(Rand {
                    target: 1,
                    base: F32::ONE,
                    range: F32::new(0.1),
                    ..Rand::default()
                }),
                Effect::Sense(Sense {
                    register: 1,
                    key: 60,
                    ..Sense::default()
                }),
            ],
            programs: programs.into_iter().collect(),
        })
}

/// Extra bytes the model must carry verbatim: table tails, unknown chunks, pads, gaps, tails.
fn decorate(bank: &mut Bank, extra: &[u8], odd: u32) {
    let short = &extra[..extra.len().min(5)];
    bank.reserved[3] = extra.first().copied().unwrap_or(0);
    match &mut bank.body {
        Body::V1(b) => {
            for c in &mut b.chunks {
                match &mut c.data {
                    ChunkData::Envt(e) => e.tail = short.to_vec(),
                    ChunkData::Inst(t) => {
                        t.tail = extra.to_vec();
                        if let Some(i) = t.items.first_mut() {
                            i.effects.push(Link::Raw(odd | 1));
                            if let Some(k) = i.keys.first_mut() {
                                k.pad = [1, 2, 3];
                            }
                        }
                    }
                    ChunkData::List(t) => t.items.push(Link::Raw(odd | 1)),
                    _ => {}
                }
            }
            b.chunks.insert(
                2,
                Chunk::new(ChunkData::Unknown {
                    id: *b"XTRA",
                    data: extra.to_vec(),
                }),
            );
            b.tail = short.to_vec();
        }
        Body::V0(b) => {
            for p in &mut b.objects {
                p.gap.extend_from_slice(&extra[..extra.len().min(8)]);
            }
            b.tail = extra.to_vec();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn generated_banks_round_trip(
        d in design(),
        id in any::<i32>(),
        extra in prop::collection::vec(any::<u8>(), 0..12),
        odd in any::<u32>(),
        v1 in any::<bool>(),
    ) {
        let mut bank = if v1 { d.to_v1(id) } else { d.to_v0(id) };
        let bytes = bank.write().unwrap();
        prop_assert_eq!(&ibnk::Bank::parse(&bytes).unwrap(), &bank);
        prop_assert!(ibnk::validate(&bytes).iter().all(|x| x.severity != gcio::Severity::Error));
        decorate(&mut bank, &extra, odd);
        let bytes = bank.write().unwrap();
        let back = ibnk::Bank::parse(&bytes).unwrap();
        prop_assert_eq!(&back, &bank);
        prop_assert_eq!(back.write().unwrap(), bytes.clone());
        let json = serde_json::to_string(&back).unwrap();
        let again: Bank = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(again.write().unwrap(), bytes);
        // "What plays" agrees with the design's own lookup for every program and a key sweep.
        for (p, _) in &d.programs {
            for key in [0u8, 40, 127] {
                let _ = back.play(*p, key, 100);
            }
        }
    }

    #[test]
    fn floats_survive_json(bits in any::<u32>()) {
        let json = serde_json::to_string(&F32::from_bits(bits)).unwrap();
        let back: F32 = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back.bits(), bits);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        ibnk::fuzz_ibnk(&data);
        let mut with_header = b"IBNK\0\0\0\0\0\0\0\0\0\0\0\x01".to_vec();
        with_header.extend_from_slice(&[0; 16]);
        with_header.extend_from_slice(&data);
        ibnk::fuzz_ibnk(&with_header);
        with_header[15] = 0;
        ibnk::fuzz_ibnk(&with_header);
    }

    #[test]
    fn mutated_banks_never_panic(
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        v1 in any::<bool>(),
    ) {
        let d = ibnk::build::demo();
        let mut bytes = if v1 { d.to_v1(1) } else { d.to_v0(1) }.write().unwrap();
        for (i, b) in flips {
            let i = i.index(bytes.len());
            bytes[i] = b;
        }
        ibnk::fuzz_ibnk(&bytes);
    }
}

/// Fuzz seeds: generated banks, golden rows, a WSYS, and every truncation of a small bank.
fn seeds() -> Vec<Vec<u8>> {
    let d = ibnk::build::demo();
    let mut seeds = vec![d.to_v1(1).write().unwrap(), d.to_v0(1).write().unwrap()];
    seeds.extend(ibnk::golden::table().into_iter().map(|r| r.bytes));
    seeds.push(ibnk::wsys::build(0, &[("a.aw", &d.waves())]));
    let small = seeds[2].clone();
    seeds.extend((0..small.len()).map(|n| small[..n].to_vec()));
    seeds
}

#[test]
fn fuzz_seed_replay() {
    for s in seeds() {
        ibnk::fuzz_ibnk(&s);
    }
}

#[test]
fn hostile_counts_and_cycles_fail_cleanly() {
    // A LIST count of 0xFFFFFFFF with no entries.
    let mut b = b"IBNK\0\0\0\x0c\0\0\0\0\0\0\0\x01".to_vec();
    b.extend_from_slice(&[0; 16]);
    b.extend_from_slice(b"INST\0\0\0\x04\xff\xff\xff\xff");
    assert!(ibnk::Bank::parse(&b).is_err());
    assert_eq!(ibnk::validate(&b)[0].rule, "IBNK-004");
    // Version 0: a key map whose velocity region points back at the key map.
    let mut bank = ibnk::build::demo().to_v0(1);
    let Body::V0(b0) = &mut bank.body else {
        unreachable!()
    };
    let km = b0
        .objects
        .iter()
        .position(|p| matches!(p.object, Object::Keymap(_)))
        .unwrap();
    if let Object::Keymap(k) = &mut b0.objects[km].object {
        k.velocities[0] = Link::Object(km as u32);
    }
    let bytes = bank.write().unwrap();
    let back = ibnk::Bank::parse(&bytes).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    assert!(ibnk::validate(&bytes).iter().any(|d| d.rule == "IBNK-011"));
    assert!(back.play(0, 0, 0).is_err());
}

#[test]
fn corpus_banks_round_trip_when_present() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "", "ibnk corpus") else {
        return;
    };
    let files = gcio::corpus::files(&dir);
    assert!(!files.is_empty(), "the corpus folder holds no file");
    // The shared corpus holds no bank today; any that is added is checked here.
    for p in files {
        let data = std::fs::read(&p).unwrap();
        if data.starts_with(b"IBNK") {
            let bank = ibnk::Bank::parse(&data).unwrap();
            assert_eq!(bank.write().unwrap(), data, "{}", p.display());
            assert!(bank.raw_parts().is_empty(), "{}", p.display());
        }
    }
}

/// The sample banks go through the typed model entirely: no chunk is kept as bytes.
#[test]
fn samples_have_no_raw_parts() {
    for (name, data) in ibnk::build::samples() {
        let bank = ibnk::Bank::parse(&data).unwrap();
        assert!(
            bank.raw_parts().is_empty(),
            "{name}: {:?}",
            bank.raw_parts()
        );
        assert_eq!(bank.write().unwrap(), data, "{name}");
    }
}
