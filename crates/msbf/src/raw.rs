//! On-disk layout: fixed offsets and the zerocopy records of FLW2 and FEN1.
//!
//! Multi-byte fields are stored as byte arrays because the byte order is chosen at run time by
//! the header's byte-order mark; `gcio::Endian::get_u16` and `get_u32` decode them.

use gcio::Endian;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// File magic at 0x00.
pub const MAGIC: &[u8; 8] = b"MsgFlwBn";
/// Flow section magic.
pub const FLW2: [u8; 4] = *b"FLW2";
/// Flow label section magic.
pub const FEN1: [u8; 4] = *b"FEN1";
/// Size of the file header.
pub const HEADER_SIZE: usize = 0x20;
/// Size of a section header (magic, size, 8 padding bytes).
pub const SECTION_HEADER_SIZE: usize = 0x10;
/// Sections are padded to this alignment ...
pub const SECTION_ALIGN: usize = 0x10;
/// ... with this byte (MSBF-003).
pub const PAD_BYTE: u8 = 0xAB;
/// Size of the FLW2 body header (node count, branch count, 4 padding bytes).
pub const FLOW_HEADER_SIZE: usize = 8;
/// The version byte at 0x0D every known file carries (MSBF-016).
pub const VERSION: u8 = 3;

/// The byte-order mark as bytes for each byte order (the u16 0xFEFF written in that order).
pub fn bom_bytes(endian: Endian) -> [u8; 2] {
    match endian {
        Endian::Big => [0xFE, 0xFF],
        Endian::Little => [0xFF, 0xFE],
    }
}

/// One FLW2 node: u16 type and five u16 arguments at 0x02..0x0C (C-22: not at 0x0A).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawNode {
    /// Node type.
    pub kind: [u8; 2],
    /// The five arguments.
    pub args: [[u8; 2]; 5],
}
const _: () = assert!(size_of::<RawNode>() == 0x0C);

impl RawNode {
    /// Type and arguments decoded in `endian`.
    pub fn decode(&self, endian: Endian) -> (u16, [u16; 5]) {
        (
            endian.get_u16(self.kind),
            self.args.map(|a| endian.get_u16(a)),
        )
    }
}

/// One FEN1 bucket: label count and offset of its first label from the FEN1 data start.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawBucket {
    /// Labels in this bucket.
    pub count: [u8; 4],
    /// Offset of the first label, from the start of the FEN1 data.
    pub offset: [u8; 4],
}
const _: () = assert!(size_of::<RawBucket>() == 8);
