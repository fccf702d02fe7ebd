//! The J3D file: header and chunk list. Every chunk is kept; chunks without a typed parser (MAT3,
//! MDL3, TEX1, …) and typed chunks whose layout the canonical writer would not reproduce stay raw,
//! so every file round-trips byte for byte.

use gcio::{Context, Error, ErrorKind, Limits, Reader, Result, Writer};

use crate::drw1::{Drw1, Drw1View};
use crate::evp1::{Evp1, Evp1View};
use crate::inf1::{Inf1, Inf1View};
use crate::jnt1::{Jnt1, Jnt1View};
use crate::mat3::{Mat3, Mat3View};
use crate::mdl3::Mdl3;
use crate::shp1::{Shp1, Shp1View};
use crate::tex1::Tex1;
use crate::vtx1::{Vtx1, Vtx1View};
use crate::{Pad, raw};

/// BMD for J3DLoader v21.
pub const MAGIC_BMD2: &[u8; 8] = b"J3D2bmd2";
/// BMD for J3DLoader v26.
pub const MAGIC_BMD3: &[u8; 8] = b"J3D2bmd3";
/// BDL (BMD + MDL3).
pub const MAGIC_BDL4: &[u8; 8] = b"J3D2bdl4";
/// Material-only file (MAT3 + TEX1).
pub const MAGIC_BMT3: &[u8; 8] = b"J3D2bmt3";
/// The tag block new files carry (J3D-005).
pub const SVR3_TAG: [u8; 16] = *b"SVR3\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";

/// One chunk as found: magic, absolute offset and bytes (header included).
#[derive(Debug, Clone, Copy)]
pub struct ChunkView<'a> {
    /// Four-character id.
    pub magic: [u8; 4],
    /// The chunk's bytes, from its magic; errors carry absolute offsets.
    pub data: Reader<'a>,
}

impl ChunkView<'_> {
    /// Absolute file offset.
    pub fn offset(&self) -> u64 {
        self.data.base()
    }

    /// Magic as text.
    pub fn name(&self) -> String {
        String::from_utf8_lossy(&self.magic).into_owned()
    }
}

/// Zero-copy view of a BMD/BDL/BMT file.
#[derive(Debug, Clone)]
pub struct BmdView<'a> {
    r: Reader<'a>,
    header: &'a raw::FileHeader,
    chunks: Vec<ChunkView<'a>>,
    end: usize,
    limits: Limits,
}

/// Parses the header and walks the chunk list with the default [`Limits`].
pub fn parse(data: &[u8]) -> Result<BmdView<'_>> {
    parse_with(data, &Limits::default())
}

/// Parses the header and walks the chunk list (bounded by the stored count and the data); chunk
/// views and models read from the result stay within `limits`.
pub fn parse_with<'a>(data: &'a [u8], limits: &Limits) -> Result<BmdView<'a>> {
    let r = Reader::new(data);
    let header: &raw::FileHeader = r.get(0).context("header")?;
    if !header.magic.starts_with(b"J3D") {
        return Err(Error::new(
            ErrorKind::BadMagic {
                expected: b"J3D2".to_vec(),
                found: header.magic.to_vec(),
            },
            0,
        ));
    }
    // Each chunk takes at least 8 bytes, so the walk is bounded by the data whatever the count.
    let count = header.chunk_count.get();
    let mut chunks = Vec::new();
    let mut pos = 0x20usize;
    for i in 0..count {
        if pos >= data.len() {
            break;
        }
        let ctx = || format!("chunk {i}");
        let magic = r.array::<4>(pos).with_context(ctx)?;
        let size = r.u32(pos + 4).with_context(ctx)? as usize;
        if size < 8 {
            return Err(
                Error::invalid(r.abs(pos + 4), format!("chunk size {size} below 8")).context(ctx()),
            );
        }
        let data = r.sub(pos, size).with_context(ctx)?;
        chunks.push(ChunkView { magic, data });
        pos += size;
    }
    Ok(BmdView {
        r,
        header,
        chunks,
        end: pos.min(data.len()),
        limits: *limits,
    })
}

