//! The owned model: the frame and the sections in file order, each typed (layout, texture and
//! font lists, materials, panes, nesting markers, groups) or kept as bytes when its magic is
//! unknown or its layout is not the one the writer produces. Offsets, counts and sizes are
//! derived by the writer; the pane tree is derived from the order ([`crate::tree`]).

use gcio::{Context, Cursor, Error, F32, Reader, Result};

use crate::frame::{Frame, SECTION_HEADER, SectionRef};
use crate::json::Name;

/// File magic.
pub const MAGIC: [u8; 4] = *b"RLYT";
/// Bytes of a `pan1` section (header and pane record); the other panes start with it.
pub const PANE_SIZE: usize = 0x4C;

/// A colour as the file stores it: red, green, blue, alpha.
pub type Rgba = [u8; 4];
/// Texture coordinates of one quad: top left, top right, bottom left, bottom right (s, t).
pub type TexCoords = [[F32; 2]; 4];

/// A layout.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Brlyt {
    /// What of the file header is not derived.
    pub frame: Frame,
    /// The sections in file order.
    pub sections: Vec<Section>,
}

/// One section.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum Section {
    /// `lyt1`: the screen.
    Layout(Layout),
    /// `txl1`: texture file names; materials index them.
    Textures(Vec<Name>),
    /// `fnl1`: font file names; text panes index them.
    Fonts(Vec<Name>),
    /// `mat1`: materials; panes index them.
    Materials(Vec<Material>),
    /// `pan1`: a null pane (a transform node).
    Pane(Pane),
    /// `pic1`: a textured quad.
    Picture(Picture),
    /// `txt1`: a text box.
    Text(Text),
    /// `wnd1`: a window (content and frames).
    Window(Window),
    /// `bnd1`: a bounding pane (hit area, not drawn).
    Bounding(Pane),
    /// `pas1`: the following panes are children of the pane before.
    PaneStart,
    /// `pae1`: back up one level.
    PaneEnd,
    /// `grp1`: a named group of panes.
    Group(Group),
    /// `grs1`: the following groups are children of the group before.
    GroupStart,
    /// `gre1`: back up one level.
    GroupEnd,
    /// A section kept as bytes: unknown magic (`usd1` included), or a known one whose layout
    /// is not the writer's (the validator says which).
    Raw(Raw),
}

/// A section kept as bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Raw {
    /// Its magic.
    pub magic: Name,
    /// The bytes after its 8-byte header.
    #[cfg_attr(feature = "json", serde(with = "crate::json::hex"))]
    pub body: Vec<u8>,
}

/// `lyt1`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Layout {
    /// Non-zero: the origin is the screen centre (every real file), else its top left.
    pub centered: u8,
    /// Bytes after the origin flag.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: [u8; 3],
    /// Screen width and height.
    pub size: [F32; 2],
}

/// The record every pane starts with (`pan1`, 0x4C bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Pane {
    /// Bit 0 visible, bit 1 children take its alpha, bit 2 position adjusted to the screen.
    pub flags: u8,
    /// Base position (anchor): `x + 3 * y`, x and y each 0 left/top, 1 centre, 2 right/bottom.
    pub origin: u8,
    /// Alpha.
    pub alpha: u8,
    /// Byte after the alpha.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: u8,
    /// Name (16 bytes; animations and groups find the pane by it).
    pub name: Name,
    /// User data (8 bytes).
    pub user_data: Name,
    /// Translation x, y, z.
    pub translate: [F32; 3],
    /// Rotation about x, y, z in degrees.
    pub rotate: [F32; 3],
    /// Scale x, y.
    pub scale: [F32; 2],
    /// Width and height.
    pub size: [F32; 2],
}

impl Pane {
    /// Bit 0 of the flags.
    pub fn visible(&self) -> bool {
        self.flags & 1 != 0
    }
}

/// `pic1`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Picture {
    /// The pane record.
    pub pane: Pane,
    /// Vertex colours: top left, top right, bottom left, bottom right.
    pub vertex_colors: [Rgba; 4],
    /// Index into the materials.
    pub material: u16,
    /// Byte after the coordinate count.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: u8,
    /// One coordinate set per texture coordinate generator.
    pub tex_coords: Vec<TexCoords>,
}

