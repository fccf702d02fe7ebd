//! MAT3: materials. Each material entry (0x14C) holds indices into 29 value tables; identical
//! entries are shared through the remap table. The owned [`Mat3`] keeps the tables verbatim
//! (retail files repeat values and keep unreferenced defaults, J3D-080) together with the file
//! order of the tables and where empty ones point, so writing reproduces the chunk exactly.
//! [`Mat3::materials`] resolves every material into a self-contained [`Material`];
//! [`Mat3::from_materials`] deduplicates materials back into tables the way Nintendo's tools do.

use gcio::{Context, Error, Limits, Reader, Result, Writer};

use crate::chunk::{gap_align, u16_of, write_chunk};
use crate::nametab::NameTable;
use crate::record::{Record, read_vec, record};
use crate::{CHUNK_ALIGN, Pad};

/// RGBA8 colour.
pub type Rgba8 = [u8; 4];
/// TEV register colour (signed 10-bit components stored as s16).
pub type TevColor = [i16; 4];

/// Number of sub-table offsets in the header.
pub const TABLE_COUNT: usize = 30;

/// Names of the 30 tables in header order.
pub const TABLE_NAMES: [&str; TABLE_COUNT] = [
    "material entries",
    "material remap",
    "name table",
    "indirect entries",
    "cull modes",
    "material colours",
    "colour-channel counts",
    "colour channels",
    "ambient colours",
    "light colours",
    "tex-gen counts",
    "tex coord gens",
    "post tex coord gens",
    "tex matrices",
    "post tex matrices",
    "texture numbers",
    "TEV orders",
    "TEV colours",
    "TEV konst colours",
    "TEV stage counts",
    "TEV stages",
    "TEV swap modes",
    "TEV swap tables",
    "fog",
    "alpha compare",
    "blend modes",
    "z modes",
    "z-compare locations",
    "dither",
    "NBT scale",
];

/// Header size: magic, size, count, marker, 30 offsets.
const HEADER: usize = 0x0C + 4 * TABLE_COUNT;

record! {
    /// A material entry: indices into the value tables (0xFF / 0xFFFF = none).
    pub struct MaterialEntry {
        /// Pixel-engine mode: 1 opaque, 2 alpha test, 4 translucent.
        pub mode: u8,
        /// Cull mode index.
        pub cull: u8,
        /// Colour-channel count index.
        pub chan_count: u8,
        /// Tex-gen count index.
        pub tex_gen_count: u8,
        /// TEV stage count index.
        pub tev_count: u8,
        /// Z-compare location index.
        pub z_comp_loc: u8,
        /// Z mode index.
        pub z_mode: u8,
        /// Dither index.
        pub dither: u8,
        /// Material colours.
        pub mat_colors: [u16; 2],
        /// Colour channels.
        pub channels: [u16; 4],
        /// Ambient colours.
        pub amb_colors: [u16; 2],
        /// Light colours.
        pub lights: [u16; 8],
        /// Tex coord gens.
        pub tex_gens: [u16; 8],
        /// Post tex coord gens.
        pub post_tex_gens: [u16; 8],
        /// Tex matrices.
        pub tex_mtx: [u16; 10],
        /// Post tex matrices.
        pub post_tex_mtx: [u16; 20],
        /// Texture numbers.
        pub textures: [u16; 8],
        /// Konst colours.
        pub konst_colors: [u16; 4],
        /// Konst colour selection per TEV stage (a value, not an index).
        pub konst_color_sel: [u8; 16],
        /// Konst alpha selection per TEV stage (a value, not an index).
        pub konst_alpha_sel: [u8; 16],
        /// TEV orders.
        pub tev_orders: [u16; 16],
        /// TEV colours.
        pub tev_colors: [u16; 4],
        /// TEV stages.
        pub tev_stages: [u16; 16],
        /// TEV swap modes.
        pub swap_modes: [u16; 16],
        /// TEV swap tables.
        pub swap_tables: [u16; 4],
        /// Unknown words, kept verbatim (never indices, J3D-080).
        pub unknown: [u8; 0x18],
        /// Fog index.
        pub fog: u16,
        /// Alpha-compare index.
        pub alpha_compare: u16,
        /// Blend-mode index.
        pub blend: u16,
        /// NBT-scale index.
        pub nbt_scale: u16,
    }
}

record! {
    /// Indirect texture order: which tex coord and map an indirect stage samples.
    pub struct IndOrder {
        /// Tex coord.
        pub tex_coord: u8,
        /// Tex map.
        pub tex_map: u8,
        /// 0xFFFF.
        pub pad: u16,
    }
}

