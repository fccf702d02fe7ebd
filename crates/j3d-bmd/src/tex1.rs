//! TEX1 and standalone `.bti` textures: 0x20-byte ResTIMG headers whose image and palette
//! offsets are relative to each header, image data that several headers may share (J3D-074), and
//! TEX1's name table. Data blocks are kept in file order as [`Segment`]s; each header points at
//! its segments by index, so shared data stays shared and every byte round-trips.

use gcio::{Context, Error, Limits, Reader, Result, Writer};

use crate::chunk::{gap_align, u16_of, u32_of, write_chunk};
use crate::nametab::NameTable;
use crate::record::{Record, read_vec, record};
use crate::{CHUNK_ALIGN, Pad};

record! {
    /// A ResTIMG header (0x20). In a [`Texture`] whose image / palette is a segment, the offset
    /// field is 0 and derived on writing.
    pub struct BtiHeader {
        /// GX texture format.
        pub format: u8,
        /// Alpha / transparency setting.
        pub alpha: u8,
        /// Width in pixels.
        pub width: u16,
        /// Height in pixels.
        pub height: u16,
        /// Wrap S: 0 clamp, 1 repeat, 2 mirror.
        pub wrap_s: u8,
        /// Wrap T.
        pub wrap_t: u8,
        /// Palette enable.
        pub palette_enable: u8,
        /// Palette format: 0 IA8, 1 RGB565, 2 RGB5A3.
        pub palette_format: u8,
        /// Palette entry count.
        pub palette_count: u16,
        /// Palette offset from this header.
        pub palette_offset: u32,
        /// Mipmaps on.
        pub mipmap: u8,
        /// Edge LOD.
        pub edge_lod: u8,
        /// Bias clamp.
        pub bias_clamp: u8,
        /// Maximum anisotropy.
        pub max_aniso: u8,
        /// Minification filter.
        pub min_filter: u8,
        /// Magnification filter.
        pub mag_filter: u8,
        /// Minimum LOD (× 1/8).
        pub min_lod: i8,
        /// Maximum LOD (× 1/8).
        pub max_lod: i8,
        /// Image count (mip levels).
        pub image_count: u8,
        /// Unknown byte, kept.
        pub unknown: u8,
        /// LOD bias (× 1/100).
        pub lod_bias: i16,
        /// Image offset from this header.
        pub image_offset: u32,
    }
}

impl BtiHeader {
    /// The sampler settings of a texture made here (a PNG converted, a glTF image imported):
    /// wrap repeat, linear filtering (trilinear with mipmaps), the LOD range over `levels`; the
    /// caller sets format, size and palette.
    pub fn new_texture(levels: u8) -> BtiHeader {
        let n = levels.max(1);
        BtiHeader {
            alpha: 1,
            wrap_s: 1,
            wrap_t: 1,
            mipmap: u8::from(n > 1),
            min_filter: if n > 1 { 5 } else { 1 },
            mag_filter: 1,
            max_lod: (n.saturating_sub(1).min(15) * 8) as i8,
            image_count: n,
            ..BtiHeader::default()
        }
    }

    /// Size of the image data with every mip level (`image_count`, at least one), from
    /// [`gx::tex::image_size`]; `None` for unknown formats.
    pub fn image_size(&self) -> Option<usize> {
        gx::tex::image_size(
            gx::tex::TexFormat(self.format),
            u32::from(self.width),
            u32::from(self.height),
            u32::from(self.image_count.max(1)),
        )
        .ok()
    }

    /// Size of the palette (2 bytes per entry).
    pub fn palette_size(&self) -> usize {
        usize::from(self.palette_count) * 2
    }
}

/// A texture: its header and the segments holding its image and palette.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    /// Header; the offsets are derived for the segments below.
    pub header: BtiHeader,
    /// Segment with the image data; `None` keeps the stored image offset.
    pub image: Option<usize>,
    /// Segment with the palette; `None` keeps the stored palette offset.
    pub palette: Option<usize>,
}