/// `txt1`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Text {
    /// The pane record.
    pub pane: Pane,
    /// Bytes the game reserves for the string (at least the stored string's).
    pub buffer_bytes: u16,
    /// Index into the materials.
    pub material: u16,
    /// Index into the font list.
    pub font: u16,
    /// Text position in the box: `x + 3 * y` like a pane's origin.
    pub position: u8,
    /// Line alignment: 0 as the position says, 1 left, 2 centre, 3 right.
    pub alignment: u8,
    /// Bytes after the alignment.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: [u8; 2],
    /// Top and bottom text colours.
    pub colors: [Rgba; 2],
    /// Glyph width and height.
    pub font_size: [F32; 2],
    /// Extra space between characters.
    pub char_space: F32,
    /// Extra space between lines.
    pub line_space: F32,
    /// The UTF-16 string without its terminating NUL; `None` when the pane stores none (JSON:
    /// text, or the code units when they are not valid UTF-16).
    #[cfg_attr(feature = "json", serde(with = "crate::json::utf16"))]
    pub text: Option<Vec<u16>>,
    /// The stored string has no terminating NUL (its byte count stops before it).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub unterminated: bool,
    /// The bytes after the string to the section end when they are not the zeros that pad it
    /// to 4 bytes (kept; `None` derives the padding).
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::json::hex_opt"
        )
    )]
    pub tail: Option<Vec<u8>>,
}

impl Text {
    /// The string as Rust text (unpaired surrogates replaced).
    pub fn string(&self) -> String {
        String::from_utf16_lossy(self.text.as_deref().unwrap_or_default())
    }
}

/// `wnd1`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Window {
    /// The pane record.
    pub pane: Pane,
    /// How far the content reaches past the pane: left, right, top, bottom.
    pub inflation: [F32; 4],
    /// Bytes after the frame count.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: [u8; 3],
    /// The content quad.
    pub content: WindowContent,
    /// The frames (corner pieces: 1, 4 or 8).
    pub frames: Vec<WindowFrame>,
}

/// A window's content quad.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct WindowContent {
    /// Vertex colours.
    pub vertex_colors: [Rgba; 4],
    /// Index into the materials.
    pub material: u16,
    /// Byte after the coordinate count.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: u8,
    /// Texture coordinate sets.
    pub tex_coords: Vec<TexCoords>,
}

/// A window frame piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct WindowFrame {
    /// Index into the materials.
    pub material: u16,
    /// Texture flip: 0 none, 1 horizontal, 2 vertical, 3–5 rotations of 90, 180, 270 degrees.
    pub flip: u8,
    /// Byte after the flip.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: u8,
}

/// `grp1`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Group {
    /// Name (16 bytes).
    pub name: Name,
    /// Bytes after the pane count.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: [u8; 2],
    /// Names of the member panes (16 bytes each).
    pub panes: Vec<Name>,
}

/// A material (`mat1` entry): a 0x40-byte head, then the lists its flags word counts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Material {
    /// Name (20 bytes; animations find the material by it).
    pub name: Name,
    /// TEV colour registers 1–3 (signed 10-bit components).
    pub tev_colors: [[i16; 4]; 3],
    /// TEV constant colours.
    pub tev_kcolors: [Rgba; 4],
    /// Bits of the flags word that count nothing (26, 28–31).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub extra_flags: u32,
    /// Texture maps.
    pub tex_maps: Vec<TexMap>,
    /// Texture matrices.
    pub tex_srts: Vec<TexSrt>,
    /// Texture coordinate generators.
    pub tex_coord_gens: Vec<TexCoordGen>,
    /// Channel control.
    pub chan_ctrl: Option<ChanCtrl>,
    /// Material colour.
    pub mat_color: Option<Rgba>,
    /// TEV swap table: four entries of 2-bit red, green, blue, alpha selectors.
    pub tev_swap: Option<[u8; 4]>,
    /// Indirect texture matrices.
    pub ind_srts: Vec<TexSrt>,
    /// Indirect stages.
    pub ind_stages: Vec<IndStage>,
    /// TEV stages.
    pub tev_stages: Vec<TevStage>,
    /// Alpha compare.
    pub alpha_compare: Option<AlphaCompare>,
    /// Blend mode.
    pub blend_mode: Option<BlendMode>,
}

