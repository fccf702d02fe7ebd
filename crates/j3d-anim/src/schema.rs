//! Per-kind chunk layouts: which header field holds what, and which tables the offsets point at.
//!
//! Every kind is described by data, not code: a header of fields (loop mode, counts, offsets,
//! plain values) and a list of tables with their element type and where their length comes from.
//! One parser, one writer and one validator walk these descriptions.

/// The animation kinds this crate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "lowercase"))]
pub enum Kind {
    /// `bck1` / `ANK1`: keyed joint transforms.
    Bck,
    /// `bca1` / `ANF1`: per-frame joint transforms.
    Bca,
    /// `btk1` / `TTK1`: keyed texture-matrix SRT.
    Btk,
    /// `brk1` / `TRK1`: keyed TEV register and konst colours.
    Brk,
    /// `bpk1` / `PAK1`: keyed material colours.
    Bpk,
    /// `btp1` / `TPT1`: per-frame texture index (pattern).
    Btp,
    /// `bva1` / `VAF1`: per-frame shape visibility.
    Bva,
    /// `blk1` / `CLK1`: keyed cluster (blend-shape) weights.
    Blk,
    /// `bla1` / `CLF1`: per-frame cluster (blend-shape) weights.
    Bla,
}

/// How a table's element count is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Len {
    /// Header field `field` holds `count * mul` (TTK1 stores three per texture matrix).
    Field {
        /// Index of the header field.
        field: usize,
        /// Elements per table entry counted by the field.
        mul: u32,
    },
    /// As many elements as table `table` has.
    Table(usize),
    /// The table says itself (name tables).
    Own,
    /// No count is stored (CLK1/CLF1: the model's cluster count decides): as many elements as
    /// lie before the next table (or the chunk end), less the padding that follows them.
    Until,
}

/// Element type of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    /// 9 keyed tracks per entry (scale, rotation, translation for X, Y, Z / S, T, Q).
    KeySrt,
    /// 9 per-frame tracks per entry.
    FullSrt,
    /// TRK1 entry: 4 keyed tracks (R, G, B, A), the colour register id and 3 fill bytes.
    TevColor,
    /// PAK1 entry: 4 keyed tracks (R, G, B, A).
    KeyColor,
    /// TPT1 entry: per-frame track, texture-map id and 3 fill bytes.
    Pattern,
    /// One keyed track (CLK1).
    Key,
    /// One per-frame track (VAF1, CLF1).
    Full,
    /// Big-endian f32 values.
    F32,
    /// Big-endian i16 values.
    I16,
    /// Big-endian u16 values.
    U16,
    /// Bytes.
    U8,
    /// Three f32 per entry (TTK1 texture-matrix centres).
    Vec3,
    /// A J3D name table.
    Names,
}

impl Elem {
    /// Bytes per element (name tables: 0, they size themselves).
    pub fn size(self) -> usize {
        match self {
            Elem::KeySrt => 54,
            Elem::FullSrt => 36,
            Elem::TevColor => 28,
            Elem::KeyColor => 24,
            Elem::Pattern => 8,
            Elem::Key => 6,
            Elem::Full => 4,
            Elem::F32 => 4,
            Elem::I16 | Elem::U16 => 2,
            Elem::U8 => 1,
            Elem::Vec3 => 12,
            Elem::Names => 0,
        }
    }
}

/// What a header field means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A plain value kept in the model under its name.
    Value,
    /// An element count, derived from a table on writing.
    Count,
    /// Chunk-relative offset of table `n` (0 when the table is absent).
    Offset(usize),
}

/// One header field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Name (JSON key for values).
    pub name: &'static str,
    /// Byte offset in the chunk.
    pub at: usize,
    /// Width in bytes (1, 2 or 4).
    pub width: usize,
    /// Meaning.
    pub role: Role,
}

/// One table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableDef {
    /// Name (JSON key).
    pub name: &'static str,
    /// Element type.
    pub elem: Elem,
    /// Where the length comes from.
    pub len: Len,
    /// For keyed tracks: the value table(s) their indices point into, by component group
    /// (SRT: scale, rotation, translation; colours: R, G, B, A). Empty otherwise.
    pub values: &'static [usize],
}

/// The layout of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schema {
    /// The kind.
    pub kind: Kind,
    /// File type tag after `J3D1` (`bck1`).
    pub tag: [u8; 4],
    /// Chunk magic (`ANK1`).
    pub magic: [u8; 4],
    /// Usual file extension.
    pub ext: &'static str,
    /// Header size (first byte after the last field).
    pub header: usize,
    /// Header fields in byte order.
    pub fields: &'static [Field],
    /// Tables in the order their offsets appear in the header.
    pub tables: &'static [TableDef],
}