/// Data after the headers, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Image, palette or filler bytes.
    Data(Vec<u8>),
    /// TEX1's name table sits here.
    Names,
}

/// Textures with their data: the shared core of [`Tex1`] and [`Bti`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextureSet {
    /// Textures in order.
    pub textures: Vec<Texture>,
    /// Data blocks in file order.
    pub segments: Vec<Segment>,
}

impl TextureSet {
    /// Reads `count` headers at `at` of `r` and the data they point at, up to `end`; `names`
    /// is the name-table position (with its byte length) to slot into the segment order.
    fn parse(
        r: &Reader<'_>,
        at: usize,
        count: usize,
        end: usize,
        names: Option<(usize, usize)>,
        limits: &Limits,
    ) -> Result<(Self, usize)> {
        let headers: Vec<BtiHeader> = read_vec(r, at, count, limits)?;
        let data_start = at + count * BtiHeader::SIZE;
        // Every referenced block: (start, exact length).
        let mut blocks: Vec<(usize, usize)> = Vec::new();
        let abs = |i: usize, off: u32| at + i * BtiHeader::SIZE + off as usize;
        for (i, h) in headers.iter().enumerate() {
            if h.image_offset != 0
                && let Some(n) = h.image_size()
            {
                blocks.push((abs(i, h.image_offset), n));
            }
            if h.palette_count != 0 && h.palette_offset != 0 {
                blocks.push((abs(i, h.palette_offset), h.palette_size()));
            }
        }
        if let Some(n) = names {
            blocks.push(n);
        }
        // A block starting past the data has no bytes to keep: its header keeps the stored offset
        // (J3D-079 reports it), so the chunk still round-trips typed.
        blocks.retain(|b| b.0 < end);
        // Blocks sharing a start are one segment, as long as the longest of them.
        blocks.sort_unstable_by_key(|b| (b.0, std::cmp::Reverse(b.1)));
        blocks.dedup_by_key(|b| b.0);
        let mut segments = Vec::new();
        let mut starts: Vec<(usize, usize)> = Vec::new();
        let mut pos = data_start;
        let names_at = names.map(|n| n.0);
        for &(start, len) in &blocks {
            // A block starting inside an earlier one (a texture reusing another's mip level or
            // palette bytes) is read by the game through its offset: its header keeps the stored
            // offset and reads from the earlier block's segment, so the chunk stays typed.
            if start < pos {
                continue;
            }
            if start > pos {
                segments.push(Segment::Data(r.bytes(pos, start - pos)?.to_vec()));
            }
            let len = if Some(start) == names_at {
                segments.push(Segment::Names);
                len
            } else {
                // A block runs to its size, cut at the chunk's end or at the name table.
                let stop = names_at.filter(|&n| n > start).map_or(end, |n| n.min(end));
                let len = len.min(stop - start);
                starts.push((start, segments.len()));
                segments.push(Segment::Data(r.bytes(start, len)?.to_vec()));
                len
            };
            pos = start + len;
        }
        let seg_of = |a: usize| starts.iter().find(|s| s.0 == a).map(|s| s.1);
        let textures = headers
            .into_iter()
            .enumerate()
            .map(|(i, mut h)| {
                let image = (h.image_offset != 0)
                    .then(|| seg_of(abs(i, h.image_offset)))
                    .flatten();
                let palette = (h.palette_count != 0 && h.palette_offset != 0)
                    .then(|| seg_of(abs(i, h.palette_offset)))
                    .flatten();
                // Offsets that segments stand for are derived on writing.
                if image.is_some() {
                    h.image_offset = 0;
                }
                if palette.is_some() {
                    h.palette_offset = 0;
                }
                Texture {
                    header: h,
                    image,
                    palette,
                }
            })
            .collect();
        Ok((TextureSet { textures, segments }, pos))
    }