/// Flag bits that count nothing.
pub const EXTRA_FLAGS: u32 = 1 << 26 | 0xF000_0000;

/// A texture map: which texture and how it wraps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct TexMap {
    /// Index into the texture list.
    pub texture: u16,
    /// Wrap in s (low 2 bits: 0 clamp, 1 repeat, 2 mirror).
    pub wrap_s: u8,
    /// Wrap in t.
    pub wrap_t: u8,
}

/// A texture matrix as translation, rotation, scale (20 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct TexSrt {
    /// Translation s, t.
    pub translate: [F32; 2],
    /// Rotation in degrees.
    pub rotate: F32,
    /// Scale s, t.
    pub scale: [F32; 2],
}

/// A texture coordinate generator (GX `GXSetTexCoordGen` arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct TexCoordGen {
    /// Generation type (1 = 2×4 matrix).
    pub kind: u8,
    /// Source (4 = texture coordinate 0).
    pub source: u8,
    /// Matrix (0x1E = texture matrix 0, 60 = identity).
    pub matrix: u8,
    /// Byte after the matrix.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: u8,
}

/// Channel control: where vertex colour and alpha come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct ChanCtrl {
    /// Colour source (0 register, 1 vertex).
    pub color_source: u8,
    /// Alpha source.
    pub alpha_source: u8,
    /// Bytes after them.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "crate::json::is_zero")
    )]
    pub pad: [u8; 2],
}

/// An indirect stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct IndStage {
    /// Texture coordinate generator.
    pub tex_coord_gen: u8,
    /// Texture map.
    pub tex_map: u8,
    /// Scale in s.
    pub scale_s: u8,
    /// Scale in t.
    pub scale_t: u8,
}

/// A TEV stage (16 bytes, GX fields packed as the files store them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct TevStage {
    /// Texture coordinate generator (0xFF none).
    pub tex_coord_gen: u8,
    /// Colour channel (0xFF none).
    pub color_channel: u8,
    /// Texture map (0xFF none).
    pub tex_map: u8,
    /// Raster swap (bits 1–2) and texture swap (bits 3–4) selectors.
    pub swap_sel: u8,
    /// Colour inputs a/b, c/d (4 bits each), operation, clamp/scale/output.
    pub color_in: [u8; 4],
    /// Alpha inputs, operation, clamp/scale/output.
    pub alpha_in: [u8; 4],
    /// Indirect stage.
    pub ind_stage: u8,
    /// Indirect bias and matrix.
    pub ind_bias_matrix: u8,
    /// Indirect wrap s and t.
    pub ind_wrap: u8,
    /// Indirect format, add previous, unmodified LOD, alpha select.
    pub ind_flags: u8,
}

/// One combiner of a [`TevStage`] (its colour or its alpha half) with the packed fields
/// decoded (`nw4r::lyt` `res::TevStage`: inputs a/b and c/d four bits each, then
/// `op | bias << 4 | scale << 6`, then `clamp | out register << 1 | konst selection << 3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Combiner {
    /// Inputs a, b, c, d (`GXTevColorArg` / `GXTevAlphaArg`): `d ± (a·(1 − c) + b·c)`.
    pub args: [u8; 4],
    /// Operation (`GXTevOp`: 0 add, 1 subtract, 8… compares).
    pub op: u8,
    /// Bias (`GXTevBias`: 0 zero, 1 +½, 2 −½).
    pub bias: u8,
    /// Scale (`GXTevScale`: 0 ×1, 1 ×2, 2 ×4, 3 ×½).
    pub scale: u8,
    /// Clamp the result to 0…1.
    pub clamp: bool,
    /// Output register (`GXTevRegID`: 0 PREV, 1–3 REG0–2).
    pub out: u8,
    /// Konstant selection (`GXTevKColorSel` / `GXTevKAlphaSel`).
    pub konst: u8,
}