impl<'a> BmdView<'a> {
    /// The file header.
    pub fn header(&self) -> &'a raw::FileHeader {
        self.header
    }

    /// The 8-byte magic.
    pub fn magic(&self) -> [u8; 8] {
        self.header.magic
    }

    /// True for `J3D2bdl4`.
    pub fn is_bdl(&self) -> bool {
        &self.header.magic == MAGIC_BDL4
    }

    /// The whole file.
    pub fn reader(&self) -> Reader<'a> {
        self.r
    }

    /// The limits chunk views and models read from this file are bounded by.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Chunks in file order.
    pub fn chunks(&self) -> &[ChunkView<'a>] {
        &self.chunks
    }

    /// Bytes after the last chunk.
    pub fn trailing(&self) -> &'a [u8] {
        self.r.rest(self.end).unwrap_or_default()
    }

    /// The first chunk with `magic`.
    pub fn chunk(&self, magic: &[u8; 4]) -> Option<ChunkView<'a>> {
        self.chunks.iter().find(|c| &c.magic == magic).copied()
    }

    /// INF1, when present.
    pub fn inf1(&self) -> Option<Result<Inf1View<'a>>> {
        self.chunk(b"INF1")
            .map(|c| Inf1View::parse_with(c.data, &self.limits))
    }

    /// VTX1, when present.
    pub fn vtx1(&self) -> Option<Result<Vtx1View<'a>>> {
        self.chunk(b"VTX1")
            .map(|c| Vtx1View::parse_with(c.data, &self.limits))
    }

    /// EVP1, when present.
    pub fn evp1(&self) -> Option<Result<Evp1View<'a>>> {
        self.chunk(b"EVP1")
            .map(|c| Evp1View::parse_with(c.data, &self.limits))
    }

    /// DRW1, when present.
    pub fn drw1(&self) -> Option<Result<Drw1View<'a>>> {
        self.chunk(b"DRW1")
            .map(|c| Drw1View::parse_with(c.data, &self.limits))
    }

    /// JNT1, when present.
    pub fn jnt1(&self) -> Option<Result<Jnt1View<'a>>> {
        self.chunk(b"JNT1")
            .map(|c| Jnt1View::parse_with(c.data, &self.limits))
    }

    /// SHP1, when present.
    pub fn shp1(&self) -> Option<Result<Shp1View<'a>>> {
        self.chunk(b"SHP1")
            .map(|c| Shp1View::parse_with(c.data, &self.limits))
    }

    /// MAT3, when present.
    pub fn mat3(&self) -> Option<Result<Mat3View<'a>>> {
        self.chunk(b"MAT3")
            .map(|c| Mat3View::parse_with(c.data, &self.limits))
    }
}

/// A chunk kept as bytes (header included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawChunk {
    /// The chunk's bytes; its size field is rewritten from the length on writing.
    pub bytes: Vec<u8>,
}

impl RawChunk {
    /// The magic.
    pub fn magic(&self) -> [u8; 4] {
        let mut m = [0; 4];
        for (d, s) in m.iter_mut().zip(&self.bytes) {
            *d = *s;
        }
        m
    }
}

/// One chunk of the owned model.
#[derive(Debug, Clone, PartialEq)]
pub enum Chunk {
    /// Scene information.
    Inf1(Inf1),
    /// Vertex data.
    Vtx1(Vtx1),
    /// Envelopes.
    Evp1(Evp1),
    /// Draw matrices.
    Drw1(Drw1),
    /// Joints.
    Jnt1(Jnt1),
    /// Shapes.
    Shp1(Shp1),
    /// Materials.
    Mat3(Mat3),
    /// Precompiled material display lists.
    Mdl3(Mdl3),
    /// Textures.
    Tex1(Tex1),
    /// Anything else, or a typed chunk in a layout the writer does not reproduce.
    Raw(RawChunk),
}

impl Chunk {
    /// The chunk's magic.
    pub fn magic(&self) -> [u8; 4] {
        match self {
            Chunk::Inf1(_) => *b"INF1",
            Chunk::Vtx1(_) => *b"VTX1",
            Chunk::Evp1(_) => *b"EVP1",
            Chunk::Drw1(_) => *b"DRW1",
            Chunk::Jnt1(_) => *b"JNT1",
            Chunk::Shp1(_) => *b"SHP1",
            Chunk::Mat3(_) => *b"MAT3",
            Chunk::Tex1(_) => *b"TEX1",
            Chunk::Mdl3(_) => *b"MDL3",
            Chunk::Raw(r) => r.magic(),
        }
    }