record! {
    /// Indirect matrix: 2×3 offset matrix and its scale exponent.
    pub struct IndMatrix {
        /// Rows of the 2×3 matrix.
        pub matrix: [f32; 6],
        /// Scale exponent.
        pub exponent: i8,
        /// 0xFFFFFF.
        pub pad: [u8; 3],
    }
}

record! {
    /// Indirect coordinate scale.
    pub struct IndScale {
        /// S scale.
        pub s: u8,
        /// T scale.
        pub t: u8,
        /// 0xFFFF.
        pub pad: u16,
    }
}

record! {
    /// Indirect TEV stage (GX_SetTevIndirect).
    pub struct IndTevStage {
        /// Indirect stage.
        pub stage: u8,
        /// Offset format.
        pub format: u8,
        /// Bias selection.
        pub bias: u8,
        /// Matrix.
        pub matrix: u8,
        /// Wrap S.
        pub wrap_s: u8,
        /// Wrap T.
        pub wrap_t: u8,
        /// Add the previous stage's offset.
        pub add_prev: u8,
        /// Use the unmodified LOD.
        pub utc_lod: u8,
        /// Alpha selection.
        pub alpha: u8,
        /// 0xFFFFFF.
        pub pad: [u8; 3],
    }
}

record! {
    /// A material's indirect texturing block (0x138).
    pub struct IndirectEntry {
        /// Indirect texturing on.
        pub enable: u8,
        /// Indirect stage count.
        pub stage_count: u8,
        /// 0xFFFF.
        pub pad: u16,
        /// Orders.
        pub orders: [IndOrder; 4],
        /// Matrices.
        pub matrices: [IndMatrix; 3],
        /// Scales.
        pub scales: [IndScale; 4],
        /// TEV stages.
        pub stages: [IndTevStage; 16],
    }
}

record! {
    /// Colour channel control (GX_SetChanCtrl).
    pub struct ColorChannel {
        /// Lighting on.
        pub enable: u8,
        /// Material colour source: 0 register, 1 vertex.
        pub mat_src: u8,
        /// Light mask.
        pub light_mask: u8,
        /// Diffuse function.
        pub diffuse_fn: u8,
        /// Attenuation function.
        pub attn_fn: u8,
        /// Ambient source.
        pub amb_src: u8,
        /// 0xFFFF.
        pub pad: u16,
    }
}

record! {
    /// Tex coord generation (GX_SetTexCoordGen).
    pub struct TexCoordGen {
        /// Generation type.
        pub ty: u8,
        /// Source.
        pub src: u8,
        /// Matrix (0x3C identity).
        pub matrix: u8,
        /// 0xFF.
        pub pad: u8,
    }
}

record! {
    /// Texture matrix (0x64).
    pub struct TexMatrix {
        /// Projection: 0 2×4 (ST), 1 3×4 (STQ).
        pub projection: u8,
        /// Map mode in the low 6 bits, bit 7 Maya-style.
        pub info: u8,
        /// 0xFFFF.
        pub pad: u16,
        /// Centre.
        pub center: [f32; 3],
        /// Scale.
        pub scale: [f32; 2],
        /// Rotation (0x7FFF ≙ 180°).
        pub rotation: i16,
        /// 0xFFFF.
        pub pad2: u16,
        /// Translation.
        pub translation: [f32; 2],
        /// Effect matrix, row-major 4×4.
        pub effect: [f32; 16],
    }
}

record! {
    /// TEV order (GX_SetTevOrder).
    pub struct TevOrder {
        /// Tex coord (0xFF none).
        pub tex_coord: u8,
        /// Tex map (0xFF none).
        pub tex_map: u8,
        /// Rasterised colour channel.
        pub channel: u8,
        /// 0xFF.
        pub pad: u8,
    }
}

record! {
    /// TEV stage: colour and alpha combiners.
    pub struct TevStage {
        /// 0xFF in retail files.
        pub mode: u8,
        /// Colour inputs a, b, c, d.
        pub color_in: [u8; 4],
        /// Colour operation.
        pub color_op: u8,
        /// Colour bias.
        pub color_bias: u8,
        /// Colour scale.
        pub color_scale: u8,
        /// Colour clamp.
        pub color_clamp: u8,
        /// Colour output register.
        pub color_reg: u8,
        /// Alpha inputs a, b, c, d.
        pub alpha_in: [u8; 4],
        /// Alpha operation.
        pub alpha_op: u8,
        /// Alpha bias.
        pub alpha_bias: u8,
        /// Alpha scale.
        pub alpha_scale: u8,
        /// Alpha clamp.
        pub alpha_clamp: u8,
        /// Alpha output register.
        pub alpha_reg: u8,
        /// 0xFF.
        pub pad: u8,
    }
}