impl Combiner {
    fn unpack([ab, cd, op, cl]: [u8; 4]) -> Combiner {
        Combiner {
            args: [ab & 15, ab >> 4, cd & 15, cd >> 4],
            op: op & 15,
            bias: (op >> 4) & 3,
            scale: op >> 6,
            clamp: cl & 1 != 0,
            out: (cl >> 1) & 3,
            konst: cl >> 3,
        }
    }
}

impl TevStage {
    /// The colour combiner, decoded.
    pub fn color(&self) -> Combiner {
        Combiner::unpack(self.color_in)
    }

    /// The alpha combiner, decoded.
    pub fn alpha(&self) -> Combiner {
        Combiner::unpack(self.alpha_in)
    }

    /// The raster swap table (0–3) the stage's colour channel goes through.
    pub fn ras_swap(&self) -> u8 {
        (self.swap_sel >> 1) & 3
    }

    /// The texture swap table (0–3) the stage's texel goes through.
    pub fn tex_swap(&self) -> u8 {
        (self.swap_sel >> 3) & 3
    }
}

/// Alpha compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct AlphaCompare {
    /// Comparison 0 (low 4 bits) and 1 (high 4 bits).
    pub comp: u8,
    /// How the two combine (0 and, 1 or, 2 xor, 3 xnor).
    pub op: u8,
    /// Reference of comparison 0.
    pub ref0: u8,
    /// Reference of comparison 1.
    pub ref1: u8,
}

/// Blend mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct BlendMode {
    /// 0 none, 1 blend, 2 logic, 3 subtract.
    pub kind: u8,
    /// Source factor.
    pub src: u8,
    /// Destination factor.
    pub dst: u8,
    /// Logic operation.
    pub op: u8,
}

impl Brlyt {
    /// Parses `data` into the owned model with the default [`gcio::Limits`].
    pub fn parse(data: &[u8]) -> Result<Brlyt> {
        Brlyt::parse_with(data, &gcio::Limits::default())
    }

    /// Parses `data` into the owned model; `limits` bound the copied bytes.
    pub fn parse_with(data: &[u8], limits: &gcio::Limits) -> Result<Brlyt> {
        Brlyt::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view.
    pub fn from_view(v: &crate::View<'_>, limits: &gcio::Limits) -> Result<Brlyt> {
        limits.check_alloc(v.data_len as u64, 1, 0)?;
        Ok(Brlyt {
            frame: v.frame.to_frame(v.data_len),
            sections: v.frame.sections.iter().map(|s| decode(s).0).collect(),
        })
    }

    /// Parts kept as bytes rather than structure (raw sections, the header's extra bytes, the
    /// trailer), named like every model's `raw_parts()` in the workspace.
    pub fn raw_parts(&self) -> Vec<String> {
        self.frame.raw_parts(
            self.sections
                .iter()
                .enumerate()
                .filter_map(|(i, s)| match s {
                    Section::Raw(r) => Some((i, r)),
                    _ => None,
                }),
        )
    }

    /// The list of the first section `pick` takes (empty without one).
    fn list<T>(&self, pick: fn(&Section) -> Option<&Vec<T>>) -> &[T] {
        self.sections
            .iter()
            .find_map(pick)
            .map_or(&[], Vec::as_slice)
    }

    /// The texture file names (`txl1`; empty without one).
    pub fn textures(&self) -> &[Name] {
        self.list(|s| match s {
            Section::Textures(t) => Some(t),
            _ => None,
        })
    }

    /// The font file names (`fnl1`).
    pub fn fonts(&self) -> &[Name] {
        self.list(|s| match s {
            Section::Fonts(t) => Some(t),
            _ => None,
        })
    }

    /// The materials (`mat1`).
    pub fn materials(&self) -> &[Material] {
        self.list(|s| match s {
            Section::Materials(t) => Some(t),
            _ => None,
        })
    }

    /// The layout record (`lyt1`).
    pub fn layout(&self) -> Option<&Layout> {
        self.sections.iter().find_map(|s| match s {
            Section::Layout(l) => Some(l),
            _ => None,
        })
    }
}

impl Section {
    /// The pane record of a pane section.
    pub fn pane(&self) -> Option<&Pane> {
        match self {
            Section::Pane(p) | Section::Bounding(p) => Some(p),
            Section::Picture(p) => Some(&p.pane),
            Section::Text(t) => Some(&t.pane),
            Section::Window(w) => Some(&w.pane),
            _ => None,
        }
    }

