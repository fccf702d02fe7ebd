//! Properties: parse(write(m)) == m for generated animations; arbitrary bytes never panic.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;

fn anim() -> impl Strategy<Value = canm::Canm> {
    (
        any::<bool>(),
        prop::array::uniform4(any::<u32>()),
        any::<u32>(),
        prop::array::uniform8((0u32..6, 0u32..40, 0u32..3)),
        prop::collection::vec(any::<u8>(), 0..8),
        prop::collection::vec(-1e6f32..1e6, 0..64),
        prop::collection::vec(any::<u8>(), 0..8),
    )
        .prop_map(|(keyed, header, frames, tracks, gap, values, trailer)| {
            let kind = if keyed {
                canm::Kind::Ckan
            } else {
                canm::Kind::Canm
            };
            canm::Canm {
                kind,
                header,
                frames,
                tracks: tracks.map(|(count, offset, layout)| canm::Track {
                    count,
                    offset,
                    layout: if keyed { layout } else { 0 },
                }),
                gap,
                values,
                trailer,
            }
        })
}

/// NaN (with its payload), infinities and -0.0 in the value table survive JSON as bits.
#[test]
fn non_finite_values_survive_json() {
    let mut a = canm::build::sample();
    let n = a.values.len();
    for (i, v) in [
        f32::from_bits(0x7FC0_1234),
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
    ]
    .into_iter()
    .enumerate()
    {
        a.values[(i * 7) % n] = v;
    }
    let bytes = a.write().unwrap();
    let text = serde_json::to_string(&canm::to_json(&a).unwrap()).unwrap();
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(canm::from_json(&back).unwrap().write().unwrap(), bytes);
    canm::fuzz_canm(&bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn model_round_trips(a in anim()) {
        let bytes = a.write().unwrap();
        prop_assert_eq!(&canm::Canm::parse(&bytes).unwrap(), &a);
        let j = canm::to_json(&a).unwrap();
        prop_assert_eq!(&canm::from_json(&j).unwrap(), &a);
        canm::fuzz_canm(&bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..400)) {
        canm::fuzz_canm(&data);
    }

    #[test]
    fn mutated_sample_never_panics(at in 0usize..400, byte in any::<u8>()) {
        let mut b = canm::build::sample().write().unwrap();
        let n = b.len();
        b[at % n] = byte;
        canm::fuzz_canm(&b);
    }
}
