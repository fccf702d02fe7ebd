//! The owned model: every field typed, every unknown, reserved and padding byte kept, so
//! [`Pkx::write`](crate::Pkx::write) reproduces any parsed file exactly.

use bitflags::bitflags;
use gcio::{Limits, Result};

use crate::names::ModelKind;
use crate::raw::{self, RawAnimEntry};
use crate::view::{Game, HeaderView, View};

bitflags! {
    /// XD model flags (preamble 0x68). Unknown bits survive (`from_bits_retain`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct XdFlags: u8 {
        /// Flying Pokémon.
        const FLYING = 0x01;
        /// Skip fractional animation frames.
        const SKIP_FRAC_FRAMES = 0x04;
        /// No root-joint animation.
        const NO_ROOT_ANIM = 0x40;
        /// Unknown (set on Espeon).
        const UNKNOWN_80 = 0x80;
    }
}

/// Animation entry type (open: unknown values survive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(transparent))]
pub struct AnimType(pub u32);

impl AnimType {
    /// Looping (idle).
    pub const LOOP: AnimType = AnimType(2);
    /// Hit reaction (damage, faint).
    pub const HIT_REACTION: AnimType = AnimType(3);
    /// Action (attacks).
    pub const ACTION: AnimType = AnimType(4);
    /// Compound (several sub-animations in sequence).
    pub const COMPOUND: AnimType = AnimType(5);
}

/// XD PartAnimData: a part-animation trigger (sleep on / off, extra, talk).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartAnim {
    /// 0 off, 1 whole-model texture animation, 2 targeted at `parts`.
    pub has_data: u8,
    /// Entry count.
    pub sub_param: u8,
    /// Part indices (0xFF unused).
    pub parts: [u8; 8],
    /// Per-part selector (0xFF = joint animation on that part, else a texture-anim parameter).
    pub selectors: [u8; 8],
    /// Animation index into `ModelSet.anims[]`.
    pub anim_index: u8,
}

impl PartAnim {
    /// An unused trigger (as exporters write it).
    pub const NONE: PartAnim = PartAnim {
        has_data: 0,
        sub_param: 0,
        parts: [0xFF; 8],
        selectors: [0xFF; 8],
        anim_index: 0,
    };

    /// A whole-model trigger playing animation `anim`.
    pub fn whole_model(anim: u8) -> PartAnim {
        PartAnim {
            has_data: 1,
            anim_index: anim,
            ..PartAnim::NONE
        }
    }

    /// (part, selector) pairs in use.
    pub fn targets(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.parts
            .iter()
            .zip(&self.selectors)
            .take(usize::from(self.sub_param))
            .map(|(&p, &s)| (p, s))
    }
}

/// Shiny colour filter: channel routing and brightness, both RGBA.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Shiny {
    /// Source channel (0–3) for R, G, B, A; identity = 0, 1, 2, 3.
    pub route: [u32; 4],
    /// Brightness bytes R, G, B, A: 0 → ×0, 0x7F → ×1 (neutral, C-32), 0xFF → ×2.
    pub brightness: [u8; 4],
}

impl Shiny {
    /// The visual no-op: identity routing, neutral brightness, alpha forced to 0xFF.
    pub const IDENTITY: Shiny = Shiny {
        route: [0, 1, 2, 3],
        brightness: [0x7F, 0x7F, 0x7F, 0xFF],
    };

    /// Brightness byte → colour factor (0 → 0.0, 127 → 1.0, 255 → 2.0).
    pub fn factor(byte: u8) -> f32 {
        if byte <= 127 {
            f32::from(byte) / 127.0
        } else {
            1.0 + f32::from(byte - 127) / 128.0
        }
    }

    /// Colosseum stores brightness as one ARGB word.
    pub fn from_argb(route: [u32; 4], argb: u32) -> Shiny {
        let [a, r, g, b] = argb.to_be_bytes();
        Shiny {
            route,
            brightness: [r, g, b, a],
        }
    }