    /// The section's magic.
    pub fn magic(&self) -> [u8; 4] {
        match self {
            Section::Layout(_) => *b"lyt1",
            Section::Textures(_) => *b"txl1",
            Section::Fonts(_) => *b"fnl1",
            Section::Materials(_) => *b"mat1",
            Section::Pane(_) => *b"pan1",
            Section::Picture(_) => *b"pic1",
            Section::Text(_) => *b"txt1",
            Section::Window(_) => *b"wnd1",
            Section::Bounding(_) => *b"bnd1",
            Section::PaneStart => *b"pas1",
            Section::PaneEnd => *b"pae1",
            Section::Group(_) => *b"grp1",
            Section::GroupStart => *b"grs1",
            Section::GroupEnd => *b"gre1",
            Section::Raw(r) => {
                let mut m = [0; 4];
                for (d, s) in m.iter_mut().zip(&r.magic.0) {
                    *d = *s;
                }
                m
            }
        }
    }
}

/// Why a section is kept as bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Kept {
    /// Typed.
    No,
    /// Its magic is not one of the layout sections.
    Unknown,
    /// A known section that does not parse (the error).
    Broken(Error),
    /// A known section that parses but is not laid out as the writer lays it out.
    Layout,
}

/// Decodes one section: typed when it parses and the writer gives its bytes back, else kept.
pub(crate) fn decode(s: &SectionRef<'_>) -> (Section, Kept) {
    let raw = || {
        Section::Raw(Raw {
            magic: Name(s.magic.to_vec()),
            body: s.bytes.get(SECTION_HEADER..).unwrap_or_default().to_vec(),
        })
    };
    match typed(s) {
        None => (raw(), Kept::Unknown),
        Some(Err(e)) => (raw(), Kept::Broken(e)),
        Some(Ok(t)) if crate::write::encode(&t).ok().as_deref() == Some(s.bytes) => (t, Kept::No),
        Some(Ok(_)) => (raw(), Kept::Layout),
    }
}

/// The typed form of a section as the loader reads it, whatever its layout (`None` for a
/// magic the loader does not read).
pub(crate) fn typed(s: &SectionRef<'_>) -> Option<Result<Section>> {
    let r = Reader::with_base(s.bytes, s.offset as u64);
    let typed = match &s.magic {
        b"lyt1" => layout(&r).map(Section::Layout),
        b"txl1" => names(&r).map(Section::Textures),
        b"fnl1" => names(&r).map(Section::Fonts),
        b"mat1" => materials(&r).map(Section::Materials),
        b"pan1" => pane(&r).map(Section::Pane),
        b"bnd1" => pane(&r).map(Section::Bounding),
        b"pic1" => picture(&r).map(Section::Picture),
        b"txt1" => text(&r).map(Section::Text),
        b"wnd1" => window(&r).map(Section::Window),
        b"grp1" => group(&r).map(Section::Group),
        b"pas1" => Ok(Section::PaneStart),
        b"pae1" => Ok(Section::PaneEnd),
        b"grs1" => Ok(Section::GroupStart),
        b"gre1" => Ok(Section::GroupEnd),
        _ => return None,
    };
    let name = String::from_utf8_lossy(&s.magic).into_owned();
    Some(typed.map_err(|e| e.context(format!("`{name}` at {:#x}", s.offset))))
}

