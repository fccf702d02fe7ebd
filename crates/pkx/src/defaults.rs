//! Metadata for a model made elsewhere (a glTF import): a header and slots the game accepts,
//! derived from the model's joint and animation names (SEED §5: slot order, body map, shiny).
//!
//! - Slots: an animation whose name says a slot (`Idle`, `physical_b`, `Take Flight`; case,
//!   spaces and punctuation ignored) plays there; the other animations fill the remaining slots
//!   in slot order (not Take Flight, which only a name claims). A slot the battle plays that is
//!   still empty plays the idle slot's animation (SEED §5.2: every index resolves); the others
//!   are padding by the game's polarity. Loops (idle slots) are `LOOP`, damage and faint
//!   `HIT_REACTION`, the rest `ACTION`; timing_1 is the animation's length (never 0: PKX-007).
//! - Body map: a joint named for the part (`mouth`, `eye.L`, `left_hand`, `foot_R`, …; a few
//!   stand-ins such as `head` for the mouth, `hips` for the centre); origin falls back to joint 0,
//!   unused parts to 0 for Pokémon and −1 for trainers (SEED §5.1). XD's head bone: `head`, else
//!   the mouth's joint.
//! - Header: species 0, type 0x000C, particle orientation 1 for Pokémon (0 for trainers: what
//!   [`Pkx::kind`] reads), no flags, no part-animation triggers, neutral shiny
//!   ([`Shiny::IDENTITY`]); Colosseum words 0x10 = 5 and 0x14 = −1; 17 slots (Colosseum trainers
//!   16), as the games' files have.

use crate::model::{
    AnimEntry, AnimType, ColosseumHeader, Header, PartAnim, Pkx, Shiny, SubAnim, Timing, XdFlags,
    XdHeader,
};
use crate::names::{BODY_PARTS, ModelKind};
use crate::view::Game;

/// What the defaults are derived from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelNames {
    /// Joint names in the DAT's pre-order (the body map's indices); empty for unnamed joints.
    pub joints: Vec<String>,
    /// The ModelSet's animations in order (the slots' indices): name and length in frames.
    pub anims: Vec<(String, f32)>,
}

/// An animation slot: `subs` are (loops, anim index) pairs played in order, `seconds` the four
/// timings (converted to frames for Colosseum); damage flags 1 on hit reactions and compound
/// slots, as the games' files have.
pub fn entry(
    game: Game,
    anim_type: AnimType,
    subs: &[(bool, u32)],
    seconds: [f32; 4],
    body_map: [i32; 16],
) -> AnimEntry {
    let mut sub_anims = [SubAnim::default(); 8];
    for (d, &(looped, anim_index)) in sub_anims.iter_mut().zip(subs) {
        let motion_type = match game {
            Game::Xd if looped => 2,
            Game::Xd => 1,
            Game::Colosseum => 0,
        };
        *d = SubAnim {
            motion_type,
            anim_index,
        };
    }
    AnimEntry {
        anim_type,
        sub_anim_count: subs.len() as u32,
        damage_flags: u32::from(matches!(
            anim_type,
            AnimType::HIT_REACTION | AnimType::COMPOUND
        )),
        reserved_0c: 0,
        timing: Timing::Seconds(seconds).for_game(game),
        reserved_20: [0; 44],
        body_map,
        sub_anims,
        terminator: game.terminator(),
    }
}

/// An unused slot: one padding sub-animation by the game's polarity, zero timings.
pub fn padding_entry(game: Game, body_map: [i32; 16]) -> AnimEntry {
    let mut e = entry(game, AnimType::ACTION, &[(false, 0)], [0.0; 4], body_map);
    if let Some(s) = e.sub_anims.first_mut() {
        *s = SubAnim::padding(game);
    }
    e
}

/// Slots the battle plays (Pokémon: idle, attacks, damage, faint, idle 2, special C; trainers:
/// the named ones), by kind and game.
fn played(kind: ModelKind, game: Game, slot: usize) -> bool {
    match (kind, game) {
        (ModelKind::Pokemon, _) => slot <= 12,
        (ModelKind::Trainer, Game::Xd) => matches!(slot, 0..=5 | 10),
        (ModelKind::Trainer, Game::Colosseum) => matches!(slot, 0..=2 | 5 | 6 | 9..=11),
    }
}