    /// The chunk's bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        let ctx = String::from_utf8_lossy(&self.magic()).into_owned();
        match self {
            Chunk::Inf1(c) => c.write(),
            Chunk::Vtx1(c) => c.write(),
            Chunk::Evp1(c) => c.write(),
            Chunk::Drw1(c) => c.write(),
            Chunk::Jnt1(c) => c.write(),
            Chunk::Shp1(c) => c.write(),
            Chunk::Mat3(c) => c.write(),
            Chunk::Tex1(c) => c.write(),
            Chunk::Mdl3(c) => c.write(),
            Chunk::Raw(r) => {
                let mut b = r.bytes.clone();
                if let Some(size) = b.get_mut(4..8) {
                    let len = u32::try_from(r.bytes.len())
                        .map_err(|_| Error::message("chunk over 4 GiB"))?;
                    size.copy_from_slice(&len.to_be_bytes());
                }
                Ok(b)
            }
        }
        .context(&ctx)
    }

    /// Parses a chunk into its typed model when the writer reproduces it exactly with one of the
    /// padding styles and table alignments (Nintendo's first), else keeps it raw.
    pub fn from_view(c: &ChunkView<'_>) -> Chunk {
        Self::from_view_with(c, &Limits::default()).unwrap_or_else(|_| Self::raw(c))
    }

    /// [`Chunk::from_view`] within `limits`: a typed parse that would exceed them is an error,
    /// not a reason to keep the chunk raw.
    pub fn from_view_with(c: &ChunkView<'_>, limits: &Limits) -> Result<Chunk> {
        Ok(Self::typed(c, limits)?.unwrap_or_else(|_| Self::raw(c)))
    }

    fn raw(c: &ChunkView<'_>) -> Chunk {
        Chunk::Raw(RawChunk {
            bytes: c.data.data().to_vec(),
        })
    }

    /// Why [`Chunk::from_view`] keeps `c` raw (`None` when it is typed): the chunk has no typed
    /// form, its typed parser failed, or the closest rewrite differs at a chunk offset.
    pub fn raw_reason(c: &ChunkView<'_>) -> Option<String> {
        Self::raw_reason_with(c, &Limits::default())
    }

    /// [`Chunk::raw_reason`] for a typed parse within `limits` (the reason is the limit error
    /// when the typed parse would exceed them).
    pub fn raw_reason_with(c: &ChunkView<'_>, limits: &Limits) -> Option<String> {
        Self::typed(c, limits).map_or_else(|e| Some(e.to_string()), |t| t.err())
    }

    /// The typed chunk whose rewrite reproduces `c`, or why there is none; `Err` only when a
    /// parse exceeds `limits`.
    fn typed(c: &ChunkView<'_>, limits: &Limits) -> Result<std::result::Result<Chunk, String>> {
        let r = c.data;
        let (default_align, fixed_align) = match &c.magic {
            // SHP1 and EVP1 detect one alignment per table; INF1, TEX1 and MDL3 have fixed ones.
            b"INF1" | b"TEX1" | b"MDL3" | b"SHP1" | b"EVP1" => (1, true),
            b"VTX1" => (32, false),
            b"MAT3" => (4, false),
            b"DRW1" | b"JNT1" => (1, false),
            _ => return Ok(Err("no typed form".into())),
        };
        let mut aligns = vec![default_align];
        if !fixed_align {
            aligns.extend(
                [1u8, 4, 8, 16, 32]
                    .into_iter()
                    .filter(|a| *a != default_align),
            );
        }
        // The closest miss: (matching prefix, message).
        let mut best: Option<(usize, String)> = None;
        for a in aligns {
            for p in Pad::ALL {
                let attempt = Self::typed_with(c, p, a, limits).and_then(|chunk| {
                    let bytes = chunk.write()?;
                    Ok((chunk, bytes))
                });
                let (prefix, msg) = match attempt {
                    Ok((chunk, bytes)) if bytes == r.data() => return Ok(Ok(chunk)),
                    Ok((_, bytes)) => {
                        let at = bytes
                            .iter()
                            .zip(r.data())
                            .position(|(x, y)| x != y)
                            .unwrap_or(bytes.len().min(r.len()));
                        let style = if fixed_align {
                            format!("{p:?} padding")
                        } else {
                            format!("{p:?} padding, tables aligned to {a}")
                        };
                        let msg = format!(
                            "rewrite ({style}) differs at chunk offset {at:#x} (file {:#x}); \
                             {} bytes written, {} stored",
                            c.offset() + at as u64,
                            bytes.len(),
                            r.len()
                        );
                        (at + 1, msg)
                    }
                    Err(e) if matches!(e.kind(), ErrorKind::Limit { .. }) => return Err(e),
                    Err(e) => (0, format!("typed parse failed: {e}")),
                };
                if best.as_ref().is_none_or(|(b, _)| prefix > *b) {
                    best = Some((prefix, msg));
                }
            }
        }
        Ok(Err(best.map(|(_, m)| m).unwrap_or_default()))
    }

    /// Parses `c` as its typed chunk with one padding style and table alignment.
    fn typed_with(c: &ChunkView<'_>, p: Pad, a: u8, limits: &Limits) -> Result<Chunk> {
        let r = c.data;
        Ok(match &c.magic {
            b"INF1" => Chunk::Inf1(Inf1 {
                pad: p,
                ..Inf1::from_view(&Inf1View::parse_with(r, limits)?)?
            }),
            b"VTX1" => Chunk::Vtx1(Vtx1::from_view(&Vtx1View::parse_with(r, limits)?, p, a)?),
            b"EVP1" => Chunk::Evp1(Evp1 {
                pad: p,
                ..Evp1::from_view(&Evp1View::parse_with(r, limits)?)?
            }),
            b"DRW1" => Chunk::Drw1(Drw1 {
                pad: p,
                align: a,
                ..Drw1::from_view(&Drw1View::parse_with(r, limits)?)?
            }),
            b"JNT1" => Chunk::Jnt1(Jnt1 {
                pad: p,
                align: a,
                ..Jnt1::from_view(&Jnt1View::parse_with(r, limits)?)?
            }),
            b"SHP1" => Chunk::Shp1(Shp1 {
                pad: p,
                ..Shp1::from_view(&Shp1View::parse_with(r, limits)?)?
            }),
            b"MAT3" => Chunk::Mat3(Mat3::from_view(&Mat3View::parse_with(r, limits)?, p, a)?),
            b"TEX1" => Chunk::Tex1(Tex1::parse_with(r, p, limits)?),
            b"MDL3" => Chunk::Mdl3(Mdl3::parse_with(r, p, limits)?),
            _ => return Err(Error::invalid(c.offset(), "no typed form")),
        })
    }
}

