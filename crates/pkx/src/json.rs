//! The metadata as JSON: the header, shiny filter, triggers and slots with their names; no DAT.
//! Sizes, counts and offsets are left out (they follow from the DAT and the entries), so
//! `json → pkx → json` is identical whatever DAT is supplied. Fields marked "output only"
//! (names, `active`, the model kind) are ignored on import. XD timings are f32 seconds written
//! in their shortest round-tripping form; a NaN timing has no JSON form.

use gcio::{Error, Result};
use serde::{Deserialize, Serialize};

use crate::model::{
    AnimEntry, AnimType, ColosseumHeader, Header, PartAnim, Pkx, Shiny, SubAnim, Timing, XdFlags,
    XdHeader,
};
use crate::names::{ModelKind, TRIGGERS};
use crate::view::Game;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Result<Vec<u8>> {
    let s = s.as_bytes();
    if !s.len().is_multiple_of(2) {
        return Err(Error::message("hex string of odd length"));
    }
    s.chunks(2)
        .map(|c| {
            std::str::from_utf8(c)
                .ok()
                .and_then(|c| u8::from_str_radix(c, 16).ok())
                .ok_or_else(|| Error::message("bad hex digit"))
        })
        .collect()
}

fn unhex_n<const N: usize>(s: &str) -> Result<[u8; N]> {
    if s.is_empty() {
        return Ok([0; N]);
    }
    unhex(s)?
        .try_into()
        .map_err(|_| Error::message(format!("expected {N} bytes of hex")))
}

fn is_zero(b: &[u8]) -> String {
    if b.iter().all(|&x| x == 0) {
        String::new()
    } else {
        hex(b)
    }
}

/// The whole document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// `xd` or `colosseum`, with that game's header fields.
    #[serde(flatten)]
    pub header: HeaderJson,
    /// Output only: the inferred model kind the names follow.
    #[serde(default = "pokemon")]
    pub kind: ModelKind,
    /// Shiny filter.
    pub shiny: Shiny,
    /// Animation slots.
    pub entries: Vec<EntryJson>,
    /// GPT1 particle block as hex (absent when the file has none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub gpt1: String,
}

fn pokemon() -> ModelKind {
    ModelKind::Pokemon
}

/// Game-specific header fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum HeaderJson {
    /// XD preamble.
    Xd(XdJson),
    /// Colosseum header.
    Colosseum(ColosseumJson),
}

/// XD preamble fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct XdJson {
    /// National Dex number.
    pub species_id: u16,
    /// Type id.
    pub type_id: u16,
    /// Particle orientation.
    pub particle_orientation: i32,
    /// Flags byte.
    pub flags: u8,
    /// Output only: names of the known flag bits.
    #[serde(default)]
    pub flag_names: Vec<String>,
    /// Head bone.
    pub head_bone: u16,
    /// Distortion parameter.
    pub distortion_param: u16,
    /// Distortion type.
    pub distortion_type: u8,
    /// Part-animation triggers.
    pub part_anims: [PartAnimJson; 4],
    /// Unknown byte 0x69.
    #[serde(default)]
    pub unknown_69: u8,
    /// Reserved word 0x04.
    #[serde(default)]
    pub reserved_04: u32,
    /// Reserved word 0x0C.
    #[serde(default)]
    pub reserved_0c: u32,
    /// Reserved byte 0x6D.
    #[serde(default)]
    pub reserved_6d: u8,
}

/// One XD PartAnimData block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartAnimJson {
    /// Output only: trigger name.
    #[serde(default)]
    pub trigger: String,
    /// 0 off, 1 whole model, 2 targeted.
    pub has_data: u8,
    /// Entry count.
    pub sub_param: u8,
    /// Part indices.
    pub parts: [u8; 8],
    /// Selectors.
    pub selectors: [u8; 8],
    /// Animation index.
    pub anim_index: u8,
}

/// Colosseum header fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColosseumJson {
    /// Particle orientation.
    pub particle_orientation: i32,
    /// Trigger refs: sleep on, sleep off, extra (−1 none).
    pub part_anim_refs: [i32; 3],
    /// Output only: body-map slot 1 of entry 0 (Colosseum has no head-bone field).
    #[serde(default)]
    pub head_bone_derived: Option<i64>,
    /// Unknown word 0x10.
    pub unknown_10: u32,
    /// Unknown word 0x14.
    pub unknown_14: i32,
    /// Bytes 0x24–0x3F as hex (absent when zero).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reserved: String,
}