/// Lower-case ASCII letters and digits of `s` (accented e as e): what names are compared by.
fn key(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            'é' | 'É' => Some('e'),
            c if c.is_ascii_alphanumeric() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// A joint name as (base, side): tokens split at non-alphanumerics, `l`/`left` and `r`/`right`
/// tokens taken as the side (`eye.L`, `left_eye`, `Eye_Right` → ("eye", Some(side))).
fn split_side(name: &str) -> (String, Option<bool>) {
    let mut side = None;
    let mut base = String::new();
    for t in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
    {
        match t.to_ascii_lowercase().as_str() {
            "l" | "left" => side = Some(true),
            "r" | "right" => side = Some(false),
            other => base.push_str(other),
        }
    }
    (base, side)
}

/// Joint names standing for body part `part` (the first one present wins), with the side.
fn part_names(part: usize) -> (&'static [&'static str], Option<bool>) {
    match part {
        0 => (&["origin", "root"], None),
        1 => (&["mouth", "jaw", "head"], None),
        2 => (&["chest", "spine", "torso"], None),
        3 => (&["tail"], None),
        4 => (&["eye"], Some(true)),
        5 => (&["eye"], Some(false)),
        6 => (&["hand"], Some(true)),
        7 => (&["hand"], Some(false)),
        12 => (&["foot"], Some(true)),
        13 => (&["foot"], Some(false)),
        14 => (&["center", "centre", "hips", "pelvis"], None),
        _ => (&[], None),
    }
}

impl ModelNames {
    /// The first joint whose name is one of `names` (base name and side), else one whose whole
    /// name is `exact` (`additional_1`, `eye_left`, …).
    fn joint(&self, names: &[&str], side: Option<bool>, exact: &str) -> Option<usize> {
        let split: Vec<(String, Option<bool>)> =
            self.joints.iter().map(|j| split_side(j)).collect();
        names
            .iter()
            .find_map(|n| {
                split
                    .iter()
                    .position(|(base, s)| base == n && (side.is_none() || *s == side))
            })
            .or_else(|| self.joints.iter().position(|j| key(j) == key(exact)))
    }

    /// The body map of `kind` (see the module documentation).
    pub fn body_map(&self, kind: ModelKind) -> [i32; 16] {
        let unused = match kind {
            ModelKind::Pokemon => 0,
            ModelKind::Trainer => -1,
        };
        std::array::from_fn(|part| {
            let (names, side) = part_names(part);
            let exact = BODY_PARTS.get(part).copied().unwrap_or_default();
            match self.joint(names, side, exact) {
                Some(j) => i32::try_from(j).unwrap_or(unused),
                None if part == 0 => 0,
                None => unused,
            }
        })
    }

    /// XD's head bone: the joint named `head`, else the body map's mouth.
    pub fn head_bone(&self, body_map: &[i32; 16]) -> u16 {
        self.joint(&["head"], None, "head")
            .and_then(|j| u16::try_from(j).ok())
            .or_else(|| body_map.get(1).and_then(|&b| u16::try_from(b).ok()))
            .unwrap_or(0)
    }

    /// Each slot's animation (index into [`ModelNames::anims`]) or `None` for padding.
    pub fn slots(&self, kind: ModelKind, game: Game) -> Vec<Option<usize>> {
        let names = kind.slot_names(game);
        let count = match (kind, game) {
            (ModelKind::Trainer, Game::Colosseum) => 16,
            _ => 17,
        };
        let mut slots: Vec<Option<usize>> = vec![None; count];
        let mut claimed = vec![false; self.anims.len()];
        for (a, (name, _)) in self.anims.iter().enumerate() {
            let k = key(name);
            let named = names.iter().take(count).position(|s| key(s) == k);
            if let Some(s) = named.filter(|&s| slots.get(s).is_some_and(Option::is_none))
                && let (Some(slot), Some(c)) = (slots.get_mut(s), claimed.get_mut(a))
            {
                *slot = Some(a);
                *c = true;
            }
        }
        let mut rest = (0..self.anims.len()).filter(|&a| !claimed.get(a).copied().unwrap_or(true));
        for (s, slot) in slots.iter_mut().enumerate() {
            let take_flight = kind == ModelKind::Pokemon && s == 16;
            if slot.is_none() && !take_flight {
                *slot = rest.next();
            }
        }
        let idle = slots.first().copied().flatten();
        for (s, slot) in slots.iter_mut().enumerate() {
            if slot.is_none() && played(kind, game, s) {
                *slot = idle;
            }
        }
        slots
    }
}