record! {
    /// TEV swap mode: which swap tables rasterised and texture colours use.
    pub struct SwapMode {
        /// Rasterised-colour swap table.
        pub ras_sel: u8,
        /// Texture swap table.
        pub tex_sel: u8,
        /// 0xFFFF.
        pub pad: u16,
    }
}

record! {
    /// TEV swap table: source channel per output channel.
    pub struct SwapTable {
        /// Red from.
        pub r: u8,
        /// Green from.
        pub g: u8,
        /// Blue from.
        pub b: u8,
        /// Alpha from.
        pub a: u8,
    }
}

record! {
    /// Fog (0x2C).
    pub struct Fog {
        /// Fog type.
        pub ty: u8,
        /// Range adjustment on.
        pub enable: u8,
        /// Range-adjustment centre.
        pub center: u16,
        /// Start Z.
        pub start_z: f32,
        /// End Z.
        pub end_z: f32,
        /// Near Z.
        pub near_z: f32,
        /// Far Z.
        pub far_z: f32,
        /// Colour.
        pub color: [u8; 4],
        /// Range-adjustment table.
        pub adj: [u16; 10],
    }
}

record! {
    /// Alpha compare (GX_SetAlphaCompare).
    pub struct AlphaCompare {
        /// Comparison 0.
        pub comp0: u8,
        /// Reference 0.
        pub ref0: u8,
        /// Combining operation.
        pub op: u8,
        /// Comparison 1.
        pub comp1: u8,
        /// Reference 1.
        pub ref1: u8,
        /// 0xFFFFFF.
        pub pad: [u8; 3],
    }
}

record! {
    /// Blend mode (GX_SetBlendMode).
    pub struct Blend {
        /// 0 none, 1 blend, 2 logic, 3 subtract.
        pub mode: u8,
        /// Source factor.
        pub src: u8,
        /// Destination factor.
        pub dst: u8,
        /// Logic operation.
        pub logic: u8,
    }
}

record! {
    /// Z mode (GX_SetZMode).
    pub struct ZMode {
        /// Depth test on.
        pub test: u8,
        /// Compare function.
        pub func: u8,
        /// Depth write on.
        pub write: u8,
        /// 0xFF.
        pub pad: u8,
    }
}

record! {
    /// NBT scale.
    pub struct NbtScale {
        /// On.
        pub enable: u8,
        /// 0xFFFFFF.
        pub pad: [u8; 3],
        /// Scale.
        pub scale: [f32; 3],
    }
}

/// Cull mode values (the cull table stores u32s).
pub mod cull {
    /// Draw both faces.
    pub const NONE: u32 = 0;
    /// Cull front faces.
    pub const FRONT: u32 = 1;
    /// Cull back faces.
    pub const BACK: u32 = 2;
    /// Cull everything.
    pub const ALL: u32 = 3;
}

/// Indices of an entry field: a single u8/u16 or an array of u16, with 0xFF/0xFFFF meaning none.
trait Slots: Sized {
    fn indices(&self) -> impl Iterator<Item = Option<usize>>;
    fn from_indices(v: &[Option<usize>]) -> Result<Self>;
}

fn too_many(i: usize) -> Error {
    Error::without_offset(gcio::ErrorKind::Invalid(format!(
        "MAT3 value table index {i} does not fit its field"
    )))
}

impl Slots for u8 {
    fn indices(&self) -> impl Iterator<Item = Option<usize>> {
        std::iter::once((*self != 0xFF).then_some(usize::from(*self)))
    }
    fn from_indices(v: &[Option<usize>]) -> Result<Self> {
        match v.first().copied().flatten() {
            None => Ok(0xFF),
            Some(i) => u8::try_from(i)
                .ok()
                .filter(|&b| b != 0xFF)
                .ok_or_else(|| too_many(i)),
        }
    }
}

fn idx16(i: Option<usize>) -> Result<u16> {
    match i {
        None => Ok(0xFFFF),
        Some(i) => u16::try_from(i)
            .ok()
            .filter(|&b| b != 0xFFFF)
            .ok_or_else(|| too_many(i)),
    }
}

impl Slots for u16 {
    fn indices(&self) -> impl Iterator<Item = Option<usize>> {
        std::iter::once((*self != 0xFFFF).then_some(usize::from(*self)))
    }
    fn from_indices(v: &[Option<usize>]) -> Result<Self> {
        idx16(v.first().copied().flatten())
    }
}

impl<const N: usize> Slots for [u16; N] {
    fn indices(&self) -> impl Iterator<Item = Option<usize>> {
        self.iter().flat_map(Slots::indices)
    }
    fn from_indices(v: &[Option<usize>]) -> Result<Self> {
        let mut a = [0xFFFF; N];
        for (d, s) in a.iter_mut().zip(v) {
            *d = idx16(*s)?;
        }
        Ok(a)
    }
}