/// Owned model of a J3D file.
#[derive(Debug, Clone, PartialEq)]
pub struct Bmd {
    /// `J3D2bmd2`, `J3D2bmd3`, `J3D2bdl4`, `J3D2bmt3`.
    pub magic: [u8; 8],
    /// The 16 bytes at 0x10 (ignored by the game).
    pub tag: [u8; 16],
    /// Chunks in file order.
    pub chunks: Vec<Chunk>,
    /// The stored file size when it differed from the real size (stale after tool edits, J3D-002);
    /// `None` writes the real size.
    pub stale_size: Option<u32>,
    /// The stored chunk count when it differed from the chunk list; `None` writes the real count.
    pub stale_count: Option<u32>,
    /// Bytes after the last chunk.
    pub trailing: Vec<u8>,
}

macro_rules! accessors {
    ($($get:ident $get_mut:ident $var:ident $t:ty),*) => {$(
        #[doc = concat!("The typed `", stringify!($var), "` chunk, if present and typed.")]
        pub fn $get(&self) -> Option<&$t> {
            self.chunks.iter().find_map(|c| match c { Chunk::$var(x) => Some(x), _ => None })
        }
        #[doc = concat!("The typed `", stringify!($var), "` chunk, mutable.")]
        pub fn $get_mut(&mut self) -> Option<&mut $t> {
            self.chunks.iter_mut().find_map(|c| match c { Chunk::$var(x) => Some(x), _ => None })
        }
    )*};
}

impl Bmd {
    /// Parses `data` into the owned model.
    pub fn parse(data: &[u8]) -> Result<Self> {
        Self::parse_with(data, &Limits::default())
    }