    /// The Colosseum ARGB word.
    pub fn argb(&self) -> u32 {
        let [r, g, b, a] = self.brightness;
        u32::from_be_bytes([a, r, g, b])
    }
}

/// XD preamble fields (sizes, counts and offsets are derived on write).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct XdHeader {
    /// 0x04, reserved.
    pub reserved_04: u32,
    /// 0x0C, reserved.
    pub reserved_0c: u32,
    /// Particle orientation (−2 … +2).
    pub particle_orientation: i32,
    /// National Dex number; 0 for trainers and generic models.
    pub species_id: u16,
    /// Type id (0x000C; detection relies on it).
    pub type_id: u16,
    /// Triggers: sleep on, sleep off, extra, talk.
    pub part_anims: [PartAnim; 4],
    /// Model flags.
    pub flags: XdFlags,
    /// 0x69, unknown.
    pub unknown_69: u8,
    /// Distortion parameter.
    pub distortion_param: u16,
    /// Distortion type.
    pub distortion_type: u8,
    /// 0x6D, reserved.
    pub reserved_6d: u8,
    /// Head bone index.
    pub head_bone: u16,
    /// Shiny filter.
    pub shiny: Shiny,
}

/// Colosseum header fields and its shiny trailer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColosseumHeader {
    /// Particle orientation.
    pub particle_orientation: i32,
    /// 0x10, unknown ("always 5").
    pub unknown_10: u32,
    /// 0x14, unknown.
    pub unknown_14: i32,
    /// Trigger refs: sleep on, sleep off, extra (−1 none).
    pub part_anim_refs: [i32; 3],
    /// 0x24–0x3F (zero in known files).
    pub reserved: [u8; 0x1C],
    /// Shiny filter (the last 20 bytes of the file).
    pub shiny: Shiny,
}

/// The fixed header of either game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Header {
    /// XD preamble.
    Xd(XdHeader),
    /// Colosseum header.
    Colosseum(ColosseumHeader),
}

/// timing_1 … timing_4: when the battle state machine moves to the next state (PKX-014).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Timing {
    /// XD: f32 seconds.
    Seconds([f32; 4]),
    /// Colosseum: integer frames at 60 fps.
    Frames([u32; 4]),
}

impl Timing {
    /// The raw words as stored.
    pub fn raw(&self) -> [u32; 4] {
        match self {
            Timing::Seconds(s) => s.map(f32::to_bits),
            Timing::Frames(f) => *f,
        }
    }

    /// Reads raw words as `game` stores them.
    pub fn from_raw(game: Game, raw: [u32; 4]) -> Timing {
        match game {
            Game::Xd => Timing::Seconds(raw.map(f32::from_bits)),
            Game::Colosseum => Timing::Frames(raw),
        }
    }

    /// In seconds.
    pub fn seconds(&self) -> [f64; 4] {
        match self {
            Timing::Seconds(s) => s.map(f64::from),
            Timing::Frames(f) => f.map(|f| f64::from(f) / 60.0),
        }
    }

    /// In frames at 60 fps (`round(seconds × 60)`, saturating).
    pub fn frames(&self) -> [u32; 4] {
        match self {
            Timing::Seconds(s) => s.map(|s| (f64::from(s) * 60.0).round() as u32),
            Timing::Frames(f) => *f,
        }
    }

    /// The same timings in `game`'s representation.
    pub fn for_game(&self, game: Game) -> Timing {
        match game {
            Game::Xd => Timing::Seconds(self.seconds().map(|s| s as f32)),
            Game::Colosseum => Timing::Frames(self.frames()),
        }
    }

    /// timing_1 is zero (PKX-007 on an active slot).
    pub fn first_is_zero(&self) -> bool {
        match self {
            Timing::Seconds(s) => s[0] == 0.0,
            Timing::Frames(f) => f[0] == 0,
        }
    }
}

/// One sub-animation reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct SubAnim {
    /// Real vs padding by the game's polarity (PKX-010); XD 1 play once, 2 loop.
    pub motion_type: u32,
    /// Index into `ModelSet.anims[]`.
    pub anim_index: u32,
}

