//! Builders: a battle-model DAT (through `hsd-dat`'s builder) and realistic synthetic `.pkx`
//! files of both games, Pokémon and trainers, plus one broken variant per crash rule. No public
//! `.pkx` exists (pkx.md §10), so tests, benches and `samples/` use these.

use gcio::Result;
use hsd_dat::bound_box::{Aabb, BoundBox};
use hsd_dat::build::Builder;
use hsd_dat::build::parts::{anim_joint, aobj, fobj, joint, lin_keys, model_set, scene_data};
use hsd_dat::{Joint, JointFlags, Target};

use crate::model::{
    AnimEntry, AnimType, ColosseumHeader, Header, PartAnim, Pkx, Shiny, Timing, XdFlags, XdHeader,
};
use crate::view::Game;

/// A Colosseum/XD battle model without meshes: `scene_data` with one ModelSet whose skeleton is
/// a static wrapper joint 0, the animated root joint 1 and `bones - 2` children of joint 1 (so
/// depth-first indices are 0, 1, 2, …), `anims` animations (AnimJoint trees mirroring the
/// skeleton, one ROTY track on joint 1, `10 + 4·i` frames), and the matching `bound_box`, laid out
/// in compiler order ([`hsd_dat::compile::compile`]).
pub fn battle_dat(bones: usize, anims: usize) -> Result<Vec<u8>> {
    let bones = bones.max(2);
    let mut b = Builder::new();
    let mut next = None;
    for k in (2..bones).rev() {
        next = Some(b.put(&bone(None, next, [0.0, 0.1 * k as f32, 0.0])));
    }
    let j1 = b.put(&bone(next, None, [0.0, 1.0, 0.0]));
    let j0 = b.put(&bone(Some(j1), None, [0.0; 3]));
    let mut list = Vec::new();
    let mut sets = Vec::new();
    for i in 0..anims {
        let end = (10 + (4 * i) % 100) as u8;
        // One LIN track 0 → 0.1·i (f32 keys, little endian), waits in frames.
        let keys = b.keys(lin_keys(end, 0.1 * i as f32));
        let track = b.put(&fobj(2, None, keys));
        let anim = b.put(&aobj(f32::from(end), track));
        let mut next = None;
        for _ in 2..bones {
            next = Some(b.put(&anim_joint(None, next, None)));
        }
        let a1 = b.put(&anim_joint(next, None, Some(anim)));
        list.push(b.put(&anim_joint(Some(a1), None, None)));
        sets.push(vec![
            Aabb {
                min: [-1.0, 0.0, -1.0],
                max: [1.0, 2.0, 1.0]
            };
            usize::from(end) + 1
        ]);
    }
    let anim_list = b.ptr_array(&list);
    let model = b.put(&model_set(j0, Some(anim_list), None));
    let models = b.ptr_array(&[model]);
    let scene = b.put(&scene_data(models, None, None));
    let bound = b.bytes(BoundBox { pad: 0, sets }.to_bytes(), 4);
    b.root("scene_data", scene);
    b.root("bound_box", bound);
    // Laid out in HAL's compiler order, so `gcf rebuild` reproduces the embedded DAT exactly.
    hsd_dat::compile::compile(&b.finish())?.write()
}

/// A static bone (no flags) linked to `child` and `next`.
fn bone(child: Option<Target>, next: Option<Target>, translation: [f32; 3]) -> Joint<Target> {
    Joint {
        child,
        next,
        ..joint(JointFlags::empty(), translation)
    }
}

pub use crate::defaults::{entry as slot, padding_entry as padding_slot};

/// Body map of the sample Pokémon (0 in unused slots; indices under 24 bones).
pub const POKEMON_BODY: [i32; 16] = [1, 5, 3, 8, 6, 7, 10, 12, 0, 0, 0, 0, 14, 16, 2, 0];
/// Body map of the sample trainers (−1 in unused slots; indices under 16 bones).
pub const TRAINER_BODY: [i32; 16] = [1, 3, 2, -1, -1, -1, 6, 9, -1, -1, -1, -1, 12, 14, 2, -1];

