//! Properties: edited samples round-trip through bytes and JSON; arbitrary and mutated bytes
//! never panic and, when they parse, write back identically.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use brlyt::model::Section;
use gcio::F32;
use proptest::prelude::*;

fn edit(
    floats: Vec<u32>,
    name: Vec<u8>,
    text: Vec<u16>,
    unterminated: bool,
    tail: Option<Vec<u8>>,
    maps: usize,
) -> brlyt::Brlyt {
    let mut l = brlyt::build::sample();
    for s in &mut l.sections {
        match s {
            Section::Picture(p) => {
                for (v, b) in p.pane.translate.iter_mut().zip(&floats) {
                    *v = F32::from_bits(*b);
                }
                p.pane.name = brlyt::Name(name.clone());
            }
            Section::Text(t) => {
                t.text = Some(text.clone());
                // An empty string without its NUL stores no bytes: that is `text: None`.
                t.unterminated = unterminated && !text.is_empty();
                t.tail = tail.clone();
            }
            Section::Materials(m) => m[0].tex_maps = vec![m[0].tex_maps[0]; maps],
            _ => {}
        }
    }
    l
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn model_round_trips(
        floats in prop::collection::vec(any::<u32>(), 3),
        name in prop::collection::vec(1u8.., 0..16),
        text in prop::collection::vec(any::<u16>(), 0..20),
        unterminated in any::<bool>(),
        tail in prop::option::of(prop::collection::vec(1u8.., 1..6)),
        maps in 0usize..16,
    ) {
        let l = edit(floats, name, text, unterminated, tail, maps);
        let bytes = l.write().unwrap();
        prop_assert_eq!(&brlyt::Brlyt::parse(&bytes).unwrap(), &l);
        let j = brlyt::to_json(&l).unwrap();
        let text = serde_json::to_string(&j).unwrap();
        let back = brlyt::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        prop_assert_eq!(&back, &l);
        brlyt::fuzz_brlyt(&bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..400)) {
        brlyt::fuzz_brlyt(&data);
    }

    #[test]
    fn mutated_sample_never_panics(edits in prop::collection::vec((0usize..2000, any::<u8>()), 1..4)) {
        let mut b = brlyt::build::sample().write().unwrap();
        let n = b.len();
        for (at, byte) in edits {
            b[at % n] = byte;
        }
        brlyt::fuzz_brlyt(&b);
    }
}

/// The sample placed by hand: the picture (64 × 64, centred at (-100, 50)) spans -132…-68 by
/// 18…82; scaling the root by 2 doubles it about the screen centre; hiding the root hides all;
/// a root with alpha 128 and flag bit 1 halves its children's alpha.
#[test]
fn sample_places_by_hand() {
    let mut l = brlyt::build::sample();
    let t = l.tree();
    let p = l.place(&t);
    assert_eq!(p[1].bounds(), [-132.0, 18.0, -68.0, 82.0]);
    assert!(p.iter().all(|x| x.visible && x.alpha == 255.0));
    if let Section::Pane(root) = &mut l.sections[4] {
        root.scale = [F32::new(2.0); 2];
        root.flags = 0b10;
        root.alpha = 128;
    }
    let p = l.place(&t);
    assert_eq!(p[1].bounds(), [-264.0, 36.0, -136.0, 164.0]);
    assert!(p.iter().all(|x| !x.visible));
    assert_eq!(p[1].alpha, 128.0);
}