fn f32s<const N: usize>(c: &mut Cursor<'_>) -> Result<[F32; N]> {
    let mut out = [F32::default(); N];
    for v in &mut out {
        *v = F32::from_bits(c.u32()?);
    }
    Ok(out)
}

fn array<const N: usize>(c: &mut Cursor<'_>) -> Result<[u8; N]> {
    let mut out = [0; N];
    out.copy_from_slice(c.bytes(N)?);
    Ok(out)
}

fn layout(r: &Reader<'_>) -> Result<Layout> {
    let mut c = r.cursor(SECTION_HEADER);
    Ok(Layout {
        centered: c.u8()?,
        pad: array(&mut c)?,
        size: f32s(&mut c)?,
    })
}

/// `txl1`/`fnl1`: a count, (offset from the table, reserved word) per name, the names.
fn names(r: &Reader<'_>) -> Result<Vec<Name>> {
    let count = usize::from(r.u16(SECTION_HEADER).context("name count")?);
    let table = SECTION_HEADER + 4;
    let mut out = Vec::with_capacity(count.min(r.len() / 8));
    for i in 0..count {
        let off = r.u32(table + 8 * i).with_context(|| format!("name {i}"))? as usize;
        let at = table
            .checked_add(off)
            .ok_or_else(|| Error::invalid(r.abs(table + 8 * i), "name offset overflows"))?;
        out.push(Name(
            r.cstr(at).with_context(|| format!("name {i}"))?.to_vec(),
        ));
    }
    Ok(out)
}

fn pane_at(c: &mut Cursor<'_>) -> Result<Pane> {
    Ok(Pane {
        flags: c.u8()?,
        origin: c.u8()?,
        alpha: c.u8()?,
        pad: c.u8()?,
        name: Name::from_field(c.bytes(16)?),
        user_data: Name::from_field(c.bytes(8)?),
        translate: f32s(c)?,
        rotate: f32s(c)?,
        scale: f32s(c)?,
        size: f32s(c)?,
    })
}

fn pane(r: &Reader<'_>) -> Result<Pane> {
    pane_at(&mut r.cursor(SECTION_HEADER)).context("pane")
}

fn colors<const N: usize>(c: &mut Cursor<'_>) -> Result<[Rgba; N]> {
    let mut out = [[0; 4]; N];
    for v in &mut out {
        *v = array(c)?;
    }
    Ok(out)
}

/// Vertex colours, material, coordinate count, pad, coordinates (pictures, window content).
fn quad(c: &mut Cursor<'_>) -> Result<([Rgba; 4], u16, u8, Vec<TexCoords>)> {
    let vc = colors(c)?;
    let material = c.u16()?;
    let n = c.u8()?;
    let pad = c.u8()?;
    let mut coords = Vec::with_capacity(usize::from(n).min(c.remaining() / 32));
    for _ in 0..n {
        let mut q = [[F32::default(); 2]; 4];
        for p in &mut q {
            *p = f32s(c)?;
        }
        coords.push(q);
    }
    Ok((vc, material, pad, coords))
}

fn picture(r: &Reader<'_>) -> Result<Picture> {
    let mut c = r.cursor(SECTION_HEADER);
    let pane = pane_at(&mut c).context("pane")?;
    let (vertex_colors, material, pad, tex_coords) = quad(&mut c).context("picture")?;
    Ok(Picture {
        pane,
        vertex_colors,
        material,
        pad,
        tex_coords,
    })
}