const fn v(name: &'static str, at: usize, width: usize) -> Field {
    Field {
        name,
        at,
        width,
        role: Role::Value,
    }
}
const fn c(name: &'static str, at: usize, width: usize) -> Field {
    Field {
        name,
        at,
        width,
        role: Role::Count,
    }
}
const fn o(name: &'static str, at: usize, table: usize) -> Field {
    Field {
        name,
        at,
        width: 4,
        role: Role::Offset(table),
    }
}
const fn t(name: &'static str, elem: Elem, len: Len) -> TableDef {
    TableDef {
        name,
        elem,
        len,
        values: &[],
    }
}
const fn f(field: usize) -> Len {
    Len::Field { field, mul: 1 }
}

/// Loop mode, decimal and duration, common to every keyed/full header except PAK1's.
macro_rules! head {
    () => {
        [
            v("loop_mode", 8, 1),
            v("rotation_decimal", 9, 1),
            v("duration", 10, 2),
        ]
    };
}

static ANK1_FIELDS: [Field; 11] = {
    let [a, b, d] = head!();
    [
        a,
        b,
        d,
        c("joint_count", 0x0C, 2),
        c("scale_count", 0x0E, 2),
        c("rotation_count", 0x10, 2),
        c("translation_count", 0x12, 2),
        o("joint_offset", 0x14, 0),
        o("scale_offset", 0x18, 1),
        o("rotation_offset", 0x1C, 2),
        o("translation_offset", 0x20, 3),
    ]
};
static ANK1_TABLES: [TableDef; 4] = [
    TableDef {
        name: "joints",
        elem: Elem::KeySrt,
        len: f(3),
        values: &[1, 2, 3],
    },
    t("scales", Elem::F32, f(4)),
    t("rotations", Elem::I16, f(5)),
    t("translations", Elem::F32, f(6)),
];
static ANF1_TABLES: [TableDef; 4] = [
    TableDef {
        name: "joints",
        elem: Elem::FullSrt,
        len: f(3),
        values: &[1, 2, 3],
    },
    t("scales", Elem::F32, f(4)),
    t("rotations", Elem::I16, f(5)),
    t("translations", Elem::F32, f(6)),
];

static TTK1_FIELDS: [Field; 28] = {
    let [a, b, d] = head!();
    [
        a,
        b,
        d,
        c("track_count", 0x0C, 2),
        c("scale_count", 0x0E, 2),
        c("rotation_count", 0x10, 2),
        c("translation_count", 0x12, 2),
        o("anim_offset", 0x14, 0),
        o("material_id_offset", 0x18, 1),
        o("name_offset", 0x1C, 2),
        o("tex_mtx_offset", 0x20, 3),
        o("center_offset", 0x24, 4),
        o("scale_offset", 0x28, 5),
        o("rotation_offset", 0x2C, 6),
        o("translation_offset", 0x30, 7),
        v("post_track_count", 0x34, 2),
        v("post_scale_count", 0x36, 2),
        v("post_rotation_count", 0x38, 2),
        v("post_translation_count", 0x3A, 2),
        v("post_anim_offset", 0x3C, 4),
        v("post_material_id_offset", 0x40, 4),
        v("post_name_offset", 0x44, 4),
        v("post_tex_mtx_offset", 0x48, 4),
        v("post_center_offset", 0x4C, 4),
        v("post_scale_offset", 0x50, 4),
        v("post_rotation_offset", 0x54, 4),
        v("post_translation_offset", 0x58, 4),
        v("tex_mtx_calc", 0x5C, 4),
    ]
};
static TTK1_TABLES: [TableDef; 8] = [
    TableDef {
        name: "anims",
        elem: Elem::KeySrt,
        len: Len::Field { field: 3, mul: 3 },
        values: &[5, 6, 7],
    },
    t("material_ids", Elem::U16, Len::Table(0)),
    t("names", Elem::Names, Len::Own),
    t("tex_mtx_ids", Elem::U8, Len::Table(0)),
    t("centers", Elem::Vec3, Len::Table(0)),
    t("scales", Elem::F32, f(4)),
    t("rotations", Elem::I16, f(5)),
    t("translations", Elem::F32, f(6)),
];