/// Values of a material field: one optional value or an array of them.
trait Vals<T: 'static> {
    fn vals(&self) -> impl Iterator<Item = Option<&T>>;
    fn from_vals(v: impl Iterator<Item = Option<T>>) -> Self;
}

impl<T: 'static> Vals<T> for Option<T> {
    fn vals(&self) -> impl Iterator<Item = Option<&T>> {
        std::iter::once(self.as_ref())
    }
    fn from_vals(mut v: impl Iterator<Item = Option<T>>) -> Self {
        v.next().flatten()
    }
}

impl<T: Copy + 'static, const N: usize> Vals<T> for [Option<T>; N] {
    fn vals(&self) -> impl Iterator<Item = Option<&T>> {
        self.iter().map(Option::as_ref)
    }
    fn from_vals(v: impl Iterator<Item = Option<T>>) -> Self {
        let mut a = [None; N];
        for (d, s) in a.iter_mut().zip(v) {
            *d = s;
        }
        a
    }
}

/// Index of `v` in `table`, appending it when new (first-use order).
fn intern<T: PartialEq + Copy>(table: &mut Vec<T>, v: &T) -> usize {
    match table.iter().position(|x| x == v) {
        Some(i) => i,
        None => {
            table.push(*v);
            table.len() - 1
        }
    }
}

