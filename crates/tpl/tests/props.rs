//! Properties: parse(write(m)) == m for generated libraries; arbitrary bytes never panic.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gx::tex::{Image, PaletteFormat, TexFormat};
use proptest::prelude::*;

const FORMATS: [TexFormat; 11] = TexFormat::ALL;

fn entry() -> impl Strategy<Value = tpl::Entry> {
    (
        0..FORMATS.len(),
        1u32..40,
        1u32..40,
        1u8..4,
        any::<u32>(),
        0u8..3,
    )
        .prop_map(|(f, w, h, levels, seed, pf)| {
            let img = Image::from_fn(w, h, |x, y| {
                let v = seed.wrapping_mul(x + 1).wrapping_add(y * 7919);
                [
                    v as u8,
                    (v >> 8) as u8,
                    (v >> 16) as u8,
                    (v >> 24) as u8 | 0x80,
                ]
            })
            .unwrap();
            let mut e = tpl::build::entry(&img, FORMATS[f], levels, PaletteFormat(pf)).unwrap();
            e.header.wrap_s = seed % 3;
            e.header.lod_bias = (seed % 100) as f32 / 10.0;
            e
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn model_round_trips(entries in prop::collection::vec(entry(), 0..4), pad in 0u32..64) {
        let mut t = tpl::build::library(entries).unwrap();
        t.size += pad;
        let bytes = t.write().unwrap();
        let back = tpl::Tpl::parse(&bytes).unwrap();
        prop_assert_eq!(&back, &t);
        prop_assert_eq!(back.write().unwrap(), bytes.clone());
        prop_assert!(tpl::validate(&bytes).iter().all(|d| d.severity != gcio::Severity::Error));
        tpl::fuzz_tpl(&bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..512)) {
        tpl::fuzz_tpl(&data);
    }

    #[test]
    fn mutated_sample_never_panics(at in 0usize..2048, byte in any::<u8>()) {
        let mut b = tpl::build::sample_bytes();
        let n = b.len();
        b[at % n] = byte;
        tpl::fuzz_tpl(&b);
    }
}

/// `Tpl::write_with` bounds the output by the caller's limits: the sample writes under the
/// defaults and is refused with a limit error under a budget smaller than its size.
#[test]
fn write_honours_the_callers_limits() {
    let lib = tpl::build::sample();
    let bytes = lib.write_with(&gcio::Limits::default()).unwrap();
    assert_eq!(bytes, lib.write().unwrap());
    let tiny = gcio::Limits {
        max_alloc_bytes: bytes.len() as u64 - 1,
        ..gcio::Limits::default()
    };
    let e = lib.write_with(&tiny).unwrap_err();
    assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
}