    /// [`Bmd::parse`] within `limits` (element counts, allocations, nesting depth).
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Self> {
        Self::from_view(&parse_with(data, limits)?, limits)
    }

    /// Copies a view; `limits` bound every chunk's typed parse.
    pub fn from_view(v: &BmdView<'_>, limits: &Limits) -> Result<Self> {
        let chunks = v
            .chunks
            .iter()
            .map(|c| Chunk::from_view_with(c, limits))
            .collect::<Result<Vec<Chunk>>>()?;
        let real_size = v.r.len() as u64;
        let size = v.header.size.get();
        let count = v.header.chunk_count.get();
        Ok(Bmd {
            magic: v.header.magic,
            tag: v.header.tag,
            stale_size: (u64::from(size) != real_size).then_some(size),
            stale_count: (count as usize != chunks.len()).then_some(count),
            chunks,
            trailing: v.trailing().to_vec(),
        })
    }

    /// The parts this model keeps as stored bytes rather than typed values: one chunk magic per
    /// [`Chunk::Raw`] (a chunk with no typed form, or one the typed writer would not reproduce;
    /// [`Chunk::raw_reason`] says why). Empty when every chunk goes through the typed writers.
    pub fn raw_parts(&self) -> Vec<String> {
        self.chunks
            .iter()
            .filter(|c| matches!(c, Chunk::Raw(_)))
            .map(|c| String::from_utf8_lossy(&c.magic()).into_owned())
            .collect()
    }

    accessors! {
        inf1 inf1_mut Inf1 Inf1, vtx1 vtx1_mut Vtx1 Vtx1, evp1 evp1_mut Evp1 Evp1,
        drw1 drw1_mut Drw1 Drw1, jnt1 jnt1_mut Jnt1 Jnt1, shp1 shp1_mut Shp1 Shp1,
        mat3 mat3_mut Mat3 Mat3, tex1 tex1_mut Tex1 Tex1, mdl3 mdl3_mut Mdl3 Mdl3
    }

    /// Recomputes INF1's informative counts from the typed chunks after an edit: the vertex count
    /// from the VTX1 positions (J3D-009) and the matrix group count from the SHP1 matrix group data
    /// (J3D-010). Counts whose source chunk is raw stay as they are.
    pub fn update_counts(&mut self) {
        let positions = self.vtx1().map(|v| v.len(gx::vtx::Attr::POS) as u32);
        let groups = self.shp1().map(|s| s.matrix_data.len() as u32);
        if let Some(inf) = self.inf1_mut() {
            if let Some(p) = positions {
                inf.vertex_count = p;
            }
            if let Some(g) = groups {
                inf.matrix_group_count = g;
            }
        }
    }

    /// After edits of MAT3 or TEX1, patches the register values a BDL's MDL3 packets derive from
    /// them ([`Mdl3::sync`]); without it the game, which sends MDL3's packets instead of building
    /// the state from MAT3, would not see the edit (J3D-081). A model without typed MAT3 and MDL3
    /// is left alone. Returns the registers no stored packet write could carry.
    pub fn sync_mdl3(&mut self) -> Result<Vec<(usize, crate::mdl3::Mismatch)>> {
        let (Some(mat3), Some(_)) = (self.mat3(), self.mdl3()) else {
            return Ok(Vec::new());
        };
        let materials = mat3.materials();
        let empty = crate::tex1::TextureSet::default();
        let textures = self.tex1().map_or(&empty, |t| &t.set);
        let expected = Mdl3::from_materials(&materials, textures)?;
        Ok(self
            .mdl3_mut()
            .map(|m| m.sync(&expected))
            .unwrap_or_default())
    }

    /// Writes the file: header with derived size and count (unless stale values were kept), then
    /// every chunk.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new();
        w.bytes(&self.magic);
        let size = w.reserve_u32();
        let count =
            u32::try_from(self.chunks.len()).map_err(|_| Error::message("too many chunks"))?;
        w.u32(self.stale_count.unwrap_or(count)).bytes(&self.tag);
        for c in &self.chunks {
            w.bytes(&c.write()?);
        }
        w.bytes(&self.trailing);
        let real = w.position() as u64;
        w.fix(size, self.stale_size.map_or(real, u64::from))?;
        Ok(w.into_vec())
    }
}