static TRK1_FIELDS: [Field; 27] = {
    let [a, b, d] = head!();
    [
        a,
        b,
        d,
        c("register_count", 0x0C, 2),
        c("konst_count", 0x0E, 2),
        c("register_r_count", 0x10, 2),
        c("register_g_count", 0x12, 2),
        c("register_b_count", 0x14, 2),
        c("register_a_count", 0x16, 2),
        c("konst_r_count", 0x18, 2),
        c("konst_g_count", 0x1A, 2),
        c("konst_b_count", 0x1C, 2),
        c("konst_a_count", 0x1E, 2),
        o("register_offset", 0x20, 0),
        o("konst_offset", 0x24, 1),
        o("register_material_id_offset", 0x28, 2),
        o("konst_material_id_offset", 0x2C, 3),
        o("register_name_offset", 0x30, 4),
        o("konst_name_offset", 0x34, 5),
        o("register_r_offset", 0x38, 6),
        o("register_g_offset", 0x3C, 7),
        o("register_b_offset", 0x40, 8),
        o("register_a_offset", 0x44, 9),
        o("konst_r_offset", 0x48, 10),
        o("konst_g_offset", 0x4C, 11),
        o("konst_b_offset", 0x50, 12),
        o("konst_a_offset", 0x54, 13),
    ]
};
static TRK1_TABLES: [TableDef; 14] = [
    TableDef {
        name: "registers",
        elem: Elem::TevColor,
        len: f(3),
        values: &[6, 7, 8, 9],
    },
    TableDef {
        name: "konsts",
        elem: Elem::TevColor,
        len: f(4),
        values: &[10, 11, 12, 13],
    },
    t("register_material_ids", Elem::U16, Len::Table(0)),
    t("konst_material_ids", Elem::U16, Len::Table(1)),
    t("register_names", Elem::Names, Len::Own),
    t("konst_names", Elem::Names, Len::Own),
    t("register_r", Elem::I16, f(5)),
    t("register_g", Elem::I16, f(6)),
    t("register_b", Elem::I16, f(7)),
    t("register_a", Elem::I16, f(8)),
    t("konst_r", Elem::I16, f(9)),
    t("konst_g", Elem::I16, f(10)),
    t("konst_b", Elem::I16, f(11)),
    t("konst_a", Elem::I16, f(12)),
];

static PAK1_FIELDS: [Field; 16] = [
    v("loop_mode", 8, 1),
    v("fill_9", 9, 1),
    v("fill_a", 0x0A, 2),
    v("duration", 0x0C, 2),
    c("material_count", 0x0E, 2),
    c("r_count", 0x10, 2),
    c("g_count", 0x12, 2),
    c("b_count", 0x14, 2),
    c("a_count", 0x16, 2),
    o("anim_offset", 0x18, 0),
    o("material_id_offset", 0x1C, 1),
    o("name_offset", 0x20, 2),
    o("r_offset", 0x24, 3),
    o("g_offset", 0x28, 4),
    o("b_offset", 0x2C, 5),
    o("a_offset", 0x30, 6),
];
static PAK1_TABLES: [TableDef; 7] = [
    TableDef {
        name: "anims",
        elem: Elem::KeyColor,
        len: f(4),
        values: &[3, 4, 5, 6],
    },
    t("material_ids", Elem::U16, Len::Table(0)),
    t("names", Elem::Names, Len::Own),
    t("r", Elem::I16, f(5)),
    t("g", Elem::I16, f(6)),
    t("b", Elem::I16, f(7)),
    t("a", Elem::I16, f(8)),
];

static TPT1_FIELDS: [Field; 9] = {
    let [a, b, d] = head!();
    [
        a,
        b,
        d,
        c("anim_count", 0x0C, 2),
        c("texture_index_count", 0x0E, 2),
        o("anim_offset", 0x10, 0),
        o("texture_index_offset", 0x14, 1),
        o("material_id_offset", 0x18, 2),
        o("name_offset", 0x1C, 3),
    ]
};
static TPT1_TABLES: [TableDef; 4] = [
    TableDef {
        name: "anims",
        elem: Elem::Pattern,
        len: f(3),
        values: &[1],
    },
    t("texture_indices", Elem::U16, f(4)),
    t("material_ids", Elem::U16, Len::Table(0)),
    t("names", Elem::Names, Len::Own),
];

static VAF1_FIELDS: [Field; 7] = {
    let [a, b, d] = head!();
    [
        a,
        b,
        d,
        c("anim_count", 0x0C, 2),
        c("show_count", 0x0E, 2),
        o("anim_offset", 0x10, 0),
        o("show_offset", 0x14, 1),
    ]
};
static VAF1_TABLES: [TableDef; 2] = [
    TableDef {
        name: "anims",
        elem: Elem::Full,
        len: f(3),
        values: &[1],
    },
    t("shows", Elem::U8, f(4)),
];

