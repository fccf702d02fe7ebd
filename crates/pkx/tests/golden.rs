#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The golden tables drive read and write tests.

use gcio::Writer;
use gcio::zerocopy::FromBytes;
use pkx::golden::{COLOSSEUM_SHINY, PART_ANIMS, SUB_ANIMS, TIMINGS};
use pkx::raw::{ColoShiny, RawPartAnim, RawSubAnim};
use pkx::{AnimEntry, Game, PartAnim, Shiny, SubAnim, Timing, build};

fn entry_bytes(e: &AnimEntry) -> Vec<u8> {
    let mut w = Writer::new();
    e.write_to(&mut w);
    w.into_vec()
}

fn blank(game: Game) -> AnimEntry {
    build::padding_slot(game, [0; 16])
}

#[test]
fn sub_anims() {
    for (v, bytes) in SUB_ANIMS {
        let r = RawSubAnim::ref_from_bytes(bytes).unwrap();
        let read = SubAnim {
            motion_type: r.motion_type.get(),
            anim_index: r.anim_index.get(),
        };
        assert_eq!(read, *v);
        let mut e = blank(Game::Xd);
        e.sub_anims[0] = *v;
        assert_eq!(&entry_bytes(&e)[0x8C..0x94], bytes);
    }
}

#[test]
fn timings() {
    for (game, v, bytes) in TIMINGS {
        let raw: [u32; 4] = std::array::from_fn(|i| {
            u32::from_be_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap())
        });
        assert_eq!(Timing::from_raw(*game, raw), *v);
        let mut e = blank(*game);
        e.timing = *v;
        assert_eq!(&entry_bytes(&e)[0x10..0x20], bytes);
    }
}

#[test]
fn part_anims() {
    for (v, bytes) in PART_ANIMS {
        let r = RawPartAnim::ref_from_bytes(bytes).unwrap();
        let read = PartAnim {
            has_data: r.has_data,
            sub_param: r.sub_param,
            parts: r.parts,
            selectors: r.selectors,
            anim_index: r.anim_index,
        };
        assert_eq!(read, *v);
        let mut w = Writer::new();
        v.write_to(&mut w);
        assert_eq!(w.as_slice(), bytes);
    }
}

#[test]
fn colosseum_shiny() {
    for (v, bytes) in COLOSSEUM_SHINY {
        let r = ColoShiny::ref_from_bytes(bytes).unwrap();
        assert_eq!(Shiny::from_argb(r.route.map(|x| x.get()), r.argb.get()), *v);
        let mut w = Writer::new();
        v.write_colosseum(&mut w);
        assert_eq!(w.as_slice(), bytes);
    }
}

#[test]
fn brightness_factors_pin_c32() {
    // C-32: 0x7F is neutral (the documented mapping), not ~128.
    assert_eq!(Shiny::factor(0), 0.0);
    assert_eq!(Shiny::factor(0x7F), 1.0);
    assert_eq!(Shiny::factor(0xFF), 2.0);
}
