//! On-disk structures (big-endian, unaligned zerocopy views). Each field's doc gives its offset.

use zerocopy::byteorder::big_endian::{F32, I16, I32, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// File header (0x20 bytes), shared by both versions.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// `IBNK`.
    pub magic: [u8; 4],
    /// File size minus 8 (IBNK-001).
    pub size: U32,
    /// Bank number (`JASBNKParser::getBankNumber`).
    pub id: I32,
    /// 0 = offset-table layout, 1 = chunked layout.
    pub version: U32,
    /// Zero in every known bank (IBNK-003).
    pub reserved: [u8; 16],
}
const _: () = assert!(size_of::<Header>() == 0x20);

/// A version-1 chunk header; the data follows, then padding to 4.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ChunkHeader {
    /// Four-character id (`ENVT`, `OSCT`, …).
    pub id: [u8; 4],
    /// Data length (excludes this header and the padding).
    pub size: U32,
}
const _: () = assert!(size_of::<ChunkHeader>() == 8);

/// A velocity region (both versions; version 0 calls it `TVmap`).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct VeloRegion {
    /// Highest velocity this region answers.
    pub velocity: u8,
    /// Unused bytes.
    pub pad: [u8; 3],
    /// High half of the wave word (ignored by the runtime).
    pub bank: U16,
    /// Wave id in the WSYS.
    pub wave: U16,
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
}
const _: () = assert!(size_of::<VeloRegion>() == 0x10);

/// An envelope point; a table ends with the first point whose signed mode is > 10.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EnvPoint {
    /// Interpolation mode (> 10 as i16 ends the table).
    pub mode: U16,
    /// Duration in ticks.
    pub time: U16,
    /// Target level.
    pub value: I16,
}
const _: () = assert!(size_of::<EnvPoint>() == 6);

/// Oscillator body shared by both versions (version 1 prefixes `Osci`).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Osc {
    /// Parameter driven (0 volume, 1 pitch, …).
    pub target: u8,
    /// Unused bytes.
    pub pad: [u8; 3],
    /// Rate.
    pub rate: F32,
    /// Attack table: version 0 file offset, version 1 offset into ENVT data.
    pub attack: U32,
    /// Release table, same addressing as `attack`.
    pub release: U32,
    /// Width / scale.
    pub width: F32,
    /// Vertex / offset.
    pub vertex: F32,
}
const _: () = assert!(size_of::<Osc>() == 0x18);

/// Random effect body (version 1 prefixes `Rand`).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Rand {
    /// Parameter affected.
    pub target: u8,
    /// Unused bytes.
    pub pad: [u8; 3],
    /// Base value.
    pub base: F32,
    /// Random range.
    pub range: F32,
}
const _: () = assert!(size_of::<Rand>() == 0xC);

/// Sense effect body (version 1 prefixes `Sens`).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Sense {
    /// Parameter affected.
    pub target: u8,
    /// Register / sense type (key or velocity).
    pub register: u8,
    /// Key / max point.
    pub key: u8,
    /// Unused byte.
    pub pad: u8,
    /// Level at the low end.
    pub start: F32,
    /// Level at the high end.
    pub end: F32,
}
const _: () = assert!(size_of::<Sense>() == 0xC);

/// Version-1 `Pmap` head: magic, volume, pitch, pan, unused byte, release (C-19).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PmapHead1 {
    /// `Pmap`.
    pub magic: [u8; 4],
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
    /// Pan 0..=127 (runtime divides by 127).
    pub pan: u8,
    /// Unused byte.
    pub unused: u8,
    /// Release time.
    pub release: U16,
}
const _: () = assert!(size_of::<PmapHead1>() == 0x10);

/// Version-0 `TInst` head; key-map offsets follow.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct InstHead0 {
    /// `INST` in known banks.
    pub magic: [u8; 4],
    /// Unknown word.
    pub unknown: U32,
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
    /// Oscillator offsets (0 = none).
    pub osc: [U32; 2],
    /// Random-effect offsets.
    pub rand: [U32; 2],
    /// Sense-effect offsets.
    pub sense: [U32; 2],
    /// Key-region count.
    pub count: U32,
}
const _: () = assert!(size_of::<InstHead0>() == 0x2C);