    /// Writes headers at the writer's position, then the segments (`names` writes the name table
    /// where a [`Segment::Names`] sits).
    fn write(
        &self,
        w: &mut Writer,
        mut names: impl FnMut(&mut Writer) -> Result<()>,
    ) -> Result<()> {
        let at = w.position();
        let data = at + self.textures.len() * BtiHeader::SIZE;
        let mut seg_pos = Vec::with_capacity(self.segments.len());
        let mut pos = data;
        for s in &self.segments {
            seg_pos.push(pos);
            pos += match s {
                Segment::Data(d) => d.len(),
                Segment::Names => {
                    let mut t = Writer::new();
                    names(&mut t)?;
                    t.position()
                }
            };
        }
        let rel = |i: usize, seg: usize| -> Result<u32> {
            let p = seg_pos
                .get(seg)
                .ok_or_else(|| Error::message(format!("texture segment {seg} missing")))?;
            u32_of(p - (at + i * BtiHeader::SIZE), "texture offset")
        };
        for (i, t) in self.textures.iter().enumerate() {
            let mut h = t.header;
            if let Some(s) = t.image {
                h.image_offset = rel(i, s)?;
            }
            if let Some(s) = t.palette {
                h.palette_offset = rel(i, s)?;
            }
            h.write(w);
        }
        for s in &self.segments {
            match s {
                Segment::Data(d) => {
                    w.bytes(d);
                }
                Segment::Names => names(w)?,
            }
        }
        Ok(())
    }

    /// The image bytes of texture `i` (its segment, or the bytes at its stored offset when its
    /// image starts inside another block).
    pub fn image(&self, i: usize) -> Option<&[u8]> {
        let t = self.textures.get(i)?;
        match t.image {
            Some(s) => self.data(s),
            None => self.at_offset(i, t.header.image_offset, t.header.image_size()?),
        }
    }

    /// The palette bytes of texture `i` (as [`TextureSet::image`]).
    pub fn palette(&self, i: usize) -> Option<&[u8]> {
        let t = self.textures.get(i)?;
        match t.palette {
            Some(s) => self.data(s),
            None if t.header.palette_count != 0 => {
                self.at_offset(i, t.header.palette_offset, t.header.palette_size())
            }
            None => None,
        }
    }

    /// `len` bytes at `off` from header `i` where the writer places the segments (headers, then
    /// the segments back to back), when they lie inside one data segment before any name table.
    fn at_offset(&self, i: usize, off: u32, len: usize) -> Option<&[u8]> {
        let off = usize::try_from(off).ok().filter(|&o| o != 0)?;
        let mut pos = self.textures.len().checked_sub(i)? * BtiHeader::SIZE;
        for s in &self.segments {
            let Segment::Data(d) = s else { return None };
            if (pos..pos + d.len()).contains(&off) {
                return d.get(off - pos..(off - pos).checked_add(len)?);
            }
            pos += d.len();
        }
        None
    }

    fn data(&self, seg: usize) -> Option<&[u8]> {
        match self.segments.get(seg)? {
            Segment::Data(d) => Some(d),
            Segment::Names => None,
        }
    }

    /// Adds a texture, sharing an identical image or palette already stored.
    pub fn push(&mut self, header: BtiHeader, image: &[u8], palette: Option<&[u8]>) {
        let image = Some(self.intern(image));
        let palette = palette.map(|p| self.intern(p));
        self.textures.push(Texture {
            header,
            image,
            palette,
        });
    }