/// One animation slot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryJson {
    /// Output only: slot number.
    #[serde(default)]
    pub slot: usize,
    /// Output only: slot name.
    #[serde(default)]
    pub name: String,
    /// Output only: plays a real animation (by the game's polarity).
    #[serde(default)]
    pub active: bool,
    /// Entry type.
    pub anim_type: u32,
    /// Sub-animations in use.
    pub sub_anim_count: u32,
    /// Damage flags.
    pub damage_flags: u32,
    /// XD timings in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<[f32; 4]>,
    /// Colosseum timings in frames.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames: Option<[u32; 4]>,
    /// Body map by part name.
    pub body_map: BodyMap,
    /// Sub-animations (trailing all-zero ones past `sub_anim_count` omitted).
    pub sub_anims: Vec<SubAnim>,
    /// Terminator.
    pub terminator: u32,
    /// Reserved word 0x0C.
    #[serde(default)]
    pub reserved_0c: u32,
    /// Reserved bytes 0x20–0x4B as hex (absent when zero).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reserved_20: String,
}

macro_rules! body_map {
    ($($f:ident),*) => {
        /// Bone index per body part, by name.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(missing_docs)]
        pub struct BodyMap { $(pub $f: i32),* }

        impl From<[i32; 16]> for BodyMap {
            fn from(a: [i32; 16]) -> BodyMap {
                let [$($f),*] = a;
                BodyMap { $($f),* }
            }
        }

        impl From<&BodyMap> for [i32; 16] {
            fn from(b: &BodyMap) -> [i32; 16] {
                [$(b.$f),*]
            }
        }

    };
}

// Field order = slot order = `BODY_PARTS` (a test pins it).
body_map!(
    origin,
    mouth,
    chest,
    tail,
    eye_left,
    eye_right,
    hand_left,
    hand_right,
    additional_1,
    additional_2,
    additional_3,
    additional_4,
    foot_left,
    foot_right,
    center,
    additional_5
);

fn flag_names(f: XdFlags) -> Vec<String> {
    f.iter_names()
        .map(|(n, _)| n.to_ascii_lowercase())
        .collect()
}

