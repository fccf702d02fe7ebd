#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Property tests: any header model writes and parses back equal (through detection when the
//! model is detectable, through the forced layout otherwise), the JSON metadata round-trips,
//! conversion between games keeps what both layouts hold, and arbitrary or mutated bytes never
//! panic.

use std::sync::OnceLock;

use gcio::Limits;
use pkx::{
    AnimEntry, AnimType, ColosseumHeader, Game, Header, PartAnim, Pkx, Shiny, SubAnim, Timing,
    View, XdFlags, XdHeader, build, json,
};
use proptest::prelude::*;

fn dat() -> &'static [u8] {
    static D: OnceLock<Vec<u8>> = OnceLock::new();
    D.get_or_init(|| build::battle_dat(4, 3).unwrap())
}

fn finite_f32() -> impl Strategy<Value = f32> {
    any::<u32>()
        .prop_map(f32::from_bits)
        .prop_filter("no NaN", |f| !f.is_nan())
}

fn part_anim() -> impl Strategy<Value = PartAnim> {
    (
        any::<[u8; 2]>(),
        any::<[u8; 8]>(),
        any::<[u8; 8]>(),
        any::<u8>(),
    )
        .prop_map(|(a, parts, selectors, anim_index)| PartAnim {
            has_data: a[0],
            sub_param: a[1],
            parts,
            selectors,
            anim_index,
        })
}

fn shiny() -> impl Strategy<Value = Shiny> {
    (any::<[u32; 4]>(), any::<[u8; 4]>())
        .prop_map(|(route, brightness)| Shiny { route, brightness })
}

fn header(game: Game, detectable: bool) -> BoxedStrategy<Header> {
    match game {
        Game::Xd => (
            (
                any::<u32>(),
                any::<u32>(),
                any::<i32>(),
                any::<u16>(),
                any::<u16>(),
            ),
            [part_anim(), part_anim(), part_anim(), part_anim()],
            (any::<[u8; 4]>(), any::<u16>(), any::<u16>(), any::<u16>()),
            shiny(),
        )
            .prop_map(
                move |((r4, rc, po, species, ty), part_anims, (b, dp, hb, _), shiny)| {
                    Header::Xd(XdHeader {
                        reserved_04: r4,
                        reserved_0c: rc,
                        particle_orientation: po,
                        species_id: species,
                        type_id: if detectable { 0x000C } else { ty },
                        part_anims,
                        flags: XdFlags::from_bits_retain(b[0]),
                        unknown_69: b[1],
                        distortion_param: dp,
                        distortion_type: b[2],
                        reserved_6d: b[3],
                        head_bone: hb,
                        shiny,
                    })
                },
            )
            .boxed(),
        Game::Colosseum => (
            any::<i32>(),
            any::<u32>(),
            any::<i32>(),
            any::<[i32; 3]>(),
            any::<[u8; 0x1C]>(),
            shiny(),
        )
            .prop_map(|(po, u10, u14, part_anim_refs, reserved, shiny)| {
                Header::Colosseum(ColosseumHeader {
                    particle_orientation: po,
                    unknown_10: u10,
                    unknown_14: u14,
                    part_anim_refs,
                    reserved,
                    shiny,
                })
            })
            .boxed(),
    }
}

fn entry(game: Game) -> impl Strategy<Value = AnimEntry> {
    let timing = match game {
        Game::Xd => prop::array::uniform4(finite_f32())
            .prop_map(Timing::Seconds)
            .boxed(),
        Game::Colosseum => any::<[u32; 4]>().prop_map(Timing::Frames).boxed(),
    };
    (
        (
            any::<u32>(),
            0u32..12,
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
        ),
        timing,
        prop::collection::vec(any::<u8>(), 44),
        any::<[i32; 16]>(),
        prop::array::uniform8((0u32..4, any::<u32>())),
    )
        .prop_map(
            |((ty, count, damage, r0c, term), timing, r20, body_map, subs)| AnimEntry {
                anim_type: AnimType(ty),
                sub_anim_count: count,
                damage_flags: damage,
                reserved_0c: r0c,
                timing,
                reserved_20: r20.try_into().unwrap(),
                body_map,
                sub_anims: subs.map(|(motion_type, anim_index)| SubAnim {
                    motion_type,
                    anim_index,
                }),
                terminator: term,
            },
        )
}