    /// Every mip level of texture `i` decoded to RGBA8 through [`gx::tex`].
    pub fn decode(&self, i: usize) -> Result<Vec<gx::tex::Image>> {
        use gx::tex::{Palette, PaletteFormat, TexFormat};
        let t = self
            .textures
            .get(i)
            .ok_or_else(|| Error::message(format!("no texture {i}")))?;
        let h = &t.header;
        let data = self
            .image(i)
            .ok_or_else(|| Error::message(format!("texture {i} has no image data")))?;
        let mut tex = gx::tex::Texture::new(
            TexFormat(h.format),
            u32::from(h.width),
            u32::from(h.height),
            data,
        )
        .with_mips(u32::from(h.image_count.max(1)));
        if let Some(p) = self.palette(i) {
            tex = tex.with_palette(Palette::new(PaletteFormat(h.palette_format), p));
        }
        tex.decode().with_context(|| format!("texture {i}"))
    }

    fn intern(&mut self, d: &[u8]) -> usize {
        match self
            .segments
            .iter()
            .position(|s| matches!(s, Segment::Data(x) if x == d))
        {
            Some(i) => i,
            None => {
                self.segments.push(Segment::Data(d.to_vec()));
                self.segments.len() - 1
            }
        }
    }
}

/// Bytes of TEX1's header (magic, size, count, marker, table and name-table offsets).
const TEX1_HEADER: usize = 0x14;

/// Owned TEX1.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tex1 {
    /// The u16 at 0x0A (0xFFFF).
    pub marker: u16,
    /// Textures and data (a [`Segment::Names`] places the name table).
    pub set: TextureSet,
    /// Texture names.
    pub names: Option<NameTable>,
    /// Header-table offset written when there are no textures (retail files: 0).
    pub empty_offset: u32,
    /// Alignment the name table of a TEX1 without textures starts on, padded with [`Tex1::pad`]:
    /// 0 or 1 puts it right after the 0x14-byte header; Pikmin 2's tools align it to 32, so
    /// their empty TEX1 is 64 bytes where the other writers' is 32. The game follows the offset.
    pub names_align: u8,
    /// Padding style.
    pub pad: Pad,
}

impl Tex1 {
    /// Reads the chunk `r` with the default [`Limits`].
    pub fn parse(r: Reader<'_>, pad: Pad) -> Result<Self> {
        Self::parse_with(r, pad, &Limits::default())
    }

    /// Reads the chunk `r`; `limits` bound the texture and name counts.
    pub fn parse_with(r: Reader<'_>, pad: Pad, limits: &Limits) -> Result<Self> {
        r.expect_magic(0, b"TEX1").context("TEX1")?;
        let count = usize::from(r.u16(8).context("TEX1")?);
        let marker = r.u16(0x0A)?;
        let at = r.u32(0x0C)? as usize;
        let names_at = r.u32(0x10)? as usize;
        limits.check_elements(count as u64, r.abs(8))?;
        let names = (names_at != 0)
            .then(|| NameTable::parse_with(r, names_at, limits))
            .transpose()
            .context("TEX1")?;
        let names_len = names.as_ref().map(|n| {
            let mut w = Writer::new();
            let _ = n.write(&mut w);
            w.position()
        });
        let (set, end) = if count == 0 && at == 0 {
            (TextureSet::default(), TEX1_HEADER)
        } else {
            TextureSet::parse(
                &r,
                at,
                count,
                r.len(),
                names_len.map(|l| (names_at, l)),
                limits,
            )
            .context("TEX1")?
        };
        // Without textures the name table follows the header, possibly aligned; 32 (Pikmin 2)
        // is preferred over 16 when both explain the gap so the fact reads as the tool wrote it.
        let names_align = if set.textures.is_empty() && set.segments.is_empty() && names_at != 0 {
            gap_align(TEX1_HEADER, names_at, CHUNK_ALIGN as u8, 1).unwrap_or(0)
        } else {
            0
        };
        let mut m = Tex1 {
            marker,
            set,
            names,
            empty_offset: if count == 0 { at as u32 } else { 0 },
            names_align,
            pad,
        };
        // Whatever follows the last block and is not this style's chunk padding stays as filler.
        let rest = r.rest(end.max(TEX1_HEADER)).unwrap_or_default();
        let expect = gcio::padding_for(end, CHUNK_ALIGN);
        let is_pad = rest.len() == expect && pad.matches(rest);
        if !(rest.is_empty() || is_pad) && count != 0 {
            m.set.segments.push(Segment::Data(rest.to_vec()));
        }
        Ok(m)
    }

