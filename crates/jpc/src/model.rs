//! The owned model: resources (an effect each) of typed blocks, and the TEX1 textures. Every
//! count, size and offset is derived by the writer; the block layouts are the JSystem
//! decompilations' (`JPADynamicsBlock`, `JPABaseShape`, `JPAExtraShape`, `JPAChildShape`,
//! `JPAExTexShape`, `JPAFieldBlock`, `JPAKeyBlock`), confirmed on the real container.

use gcio::F32;

/// The version tag this crate reads (Super Mario Galaxy 1 and 2).
pub const VERSION: [u8; 8] = *b"JPAC2-10";
/// Bytes of the file header.
pub const HEADER_SIZE: usize = 0x10;
/// Bytes of a resource header.
pub const RESOURCE_HEADER_SIZE: usize = 8;
/// Bytes of a block header (tag, size).
pub const BLOCK_HEADER_SIZE: usize = 8;
/// Bytes of a TEX1 header before its BTI image (tag, size, a word, a 20-byte name).
pub const TEX1_HEADER_SIZE: usize = 0x20;
/// Bytes of a TEX1 name field.
pub const TEX1_NAME_SIZE: usize = 0x14;

/// A fixed-size field type of a block's head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// `u8`.
    U8,
    /// `s8`.
    I8,
    /// `u16`.
    U16,
    /// `s16`.
    I16,
    /// `u32`.
    U32,
    /// `f32`.
    F32,
}

impl Ty {
    /// Bytes of the type.
    pub fn size(self) -> usize {
        match self {
            Ty::U8 | Ty::I8 => 1,
            Ty::U16 | Ty::I16 => 2,
            Ty::U32 | Ty::F32 => 4,
        }
    }
}

/// A head field's value, of its schema type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// `u8`.
    U8(u8),
    /// `s8`.
    I8(i8),
    /// `u16`.
    U16(u16),
    /// `s16`.
    I16(i16),
    /// `u32` (flags, RGBA colours).
    U32(u32),
    /// `f32`, bit-exact.
    F32(F32),
}

impl Value {
    /// The value's type.
    pub fn ty(self) -> Ty {
        match self {
            Value::U8(_) => Ty::U8,
            Value::I8(_) => Ty::I8,
            Value::U16(_) => Ty::U16,
            Value::I16(_) => Ty::I16,
            Value::U32(_) => Ty::U32,
            Value::F32(_) => Ty::F32,
        }
    }

    /// The value widened to `u32` (floats: their bits), for flag and count tests.
    pub fn as_u32(self) -> u32 {
        match self {
            Value::U8(v) => u32::from(v),
            Value::I8(v) => v as u32,
            Value::U16(v) => u32::from(v),
            Value::I16(v) => v as u32,
            Value::U32(v) => v,
            Value::F32(v) => v.bits(),
        }
    }

    /// The value's big-endian bytes.
    pub fn write(self, out: &mut Vec<u8>) {
        match self {
            Value::U8(v) => out.push(v),
            Value::I8(v) => out.push(v as u8),
            Value::U16(v) => out.extend(v.to_be_bytes()),
            Value::I16(v) => out.extend(v.to_be_bytes()),
            Value::U32(v) => out.extend(v.to_be_bytes()),
            Value::F32(v) => out.extend(v.bits().to_be_bytes()),
        }
    }
}

use Ty::{F32 as F, I8, I16, U8, U16, U32};

/// Head schema of BEM1 (`JPADynamicsBlock`: the emitter).
pub const BEM1: &[(&str, Ty)] = &[
    ("flags", U32),
    ("unknown_0c", U32),
    ("scale_x", F),
    ("scale_y", F),
    ("scale_z", F),
    ("translation_x", F),
    ("translation_y", F),
    ("translation_z", F),
    ("direction_x", F),
    ("direction_y", F),
    ("direction_z", F),
    ("initial_vel_omni", F),
    ("initial_vel_axis", F),
    ("initial_vel_random", F),
    ("initial_vel_dir", F),
    ("spread", F),
    ("initial_vel_ratio", F),
    ("rate", F),
    ("rate_random", F),
    ("life_time_random", F),
    ("volume_sweep", F),
    ("volume_min_radius", F),
    ("air_resist", F),
    ("moment", F),
    ("rotation_x", I16),
    ("rotation_y", I16),
    ("rotation_z", I16),
    ("max_frame", I16),
    ("start_frame", I16),
    ("life_time", I16),
    ("volume_size", I16),
    ("div_number", I16),
    ("rate_step", U8),
    ("pad_79", U8),
    ("pad_7a", U8),
    ("pad_7b", U8),
];