impl Pkx {
    /// A `.pkx` of `kind` for `game` around `dat`, its metadata derived from `names` (see the
    /// module documentation). A model without animations gets padding slots only: give it a
    /// still one (what `gcf convert` does) so the idle slot has something to play.
    pub fn with_defaults(game: Game, kind: ModelKind, names: &ModelNames, dat: Vec<u8>) -> Pkx {
        let body_map = names.body_map(kind);
        let orientation = i32::from(kind == ModelKind::Pokemon);
        let header = match game {
            Game::Xd => Header::Xd(XdHeader {
                reserved_04: 0,
                reserved_0c: 0,
                particle_orientation: orientation,
                species_id: 0,
                type_id: 0x000C,
                part_anims: [PartAnim::NONE; 4],
                flags: XdFlags::empty(),
                unknown_69: 0,
                distortion_param: 0,
                distortion_type: 0,
                reserved_6d: 0,
                head_bone: names.head_bone(&body_map),
                shiny: Shiny::IDENTITY,
            }),
            Game::Colosseum => Header::Colosseum(ColosseumHeader {
                particle_orientation: orientation,
                unknown_10: 5,
                unknown_14: -1,
                part_anim_refs: [-1; 3],
                reserved: [0; 0x1C],
                shiny: Shiny::IDENTITY,
            }),
        };
        let slot_names = kind.slot_names(game);
        let entries = names
            .slots(kind, game)
            .iter()
            .enumerate()
            .map(|(s, anim)| {
                let Some(a) = *anim else {
                    return padding_entry(game, body_map);
                };
                let name = key(slot_names.get(s).copied().unwrap_or_default());
                let looped = name.starts_with("idle") || name.starts_with("extra");
                let anim_type = if looped {
                    AnimType::LOOP
                } else if name.starts_with("damage") || name == "faint" {
                    AnimType::HIT_REACTION
                } else {
                    AnimType::ACTION
                };
                let frames = names.anims.get(a).map_or(0.0, |x| x.1);
                // At least one frame: timing_1 = 0 on a played slot crashes (PKX-007).
                let seconds = (frames / 60.0).max(1.0 / 60.0);
                let index = u32::try_from(a).unwrap_or(0);
                entry(
                    game,
                    anim_type,
                    &[(looped, index)],
                    [seconds, 0.0, 0.0, 0.0],
                    body_map,
                )
            })
            .collect();
        Pkx::new(header, entries, Vec::new(), dat)
    }