    /// Writes the chunk.
    pub fn write(&self) -> Result<Vec<u8>> {
        write_chunk(*b"TEX1", self.pad, |w: &mut Writer| {
            w.u16(u16_of(self.set.textures.len(), "TEX1 count")?)
                .u16(self.marker);
            let table = w.reserve_u32();
            let names = w.reserve_u32();
            let has_names_seg = self.set.segments.contains(&Segment::Names);
            if self.set.textures.is_empty() && self.set.segments.is_empty() {
                w.fix(table, u64::from(self.empty_offset))?;
                if let Some(n) = &self.names {
                    self.pad.align(w, usize::from(self.names_align));
                    w.fix_here(names)?;
                    n.write(w)?;
                }
                return Ok(());
            }
            self.pad.align(w, CHUNK_ALIGN);
            w.fix_here(table)?;
            self.set.write(w, |w| match &self.names {
                Some(n) => n.write(w),
                None => Ok(()),
            })?;
            if !has_names_seg && let Some(n) = &self.names {
                w.fix_here(names)?;
                n.write(w)?;
            }
            // The name table's offset is the position its segment was written at.
            if has_names_seg {
                let pos = self.names_position()?;
                w.fix(names, pos as u64)?;
            }
            Ok(())
        })
        .context("TEX1")
    }

    fn names_position(&self) -> Result<usize> {
        let mut pos = 0x20 + self.set.textures.len() * BtiHeader::SIZE;
        for s in &self.set.segments {
            match s {
                Segment::Data(d) => pos += d.len(),
                Segment::Names => return Ok(pos),
            }
        }
        Err(Error::message("no name-table segment"))
    }
}

/// A standalone `.bti` file: one header at 0, data after it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bti {
    /// The texture (always one) and its data.
    pub set: TextureSet,
    /// The header stores image offset 0 while the image follows the 32-byte header (a variant
    /// some tools write; the game's loader reads the data there). Written back as 0.
    pub image_offset_zero: bool,
}

/// Where a BTI header stores its image offset.
const BTI_IMAGE_OFFSET_AT: usize = 0x1C;

impl Bti {
    /// Parses a `.bti` file (an image offset of 0 reads the image right after the header).
    pub fn parse(data: &[u8]) -> Result<Self> {
        Self::parse_with(data, &Limits::default())
    }

