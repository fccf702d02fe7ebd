//! On-disk structs (big endian, zerocopy). Each field's doc gives its offset.

use zerocopy::byteorder::big_endian::{I32, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// XD preamble: the first 0x84 bytes of an XD `.pkx`.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct XdPreamble {
    /// 0x00: DAT `file_size`.
    pub dat_size: U32,
    /// 0x04: reserved (0 in known files).
    pub reserved_04: U32,
    /// 0x08: GPT1 particle block length.
    pub gpt1_length: U32,
    /// 0x0C: reserved (0 in known files).
    pub reserved_0c: U32,
    /// 0x10: animation entry count (17).
    pub anim_count: U32,
    /// 0x14: particle orientation (−2 … +2).
    pub particle_orientation: I32,
    /// 0x18: National Dex number (0 = trainer / generic).
    pub species_id: U16,
    /// 0x1A: type id (0x000C).
    pub type_id: U16,
    /// 0x1C: part-animation triggers (sleep on, sleep off, extra, talk).
    pub part_anims: [RawPartAnim; 4],
    /// 0x68: model flags.
    pub flags: u8,
    /// 0x69: unknown.
    pub unknown_69: u8,
    /// 0x6A: distortion parameter.
    pub distortion_param: U16,
    /// 0x6C: distortion type.
    pub distortion_type: u8,
    /// 0x6D: reserved.
    pub reserved_6d: u8,
    /// 0x6E: head bone index.
    pub head_bone: U16,
    /// 0x70: shiny channel routing R, G, B, A.
    pub shiny_route: [U32; 4],
    /// 0x80: shiny brightness R, G, B, A.
    pub shiny_brightness: [u8; 4],
}
const _: () = assert!(size_of::<XdPreamble>() == 0x84);

/// XD PartAnimData (19 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawPartAnim {
    /// 0 off, 1 whole-model texture animation, 2 targeted.
    pub has_data: u8,
    /// Entry count.
    pub sub_param: u8,
    /// Part indices (0xFF unused).
    pub parts: [u8; 8],
    /// Per-part selector (0xFF = joint animation on that part).
    pub selectors: [u8; 8],
    /// Animation index.
    pub anim_index: u8,
}
const _: () = assert!(size_of::<RawPartAnim>() == 19);

/// Colosseum header: the first 0x40 bytes of a Colosseum `.pkx`.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ColoHeader {
    /// 0x00: DAT `file_size`.
    pub dat_size: U32,
    /// 0x04: GPT1 length.
    pub gpt1_length: U32,
    /// 0x08: animation entry count (16 or 17).
    pub anim_count: U32,
    /// 0x0C: particle orientation.
    pub particle_orientation: I32,
    /// 0x10: unknown ("always 5").
    pub unknown_10: U32,
    /// 0x14: unknown.
    pub unknown_14: I32,
    /// 0x18: part-animation refs (sleep on, sleep off, extra; −1 none).
    pub part_anim_refs: [I32; 3],
    /// 0x24: zero.
    pub reserved: [u8; 0x1C],
}
const _: () = assert!(size_of::<ColoHeader>() == 0x40);

/// One sub-animation slot of an entry.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSubAnim {
    /// Real vs padding, by each game's polarity.
    pub motion_type: U32,
    /// Index into `ModelSet.anims[]`.
    pub anim_index: U32,
}

/// Animation metadata entry (0xD0 bytes, both games).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawAnimEntry {
    /// 0x00: 2 loop, 3 hit reaction, 4 action, 5 compound.
    pub anim_type: U32,
    /// 0x04: used sub-animations (≤ 8).
    pub sub_anim_count: U32,
    /// 0x08: damage flags.
    pub damage_flags: U32,
    /// 0x0C: reserved.
    pub reserved_0c: U32,
    /// 0x10: timing 1–4 (XD f32 seconds, Colosseum u32 frames).
    pub timing: [U32; 4],
    /// 0x20: reserved.
    pub reserved_20: [u8; 44],
    /// 0x4C: body map (bone index per body part).
    pub body_map: [I32; 16],
    /// 0x8C: sub-animations.
    pub sub_anims: [RawSubAnim; 8],
    /// 0xCC: terminator (XD 3, Colosseum 1).
    pub terminator: U32,
}
const _: () = assert!(size_of::<RawAnimEntry>() == 0xD0);

/// Colosseum shiny trailer (the last 20 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ColoShiny {
    /// Channel routing R, G, B, A.
    pub route: [U32; 4],
    /// Brightness packed ARGB.
    pub argb: U32,
}
const _: () = assert!(size_of::<ColoShiny>() == 20);

/// Size of the XD preamble.
pub const XD_PREAMBLE: usize = 0x84;
/// Size of the Colosseum header.
pub const COLO_HEADER: usize = 0x40;
/// Size of an animation entry.
pub const ENTRY: usize = 0xD0;
/// Size of the Colosseum shiny trailer.
pub const COLO_SHINY: usize = 20;
/// `GPT1` magic, version 1.
pub const GPT1_MAGIC: u32 = 0x4750_5431;
/// GPT1 magic, version 2.
pub const GPT1_MAGIC_V2: u32 = 0x01F0_56DA;