impl Meta {
    /// The metadata of `p`.
    pub fn from_pkx(p: &Pkx) -> Meta {
        let game = p.game();
        let kind = p.kind();
        let header = match &p.header {
            Header::Xd(h) => HeaderJson::Xd(XdJson {
                species_id: h.species_id,
                type_id: h.type_id,
                particle_orientation: h.particle_orientation,
                flags: h.flags.bits(),
                flag_names: flag_names(h.flags),
                head_bone: h.head_bone,
                distortion_param: h.distortion_param,
                distortion_type: h.distortion_type,
                part_anims: std::array::from_fn(|i| {
                    let a = h.part_anims.get(i).copied().unwrap_or(PartAnim::NONE);
                    PartAnimJson {
                        trigger: TRIGGERS.get(i).copied().unwrap_or_default().to_owned(),
                        has_data: a.has_data,
                        sub_param: a.sub_param,
                        parts: a.parts,
                        selectors: a.selectors,
                        anim_index: a.anim_index,
                    }
                }),
                unknown_69: h.unknown_69,
                reserved_04: h.reserved_04,
                reserved_0c: h.reserved_0c,
                reserved_6d: h.reserved_6d,
            }),
            Header::Colosseum(h) => HeaderJson::Colosseum(ColosseumJson {
                particle_orientation: h.particle_orientation,
                part_anim_refs: h.part_anim_refs,
                head_bone_derived: p.head_bone(),
                unknown_10: h.unknown_10,
                unknown_14: h.unknown_14,
                reserved: is_zero(&h.reserved),
            }),
        };
        let entries = p
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let keep = e
                    .sub_anims
                    .iter()
                    .rposition(|s| *s != SubAnim::default())
                    .map_or(0, |k| k + 1)
                    .max(e.used().len());
                EntryJson {
                    slot: i,
                    name: kind.slot_name(game, i),
                    active: e.is_active(game),
                    anim_type: e.anim_type.0,
                    sub_anim_count: e.sub_anim_count,
                    damage_flags: e.damage_flags,
                    seconds: match e.timing {
                        Timing::Seconds(s) => Some(s),
                        Timing::Frames(_) => None,
                    },
                    frames: match e.timing {
                        Timing::Frames(f) => Some(f),
                        Timing::Seconds(_) => None,
                    },
                    body_map: e.body_map.into(),
                    sub_anims: e.sub_anims.get(..keep).unwrap_or_default().to_vec(),
                    terminator: e.terminator,
                    reserved_0c: e.reserved_0c,
                    reserved_20: is_zero(&e.reserved_20),
                }
            })
            .collect();
        Meta {
            header,
            kind,
            shiny: p.shiny(),
            entries,
            gpt1: hex(&p.gpt1),
        }
    }

    /// Builds a `.pkx` model around `dat` (laid out as exporters do: zero padding, DAT padded to
    /// 32).
    pub fn to_pkx(&self, dat: Vec<u8>) -> Result<Pkx> {
        let header = match &self.header {
            HeaderJson::Xd(h) => Header::Xd(XdHeader {
                reserved_04: h.reserved_04,
                reserved_0c: h.reserved_0c,
                particle_orientation: h.particle_orientation,
                species_id: h.species_id,
                type_id: h.type_id,
                part_anims: std::array::from_fn(|i| {
                    h.part_anims.get(i).map_or(PartAnim::NONE, |a| PartAnim {
                        has_data: a.has_data,
                        sub_param: a.sub_param,
                        parts: a.parts,
                        selectors: a.selectors,
                        anim_index: a.anim_index,
                    })
                }),
                flags: XdFlags::from_bits_retain(h.flags),
                unknown_69: h.unknown_69,
                distortion_param: h.distortion_param,
                distortion_type: h.distortion_type,
                reserved_6d: h.reserved_6d,
                head_bone: h.head_bone,
                shiny: self.shiny,
            }),
            HeaderJson::Colosseum(h) => Header::Colosseum(ColosseumHeader {
                particle_orientation: h.particle_orientation,
                unknown_10: h.unknown_10,
                unknown_14: h.unknown_14,
                part_anim_refs: h.part_anim_refs,
                reserved: unhex_n(&h.reserved)?,
                shiny: self.shiny,
            }),
        };
        let game = match header {
            Header::Xd(_) => Game::Xd,
            Header::Colosseum(_) => Game::Colosseum,
        };
        let entries = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let timing = match (e.seconds, e.frames, game) {
                    (Some(s), None, _) => Timing::Seconds(s),
                    (None, Some(f), _) => Timing::Frames(f),
                    (None, None, Game::Xd) => Timing::Seconds([0.0; 4]),
                    (None, None, Game::Colosseum) => Timing::Frames([0; 4]),
                    (Some(_), Some(_), _) => {
                        return Err(Error::message(format!(
                            "entry {i}: both seconds and frames"
                        )));
                    }
                };
                if e.sub_anims.len() > 8 {
                    return Err(Error::message(format!("entry {i}: more than 8 sub_anims")));
                }
                let mut sub_anims = [SubAnim::default(); 8];
                for (d, s) in sub_anims.iter_mut().zip(&e.sub_anims) {
                    *d = *s;
                }
                Ok(AnimEntry {
                    anim_type: AnimType(e.anim_type),
                    sub_anim_count: e.sub_anim_count,
                    damage_flags: e.damage_flags,
                    reserved_0c: e.reserved_0c,
                    timing,
                    reserved_20: unhex_n(&e.reserved_20)?,
                    body_map: (&e.body_map).into(),
                    sub_anims,
                    terminator: e.terminator,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Pkx::new(header, entries, unhex(&self.gpt1)?, dat))
    }
}

/// `p`'s metadata as pretty JSON (ends with a newline).
pub fn to_string(p: &Pkx) -> String {
    let mut s = serde_json::to_string_pretty(&Meta::from_pkx(p)).unwrap_or_default();
    s.push('\n');
    s
}

/// Builds a `.pkx` from JSON metadata and a DAT.
pub fn from_str(json: &str, dat: Vec<u8>) -> Result<Pkx> {
    let m: Meta = serde_json::from_str(json)
        .map_err(|e| Error::message(format!("PKX metadata JSON: {e}")))?;
    m.to_pkx(dat)
}