/// Head schema of BSP1 (`JPABaseShape`: how particles draw); animation tables follow.
pub const BSP1: &[(&str, Ty)] = &[
    ("flags", U32),
    ("color_prm_anim_offset", U16),
    ("color_env_anim_offset", U16),
    ("scale_2d_x", F),
    ("scale_2d_y", F),
    ("blend_mode", U16),
    ("alpha_compare", U8),
    ("alpha_ref_0", U8),
    ("alpha_ref_1", U8),
    ("z_mode", U8),
    ("tex_flags", U8),
    ("tex_anim_count", U8),
    ("tex_index", U8),
    ("color_flags", U8),
    ("color_prm_anim_count", U8),
    ("color_env_anim_count", U8),
    ("color_anim_max_frame", U16),
    ("color_prm", U32),
    ("color_env", U32),
    ("anim_random", U8),
    ("color_anim_random_mask", U8),
    ("tex_anim_random_mask", U8),
    ("pad_31", U8),
    ("pad_32", U8),
    ("pad_33", U8),
];

/// Head schema of ESP1 (`JPAExtraShape`: scale, alpha and rotation over the particle's life).
pub const ESP1: &[(&str, Ty)] = &[
    ("flags", U32),
    ("scale_in_timing", F),
    ("scale_out_timing", F),
    ("scale_in_x", F),
    ("scale_out_x", F),
    ("scale_in_y", F),
    ("scale_out_y", F),
    ("scale_out_random", F),
    ("scale_anim_max_frame_x", U16),
    ("scale_anim_max_frame_y", U16),
    ("alpha_in_timing", F),
    ("alpha_out_timing", F),
    ("alpha_in", F),
    ("alpha_base", F),
    ("alpha_out", F),
    ("alpha_wave_frequency", F),
    ("alpha_wave_random", F),
    ("alpha_wave_amplitude", F),
    ("rotate_angle", F),
    ("rotate_angle_random", F),
    ("rotate_speed", F),
    ("rotate_speed_random", F),
    ("rotate_direction", F),
];

/// Head schema of SSP1 (`JPAChildShape`: child particles).
pub const SSP1: &[(&str, Ty)] = &[
    ("flags", U32),
    ("position_random", F),
    ("base_velocity", F),
    ("base_velocity_random", F),
    ("velocity_inherit_random", F),
    ("gravity", F),
    ("scale_2d_x", F),
    ("scale_2d_y", F),
    ("inherit_scale", F),
    ("inherit_alpha", F),
    ("inherit_rgb", F),
    ("color_prm", U32),
    ("color_env", U32),
    ("timing", F),
    ("life", U16),
    ("count", U16),
    ("rate", U8),
    ("tex_index", U8),
    ("rotate_speed", U16),
];

/// Head schema of ETX1 (`JPAExTexShape`: indirect and second textures).
pub const ETX1: &[(&str, Ty)] = &[
    ("flags", U32),
    ("ind_mtx_00", F),
    ("ind_mtx_01", F),
    ("ind_mtx_02", F),
    ("ind_mtx_10", F),
    ("ind_mtx_11", F),
    ("ind_mtx_12", F),
    ("ind_mtx_scale_exp", I8),
    ("ind_tex_index", U8),
    ("second_tex_index", U8),
    ("pad_27", U8),
];

/// Head schema of FLD1 (`JPAFieldBlock`: a force acting on the particles).
pub const FLD1: &[(&str, Ty)] = &[
    ("flags", U32),
    ("position_x", F),
    ("position_y", F),
    ("position_z", F),
    ("direction_x", F),
    ("direction_y", F),
    ("direction_z", F),
    ("param_1", F),
    ("param_2", F),
    ("param_3", F),
    ("fade_in", F),
    ("fade_out", F),
    ("enable_time", F),
    ("disable_time", F),
    ("cycle", U8),
    ("pad_41", U8),
    ("pad_42", U8),
    ("pad_43", U8),
];

/// Head schema of KFA1 (`JPAKeyBlock`: a curve of keys, 4 floats each, follows).
pub const KFA1: &[(&str, Ty)] = &[
    ("key_type", U8),
    ("key_count", U8),
    ("unknown_0a", U8),
    ("loop", U8),
];

/// The head schema of a block tag (TDB1 and unknown tags have none).
pub fn schema(tag: &[u8; 4]) -> &'static [(&'static str, Ty)] {
    match tag {
        b"BEM1" => BEM1,
        b"BSP1" => BSP1,
        b"ESP1" => ESP1,
        b"SSP1" => SSP1,
        b"ETX1" => ETX1,
        b"FLD1" => FLD1,
        b"KFA1" => KFA1,
        _ => &[],
    }
}

/// Bytes of a schema's head.
pub fn head_size(schema: &[(&str, Ty)]) -> usize {
    schema.iter().map(|(_, t)| t.size()).sum()
}

/// One key of a BSP1 colour animation table: a frame and an RGBA colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColorKey {
    /// Frame.
    pub frame: u16,
    /// RGBA8 colour.
    pub rgba: u32,
}

