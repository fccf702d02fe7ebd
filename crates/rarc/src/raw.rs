//! On-disk structures (big-endian, unaligned zero-copy views).

use zerocopy::byteorder::big_endian::{U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The file header at 0x00.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// `RARC`.
    pub magic: [u8; 4],
    /// Total file size.
    pub file_size: U32,
    /// Data-header offset (0x20).
    pub info_offset: U32,
    /// File-data offset minus 0x20.
    pub data_offset: U32,
    /// File-data length.
    pub data_len: U32,
    /// Total size of MRAM files.
    pub mram_size: U32,
    /// Total size of ARAM files.
    pub aram_size: U32,
    /// Total size of DVD files (C-06).
    pub dvd_size: U32,
}
const _: () = assert!(size_of::<Header>() == 0x20);

/// The data header ("info block") at 0x20; its offsets are relative to 0x20.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Info {
    /// Number of directory nodes.
    pub node_count: U32,
    /// Directory-node table offset (0x20).
    pub node_offset: U32,
    /// Number of file entries.
    pub entry_count: U32,
    /// File-entry table offset.
    pub entry_offset: U32,
    /// String-table size (including its padding in game-written files).
    pub string_size: U32,
    /// String-table offset.
    pub string_offset: U32,
    /// Next free file ID.
    pub next_id: U16,
    /// Keep file IDs synced to entry positions (C-07).
    pub sync_ids: u8,
    /// Padding (zero).
    pub reserved: [u8; 5],
}
const _: () = assert!(size_of::<Info>() == 0x20);

/// A directory node (0x10).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Node {
    /// First four characters of the name, upper case, space padded; `ROOT` for node 0.
    pub ty: [u8; 4],
    /// Name offset in the string table.
    pub name_offset: U32,
    /// Name hash.
    pub hash: U16,
    /// Number of entries (including "." and "..").
    pub entry_count: U16,
    /// Index of the first entry (C-08: an index, not a byte offset).
    pub first_entry: U32,
}
const _: () = assert!(size_of::<Node>() == 0x10);

/// A file entry (0x14, C-09).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Entry {
    /// File ID; 0xFFFF for directories.
    pub id: U16,
    /// Name hash.
    pub hash: U16,
    /// Attribute flags (bits 31..24) and name offset (bits 23..0).
    pub attr_name: U32,
    /// File: data offset in the data section. Directory: node index (0xFFFFFFFF for the top "..").
    pub data: U32,
    /// File: size. Directory: 0x10.
    pub size: U32,
    /// Runtime pointer slot, zero in files.
    pub reserved: U32,
}
const _: () = assert!(size_of::<Entry>() == 0x14);