/// Declares the 26 links between entry fields, material fields and value tables once; the
/// resolver, the deduplicating builder, the table codec and the reference scan all come from it.
macro_rules! links {
    ($( $id:literal $field:ident : $t:ty, $mty:ty, $doc:literal; )*) => {
        /// The value tables of a MAT3 chunk, each `None` when its offset is 0.
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Tables {
            $(#[doc = $doc] pub $field: Option<Vec<$t>>,)*
        }

        /// A material with every value resolved (no table indices); with the `json` feature it is
        /// the typed JSON a glTF export carries so an import rebuilds the same material.
        #[derive(Debug, Clone, PartialEq, Default)]
        #[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
        pub struct Material {
            /// Name.
            pub name: Vec<u8>,
            /// Pixel-engine mode: 1 opaque, 2 alpha test, 4 translucent.
            pub mode: u8,
            /// Konst colour selection per TEV stage.
            pub konst_color_sel: [u8; 16],
            /// Konst alpha selection per TEV stage.
            pub konst_alpha_sel: [u8; 16],
            /// Unknown words of the entry, kept verbatim.
            pub unknown: [u8; 0x18],
            /// Indirect texturing, when the chunk has an indirect table.
            pub indirect: Option<IndirectEntry>,
            $(#[doc = $doc] pub $field: $mty,)*
        }

        impl Tables {
            fn resolve(&self, e: &MaterialEntry, m: &mut Material) {
                $(
                    let t = self.$field.as_deref().unwrap_or_default();
                    m.$field = Vals::from_vals(e.$field.indices().map(|i| i.and_then(|i| t.get(i)).copied()));
                )*
            }

            fn dedup(&mut self, m: &Material, e: &mut MaterialEntry) -> Result<()> {
                $(
                    let t = self.$field.get_or_insert_with(Vec::new);
                    let ix: Vec<Option<usize>> = m.$field.vals().map(|v| v.map(|v| intern(t, v))).collect();
                    e.$field = Slots::from_indices(&ix)?;
                )*
                Ok(())
            }

            /// Highest referenced index + 1 per table id.
            fn scan(e: &MaterialEntry, need: &mut [usize; TABLE_COUNT]) {
                $(
                    if let Some(n) = need.get_mut($id) {
                        for i in e.$field.indices().flatten() {
                            *n = (*n).max(i + 1);
                        }
                    }
                )*
            }

            fn read(
                &mut self,
                id: usize,
                r: &Reader<'_>,
                at: usize,
                n: usize,
                limits: &Limits,
            ) -> Result<bool> {
                match id {
                    $($id => self.$field = Some(read_vec(r, at, n, limits)?),)*
                    _ => return Ok(false),
                }
                Ok(true)
            }

            fn elem_size(id: usize) -> Option<usize> {
                match id {
                    $($id => Some(<$t as Record>::SIZE),)*
                    _ => None,
                }
            }

            fn write(&self, id: usize, w: &mut Writer) {
                match id {
                    $($id => self.$field.iter().flatten().for_each(|x| x.write(w)),)*
                    _ => {}
                }
            }

            /// Calls `bad(table, index, len)` for every index of `e` past its present table.
            pub(crate) fn check_indices(&self, e: &MaterialEntry, mut bad: impl FnMut(&str, usize, usize)) {
                $(
                    if let Some(t) = &self.$field {
                        for i in e.$field.indices().flatten().filter(|&i| i >= t.len()) {
                            bad(TABLE_NAMES.get($id).copied().unwrap_or("?"), i, t.len());
                        }
                    }
                )*
            }

            fn present(&self, id: usize) -> bool {
                match id {
                    $($id => self.$field.is_some(),)*
                    _ => false,
                }
            }

            fn is_empty(&self, id: usize) -> bool {
                match id {
                    $($id => self.$field.as_ref().is_none_or(Vec::is_empty),)*
                    _ => true,
                }
            }
        }
    };
}

links! {
    4 cull: u32, Option<u32>, "Cull mode.";
    5 mat_colors: Rgba8, [Option<Rgba8>; 2], "Material colours.";
    6 chan_count: u8, Option<u8>, "Colour-channel count.";
    7 channels: ColorChannel, [Option<ColorChannel>; 4], "Colour channels.";
    8 amb_colors: Rgba8, [Option<Rgba8>; 2], "Ambient colours.";
    9 lights: Rgba8, [Option<Rgba8>; 8], "Light colours.";
    10 tex_gen_count: u8, Option<u8>, "Tex-gen count.";
    11 tex_gens: TexCoordGen, [Option<TexCoordGen>; 8], "Tex coord gens.";
    12 post_tex_gens: TexCoordGen, [Option<TexCoordGen>; 8], "Post tex coord gens.";
    13 tex_mtx: TexMatrix, [Option<TexMatrix>; 10], "Tex matrices.";
    14 post_tex_mtx: TexMatrix, [Option<TexMatrix>; 20], "Post tex matrices.";
    15 textures: u16, [Option<u16>; 8], "Texture numbers (TEX1 indices).";
    16 tev_orders: TevOrder, [Option<TevOrder>; 16], "TEV orders.";
    17 tev_colors: TevColor, [Option<TevColor>; 4], "TEV colours.";
    18 konst_colors: Rgba8, [Option<Rgba8>; 4], "TEV konst colours.";
    19 tev_count: u8, Option<u8>, "TEV stage count.";
    20 tev_stages: TevStage, [Option<TevStage>; 16], "TEV stages.";
    21 swap_modes: SwapMode, [Option<SwapMode>; 16], "TEV swap modes.";
    22 swap_tables: SwapTable, [Option<SwapTable>; 4], "TEV swap tables.";
    23 fog: Fog, Option<Fog>, "Fog.";
    24 alpha_compare: AlphaCompare, Option<AlphaCompare>, "Alpha compare.";
    25 blend: Blend, Option<Blend>, "Blend mode.";
    26 z_mode: ZMode, Option<ZMode>, "Z mode.";
    27 z_comp_loc: u8, Option<u8>, "Z-compare location (1 = before texturing).";
    28 dither: u8, Option<u8>, "Dither.";
    29 nbt_scale: NbtScale, Option<NbtScale>, "NBT scale.";
}

/// Zero-copy MAT3: header offsets and on-demand entries and values.
#[derive(Debug, Clone, Copy)]
pub struct Mat3View<'a> {
    r: Reader<'a>,
    offsets: [usize; TABLE_COUNT],
    limits: Limits,
}

impl<'a> Mat3View<'a> {
    /// Reads the chunk `r` (header only) with the default [`Limits`].
    pub fn parse(r: Reader<'a>) -> Result<Self> {
        Self::parse_with(r, &Limits::default())
    }

    /// Reads the chunk `r` (header only); `limits` bound the tables read from the view and by
    /// [`Mat3::from_view`].
    pub fn parse_with(r: Reader<'a>, limits: &Limits) -> Result<Self> {
        r.expect_magic(0, b"MAT3").context("MAT3")?;
        r.bytes(0, HEADER).context("MAT3 header")?;
        let mut offsets = [0; TABLE_COUNT];
        for (i, o) in offsets.iter_mut().enumerate() {
            *o = r.u32(0x0C + 4 * i).context("MAT3 header")? as usize;
        }
        Ok(Mat3View {
            r,
            offsets,
            limits: *limits,
        })
    }

    /// The chunk's bytes.
    pub fn reader(&self) -> Reader<'a> {
        self.r
    }

    /// Material count.
    pub fn len(&self) -> usize {
        usize::from(self.r.u16(8).unwrap_or(0))
    }

    /// True without materials.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Offset of table `id` (0 = absent), relative to the chunk.
    pub fn offset(&self, id: usize) -> usize {
        self.offsets.get(id).copied().unwrap_or(0)
    }

    /// Entry index of material `i`.
    pub fn remap(&self, i: usize) -> Result<u16> {
        self.r
            .u16(self.offset(1) + 2 * i)
            .with_context(|| format!("MAT3 > remap {i}"))
    }

    /// Material entry `i` (an entry index, see [`Mat3View::remap`]).
    pub fn entry(&self, i: usize) -> Result<MaterialEntry> {
        MaterialEntry::read(&self.r, self.offset(0) + i * MaterialEntry::SIZE)
            .with_context(|| format!("MAT3 > entry {i}"))
    }

    /// Element `i` of value table `id` read as `T`.
    pub fn value<T: Record>(&self, id: usize, i: usize) -> Result<T> {
        T::read(&self.r, self.offset(id) + i * T::SIZE)
            .with_context(|| format!("MAT3 > {} {i}", TABLE_NAMES.get(id).unwrap_or(&"?")))
    }

    /// The material name table, when present.
    pub fn names(&self) -> Option<Result<NameTable>> {
        let o = self.offset(2);
        (o != 0).then(|| NameTable::parse_with(self.r, o, &self.limits).context("MAT3"))
    }
}