/// CLK1 and CLF1 share a header; the game reads only the loop mode, the duration and the two
/// offsets. 0x09 and 0x0C are kept as values (tools disagree on 0x0C), 0x0E counts the weights.
static CL_FIELDS: [Field; 7] = [
    v("loop_mode", 8, 1),
    v("fill_9", 9, 1),
    v("duration", 0x0A, 2),
    v("field_c", 0x0C, 2),
    c("weight_count", 0x0E, 2),
    o("cluster_offset", 0x10, 0),
    o("weight_offset", 0x14, 1),
];
static CLK1_TABLES: [TableDef; 2] = [
    TableDef {
        name: "clusters",
        elem: Elem::Key,
        len: Len::Until,
        values: &[1],
    },
    t("weights", Elem::F32, f(4)),
];
static CLF1_TABLES: [TableDef; 2] = [
    TableDef {
        name: "clusters",
        elem: Elem::Full,
        len: Len::Until,
        values: &[1],
    },
    t("weights", Elem::F32, f(4)),
];

static BCK: Schema = Schema {
    kind: Kind::Bck,
    tag: *b"bck1",
    magic: *b"ANK1",
    ext: "bck",
    header: 0x24,
    fields: &ANK1_FIELDS,
    tables: &ANK1_TABLES,
};
static BCA: Schema = Schema {
    kind: Kind::Bca,
    tag: *b"bca1",
    magic: *b"ANF1",
    ext: "bca",
    header: 0x24,
    fields: &ANK1_FIELDS,
    tables: &ANF1_TABLES,
};
static BTK: Schema = Schema {
    kind: Kind::Btk,
    tag: *b"btk1",
    magic: *b"TTK1",
    ext: "btk",
    header: 0x60,
    fields: &TTK1_FIELDS,
    tables: &TTK1_TABLES,
};
static BRK: Schema = Schema {
    kind: Kind::Brk,
    tag: *b"brk1",
    magic: *b"TRK1",
    ext: "brk",
    header: 0x58,
    fields: &TRK1_FIELDS,
    tables: &TRK1_TABLES,
};
static BPK: Schema = Schema {
    kind: Kind::Bpk,
    tag: *b"bpk1",
    magic: *b"PAK1",
    ext: "bpk",
    header: 0x34,
    fields: &PAK1_FIELDS,
    tables: &PAK1_TABLES,
};
static BTP: Schema = Schema {
    kind: Kind::Btp,
    tag: *b"btp1",
    magic: *b"TPT1",
    ext: "btp",
    header: 0x20,
    fields: &TPT1_FIELDS,
    tables: &TPT1_TABLES,
};
static BVA: Schema = Schema {
    kind: Kind::Bva,
    tag: *b"bva1",
    magic: *b"VAF1",
    ext: "bva",
    header: 0x18,
    fields: &VAF1_FIELDS,
    tables: &VAF1_TABLES,
};

static BLK: Schema = Schema {
    kind: Kind::Blk,
    tag: *b"blk1",
    magic: *b"CLK1",
    ext: "blk",
    header: 0x18,
    fields: &CL_FIELDS,
    tables: &CLK1_TABLES,
};
static BLA: Schema = Schema {
    kind: Kind::Bla,
    tag: *b"bla1",
    magic: *b"CLF1",
    ext: "bla",
    header: 0x18,
    fields: &CL_FIELDS,
    tables: &CLF1_TABLES,
};

/// Every supported kind's layout.
pub static SCHEMAS: [&Schema; 9] = [&BCK, &BCA, &BTK, &BRK, &BPK, &BTP, &BVA, &BLK, &BLA];

impl Kind {
    /// This kind's layout.
    pub fn schema(self) -> &'static Schema {
        match self {
            Kind::Bck => &BCK,
            Kind::Bca => &BCA,
            Kind::Btk => &BTK,
            Kind::Brk => &BRK,
            Kind::Bpk => &BPK,
            Kind::Btp => &BTP,
            Kind::Bva => &BVA,
            Kind::Blk => &BLK,
            Kind::Bla => &BLA,
        }
    }

    /// The kind whose file tag (`bck1`) this is.
    pub fn from_tag(tag: &[u8]) -> Option<Kind> {
        SCHEMAS.iter().find(|s| s.tag == tag).map(|s| s.kind)
    }
}
