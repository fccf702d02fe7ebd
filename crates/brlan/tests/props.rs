//! Properties: generated animations round-trip through bytes and JSON; arbitrary and mutated
//! bytes never panic and, when they parse, write back identically.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use brlan::build::{info, target};
use brlan::model::{Anim, Content, HermiteKey, Keys, Section, StepKey};
use gcio::F32;
use proptest::prelude::*;

fn keys() -> impl Strategy<Value = Keys> {
    prop_oneof![
        prop::collection::vec((any::<u32>(), any::<u16>(), any::<u16>()), 0..5).prop_map(|k| {
            Keys::Step(
                k.into_iter()
                    .map(|(f, value, pad)| StepKey {
                        frame: F32::from_bits(f),
                        value,
                        pad,
                    })
                    .collect(),
            )
        }),
        prop::collection::vec((any::<u32>(), any::<u32>(), any::<u32>()), 0..5).prop_map(|k| {
            Keys::Hermite(
                k.into_iter()
                    .map(|(f, v, s)| HermiteKey {
                        frame: F32::from_bits(f),
                        value: F32::from_bits(v),
                        slope: F32::from_bits(s),
                    })
                    .collect(),
            )
        }),
    ]
}

fn anim() -> impl Strategy<Value = brlan::Brlan> {
    (
        any::<u16>(),
        prop::collection::vec(prop::collection::vec(1u8.., 0..12), 0..3),
        prop::collection::vec(
            (
                prop::collection::vec(1u8.., 0..20),
                0u8..3,
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "RLPA", "RLVI", "RLVC", "RLMC", "RLTS", "RLTP", "XXXX",
                        ]),
                        prop::collection::vec((any::<u8>(), any::<u8>(), keys()), 0..3),
                    ),
                    0..3,
                ),
            ),
            0..4,
        ),
        prop::collection::vec(1u8.., 0..16),
    )
        .prop_map(|(frame_size, files, contents, tag_name)| {
            let mut a = brlan::build::sample();
            if let Section::Tag(t) = &mut a.sections[0] {
                t.name = brlyt::Name(tag_name);
            }
            a.sections[1] = Section::Anim(Anim {
                frame_size,
                looped: 0,
                pad: 0,
                files: files.into_iter().map(brlyt::Name).collect(),
                contents: contents
                    .into_iter()
                    .map(|(name, kind, infos)| Content {
                        name: brlyt::Name(name),
                        kind,
                        pad: [0; 2],
                        infos: infos
                            .into_iter()
                            .map(|(tag, ts)| {
                                info(
                                    tag,
                                    ts.into_iter().map(|(id, t, k)| target(id, t, k)).collect(),
                                )
                            })
                            .collect(),
                    })
                    .collect(),
            });
            a
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn model_round_trips(a in anim()) {
        let bytes = a.write().unwrap();
        prop_assert_eq!(&brlan::Brlan::parse(&bytes).unwrap(), &a);
        let text = serde_json::to_string(&brlan::to_json(&a).unwrap()).unwrap();
        let back = brlan::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        prop_assert_eq!(back.write().unwrap(), bytes.clone());
        brlan::fuzz_brlan(&bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..400)) {
        brlan::fuzz_brlan(&data);
    }

    #[test]
    fn mutated_sample_never_panics(edits in prop::collection::vec((0usize..2000, any::<u8>()), 1..4)) {
        let mut b = brlan::build::sample().write().unwrap();
        let n = b.len();
        for (at, byte) in edits {
            b[at % n] = byte;
        }
        brlan::fuzz_brlan(&b);
    }
}