/// Owned MAT3.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mat3 {
    /// The u16 at 0x0A (0xFFFF).
    pub marker: u16,
    /// Material entries (unique, shared through `remap`).
    pub entries: Option<Vec<MaterialEntry>>,
    /// Entry index per material; its length is the material count.
    pub remap: Option<Vec<u16>>,
    /// Material names.
    pub names: Option<NameTable>,
    /// Indirect texturing, one block per material.
    pub indirect: Option<Vec<IndirectEntry>>,
    /// The value tables (boxed: they are large and chunks move by value).
    pub tables: Box<Tables>,
    /// Table ids in the order their data is written; an empty table's offset is the position where
    /// it appears in this order (i.e. the next table's offset). Absent tables are not listed.
    pub order: Vec<u8>,
    /// Padding style.
    pub pad: Pad,
    /// Table alignment (4 in Nintendo's files).
    pub align: u8,
    /// Alignment after the name table when it differs from `align` (SuperBMD pads the names to 8).
    /// Detected on parsing: the name table is the one table whose length is stored.
    pub name_align: Option<u8>,
}

impl Mat3 {
    /// Material count.
    pub fn len(&self) -> usize {
        self.remap.as_ref().map_or(0, Vec::len)
    }

    /// True without materials.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether table `id` is present (non-zero offset).
    pub fn has_table(&self, id: usize) -> bool {
        match id {
            0 => self.entries.is_some(),
            1 => self.remap.is_some(),
            2 => self.names.is_some(),
            3 => self.indirect.is_some(),
            _ => self.tables.present(id),
        }
    }

    fn table_is_empty(&self, id: usize) -> bool {
        match id {
            0 => self.entries.as_ref().is_none_or(Vec::is_empty),
            1 => self.remap.as_ref().is_none_or(Vec::is_empty),
            2 => self.names.is_none(),
            3 => self.indirect.as_ref().is_none_or(Vec::is_empty),
            _ => self.tables.is_empty(id),
        }
    }

    /// Material `i` with its values resolved; indices past a table resolve to `None`.
    pub fn material(&self, i: usize) -> Option<Material> {
        let ei = usize::from(*self.remap.as_ref()?.get(i)?);
        let e = self.entries.as_ref()?.get(ei)?;
        let mut m = Material {
            name: self
                .names
                .as_ref()
                .and_then(|n| n.entries.get(i))
                .map(|n| n.name.clone())
                .unwrap_or_default(),
            mode: e.mode,
            konst_color_sel: e.konst_color_sel,
            konst_alpha_sel: e.konst_alpha_sel,
            unknown: e.unknown,
            indirect: self.indirect.as_ref().and_then(|t| t.get(i)).copied(),
            ..Material::default()
        };
        self.tables.resolve(e, &mut m);
        Some(m)
    }

    /// Every material, resolved.
    pub fn materials(&self) -> Vec<Material> {
        (0..self.len()).filter_map(|i| self.material(i)).collect()
    }