    /// [`Bti::parse`]; `limits` bound the image data copied.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Self> {
        let r = Reader::new(data);
        let h: BtiHeader = read_vec(&r, 0, 1, limits)
            .context("BTI")?
            .into_iter()
            .next()
            .unwrap_or_default();
        let parse =
            |r: &Reader<'_>| TextureSet::parse(r, 0, 1, data.len(), None, limits).context("BTI");
        // Image offset 0: the game's loader reads the image right after the header. Read it there
        // when an image fits; otherwise (nothing there) the header is kept exactly as stored.
        let zero = h.image_offset == 0 && h.image_size().is_some_and(|n| n > 0);
        let after_header = zero
            .then(|| {
                let mut d = data.to_vec();
                if let Some(o) = d.get_mut(BTI_IMAGE_OFFSET_AT..BTI_IMAGE_OFFSET_AT + 4) {
                    o.copy_from_slice(&(BtiHeader::SIZE as u32).to_be_bytes());
                }
                parse(&Reader::new(&d)).ok()
            })
            .flatten()
            .filter(|(set, _)| set.textures.first().is_some_and(|t| t.image.is_some()));
        let image_offset_zero = after_header.is_some();
        let (mut set, end) = match after_header {
            Some(found) => found,
            None => parse(&r)?,
        };
        let rest = r.rest(end).unwrap_or_default();
        if !rest.is_empty() {
            set.segments.push(Segment::Data(rest.to_vec()));
        }
        Ok(Bti {
            image_offset_zero,
            set,
        })
    }

    /// A texture from a header and its image (and palette) bytes.
    pub fn new(header: BtiHeader, image: &[u8], palette: Option<&[u8]>) -> Self {
        let mut set = TextureSet::default();
        set.push(header, image, palette);
        Bti {
            set,
            image_offset_zero: false,
        }
    }

    /// Encodes `image` in `format` with `mips` levels (palettes quantised to RGB5A3 for the
    /// indexed formats) through [`gx::tex`]; wrap repeat, linear filters, LOD range over the chain.
    pub fn encode(image: &gx::tex::Image, format: gx::tex::TexFormat, mips: u8) -> Result<Self> {
        let options = gx::tex::EncodeOptions::default();
        let (header, image, palette) = encode_levels(image, format, mips, &options)?;
        let header = BtiHeader {
            format: header.format,
            width: header.width,
            height: header.height,
            palette_enable: header.palette_enable,
            palette_format: header.palette_format,
            palette_count: header.palette_count,
            ..BtiHeader::new_texture(header.image_count)
        };
        Ok(Bti::new(header, &image, palette.as_deref()))
    }

    /// Encodes `image` as a replacement for the texture `like` describes: its format (and
    /// palette format), as many mip levels as it has (regenerated from `image`), and its wrap,
    /// filter, LOD, anisotropy and alpha settings; only the size follows `image`. A maximum LOD
    /// past the levels a smaller image yields is lowered to the last level.
    pub fn encode_like(image: &gx::tex::Image, like: &BtiHeader) -> Result<Self> {
        let format = gx::tex::TexFormat(like.format);
        let options = gx::tex::EncodeOptions {
            palette_format: gx::tex::PaletteFormat(like.palette_format),
            ..gx::tex::EncodeOptions::default()
        };
        let (header, image, palette) =
            encode_levels(image, format, like.image_count.max(1), &options)?;
        let last = (header.image_count.saturating_sub(1).min(15) * 8) as i8;
        let header = BtiHeader {
            width: header.width,
            height: header.height,
            palette_enable: header.palette_enable,
            palette_format: header.palette_format,
            palette_count: header.palette_count,
            image_count: header.image_count,
            max_lod: like.max_lod.min(last),
            palette_offset: 0,
            image_offset: 0,
            ..*like
        };
        Ok(Bti::new(header, &image, palette.as_deref()))
    }

    /// Every mip level decoded to RGBA8.
    pub fn decode(&self) -> Result<Vec<gx::tex::Image>> {
        self.set.decode(0)
    }

    /// The header.
    pub fn header(&self) -> Option<&BtiHeader> {
        self.set.textures.first().map(|t| &t.header)
    }

    /// Writes the file.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new();
        self.set.write(&mut w, |_| Ok(()))?;
        let mut out = w.into_vec();
        if self.image_offset_zero
            && let Some(o) = out.get_mut(BTI_IMAGE_OFFSET_AT..BTI_IMAGE_OFFSET_AT + 4)
        {
            o.copy_from_slice(&[0; 4]);
        }
        Ok(out)
    }
}