impl SubAnim {
    /// Real (not padding) under `game`'s polarity: XD motion_type > 0, Colosseum motion_type 0.
    pub fn is_active(&self, game: Game) -> bool {
        match game {
            Game::Xd => self.motion_type > 0,
            Game::Colosseum => self.motion_type == 0,
        }
    }

    /// A padding sub-animation as `game` writes it.
    pub fn padding(game: Game) -> SubAnim {
        match game {
            Game::Xd => SubAnim {
                motion_type: 0,
                anim_index: 0,
            },
            Game::Colosseum => SubAnim {
                motion_type: 1,
                anim_index: 0,
            },
        }
    }
}

/// One animation slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnimEntry {
    /// Entry type.
    pub anim_type: AnimType,
    /// Sub-animations in use (≤ 8, PKX-005).
    pub sub_anim_count: u32,
    /// Damage flags.
    pub damage_flags: u32,
    /// 0x0C, reserved.
    pub reserved_0c: u32,
    /// timing_1 … timing_4.
    pub timing: Timing,
    /// 0x20–0x4B, reserved.
    pub reserved_20: [u8; 44],
    /// Bone index per body part ([`crate::BODY_PARTS`]).
    pub body_map: [i32; 16],
    /// Sub-animations (the first `sub_anim_count` are used).
    pub sub_anims: [SubAnim; 8],
    /// Terminator (XD 3, Colosseum 1; PKX-011).
    pub terminator: u32,
}

impl AnimEntry {
    /// Reads a stored entry as `game` stores it.
    pub fn from_raw(game: Game, e: &RawAnimEntry) -> AnimEntry {
        AnimEntry {
            anim_type: AnimType(e.anim_type.get()),
            sub_anim_count: e.sub_anim_count.get(),
            damage_flags: e.damage_flags.get(),
            reserved_0c: e.reserved_0c.get(),
            timing: Timing::from_raw(game, e.timing.map(|t| t.get())),
            reserved_20: e.reserved_20,
            body_map: e.body_map.map(|b| b.get()),
            sub_anims: e.sub_anims.map(|s| SubAnim {
                motion_type: s.motion_type.get(),
                anim_index: s.anim_index.get(),
            }),
            terminator: e.terminator.get(),
        }
    }

    /// The used sub-animations (at most 8, whatever `sub_anim_count` says).
    pub fn used(&self) -> &[SubAnim] {
        let n = (self.sub_anim_count as usize).min(8);
        self.sub_anims.get(..n).unwrap_or_default()
    }

    /// Used sub-animations that are real under `game`'s polarity, with their position.
    pub fn active(&self, game: Game) -> impl Iterator<Item = (usize, SubAnim)> + '_ {
        self.used()
            .iter()
            .copied()
            .enumerate()
            .filter(move |(_, s)| s.is_active(game))
    }

    /// The slot plays a real animation (some used sub-animation is active).
    pub fn is_active(&self, game: Game) -> bool {
        self.active(game).next().is_some()
    }
}

/// A part-animation trigger with the same positional meaning in both games (SEED §5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trigger {
    /// 0 sleep on, 1 sleep off, 2 extra, 3 talk (XD only).
    pub index: usize,
    /// The animation index (Colosseum −1 = none).
    pub anim_index: i64,
    /// Points at a real animation (index > 0; XD also `has_data != 0`).
    pub active: bool,
}

/// A `.pkx` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Pkx {
    /// Fixed header of either game.
    pub header: Header,
    /// Animation slots.
    pub entries: Vec<AnimEntry>,
    /// GPT1 particle block, kept verbatim (empty when absent).
    pub gpt1: Vec<u8>,
    /// The embedded HSD archive, exactly its `file_size` bytes.
    pub dat: Vec<u8>,
    /// Padding bytes as stored (written back when their length still fits the layout).
    pub pads: Pads,
    /// XD: the bytes after the DAT (its padding to 32 included). Colosseum: bytes between the
    /// entries and the shiny trailer.
    pub trailer: Vec<u8>,
}

