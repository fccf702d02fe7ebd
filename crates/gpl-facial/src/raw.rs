//! On-disk structs (big-endian, unaligned, zero-copy). Each field's doc gives its offset.

use zerocopy::byteorder::big_endian::{U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// Model block header: eight block-relative words (+0x00 zero, then GPL, ACT, TEX, SKN, ptr6,
/// ptr7 = facial pose section, ptr8).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct BlockHeader {
    /// The eight header words.
    pub words: [U32; 8],
}
const _: () = assert!(size_of::<BlockHeader>() == 0x20);

/// GPL (GeoPalette) header, `DODisplayData`.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct GplHeader {
    /// 0x00B749E0 in every vanilla block.
    pub version: U32,
    /// Size of the user data.
    pub user_data_size: U32,
    /// GPL-relative pointer to the user data.
    pub user_data: U32,
    /// Number of display-object descriptors (submeshes).
    pub num_descriptors: U32,
    /// GPL-relative pointer to the descriptor array.
    pub descriptors: U32,
}
const _: () = assert!(size_of::<GplHeader>() == 0x14);

/// One display-object descriptor: GPL-relative pointers to its layout and name.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct GplDescriptor {
    /// → `DoLayout`.
    pub layout: U32,
    /// → NUL-terminated name.
    pub name: U32,
}
const _: () = assert!(size_of::<GplDescriptor>() == 8);

/// `DODisplayLayout`: pointers relative to the layout's own start.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct DoLayout {
    /// → position `ArrayHead`.
    pub position: U32,
    /// → colour `ArrayHead`.
    pub color: U32,
    /// → texture-coordinate descriptors.
    pub texture: U32,
    /// → lighting data (its first 8 bytes are the normal `ArrayHead`).
    pub lighting: U32,
    /// → display data.
    pub display: U32,
    /// Number of texture channels.
    pub num_texture_channels: u8,
    /// Padding.
    pub pad: [u8; 3],
}
const _: () = assert!(size_of::<DoLayout>() == 0x18);

/// Head of a vertex attribute array (`PositionData`, `ColorData`, the start of `LightingData`).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ArrayHead {
    /// → array, relative to the display object's layout.
    pub array: U32,
    /// Number of entries.
    pub count: U16,
    /// Quantisation byte: format `q >> 4`, divisor `1 << (q & 0xF)`.
    pub quantize: u8,
    /// Components per entry (3; 6 = interleaved position + normal).
    pub comp_count: u8,
}
const _: () = assert!(size_of::<ArrayHead>() == 8);

/// SKN header (`sHdr`).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct SknHeader {
    /// Number of one-bone entries.
    pub num_sk1: U16,
    /// Number of two-bone entries.
    pub num_sk2: U16,
    /// Number of accumulation entries.
    pub num_skacc: U16,
    /// Quantisation shift; the high nibble is 0 (s16 data).
    pub pos_nrm_shift: u8,
    /// Padding.
    pub pad: u8,
    /// SKN-relative → SK1 array.
    pub sk1: U32,
    /// SKN-relative → SK2 array.
    pub sk2: U32,
    /// SKN-relative → SKAcc array.
    pub skacc: U32,
    /// Accumulation clear start (relative to submesh 0's position array).
    pub mem_clr_ptr: U32,
    /// Accumulation clear size.
    pub mem_clr_size: U32,
    /// SKN-relative → flush indices.
    pub flush_indices: U32,
    /// Number of flush indices.
    pub flush_count: U32,
}
const _: () = assert!(size_of::<SknHeader>() == 0x24);

/// One-bone skinning entry.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Sk1 {
    /// Runtime matrix, zero in the file.
    pub mtx: [u8; 0x30],
    /// SKN-relative → source vertices (interleaved position + normal).
    pub src: U32,
    /// Destination, relative to submesh 0's position array.
    pub dst: U32,
    /// Bone.
    pub bone: U16,
    /// Number of vertices.
    pub count: U16,
    /// Byte offset of the first vertex past `dst`.
    pub src_offset: u8,
    /// Padding.
    pub pad: [u8; 3],
}
const _: () = assert!(size_of::<Sk1>() == 0x40);

/// Two-bone skinning entry.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Sk2 {
    /// Runtime matrices, zero in the file.
    pub mtx: [u8; 0x60],
    /// SKN-relative → source vertices.
    pub src: U32,
    /// SKN-relative → weight pairs.
    pub weights: U32,
    /// Destination, relative to submesh 0's position array.
    pub dst: U32,
    /// First bone.
    pub bone0: U16,
    /// Second bone.
    pub bone1: U16,
    /// Number of vertices.
    pub count: U16,
    /// Byte offset of the first vertex past `dst`.
    pub src_offset: u8,
    /// Padding.
    pub pad: u8,
}
const _: () = assert!(size_of::<Sk2>() == 0x74);

/// Accumulating skinning entry.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct SkAcc {
    /// Runtime matrix, zero in the file.
    pub mtx: [u8; 0x30],
    /// SKN-relative → source vertices.
    pub src: U32,
    /// SKN-relative → destination indices (u16).
    pub indices: U32,
    /// Destination, relative to submesh 0's position array.
    pub dst: U32,
    /// SKN-relative → weights (u8).
    pub weights: U32,
    /// Bone.
    pub bone: U16,
    /// Number of vertices.
    pub count: U16,
}
const _: () = assert!(size_of::<SkAcc>() == 0x44);

/// Facial pose section header; every pointer in the section is section-relative.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct FacialHeader {
    /// Maximum pose count advertised by the section.
    pub max_pose_count: U16,
    /// Number of facial objects.
    pub object_count: U16,
    /// Number of type descriptors.
    pub type_count: U16,
    /// Padding (0).
    pub pad: U16,
    /// → object table (0x14 + 16 × type count).
    pub object_table: U32,
    /// → type descriptors (always 0x14).
    pub descriptors: U32,
    /// Zero.
    pub reserved: U32,
}
const _: () = assert!(size_of::<FacialHeader>() == 0x14);

/// Type descriptor: one per distinct attribute target.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TypeDescriptor {
    /// GPL submesh, or for kind 0 an SKAcc entry.
    pub target: U16,
    /// Attribute kind.
    pub kind: u8,
    /// `component count << 4 | component size`.
    pub format: u8,
    /// Zero in the file; the loader stores the resolved target pointer at +0x8.
    pub reserved: [u8; 12],
}
const _: () = assert!(size_of::<TypeDescriptor>() == 0x10);

/// Facial object table entry.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ObjectEntry {
    /// Pose count of this object.
    pub pose_count: U16,
    /// Attribute count of this object.
    pub attr_count: U16,
    /// Attribute record size (0x0C + 4 × pose count).
    pub record_size: U32,
    /// → first attribute record.
    pub data: U32,
}
const _: () = assert!(size_of::<ObjectEntry>() == 0x0C);

/// Fixed head of an attribute record; `pose_count` pose-array pointers follow.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RecordHead {
    /// Mapped entries per pose.
    pub entries: U32,
    /// Target index, attribute kind, component count, component byte width.
    pub format: [u8; 4],
    /// → run list.
    pub runs: U32,
}
const _: () = assert!(size_of::<RecordHead>() == 0x0C);

/// One run: `first_vertex, run_length`; `(0, 0)` ends a list.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawRun {
    /// First target-array index.
    pub first: U16,
    /// Number of consecutive indices.
    pub len: U16,
}
const _: () = assert!(size_of::<RawRun>() == 4);