/// Encodes `image` with `mips` levels in `format`: a header holding only the size, format,
/// palette and level count, the image data and the palette (indexed formats).
fn encode_levels(
    image: &gx::tex::Image,
    format: gx::tex::TexFormat,
    mips: u8,
    options: &gx::tex::EncodeOptions,
) -> Result<(BtiHeader, Vec<u8>, Option<Vec<u8>>)> {
    let levels = image.mip_chain(u32::from(mips.max(1)));
    let enc = gx::tex::encode_mips(format, &levels, options)?;
    let dim =
        |v: u32| u16::try_from(v).map_err(|_| Error::message(format!("dimension {v} over 65535")));
    let header = BtiHeader {
        format: format.0,
        width: dim(image.width())?,
        height: dim(image.height())?,
        palette_enable: u8::from(!enc.palette.is_empty()),
        palette_format: options.palette_format.0,
        palette_count: u16_of(enc.palette_entries(), "palette entries")?,
        image_count: u8::try_from(levels.len()).unwrap_or(mips),
        ..BtiHeader::default()
    };
    let palette = (!enc.palette.is_empty()).then_some(enc.palette);
    Ok((header, enc.data, palette))
}

/// Whether storing `image` as `header` describes it drops colour: the intensity formats (I4, I8,
/// IA4, IA8) and IA8 palettes keep one grey level per pixel, so a pixel whose red, green and blue
/// differ comes back grey. A converter warns on it; the encode itself succeeds.
pub fn loses_colour(image: &gx::tex::Image, header: &BtiHeader) -> bool {
    use gx::tex::{PaletteFormat, TexFormat};
    let format = TexFormat(header.format);
    let grey_only = matches!(
        format,
        TexFormat::I4 | TexFormat::I8 | TexFormat::IA4 | TexFormat::IA8
    ) || (format.is_indexed()
        && PaletteFormat(header.palette_format) == PaletteFormat::IA8);
    grey_only && !image.is_grey()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (header, bytes): drives the read and write tests.
    fn golden() -> Vec<(BtiHeader, [u8; 0x20])> {
        vec![
            (
                BtiHeader {
                    format: 0xE,
                    alpha: 0,
                    width: 64,
                    height: 32,
                    wrap_s: 1,
                    wrap_t: 2,
                    mipmap: 1,
                    min_filter: 5,
                    mag_filter: 1,
                    max_lod: 16,
                    image_count: 3,
                    lod_bias: -50,
                    image_offset: 0x20,
                    ..BtiHeader::default()
                },
                [
                    0x0E, 0, 0, 64, 0, 32, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1, 0, 16,
                    3, 0, 0xFF, 0xCE, 0, 0, 0, 0x20,
                ],
            ),
            (
                BtiHeader {
                    format: 0x9,
                    alpha: 1,
                    width: 16,
                    height: 16,
                    palette_enable: 1,
                    palette_format: 2,
                    palette_count: 256,
                    palette_offset: 0x120,
                    image_count: 1,
                    image_offset: 0x20,
                    ..BtiHeader::default()
                },
                [
                    9, 1, 0, 16, 0, 16, 0, 0, 1, 2, 1, 0, 0, 0, 1, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 1,
                    0, 0, 0, 0, 0, 0, 0x20,
                ],
            ),
        ]
    }

    #[test]
    fn golden_headers() {
        for (h, bytes) in golden() {
            assert_eq!(BtiHeader::read(&Reader::new(&bytes), 0).unwrap(), h);
            let mut w = Writer::new();
            h.write(&mut w);
            assert_eq!(w.as_slice(), bytes);
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(BtiHeader::SIZE, 0x20);
        let h = |format, size, image_count| BtiHeader {
            format,
            width: size,
            height: size,
            image_count,
            ..BtiHeader::default()
        };
        assert_eq!(h(0xE, 16, 1).image_size(), Some(128));
        assert_eq!(h(0x6, 4, 1).image_size(), Some(64));
        assert_eq!(h(0x0, 1, 1).image_size(), Some(32));
        assert_eq!(h(7, 4, 1).image_size(), None);
        assert!(h(0x1, 1024, 255).image_size().is_some());
        let h = BtiHeader {
            format: 0x1,
            width: 16,
            height: 8,
            image_count: 3,
            ..BtiHeader::default()
        };
        // 16×8 → 4 blocks, 8×4 → 1, 4×2 → 1.
        assert_eq!(h.image_size(), Some(6 * 32));
    }
}