/// Version-0 `TKeymap` head; velocity-region offsets follow.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct KeymapHead0 {
    /// Highest key of the region.
    pub high_key: u8,
    /// Unused bytes.
    pub pad: [u8; 3],
    /// Velocity-region count.
    pub count: U32,
}
const _: () = assert!(size_of::<KeymapHead0>() == 8);

/// Version-0 `TPmap` head; velocity-region offsets follow.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PmapHead0 {
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
    /// Random-effect offsets.
    pub rand: [U32; 2],
    /// Velocity-region count.
    pub count: U32,
}
const _: () = assert!(size_of::<PmapHead0>() == 0x14);

/// Version-0 `TPerc` (0x288 bytes; `PER2` adds pan and release tables).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PercHead0 {
    /// `PERC` or `PER2`.
    pub magic: [u8; 4],
    /// Unknown bytes.
    pub unknown: [u8; 0x84],
    /// Pmap offset per key (0 = silent).
    pub keys: [U32; 128],
}
const _: () = assert!(size_of::<PercHead0>() == 0x288);

/// Version-0 `PER2` extension: pan and release per key.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PercExt0 {
    /// Signed pan per key (runtime divides by 127).
    pub pan: [u8; 128],
    /// Release per key.
    pub release: [U16; 128],
}
const _: () = assert!(size_of::<PercExt0>() == 0x180);

/// Version-0 bank block at 0x20: `BANK` and 240 program offsets (0x3C4 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct BankBlock0 {
    /// `BANK`.
    pub magic: [u8; 4],
    /// Programs 0..0x80 are instruments, 0xE4..0xF0 drum sets, the rest unused.
    pub slots: [U32; 0xF0],
}
const _: () = assert!(size_of::<BankBlock0>() == 0x3C4);

/// Version-1 `OSCT` entry: `Osci` + [`Osc`].
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Osci {
    /// `Osci`.
    pub magic: [u8; 4],
    /// The oscillator.
    pub osc: Osc,
}
const _: () = assert!(size_of::<Osci>() == 0x1C);

/// Version-1 `Rand` object: magic + [`Rand`].
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Rand1 {
    /// `Rand`.
    pub magic: [u8; 4],
    /// The effect.
    pub rand: Rand,
}
const _: () = assert!(size_of::<Rand1>() == 0x10);

/// Version-1 `Sens` object: magic + [`Sense`].
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Sens1 {
    /// `Sens`.
    pub magic: [u8; 4],
    /// The effect.
    pub sense: Sense,
}
const _: () = assert!(size_of::<Sens1>() == 0x10);

/// WSYS header (0x20 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct WsysHeader {
    /// `WSYS`.
    pub magic: [u8; 4],
    /// File size.
    pub size: U32,
    /// Wave-system id (the number sequences and BAA `bnk ` commands use).
    pub id: U32,
    /// Wave-table size.
    pub wave_table_size: U32,
    /// Offset of `WINF`.
    pub winf: U32,
    /// Offset of `WBCT`.
    pub wbct: U32,
    /// Unused bytes.
    pub pad: [u8; 8],
}
const _: () = assert!(size_of::<WsysHeader>() == 0x20);

/// A WSYS wave description (`TWave`, 0x24 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Wave {
    /// Unknown byte.
    pub unknown: u8,
    /// Sample format.
    pub format: u8,
    /// Root key.
    pub base_key: u8,
    /// Unused byte.
    pub pad: u8,
    /// Sample rate in Hz.
    pub sample_rate: F32,
    /// Start in the `.aw` file.
    pub aw_start: U32,
    /// Length in the `.aw` file.
    pub aw_length: U32,
    /// Non-zero when looped.
    pub loop_flag: U32,
    /// Loop start sample.
    pub loop_start: U32,
    /// Loop end sample.
    pub loop_end: U32,
    /// Sample count.
    pub sample_count: U32,
    /// ADPCM history: last sample.
    pub last: I16,
    /// ADPCM history: sample before last.
    pub penult: I16,
}
const _: () = assert!(size_of::<Wave>() == 0x24);