    /// Builds a chunk as Nintendo's tools do: values deduplicated per table in first-use order,
    /// the cull list pre-seeded Back, Front, None, the z-compare and dither lists pre-seeded
    /// false, true; identical entries shared through the remap table; empty post-texgen and
    /// post-texmatrix tables at offset 0, other empty tables at the next table's offset; the
    /// indirect table present when any material has one (others get a disabled block).
    pub fn from_materials(materials: &[Material]) -> Result<Self> {
        let mut tables = Tables {
            cull: Some(vec![cull::BACK, cull::FRONT, cull::NONE]),
            z_comp_loc: Some(vec![0, 1]),
            dither: Some(vec![0, 1]),
            ..Tables::default()
        };
        let mut entries: Vec<MaterialEntry> = Vec::new();
        let mut remap = Vec::with_capacity(materials.len());
        for (i, m) in materials.iter().enumerate() {
            let mut e = MaterialEntry {
                mode: m.mode,
                konst_color_sel: m.konst_color_sel,
                konst_alpha_sel: m.konst_alpha_sel,
                unknown: m.unknown,
                ..MaterialEntry::default()
            };
            tables
                .dedup(m, &mut e)
                .with_context(|| format!("material {i}"))?;
            remap.push(u16_of(intern(&mut entries, &e), "MAT3 entry count")?);
        }
        for id in [12, 14] {
            if tables.is_empty(id) {
                match id {
                    12 => tables.post_tex_gens = None,
                    _ => tables.post_tex_mtx = None,
                }
            }
        }
        let indirect = materials.iter().any(|m| m.indirect.is_some()).then(|| {
            materials
                .iter()
                .map(|m| m.indirect.unwrap_or_default())
                .collect()
        });
        let mut m = Mat3 {
            marker: 0xFFFF,
            entries: Some(entries),
            remap: Some(remap),
            names: Some(NameTable::new(materials.iter().map(|m| m.name.as_slice()))),
            indirect: indirect.or(Some(vec![])),
            tables: Box::new(tables),
            order: vec![],
            pad: Pad::Nintendo,
            align: 4,
            name_align: None,
        };
        m.order = (0..TABLE_COUNT as u8)
            .filter(|&id| m.has_table(usize::from(id)))
            .collect();
        Ok(m)
    }

    /// Replaces the materials, re-deduplicating every table (layout and padding style kept).
    pub fn set_materials(&mut self, materials: &[Material]) -> Result<()> {
        let (pad, align, name_align) = (self.pad, self.align, self.name_align);
        *self = Mat3 {
            pad,
            align,
            name_align,
            ..Mat3::from_materials(materials)?
        };
        Ok(())
    }

    /// Copies a view. Table lengths come from the distance to the next table; entries past the
    /// last referenced one count only while the bytes after them are not this style's padding.
    pub fn from_view(v: &Mat3View<'_>, pad: Pad, align: u8) -> Result<Self> {
        let r = v.r;
        let count = v.len();
        let marker = r.u16(0x0A).context("MAT3")?;
        // File order: by offset; among tables sharing an offset all but the last are empty. The
        // name table is never empty (it has a header), so it sorts last among its peers.
        let mut present: Vec<(usize, usize)> = (0..TABLE_COUNT)
            .filter(|&id| v.offset(id) != 0)
            .map(|id| (v.offset(id), id))
            .collect();
        present.sort_unstable_by_key(|&(o, id)| (o, id == 2, id));
        let bounds = |k: usize| -> (usize, usize, bool) {
            let (o, _) = present.get(k).copied().unwrap_or_default();
            // Offsets past the chunk do not stretch a table beyond the data.
            let next = present.iter().skip(k + 1).map(|p| p.0).find(|&n| n > o);
            let next = next.filter(|&n| n <= r.len());
            (o, next.unwrap_or(r.len()), next.is_none())
        };
        let mut m = Mat3 {
            marker,
            pad,
            align,
            order: present.iter().map(|p| p.1 as u8).collect(),
            ..Mat3::default()
        };
        // The remap first: it bounds the entries.
        if v.offset(1) != 0 {
            m.remap = Some(read_vec(&r, v.offset(1), count, &v.limits).context("MAT3 > remap")?);
        }
        let mut need = [0usize; TABLE_COUNT];
        need[0] = m
            .remap
            .iter()
            .flatten()
            .map(|&i| usize::from(i) + 1)
            .max()
            .unwrap_or(0);
        need[3] = count;
        let empty = |k: usize| {
            present
                .get(k + 1)
                .is_some_and(|n| Some(n.0) == present.get(k).map(|p| p.0))
        };
        let fit = |o: usize, end: usize, last: bool, size: usize, min: usize| -> usize {
            let max = (end.saturating_sub(o)) / size.max(1);
            (min.min(max)..=max)
                .find(|&n| gap_is_padding(r.data(), o + n * size, end, last, pad, align))
                .unwrap_or(max)
        };
        for k in 0..present.len() {
            let (o, end, last) = bounds(k);
            let id = present.get(k).map_or(0, |p| p.1);
            let ctx = || format!("MAT3 > {}", TABLE_NAMES.get(id).unwrap_or(&"?"));
            let is_empty = empty(k);
            match id {
                0 => {
                    let n = if is_empty {
                        0
                    } else {
                        fit(o, end, last, MaterialEntry::SIZE, need[0])
                    };
                    let e: Vec<MaterialEntry> = read_vec(&r, o, n, &v.limits).with_context(ctx)?;
                    for e in &e {
                        Tables::scan(e, &mut need);
                    }
                    m.entries = Some(e);
                }
                1 => {}
                2 => {
                    let names = NameTable::parse_with(r, o, &v.limits).with_context(ctx)?;
                    let name_end = o + names.byte_len();
                    let found = gap_align(name_end, end, align, align).filter(|a| *a != align);
                    m.name_align = found.filter(|_| !last);
                    m.names = Some(names);
                }
                3 => {
                    let n = if is_empty {
                        0
                    } else {
                        fit(o, end, last, IndirectEntry::SIZE, need[3])
                    };
                    m.indirect = Some(read_vec(&r, o, n, &v.limits).with_context(ctx)?);
                }
                _ => {}
            }
        }
        // Value tables after the entries told how much of each is referenced.
        for k in 0..present.len() {
            let (o, end, last) = bounds(k);
            let id = present.get(k).map_or(0, |p| p.1);
            let Some(size) = Tables::elem_size(id) else {
                continue;
            };
            let n = if empty(k) {
                0
            } else {
                fit(o, end, last, size, need.get(id).copied().unwrap_or(0))
            };
            m.tables
                .read(id, &r, o, n, &v.limits)
                .with_context(|| format!("MAT3 > {}", TABLE_NAMES.get(id).unwrap_or(&"?")))?;
        }
        Ok(m)
    }