fn text(r: &Reader<'_>) -> Result<Text> {
    let mut c = r.cursor(SECTION_HEADER);
    let pane = pane_at(&mut c).context("pane")?;
    let buffer_bytes = c.u16()?;
    let str_bytes = usize::from(c.u16()?);
    let material = c.u16()?;
    let font = c.u16()?;
    let position = c.u8()?;
    let alignment = c.u8()?;
    let pad = array(&mut c)?;
    let str_offset = c.u32()? as usize;
    let colors = colors(&mut c)?;
    let font_size = f32s(&mut c)?;
    let [char_space, line_space] = f32s(&mut c)?;
    let (mut text, mut unterminated, mut tail) = (None, false, None);
    if str_bytes > 0 {
        let b = r.bytes(str_offset, str_bytes).context("text string")?;
        let mut units: Vec<u16> = b
            .chunks_exact(2)
            .filter_map(|p| p.try_into().ok().map(u16::from_be_bytes))
            .collect();
        if units.last() == Some(&0) {
            units.pop();
        } else {
            unterminated = true;
        }
        text = Some(units);
        let rest = r.rest(str_offset + str_bytes).context("text string")?;
        if rest.len() != gcio::padding_for(str_bytes, 4) || rest.iter().any(|&b| b != 0) {
            tail = Some(rest.to_vec());
        }
    }
    Ok(Text {
        pane,
        buffer_bytes,
        material,
        font,
        position,
        alignment,
        pad,
        colors,
        font_size,
        char_space,
        line_space,
        text,
        unterminated,
        tail,
    })
}

fn window(r: &Reader<'_>) -> Result<Window> {
    let mut c = r.cursor(SECTION_HEADER);
    let pane = pane_at(&mut c).context("pane")?;
    let inflation = f32s(&mut c)?;
    let n = usize::from(c.u8()?);
    let pad = array(&mut c)?;
    let content_at = c.u32()? as usize;
    let table_at = c.u32()? as usize;
    let (vertex_colors, material, cpad, tex_coords) =
        quad(&mut r.cursor(content_at)).context("window content")?;
    let mut frames = Vec::with_capacity(n);
    for i in 0..n {
        let at = r
            .u32(table_at + 4 * i)
            .with_context(|| format!("window frame {i}"))? as usize;
        let mut f = r.cursor(at);
        frames.push(WindowFrame {
            material: f.u16().with_context(|| format!("window frame {i}"))?,
            flip: f.u8()?,
            pad: f.u8()?,
        });
    }
    Ok(Window {
        pane,
        inflation,
        pad,
        content: WindowContent {
            vertex_colors,
            material,
            pad: cpad,
            tex_coords,
        },
        frames,
    })
}

fn group(r: &Reader<'_>) -> Result<Group> {
    let mut c = r.cursor(SECTION_HEADER);
    let name = Name::from_field(c.bytes(16)?);
    let n = usize::from(c.u16()?);
    let pad = array(&mut c)?;
    let mut panes = Vec::with_capacity(n.min(c.remaining() / 16));
    for i in 0..n {
        panes.push(Name::from_field(
            c.bytes(16).with_context(|| format!("group member {i}"))?,
        ));
    }
    Ok(Group { name, pad, panes })
}

fn materials(r: &Reader<'_>) -> Result<Vec<Material>> {
    let count = usize::from(r.u16(SECTION_HEADER).context("material count")?);
    let mut out = Vec::with_capacity(count.min(r.len() / 0x40));
    for i in 0..count {
        let at = r
            .u32(SECTION_HEADER + 4 + 4 * i)
            .with_context(|| format!("material {i} offset"))? as usize;
        out.push(material(&mut r.cursor(at)).with_context(|| format!("material {i}"))?);
    }
    Ok(out)
}

fn srt(c: &mut Cursor<'_>) -> Result<TexSrt> {
    let [tx, ty, rotate, sx, sy] = f32s(c)?;
    Ok(TexSrt {
        translate: [tx, ty],
        rotate,
        scale: [sx, sy],
    })
}

fn list<T>(c: &mut Cursor<'_>, n: u32, f: fn(&mut Cursor<'_>) -> Result<T>) -> Result<Vec<T>> {
    (0..n).map(|_| f(c)).collect()
}