/// Stored padding around the GPT1 block (zeros in every known file; kept anyway).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pads {
    /// XD: after the entries; Colosseum: after the DAT.
    pub before_gpt1: Vec<u8>,
    /// After the GPT1 block.
    pub after_gpt1: Vec<u8>,
}

impl Pkx {
    /// Parses a file (detected by PKX-001).
    pub fn parse(data: &[u8]) -> Result<Pkx> {
        Pkx::parse_with(data, &Limits::default())
    }

    /// Parses a file; `limits` bound the animation table and the copied blocks.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Pkx> {
        Pkx::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// Builds the owned model from a view.
    pub fn from_view(v: &View<'_>, limits: &Limits) -> Result<Pkx> {
        let game = v.game();
        limits.check_alloc(v.entries.len() as u64, size_of::<AnimEntry>() as u64, 0)?;
        let entries = v
            .entries
            .iter()
            .map(|e| AnimEntry::from_raw(game, e))
            .collect();
        let header = match v.header {
            HeaderView::Xd(p) => Header::Xd(XdHeader {
                reserved_04: p.reserved_04.get(),
                reserved_0c: p.reserved_0c.get(),
                particle_orientation: p.particle_orientation.get(),
                species_id: p.species_id.get(),
                type_id: p.type_id.get(),
                part_anims: p.part_anims.map(|a| PartAnim {
                    has_data: a.has_data,
                    sub_param: a.sub_param,
                    parts: a.parts,
                    selectors: a.selectors,
                    anim_index: a.anim_index,
                }),
                flags: XdFlags::from_bits_retain(p.flags),
                unknown_69: p.unknown_69,
                distortion_param: p.distortion_param.get(),
                distortion_type: p.distortion_type,
                reserved_6d: p.reserved_6d,
                head_bone: p.head_bone.get(),
                shiny: Shiny {
                    route: p.shiny_route.map(|r| r.get()),
                    brightness: p.shiny_brightness,
                },
            }),
            HeaderView::Colosseum(h, s) => Header::Colosseum(ColosseumHeader {
                particle_orientation: h.particle_orientation.get(),
                unknown_10: h.unknown_10.get(),
                unknown_14: h.unknown_14.get(),
                part_anim_refs: h.part_anim_refs.map(|r| r.get()),
                reserved: h.reserved,
                shiny: Shiny::from_argb(s.route.map(|r| r.get()), s.argb.get()),
            }),
        };
        // The copied blocks are sized by the file, so each is bounded like any allocation.
        let copy = |bytes: &[u8], at: usize| -> Result<Vec<u8>> {
            limits.check_alloc(bytes.len() as u64, 1, at as u64)?;
            Ok(bytes.to_vec())
        };
        let l = &v.layout;
        let (before_gpt1, trailer) = match game {
            Game::Xd => (l.entries_end(), l.dat_end()),
            Game::Colosseum => (l.dat_end(), l.entries_end()),
        };
        Ok(Pkx {
            header,
            entries,
            gpt1: copy(v.gpt1(), l.gpt1)?,
            dat: copy(v.dat(), l.dat)?,
            pads: Pads {
                before_gpt1: copy(v.pad_before_gpt1(), before_gpt1)?,
                after_gpt1: copy(v.pad_after_gpt1(), l.gpt1_end())?,
            },
            trailer: copy(v.trailer(), trailer)?,
        })
    }

    /// A file laid out the way exporters write it: zero padding, the DAT padded to 32 (C-31).
    pub fn new(header: Header, entries: Vec<AnimEntry>, gpt1: Vec<u8>, dat: Vec<u8>) -> Pkx {
        let mut p = Pkx {
            header,
            entries,
            gpt1,
            dat: Vec::new(),
            pads: Pads::default(),
            trailer: Vec::new(),
        };
        p.set_dat(dat);
        p
    }