    /// Writes the chunk: header, then the tables in `order`, each padded to `align`.
    pub fn write(&self) -> Result<Vec<u8>> {
        write_chunk(*b"MAT3", self.pad, |w: &mut Writer| {
            w.u16(u16_of(self.len(), "MAT3 count")?).u16(self.marker);
            let slots: Vec<gcio::Fixup> = (0..TABLE_COUNT).map(|_| w.reserve_u32()).collect();
            let mut seen = [false; TABLE_COUNT];
            for &id in &self.order {
                let id = usize::from(id);
                let (Some(slot), Some(s)) = (slots.get(id), seen.get_mut(id)) else {
                    return Err(Error::invalid(
                        0,
                        format!("MAT3 table id {id} out of range"),
                    ));
                };
                if std::mem::replace(s, true) || !self.has_table(id) {
                    return Err(Error::invalid(
                        0,
                        format!("MAT3 order lists table {id} twice or while absent"),
                    ));
                }
                w.fix_here(*slot)?;
                if self.table_is_empty(id) && id != 2 {
                    continue;
                }
                match id {
                    0 => self.entries.iter().flatten().for_each(|e| e.write(w)),
                    1 => self.remap.iter().flatten().for_each(|e| e.write(w)),
                    2 => {
                        if let Some(n) = &self.names {
                            n.write(w)?;
                        }
                    }
                    3 => self.indirect.iter().flatten().for_each(|e| e.write(w)),
                    _ => self.tables.write(id, w),
                }
                let align = match id {
                    2 => self.name_align.unwrap_or(self.align),
                    _ => self.align,
                };
                self.pad.align(w, usize::from(align));
            }
            let missing = (0..TABLE_COUNT)
                .zip(seen)
                .find(|&(id, s)| !s && self.has_table(id));
            if let Some((id, _)) = missing {
                return Err(Error::invalid(
                    0,
                    format!("MAT3 table {id} is present but not in the order"),
                ));
            }
            Ok(())
        })
        .context("MAT3")
    }
}

/// Whether the bytes from `from` to `end` are what the writer emits there: alignment padding to
/// `align`, plus (for the last table) the chunk's padding to 32.
fn gap_is_padding(data: &[u8], from: usize, end: usize, last: bool, pad: Pad, align: u8) -> bool {
    let Some(gap) = data.get(from..end) else {
        return false;
    };
    let a = gcio::padding_for(from, usize::from(align.max(1)));
    if gap.len() < a || !pad.matches(gap.get(..a).unwrap_or_default()) {
        return false;
    }
    let rest = gap.get(a..).unwrap_or_default();
    if !last {
        return rest.is_empty();
    }
    rest.len() == gcio::padding_for(from + a, CHUNK_ALIGN) && pad.matches(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_sizes() {
        assert_eq!(MaterialEntry::SIZE, 0x14C);
        assert_eq!(IndirectEntry::SIZE, 0x138);
        assert_eq!(TexMatrix::SIZE, 0x64);
        assert_eq!(Fog::SIZE, 0x2C);
        assert_eq!(TevStage::SIZE, 0x14);
        assert_eq!(NbtScale::SIZE, 0x10);
        assert_eq!(HEADER, 0x84);
    }
}