    /// Moves every body-map index and XD's head bone from joint `i` to joint `map[i]` (joints
    /// renumbered by an import); indices past the map and negative ones are kept.
    pub fn map_bones(&mut self, map: &[usize]) {
        let moved = |b: i64| {
            usize::try_from(b)
                .ok()
                .and_then(|i| map.get(i))
                .map_or(b, |&j| i64::try_from(j).unwrap_or(b))
        };
        for e in &mut self.entries {
            for b in &mut e.body_map {
                *b = i32::try_from(moved(i64::from(*b))).unwrap_or(*b);
            }
        }
        if let Header::Xd(h) = &mut self.header {
            h.head_bone = u16::try_from(moved(i64::from(h.head_bone))).unwrap_or(h.head_bone);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn names(joints: &[&str], anims: &[&str]) -> ModelNames {
        ModelNames {
            joints: joints.iter().map(|s| (*s).to_owned()).collect(),
            anims: anims.iter().map(|s| ((*s).to_owned(), 30.0)).collect(),
        }
    }

    /// Named animations take their slots, the others fill the rest in order (not Take Flight),
    /// played slots still empty play the idle's animation, the others are padding.
    #[test]
    fn slots_by_name_then_in_order() {
        let n = names(&[], &["walk", "Faint", "idle", "take_flight", "x"]);
        let s = n.slots(ModelKind::Pokemon, Game::Xd);
        assert_eq!(s.len(), 17);
        assert_eq!(&s[..4], &[Some(2), Some(0), Some(4), Some(2)]);
        assert_eq!(s[10], Some(1));
        assert_eq!(s[12], Some(2));
        assert_eq!(&s[13..16], &[None, None, None]);
        assert_eq!(s[16], Some(3));
        let n = names(&[], &["a", "b", "c"]);
        let s = n.slots(ModelKind::Pokemon, Game::Colosseum);
        assert_eq!(&s[..4], &[Some(0), Some(1), Some(2), Some(0)]);
        assert_eq!(s[16], None);
        let t = n.slots(ModelKind::Trainer, Game::Colosseum);
        assert_eq!(t.len(), 16);
        assert_eq!((t[3], t[4]), (None, None), "not played: padding");
        assert_eq!(t[5], Some(0), "Victory 2 is played: the idle's");
        assert_eq!(t[11], Some(0), "Defeat is played: the idle's");
        let named = names(&[], &["Poké Ball Throw", "IDLE"]);
        let t = named.slots(ModelKind::Trainer, Game::Xd);
        assert_eq!(&t[..3], &[Some(1), Some(0), Some(1)]);
        assert!(
            names(&[], &[])
                .slots(ModelKind::Pokemon, Game::Xd)
                .iter()
                .all(Option::is_none)
        );
    }

    /// Parts by joint name (sides by token), stand-ins, root fallback and each kind's unused.
    #[test]
    fn body_map_and_head_bone_by_name() {
        let n = names(
            &[
                "",
                "Root",
                "hips",
                "spine",
                "head",
                "eye.L",
                "Eye_R",
                "left_hand",
                "Hand.R",
                "tail_01",
                "tail",
                "foot.L",
                "additional_2",
            ],
            &[],
        );
        let p = n.body_map(ModelKind::Pokemon);
        assert_eq!(&p[..8], &[1, 4, 3, 10, 5, 6, 7, 8]);
        assert_eq!(&p[8..], &[0, 12, 0, 0, 11, 0, 2, 0]);
        assert_eq!(n.head_bone(&p), 4);
        let t = n.body_map(ModelKind::Trainer);
        assert_eq!(&t[8..], &[-1, 12, -1, -1, 11, -1, 2, -1]);
        let bare = names(&["a", "b"], &[]);
        assert_eq!(bare.body_map(ModelKind::Pokemon), [0; 16]);
        let t = bare.body_map(ModelKind::Trainer);
        assert_eq!((t[0], t[1]), (0, -1));
        assert_eq!(bare.head_bone(&t), 0);
        let jaw = names(&["root", "jaw"], &[]);
        assert_eq!(jaw.head_bone(&jaw.body_map(ModelKind::Pokemon)), 1);
    }

    /// Defaults around a real battle DAT check clean in both games for both kinds, keep their
    /// kind, round-trip, and follow joints renumbered by `map_bones`.
    #[test]
    fn defaults_check_clean() {
        let dat = crate::build::battle_dat(12, 3).unwrap();
        let n = names(
            &["", "root", "head", "hand.L"],
            &["Idle", "Physical A", "damage"],
        );
        for game in [Game::Xd, Game::Colosseum] {
            for kind in [ModelKind::Pokemon, ModelKind::Trainer] {
                let p = Pkx::with_defaults(game, kind, &n, dat.clone());
                let bytes = p.write().unwrap();
                let back = Pkx::parse(&bytes).unwrap();
                assert_eq!(back, p);
                assert_eq!(back.game(), game);
                assert_eq!(back.kind(), kind, "{game:?}");
                let findings = crate::validate_model(&back);
                assert!(
                    findings.iter().all(|d| d.severity != gcio::Severity::Error),
                    "{game:?} {kind:?}: {findings:?}"
                );
                let e = &back.entries;
                assert!(e[0].is_active(game) && e[0].anim_type == AnimType::LOOP);
                assert_eq!(e[0].sub_anims[0].anim_index, 0);
                assert_eq!(e[0].timing.frames()[0], 30);
                if kind == ModelKind::Pokemon {
                    assert_eq!(e[8].anim_type, AnimType::HIT_REACTION);
                    assert_eq!(e[8].sub_anims[0].anim_index, 2);
                    assert!(!e[13].is_active(game));
                }
                // XD's field, Colosseum's mouth slot: the joint named head.
                assert_eq!(back.head_bone(), Some(2));
            }
        }
        let mut p = Pkx::with_defaults(Game::Xd, ModelKind::Trainer, &n, dat);
        p.map_bones(&[1, 2, 5, 6]);
        assert_eq!(&p.entries[0].body_map[..4], &[2, 5, -1, -1]);
        assert_eq!(p.entries[0].body_map[6], 6);
        assert_eq!(p.head_bone(), Some(5));
    }
}