    /// Replaces the embedded DAT and lays the padding out again as exporters do: zeros, and
    /// for XD the bytes after the DAT become its padding to 32 (C-31).
    pub fn set_dat(&mut self, dat: Vec<u8>) {
        self.dat = dat;
        let after_gpt1 = vec![0; gcio::padding_for(self.gpt1.len(), 32)];
        let before_end = match self.game() {
            Game::Xd => raw::XD_PREAMBLE + self.entries.len() * raw::ENTRY,
            Game::Colosseum => raw::COLO_HEADER + self.dat.len(),
        };
        self.pads = Pads {
            before_gpt1: vec![0; gcio::padding_for(before_end, 32)],
            after_gpt1,
        };
        self.trailer = match self.game() {
            Game::Xd => {
                let end = self.dat_offset().saturating_add(self.dat.len());
                vec![0; gcio::padding_for(end, 32)]
            }
            // Between the entries and the shiny trailer: not tied to the DAT, kept.
            Game::Colosseum => std::mem::take(&mut self.trailer),
        };
    }

    /// The game whose layout this is.
    pub fn game(&self) -> Game {
        match self.header {
            Header::Xd(_) => Game::Xd,
            Header::Colosseum(_) => Game::Colosseum,
        }
    }

    /// Where the DAT starts when written.
    pub fn dat_offset(&self) -> usize {
        match self.game() {
            Game::Xd => {
                let end = raw::XD_PREAMBLE + self.entries.len() * raw::ENTRY;
                end.next_multiple_of(32) + self.gpt1.len().next_multiple_of(32)
            }
            Game::Colosseum => raw::COLO_HEADER,
        }
    }

    /// The shiny filter.
    pub fn shiny(&self) -> Shiny {
        match &self.header {
            Header::Xd(h) => h.shiny,
            Header::Colosseum(h) => h.shiny,
        }
    }

    /// Particle orientation.
    pub fn particle_orientation(&self) -> i32 {
        match &self.header {
            Header::Xd(h) => h.particle_orientation,
            Header::Colosseum(h) => h.particle_orientation,
        }
    }

    /// The head bone: XD stores it; Colosseum has none, so (like STARS) body-map slot 1 (mouth)
    /// of entry 0 stands in.
    pub fn head_bone(&self) -> Option<i64> {
        match &self.header {
            Header::Xd(h) => Some(i64::from(h.head_bone)),
            Header::Colosseum(_) => self
                .entries
                .first()
                .and_then(|e| e.body_map.get(1))
                .map(|&b| i64::from(b)),
        }
    }

    /// Part-animation triggers of either layout.
    pub fn triggers(&self) -> Vec<Trigger> {
        match &self.header {
            Header::Xd(h) => h
                .part_anims
                .iter()
                .enumerate()
                .map(|(index, p)| Trigger {
                    index,
                    anim_index: i64::from(p.anim_index),
                    active: p.has_data != 0 && p.anim_index > 0,
                })
                .collect(),
            Header::Colosseum(h) => h
                .part_anim_refs
                .iter()
                .enumerate()
                .map(|(index, &r)| Trigger {
                    index,
                    anim_index: i64::from(r),
                    active: r > 0,
                })
                .collect(),
        }
    }

    /// Pokémon or trainer. The file does not say; trainers have no sleep trigger and particle
    /// orientation 0 (GoD Tool's test), and in XD species 0. The body map is not consulted:
    /// −1 there is exactly what PKX-008 must catch on Pokémon.
    pub fn kind(&self) -> ModelKind {
        let sleep = self.triggers().first().is_some_and(|t| t.active);
        let species = match &self.header {
            Header::Xd(h) => h.species_id,
            Header::Colosseum(_) => 0,
        };
        if !sleep && self.particle_orientation() == 0 && species == 0 {
            ModelKind::Trainer
        } else {
            ModelKind::Pokemon
        }
    }