fn pokemon_slots(game: Game, flying: bool) -> Vec<AnimEntry> {
    let m = POKEMON_BODY;
    let act = |anim, t: [f32; 4]| slot(game, AnimType::ACTION, &[(false, anim)], t, m);
    let mut v = vec![
        slot(
            game,
            AnimType::LOOP,
            &[(true, 0)],
            [2.1666667, 0.0, 0.0, 0.0],
            m,
        ),
        act(1, [0.68333334, 1.2, 1.9, 0.0]),
        act(2, [0.4, 0.76666665, 1.3, 0.0]),
        act(3, [0.53333336, 0.9166667, 1.45, 0.0]),
        act(2, [0.4, 0.76666665, 1.3, 0.0]),
        act(3, [0.53333336, 0.9166667, 1.45, 0.0]),
        act(4, [0.75, 1.3166667, 2.0166667, 0.0]),
        act(2, [0.4, 0.76666665, 1.3, 0.0]),
        slot(
            game,
            AnimType::HIT_REACTION,
            &[(false, 5)],
            [0.21666667, 0.5, 0.0, 0.0],
            m,
        ),
        slot(
            game,
            AnimType::COMPOUND,
            &[(false, 5), (false, 6)],
            [0.21666667, 0.5, 0.95, 2.2],
            m,
        ),
        slot(
            game,
            AnimType::HIT_REACTION,
            &[(false, 6)],
            [1.1, 1.7333333, 0.0, 0.0],
            m,
        ),
        slot(game, AnimType::LOOP, &[(true, 7)], [3.0, 0.0, 0.0, 0.0], m),
        slot(
            game,
            AnimType::COMPOUND,
            &[(false, 8), (false, 4)],
            [0.95, 1.6, 2.35, 2.9],
            m,
        ),
    ];
    v.extend((0..3).map(|_| padding_slot(game, m)));
    v.push(if flying {
        act(12, [0.6, 1.1666666, 0.0, 0.0])
    } else {
        padding_slot(game, m)
    });
    v
}

/// A 0x64-byte GPT1 particle block (header + opaque sections), kept verbatim by the model.
pub fn gpt1_block() -> Vec<u8> {
    let mut g = Vec::with_capacity(0x64);
    for w in [crate::raw::GPT1_MAGIC, 0x20, 0x40, 0x10, 0x50, 0, 0, 0] {
        g.extend_from_slice(&w.to_be_bytes());
    }
    g.extend((0..0x44u8).map(|i| i.wrapping_mul(29)));
    g
}

