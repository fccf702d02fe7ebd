//! On-disk structs of the archive container (zerocopy, big-endian).

use zerocopy::byteorder::big_endian::U32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The 0x20-byte archive header.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Header {
    /// Total file length; the runtime asserts it equals the loaded size (HSD-001).
    pub file_size: U32,
    /// Size of the data block; the relocation table follows it.
    pub data_size: U32,
    /// Relocation entries.
    pub nb_reloc: U32,
    /// Root ("public") symbol entries.
    pub nb_public: U32,
    /// Reference ("extern") symbol entries.
    pub nb_extern: U32,
    /// Opaque version bytes (kept as stored).
    pub version: [u8; 4],
    /// Two padding words (kept as stored).
    pub pad: [u8; 8],
}
const _: () = assert!(size_of::<Header>() == 0x20);

/// A root or extern table entry.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct SymbolEntry {
    /// Data offset of the root, or head of the extern's chain of slots.
    pub offset: U32,
    /// Offset of the name, relative to the symbol-table start.
    pub symbol: U32,
}
const _: () = assert!(size_of::<SymbolEntry>() == 8);

/// Size of [`Header`]; data offsets are relative to the byte after it.
pub const HEADER_SIZE: usize = 0x20;