/// What follows a block's head, in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Floats: a BSP1 texture-matrix animation (10), a KFA1 curve (4 per key).
    F32s(Vec<F32>),
    /// A BSP1 texture index animation.
    U8s(Vec<u8>),
    /// TDB1's texture indices (into the container's textures).
    U16s(Vec<u16>),
    /// A BSP1 colour animation table.
    Colors(Vec<ColorKey>),
    /// Alignment bytes (zero in the real container).
    Pad(Vec<u8>),
    /// Bytes of no known layout (an unknown block, a table that does not fit): kept.
    Bytes(Vec<u8>),
}

impl Part {
    /// Bytes the part takes.
    pub fn len(&self) -> usize {
        match self {
            Part::F32s(v) => 4 * v.len(),
            Part::U8s(v) | Part::Pad(v) | Part::Bytes(v) => v.len(),
            Part::U16s(v) => 2 * v.len(),
            Part::Colors(v) => 6 * v.len(),
        }
    }

    /// True for a part of no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One block of a resource: its tag, head fields (per [`schema`]) and what follows.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The four-character tag (`BEM1`, `BSP1`, …).
    pub tag: [u8; 4],
    /// The head's values in schema order.
    pub fields: Vec<Value>,
    /// The rest of the block.
    pub parts: Vec<Part>,
}

impl Block {
    /// The head field `name` (per the tag's schema).
    pub fn field(&self, name: &str) -> Option<Value> {
        let i = schema(&self.tag).iter().position(|(n, _)| *n == name)?;
        self.fields.get(i).copied()
    }

    /// The tag as text.
    pub fn tag_str(&self) -> String {
        String::from_utf8_lossy(&self.tag).into_owned()
    }

    /// Bytes of the block, header included.
    pub fn size(&self) -> usize {
        BLOCK_HEADER_SIZE
            + self.fields.iter().map(|v| v.ty().size()).sum::<usize>()
            + self.parts.iter().map(Part::len).sum::<usize>()
    }
}

/// One effect: an id and its blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// The effect's id (the game looks effects up by it).
    pub id: u16,
    /// The number of FLD1 blocks the header announces (the game allocates by it).
    pub field_count: u8,
    /// The number of KFA1 blocks the header announces.
    pub key_count: u8,
    /// The number of TDB1 texture indices.
    pub texture_count: u8,
    /// The header's last byte (0).
    pub pad: u8,
    /// The blocks in file order.
    pub blocks: Vec<Block>,
}

impl Resource {
    /// Bytes of the resource, header included.
    pub fn size(&self) -> usize {
        RESOURCE_HEADER_SIZE + self.blocks.iter().map(Block::size).sum::<usize>()
    }

    /// The first block with `tag`.
    pub fn block(&self, tag: &[u8; 4]) -> Option<&Block> {
        self.blocks.iter().find(|b| &b.tag == tag)
    }
}

/// One TEX1 texture: a name and a BTI image.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    /// The word at 0x08 (0 in the real container).
    pub unknown_08: u32,
    /// The name (bytes before the first NUL of the 20-byte field).
    pub name: Vec<u8>,
    /// The name field's bytes from its first NUL on (zeros in the real container).
    pub name_rest: Vec<u8>,
    /// The image: a BTI header at +0x20 and its data, read and written by `j3d_bmd`.
    pub bti: j3d_bmd::Bti,
}

/// A JParticle container.
#[derive(Debug, Clone, PartialEq)]
pub struct Jpc {
    /// The effects.
    pub resources: Vec<Resource>,
    /// Bytes between the last effect and the textures (zeros to a 32-byte boundary).
    pub gap: Vec<u8>,
    /// The textures TDB1 indices name.
    pub textures: Vec<Texture>,
    /// Bytes after the last texture (none in the real container).
    pub trailer: Vec<u8>,
}

impl Jpc {
    /// Parses `data` into the owned model with the default [`gcio::Limits`].
    pub fn parse(data: &[u8]) -> gcio::Result<Jpc> {
        Jpc::parse_with(data, &gcio::Limits::default())
    }

    /// Parses `data` into the owned model; `limits` bound what is copied.
    pub fn parse_with(data: &[u8], limits: &gcio::Limits) -> gcio::Result<Jpc> {
        Jpc::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view.
    pub fn from_view(v: &crate::View<'_>, limits: &gcio::Limits) -> gcio::Result<Jpc> {
        crate::view::to_model(v, limits)
    }

    /// Parts kept as bytes of no known layout (`Part::Bytes` and trailing bytes), named like
    /// every model's `raw_parts()` in the workspace.
    pub fn raw_parts(&self) -> Vec<String> {
        let mut out = Vec::new();
        for r in &self.resources {
            for b in &r.blocks {
                if b.parts.iter().any(|p| matches!(p, Part::Bytes(_))) {
                    out.push(format!("resource {} block {}", r.id, b.tag_str()));
                }
            }
        }
        if !self.trailer.is_empty() {
            out.push(format!("bytes after the textures ({})", self.trailer.len()));
        }
        out
    }

    /// The resource with effect id `id`.
    pub fn resource(&self, id: u16) -> Option<&Resource> {
        self.resources.iter().find(|r| r.id == id)
    }
}