    /// Every active (slot, sub-animation position, anim_index): what the DAT must provide.
    pub fn anim_refs(&self) -> impl Iterator<Item = (usize, usize, u32)> + '_ {
        let game = self.game();
        self.entries
            .iter()
            .enumerate()
            .flat_map(move |(slot, e)| e.active(game).map(move |(k, s)| (slot, k, s.anim_index)))
    }

    /// Each slot's active animations resolved to `ModelSet.anims[]` entries (AnimJoint data
    /// offsets in the DAT); `None` where the index is past the list.
    pub fn resolve(&self, dat: &crate::DatFacts) -> Vec<Vec<Option<u32>>> {
        let game = self.game();
        self.entries
            .iter()
            .map(|e| {
                e.active(game)
                    .map(|(_, s)| dat.anims.get(s.anim_index as usize).copied())
                    .collect()
            })
            .collect()
    }

    /// The same model in `game`'s layout: timings converted (seconds ↔ frames at 60 fps),
    /// terminators and padding sub-animations rewritten by polarity, shiny moved, triggers mapped
    /// (XD blocks ↔ Colosseum refs). XD-only fields (species, flags, distortion, head bone, the
    /// talk trigger, part targets) have no Colosseum place; XD gets species 0, type 0x000C and
    /// head bone = body-map slot 1 of entry 0, and padding slots up to its 17. The DAT and GPT1
    /// block are kept.
    pub fn to_game(&self, game: Game) -> Pkx {
        let from = self.game();
        if from == game {
            return self.clone();
        }
        let triggers = self.triggers();
        let header = match game {
            Game::Colosseum => Header::Colosseum(ColosseumHeader {
                particle_orientation: self.particle_orientation(),
                unknown_10: 5,
                unknown_14: -1,
                part_anim_refs: [0, 1, 2].map(|i| {
                    triggers
                        .get(i)
                        .filter(|t| t.active)
                        .map_or(-1, |t| t.anim_index as i32)
                }),
                reserved: [0; 0x1C],
                shiny: self.shiny(),
            }),
            Game::Xd => Header::Xd(XdHeader {
                reserved_04: 0,
                reserved_0c: 0,
                particle_orientation: self.particle_orientation(),
                species_id: 0,
                type_id: 0x000C,
                part_anims: [0, 1, 2, 3].map(|i| {
                    triggers
                        .get(i)
                        .filter(|t| t.active)
                        .and_then(|t| u8::try_from(t.anim_index).ok())
                        .map_or(PartAnim::NONE, PartAnim::whole_model)
                }),
                flags: XdFlags::empty(),
                unknown_69: 0,
                distortion_param: 0,
                distortion_type: 0,
                reserved_6d: 0,
                head_bone: self.head_bone().unwrap_or(0).clamp(0, i64::from(u16::MAX)) as u16,
                shiny: self.shiny(),
            }),
        };
        let mut entries: Vec<AnimEntry> = self
            .entries
            .iter()
            .map(|e| {
                let mut out = *e;
                out.timing = e.timing.for_game(game);
                out.terminator = game.terminator();
                let n = (e.sub_anim_count as usize).min(8);
                for s in out.sub_anims.iter_mut().take(n) {
                    *s = if s.is_active(from) {
                        let motion_type = match game {
                            Game::Colosseum => 0,
                            Game::Xd if e.anim_type == AnimType::LOOP => 2,
                            Game::Xd => 1,
                        };
                        SubAnim {
                            motion_type,
                            anim_index: s.anim_index,
                        }
                    } else {
                        SubAnim::padding(game)
                    };
                }
                out
            })
            .collect();
        // XD files always have 17 slots (PKX-001): a 16-slot Colosseum model gains a padding
        // slot carrying entry 0's body map.
        if game == Game::Xd
            && let Some(first) = entries.first().copied()
        {
            while entries.len() < 17 {
                let mut pad = first;
                pad.anim_type = AnimType::ACTION;
                pad.sub_anim_count = 1;
                pad.damage_flags = 0;
                pad.timing = Timing::Seconds([0.0; 4]);
                pad.sub_anims = [SubAnim::default(); 8];
                entries.push(pad);
            }
        }
        Pkx::new(header, entries, self.gpt1.clone(), self.dat.clone())
    }
}