fn material(c: &mut Cursor<'_>) -> Result<Material> {
    let name = Name::from_field(c.bytes(20)?);
    let mut tev_colors = [[0i16; 4]; 3];
    for col in &mut tev_colors {
        for v in col.iter_mut() {
            *v = c.i16()?;
        }
    }
    let tev_kcolors = colors(c)?;
    let flags = c.u32()?;
    let bits = |lo: u32, n: u32| (flags >> lo) & ((1 << n) - 1);
    let tex_maps = list(c, bits(0, 4), |c| {
        Ok(TexMap {
            texture: c.u16()?,
            wrap_s: c.u8()?,
            wrap_t: c.u8()?,
        })
    })?;
    let tex_srts = list(c, bits(4, 4), srt)?;
    let tex_coord_gens = list(c, bits(8, 4), |c| {
        let [kind, source, matrix, pad] = array(c)?;
        Ok(TexCoordGen {
            kind,
            source,
            matrix,
            pad,
        })
    })?;
    let chan_ctrl = list(c, bits(25, 1), |c| {
        Ok(ChanCtrl {
            color_source: c.u8()?,
            alpha_source: c.u8()?,
            pad: array(c)?,
        })
    })?
    .pop();
    let mat_color = list(c, bits(27, 1), array)?.pop();
    let tev_swap = list(c, bits(12, 1), array)?.pop();
    let ind_srts = list(c, bits(13, 2), srt)?;
    let ind_stages = list(c, bits(15, 3), |c| {
        let [tex_coord_gen, tex_map, scale_s, scale_t] = array(c)?;
        Ok(IndStage {
            tex_coord_gen,
            tex_map,
            scale_s,
            scale_t,
        })
    })?;
    let tev_stages = list(c, bits(18, 5), |c| {
        let [tex_coord_gen, color_channel, tex_map, swap_sel] = array(c)?;
        let color_in = array(c)?;
        let alpha_in = array(c)?;
        let [ind_stage, ind_bias_matrix, ind_wrap, ind_flags] = array(c)?;
        Ok(TevStage {
            tex_coord_gen,
            color_channel,
            tex_map,
            swap_sel,
            color_in,
            alpha_in,
            ind_stage,
            ind_bias_matrix,
            ind_wrap,
            ind_flags,
        })
    })?;
    let alpha_compare = list(c, bits(23, 1), |c| {
        let [comp, op, ref0, ref1] = array(c)?;
        Ok(AlphaCompare {
            comp,
            op,
            ref0,
            ref1,
        })
    })?
    .pop();
    let blend_mode = list(c, bits(24, 1), |c| {
        let [kind, src, dst, op] = array(c)?;
        Ok(BlendMode { kind, src, dst, op })
    })?
    .pop();
    Ok(Material {
        name,
        tev_colors,
        tev_kcolors,
        extra_flags: flags & EXTRA_FLAGS,
        tex_maps,
        tex_srts,
        tex_coord_gens,
        chan_ctrl,
        mat_color,
        tev_swap,
        ind_srts,
        ind_stages,
        tev_stages,
        alpha_compare,
        blend_mode,
    })
}

#[cfg(test)]
mod tev_tests {
    use super::*;

    /// Packed as `res::TevStage` stores them: a = 8 (TEXC), b = 15 (ZERO), c = 10 (RASC),
    /// d = 2 (C1); subtract, bias +½, scale ×2; clamp, out REG1, konst 12 (K0); swaps 1 and 2.
    #[test]
    fn combiners_decode_their_packed_fields() {
        let st = TevStage {
            tex_coord_gen: 0,
            color_channel: 4,
            tex_map: 0,
            swap_sel: 2 << 3 | 1 << 1,
            color_in: [0xF8, 0x2A, 1 | 1 << 4 | 1 << 6, 1 | 2 << 1 | 12 << 3],
            alpha_in: [0x74, 0x06, 0, 0],
            ind_stage: 0,
            ind_bias_matrix: 0,
            ind_wrap: 0,
            ind_flags: 0,
        };
        assert_eq!(
            st.color(),
            Combiner {
                args: [8, 15, 10, 2],
                op: 1,
                bias: 1,
                scale: 1,
                clamp: true,
                out: 2,
                konst: 12,
            }
        );
        let a = st.alpha();
        assert_eq!(
            (a.args, a.op, a.clamp, a.out, a.konst),
            ([4, 7, 6, 0], 0, false, 0, 0)
        );
        assert_eq!((st.ras_swap(), st.tex_swap()), (1, 2));
    }
}
