//! On-disk structures (big-endian, unaligned zerocopy views).

use zerocopy::byteorder::big_endian::{F32, I16, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// File header (0x20 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct FileHeader {
    /// `J3D2bmd2`, `J3D2bmd3`, `J3D2bdl4` or `J3D2bmt3`.
    pub magic: [u8; 8],
    /// Total file size.
    pub size: U32,
    /// Number of chunks.
    pub chunk_count: U32,
    /// `SVR3` and 12 × 0xFF in retail files; ignored by the game.
    pub tag: [u8; 16],
}
const _: () = assert!(size_of::<FileHeader>() == 0x20);

/// Chunk header: magic and size (the size includes the header).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ChunkHeader {
    /// Four-character chunk id.
    pub magic: [u8; 4],
    /// Chunk byte length.
    pub size: U32,
}
const _: () = assert!(size_of::<ChunkHeader>() == 8);

/// INF1 header.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Inf1Header {
    /// Chunk header.
    pub chunk: ChunkHeader,
    /// J3DLoader flags.
    pub flags: U16,
    /// 0xFFFF.
    pub pad: U16,
    /// Number of SHP1 matrix-group-data entries (informative).
    pub matrix_group_count: U32,
    /// Number of VTX1 positions (informative).
    pub vertex_count: U32,
    /// Offset of the hierarchy node list.
    pub hierarchy: U32,
}
const _: () = assert!(size_of::<Inf1Header>() == 0x18);

/// VTX1 header: the format list and 13 buffer offsets (POS, NRM, NBT, CLR0, CLR1, TEX0..7).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Vtx1Header {
    /// Chunk header.
    pub chunk: ChunkHeader,
    /// Offset of the format list.
    pub formats: U32,
    /// Buffer offsets, 0 = unused.
    pub buffers: [U32; 13],
}
const _: () = assert!(size_of::<Vtx1Header>() == 0x40);

/// VTX1 attribute format (0x10 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct VtxFormatRaw {
    /// GX attribute (0xFF ends the list).
    pub attr: U32,
    /// Component count selector.
    pub count: U32,
    /// Component type.
    pub ty: U32,
    /// Fraction shift.
    pub frac: u8,
    /// Padding (0xFF).
    pub pad: [u8; 3],
}
const _: () = assert!(size_of::<VtxFormatRaw>() == 0x10);

/// EVP1 header.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Evp1Header {
    /// Chunk header.
    pub chunk: ChunkHeader,
    /// Envelope count.
    pub count: U16,
    /// 0xFFFF.
    pub pad: U16,
    /// u8 pair count per envelope.
    pub sizes: U32,
    /// u16 joint indices.
    pub joints: U32,
    /// f32 weights.
    pub weights: U32,
    /// 3×4 inverse bind matrices, one per joint.
    pub ibms: U32,
}
const _: () = assert!(size_of::<Evp1Header>() == 0x1C);

/// DRW1 header.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Drw1Header {
    /// Chunk header.
    pub chunk: ChunkHeader,
    /// Entry count.
    pub count: U16,
    /// 0xFFFF.
    pub pad: U16,
    /// u8 kinds (0 joint, 1 envelope).
    pub kinds: U32,
    /// u16 ids.
    pub ids: U32,
}
const _: () = assert!(size_of::<Drw1Header>() == 0x14);

/// JNT1 header.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Jnt1Header {
    /// Chunk header.
    pub chunk: ChunkHeader,
    /// Joint count.
    pub count: U16,
    /// 0xFFFF.
    pub pad: U16,
    /// Joint data table.
    pub data: U32,
    /// u16 remap table.
    pub remap: U32,
    /// Name table, 0 = none.
    pub names: U32,
}
const _: () = assert!(size_of::<Jnt1Header>() == 0x18);

/// JNT1 joint entry (0x40 bytes; layout per C-04).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct JointRaw {
    /// Matrix type / flags.
    pub matrix_type: U16,
    /// Parent scale inheritance: 0 follow, 1 ignore.
    pub scale_compensate: u8,
    /// 0xFF.
    pub pad: u8,
    /// Scale.
    pub scale: [F32; 3],
    /// Rotation, 0x7FFF ≙ 180°.
    pub rotation: [I16; 3],
    /// 0xFFFF.
    pub pad2: U16,
    /// Translation.
    pub translation: [F32; 3],
    /// Bounding-sphere radius.
    pub radius: F32,
    /// AABB min, max.
    pub bbox: [F32; 6],
}
const _: () = assert!(size_of::<JointRaw>() == 0x40);

/// SHP1 header (0x2C bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Shp1Header {
    /// Chunk header.
    pub chunk: ChunkHeader,
    /// Shape count.
    pub count: U16,
    /// 0xFFFF.
    pub pad: U16,
    /// Shape entries.
    pub shapes: U32,
    /// u16 remap.
    pub remap: U32,
    /// Name table, 0 = none.
    pub names: U32,
    /// Vertex index attribute lists.
    pub attrs: U32,
    /// u16 weight (DRW1) index table.
    pub weights: U32,
    /// Primitive data.
    pub prims: U32,
    /// Matrix group data.
    pub matrix_data: U32,
    /// Matrix group definitions (primitive size, offset).
    pub groups: U32,
}
const _: () = assert!(size_of::<Shp1Header>() == 0x2C);

/// SHP1 shape entry (0x28 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ShapeRaw {
    /// 0 single, 1 billboard, 2 Y billboard, 3 multi.
    pub matrix_type: u8,
    /// 0xFF.
    pub pad: u8,
    /// Matrix group count.
    pub group_count: U16,
    /// Attribute list offset, relative to the attribute table.
    pub attr_offset: U16,
    /// First matrix group data index.
    pub first_data: U16,
    /// First matrix group definition index.
    pub first_group: U16,
    /// 0xFFFF.
    pub pad2: U16,
    /// Bounding-sphere radius.
    pub radius: F32,
    /// AABB min, max.
    pub bbox: [F32; 6],
}
const _: () = assert!(size_of::<ShapeRaw>() == 0x28);

/// Vertex index attribute (8 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct IndexAttrRaw {
    /// GX attribute (0xFF ends the list).
    pub attr: U32,
    /// 0 none, 1 direct, 2 u8 index, 3 u16 index.
    pub ty: U32,
}
const _: () = assert!(size_of::<IndexAttrRaw>() == 8);

/// Matrix group data (8 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct MatrixDataRaw {
    /// DRW1 index (single-joint shapes).
    pub drw: U16,
    /// Number of weight-table entries (multi-joint).
    pub count: U16,
    /// First weight-table entry.
    pub start: U32,
}
const _: () = assert!(size_of::<MatrixDataRaw>() == 8);

/// Matrix group definition (8 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct GroupDefRaw {
    /// Byte size of the group's primitives (with padding).
    pub size: U32,
    /// Offset relative to the primitive data.
    pub offset: U32,
}
const _: () = assert!(size_of::<GroupDefRaw>() == 8);