fn model(game: Game, detectable: bool) -> impl Strategy<Value = Pkx> {
    let counts = match (game, detectable) {
        (Game::Xd, true) => 17usize..18,
        (Game::Colosseum, true) => 16usize..18,
        (_, false) => 0usize..20,
    };
    (
        header(game, detectable),
        prop::collection::vec(entry(game), counts),
        prop::collection::vec(any::<u8>(), 0..80),
        prop::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(|(h, entries, gpt1, extra)| {
            let mut p = Pkx::new(h, entries, gpt1, dat().to_vec());
            p.trailer.extend(extra);
            p
        })
}

fn any_model(detectable: bool) -> impl Strategy<Value = Pkx> {
    prop_oneof![
        model(Game::Xd, detectable),
        model(Game::Colosseum, detectable)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn detectable_models_write_and_parse_back_equal(p in any_model(true)) {
        let bytes = p.write().unwrap();
        prop_assert_eq!(pkx::game(&bytes), Some(p.game()));
        let q = Pkx::parse(&bytes).unwrap();
        prop_assert_eq!(&q, &p);
        prop_assert_eq!(q.write().unwrap(), bytes);
    }

    #[test]
    fn any_model_round_trips_through_its_layout(p in any_model(false)) {
        let bytes = p.write().unwrap();
        let v = View::parse_as(&bytes, p.game(), &Limits::default()).unwrap();
        let q = Pkx::from_view(&v, &Limits::default()).unwrap();
        prop_assert_eq!(&q, &p);
    }

    #[test]
    fn json_round_trips(p in any_model(true)) {
        let s = json::to_string(&p);
        let mut q = json::from_str(&s, p.dat.clone()).unwrap();
        // JSON is header only: the bytes that trail the layout are not in it.
        q.trailer.clone_from(&p.trailer);
        prop_assert_eq!(&q, &p);
        prop_assert_eq!(json::to_string(&q), s);
    }

    #[test]
    fn conversion_keeps_slots_and_polarity(p in any_model(true)) {
        let other = match p.game() { Game::Xd => Game::Colosseum, Game::Colosseum => Game::Xd };
        let q = Pkx::parse(&p.to_game(other).write().unwrap()).unwrap();
        prop_assert_eq!(q.game(), other);
        let want = if other == Game::Xd { p.entries.len().max(17) } else { p.entries.len() };
        prop_assert_eq!(q.entries.len(), want);
        for (a, b) in p.entries.iter().zip(&q.entries) {
            let x: Vec<(usize, u32)> = a.active(p.game()).map(|(k, s)| (k, s.anim_index)).collect();
            let y: Vec<(usize, u32)> = b.active(other).map(|(k, s)| (k, s.anim_index)).collect();
            prop_assert_eq!(x, y);
            prop_assert_eq!(b.terminator, other.terminator());
            prop_assert_eq!(a.body_map, b.body_map);
        }
        prop_assert_eq!(q.shiny(), p.shiny());
        prop_assert_eq!(&q.dat, &p.dat);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..0x1200)) {
        pkx::fuzz_pkx(&data);
    }

    #[test]
    fn mutated_samples_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8), which in 0usize..4) {
        let samples = build::samples().unwrap();
        let mut data = samples[which].1.clone();
        for (i, b) in flips {
            let at = i.index(data.len());
            data[at] ^= b | 1;
        }
        pkx::fuzz_pkx(&data);
    }
}