/// XD Absol-like Pokémon: species 359, 17 slots (idle and idle 2 loop, attacks, compound damage,
/// padding 13–16), sleep on / off and a targeted eye trigger, GPT1 block, non-identity shiny.
pub fn xd_pokemon() -> Result<Pkx> {
    let eyes = PartAnim {
        has_data: 2,
        sub_param: 2,
        parts: [6, 7, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        selectors: [1, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        anim_index: 11,
    };
    let header = Header::Xd(XdHeader {
        reserved_04: 0,
        reserved_0c: 0,
        particle_orientation: 1,
        species_id: 359,
        type_id: 0x000C,
        part_anims: [
            PartAnim::whole_model(9),
            PartAnim::whole_model(10),
            eyes,
            PartAnim::NONE,
        ],
        flags: XdFlags::SKIP_FRAC_FRAMES,
        unknown_69: 0,
        distortion_param: 0,
        distortion_type: 0,
        reserved_6d: 0,
        head_bone: 4,
        shiny: Shiny {
            route: [2, 0, 1, 3],
            brightness: [0x94, 0x6A, 0xB8, 0xFF],
        },
    });
    Ok(Pkx::new(
        header,
        pokemon_slots(Game::Xd, false),
        gpt1_block(),
        battle_dat(24, 12)?,
    ))
}

/// Colosseum flying Pokémon (Skarmory-like): 17 slots in frames, real slots motion_type 0,
/// padding 13–15 motion_type 1 at anim 0, slot 16 Take Flight real, trigger refs 9/10/11,
/// shiny in the 20-byte trailer.
pub fn colosseum_pokemon() -> Result<Pkx> {
    let header = Header::Colosseum(ColosseumHeader {
        particle_orientation: -1,
        unknown_10: 5,
        unknown_14: -1,
        part_anim_refs: [9, 10, 11],
        reserved: [0; 0x1C],
        shiny: Shiny {
            route: [0, 2, 1, 3],
            brightness: [0xAF, 0x7F, 0x5F, 0xFF],
        },
    });
    Ok(Pkx::new(
        header,
        pokemon_slots(Game::Colosseum, true),
        Vec::new(),
        battle_dat(24, 13)?,
    ))
}

fn trainer_slots(game: Game, count: usize, active: &[(usize, AnimType, f32)]) -> Vec<AnimEntry> {
    let m = TRAINER_BODY;
    let mut v: Vec<AnimEntry> = (0..count).map(|_| padding_slot(game, m)).collect();
    for (anim, &(s, ty, t)) in active.iter().enumerate() {
        if let Some(e) = v.get_mut(s) {
            *e = slot(
                game,
                ty,
                &[(ty == AnimType::LOOP, anim as u32)],
                [t, t * 1.5, 0.0, 0.0],
                m,
            );
        }
    }
    v
}

/// XD trainer: species 0, orientation 0, no triggers, −1 in unused body-map slots; idle, ball
/// throw, victory, battle intro, frustrated, victory 2 and defeat.
pub fn xd_trainer() -> Result<Pkx> {
    use AnimType as T;
    let slots = [
        (0, T::LOOP, 2.0),
        (1, T::ACTION, 0.8),
        (2, T::ACTION, 1.2),
        (3, T::ACTION, 1.5),
        (4, T::ACTION, 1.0),
        (5, T::ACTION, 1.3),
        (10, T::ACTION, 1.4),
    ];
    let header = Header::Xd(XdHeader {
        reserved_04: 0,
        reserved_0c: 0,
        particle_orientation: 0,
        species_id: 0,
        type_id: 0x000C,
        part_anims: [PartAnim::NONE; 4],
        flags: XdFlags::empty(),
        unknown_69: 0,
        distortion_param: 0,
        distortion_type: 0,
        reserved_6d: 0,
        head_bone: 3,
        shiny: Shiny::IDENTITY,
    });
    Ok(Pkx::new(
        header,
        trainer_slots(Game::Xd, 17, &slots),
        Vec::new(),
        battle_dat(16, slots.len())?,
    ))
}

/// Colosseum trainer with 16 slots: idle, ball throw, victory, victory 2, battle intro, hit by
/// a Shadow Pokémon 1 / 2 and defeat.
pub fn colosseum_trainer() -> Result<Pkx> {
    use AnimType as T;
    let slots = [
        (0, T::LOOP, 2.0),
        (1, T::ACTION, 0.8),
        (2, T::ACTION, 1.2),
        (5, T::ACTION, 1.3),
        (6, T::ACTION, 1.5),
        (9, T::HIT_REACTION, 0.5),
        (10, T::HIT_REACTION, 0.6),
        (11, T::ACTION, 1.4),
    ];
    let header = Header::Colosseum(ColosseumHeader {
        particle_orientation: 0,
        unknown_10: 5,
        unknown_14: -1,
        part_anim_refs: [-1; 3],
        reserved: [0; 0x1C],
        shiny: Shiny::IDENTITY,
    });
    Ok(Pkx::new(
        header,
        trainer_slots(Game::Colosseum, 16, &slots),
        Vec::new(),
        battle_dat(16, slots.len())?,
    ))
}

/// One crash-class mistake, applied to a valid model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Break {
    /// timing_1 = 0 on an active slot (PKX-007).
    TimingZero,
    /// −1 in a Pokémon body-map slot (PKX-008).
    MinusOneBodyMap,
    /// anim_index past the DAT's animation list (PKX-006).
    AnimOutOfRange,
    /// sub_anim_count = 9 (PKX-005).
    NineSubAnims,
}

/// Every break with the rule it must fire and its sample name.
pub const BREAKS: [(Break, &str, &str); 4] = [
    (Break::TimingZero, "PKX-007", "timing-zero"),
    (Break::MinusOneBodyMap, "PKX-008", "body-map-minus-one"),
    (Break::AnimOutOfRange, "PKX-006", "anim-index-out-of-range"),
    (Break::NineSubAnims, "PKX-005", "nine-sub-anims"),
];

impl Break {
    /// Applies the mistake to slot 1 (Special A) of `p`.
    pub fn apply(self, p: &mut Pkx) {
        let Some(e) = p.entries.get_mut(1) else {
            return;
        };
        match self {
            Break::TimingZero => {
                e.timing = match e.timing {
                    Timing::Seconds([_, b, c, d]) => Timing::Seconds([0.0, b, c, d]),
                    Timing::Frames([_, b, c, d]) => Timing::Frames([0, b, c, d]),
                }
            }
            Break::MinusOneBodyMap => e.body_map[8] = -1,
            Break::AnimOutOfRange => e.sub_anims[0].anim_index = 40,
            Break::NineSubAnims => e.sub_anim_count = 9,
        }
    }
}

/// Every sample for `samples/` (file name, bytes): four valid models and, for both Pokémon, one
/// broken variant per crash rule under `broken/`.
pub fn samples() -> Result<Vec<(String, Vec<u8>)>> {
    let xd = xd_pokemon()?;
    let colo = colosseum_pokemon()?;
    let mut out = vec![
        ("xd-pokemon.pkx".to_owned(), xd.write()?),
        ("colosseum-pokemon.pkx".to_owned(), colo.write()?),
        ("xd-trainer.pkx".to_owned(), xd_trainer()?.write()?),
        (
            "colosseum-trainer.pkx".to_owned(),
            colosseum_trainer()?.write()?,
        ),
    ];
    for (game, p) in [("xd", &xd), ("colosseum", &colo)] {
        for (b, _, name) in BREAKS {
            let mut q = p.clone();
            b.apply(&mut q);
            out.push((format!("broken/{game}-{name}.pkx"), q.write()?));
        }
    }
    Ok(out)
}
