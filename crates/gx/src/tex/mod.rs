//! GX texture formats: decode every format and mip level to RGBA8, and encode back.
//!
//! Stored textures are block-tiled: the image is cut into blocks (8 × 8, 8 × 4 or 4 × 4 pixels
//! depending on the format, always 32 bytes, 64 for RGBA8) stored left to right, top to bottom;
//! sizes round up to whole blocks, and mip levels follow each other, each half the size of the
//! previous (at least 1 × 1). See [`TexFormat`] for the formats.
//!
//! - Decode: [`Texture`] is a zero-copy view over stored data (format, size, mips, palette);
//!   [`Texture::decode`] gives one [`Image`] per level, [`decode`] one level.
//! - Encode: [`encode`] for direct formats, [`encode_mips`] for any format and mip chain
//!   (palettes are built by quantisation and shared by all levels; CMPR uses a fitting encoder).
//! - Exactness: decoding then encoding the lossless formats ([`TexFormat::is_lossless`])
//!   reproduces the bytes, padding included when decoded at [`TexFormat::padded`] size; RGB5A3
//!   too, except alpha-7 A3RGB444 texels, which decode like RGB555 ones and come back in that
//!   form. Palette formats are exact at the index level ([`decode_indices`], [`encode_indices`]).
//!   CMPR decoded pixels re-encode exactly, mostly to the same bytes, through
//!   [`cmpr::encode_exact`].
//! - Choosing: [`choose_format`] for an importer (compact, as the games store textures),
//!   [`suggest_format`] to keep the pixels.
//!
//! ```
//! use gx::tex::{self, Image, TexFormat, Texture, EncodeOptions};
//!
//! // A 6 × 5 gradient, stored as RGB5A3 with a mip chain of 3 levels.
//! let img = Image::from_fn(6, 5, |x, y| [x as u8 * 40, y as u8 * 50, 128, 255]).unwrap();
//! let enc = tex::encode_mips(TexFormat::RGB5A3, &img.mip_chain(3), &EncodeOptions::default()).unwrap();
//! assert_eq!(enc.data.len(), tex::image_size(TexFormat::RGB5A3, 6, 5, 3).unwrap()); // 128 + 32 + 32
//!
//! let levels = Texture::new(TexFormat::RGB5A3, 6, 5, &enc.data).with_mips(3).decode().unwrap();
//! assert_eq!((levels[2].width(), levels[2].height()), (1, 1));
//! assert!(tex::psnr(&img, &levels[0]).unwrap() > 35.0);
//!
//! // Palettes: a 4-colour image in C4 with an RGB565 palette decodes exactly.
//! let img = Image::from_fn(8, 8, |x, _| [[255, 0, 0, 255], [0, 255, 0, 255]][x as usize % 2]).unwrap();
//! let opts = EncodeOptions { palette_format: tex::PaletteFormat::RGB565, ..Default::default() };
//! let enc = tex::encode_mips(TexFormat::C4, &[img.clone()], &opts).unwrap();
//! let palette = tex::Palette::new(opts.palette_format, &enc.palette);
//! assert_eq!(tex::decode(TexFormat::C4, 8, 8, &enc.data, Some(palette)).unwrap(), img);
//! ```

mod blocks;
pub mod cmpr;
mod fast;
mod format;
mod image;
mod palette;
mod pixel;
#[cfg(target_arch = "x86_64")]
mod simd;

pub use format::{
    PaletteFormat, TexFormat, image_size, level_dims, level_offset, level_size, palette_size,
};
pub use image::{
    Image, MAX_DIMENSION, MAX_PIXELS, MAX_SAMPLED_SIDE, SamplingFault, check_image_size, psnr,
    sampled_size, sampling_faults,
};
pub use pixel::Rgba;

use gcio::{Context, Error, ErrorKind, Limits, Reader, Result};

/// A palette as stored: 16-bit big-endian entries in `format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette<'a> {
    /// How entries are encoded.
    pub format: PaletteFormat,
    /// The entries' bytes (2 per entry).
    pub data: &'a [u8],
}

impl<'a> Palette<'a> {
    /// A palette over stored bytes.
    pub fn new(format: PaletteFormat, data: &'a [u8]) -> Self {
        Palette { format, data }
    }

    /// Number of entries (a trailing odd byte is not one).
    pub fn len(&self) -> usize {
        self.data.len() / 2
    }

    /// True if the palette has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first `dst.len()` entries (at most [`Palette::len`]) as RGBA8 into `dst`, for a
    /// palette format already checked as known.
    fn convert_into(&self, dst: &mut [Rgba]) {
        let codes = dst.iter_mut().zip(self.data.as_chunks::<2>().0);
        // The 16-bit formats through `fast`'s split tables (no branch on RGB5A3's mode bit).
        match self.format {
            PaletteFormat::RGB565 => codes.for_each(|(d, c)| *d = fast::rgb565(*c)),
            PaletteFormat::RGB5A3 => codes.for_each(|(d, c)| *d = fast::rgb5a3(*c)),
            f => codes.for_each(|(d, c)| *d = palette::to_rgba(f, u16::from_be_bytes(*c))),
        }
    }

    /// The entries as RGBA8.
    pub fn colors(&self) -> Result<Vec<Rgba>> {
        self.format.require_known()?;
        Ok(self
            .data
            .chunks_exact(2)
            .map(|c| {
                let code = c.iter().fold(0u16, |acc, &b| (acc << 8) | u16::from(b));
                palette::to_rgba(self.format, code)
            })
            .collect())
    }
}

/// Encodes RGBA8 colours as palette entries (each to the nearest representable value).
pub fn encode_palette(format: PaletteFormat, colors: &[Rgba]) -> Result<Vec<u8>> {
    format.require_known()?;
    Ok(colors
        .iter()
        .flat_map(|&c| palette::to_code(format, c).to_be_bytes())
        .collect())
}

/// A stored texture: a zero-copy view over its image data and palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Texture<'a> {
    /// Pixel format.
    pub format: TexFormat,
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0.
    pub height: u32,
    /// Number of mip levels stored (0 is read as 1).
    pub mips: u32,
    /// The image data: all levels, one after another (may run past the last level).
    pub data: &'a [u8],
    /// The palette, required by the indexed formats.
    pub palette: Option<Palette<'a>>,
    /// Absolute file offset of `data`, for error messages.
    pub base: u64,
    /// Allocation bounds for decoded images.
    pub limits: Limits,
}

impl<'a> Texture<'a> {
    /// A single-level texture without palette over `data`.
    pub fn new(format: TexFormat, width: u32, height: u32, data: &'a [u8]) -> Self {
        Texture {
            format,
            width,
            height,
            mips: 1,
            data,
            palette: None,
            base: 0,
            limits: Limits::default(),
        }
    }

    /// With `mips` levels.
    #[must_use]
    pub fn with_mips(mut self, mips: u32) -> Self {
        self.mips = mips;
        self
    }

    /// With a palette.
    #[must_use]
    pub fn with_palette(mut self, palette: Palette<'a>) -> Self {
        self.palette = Some(palette);
        self
    }

    /// With `data` located at absolute file offset `base` (errors then cite file offsets).
    #[must_use]
    pub fn at(mut self, base: u64) -> Self {
        self.base = base;
        self
    }

    /// With other allocation bounds.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Number of levels (`mips`, at least 1).
    pub fn levels(&self) -> u32 {
        self.mips.max(1)
    }

    /// Bytes all levels occupy.
    pub fn size(&self) -> Result<usize> {
        image_size(self.format, self.width, self.height, self.levels())
    }

    /// The stored bytes of level `level` and its size.
    pub fn level_data(&self, level: u32) -> Result<(&'a [u8], u32, u32)> {
        let (w, h) = level_dims(self.width, self.height, level);
        let off = level_offset(self.format, self.width, self.height, level)?;
        let len = level_size(self.format, w, h)?;
        let bytes = Reader::with_base(self.data, self.base).bytes(off, len)?;
        Ok((bytes, w, h))
    }

    /// Decodes level `level` to RGBA8.
    pub fn decode_level(&self, level: u32) -> Result<Image> {
        let (bytes, w, h) = self.level_data(level)?;
        let offset = self.base + level_offset(self.format, self.width, self.height, level)? as u64;
        decode_at(self.format, w, h, bytes, self.palette, offset, &self.limits)
            .with_context(|| format!("{} mip level {level}", self.format_name()))
    }

    /// Decodes every level.
    pub fn decode(&self) -> Result<Vec<Image>> {
        (0..self.levels()).map(|l| self.decode_level(l)).collect()
    }

    /// The raw palette indices of level `level` (indexed formats only), row-major.
    pub fn indices(&self, level: u32) -> Result<Vec<u16>> {
        let (bytes, w, h) = self.level_data(level)?;
        decode_indices_with(self.format, w, h, bytes, &self.limits)
    }

    fn format_name(&self) -> String {
        self.format
            .name()
            .map_or_else(|| format!("format {:#x}", self.format.0), str::to_owned)
    }
}

fn check_alloc(w: u32, h: u32, limits: &Limits) -> Result<usize> {
    image::check_dims(w, h, limits)
}

/// Decodes one level of `width × height` pixels from `data` (which may be longer). Indexed
/// formats need `palette`; an index past its end is an error. The image is bounded by the
/// default [`Limits`].
pub fn decode(
    format: TexFormat,
    width: u32,
    height: u32,
    data: &[u8],
    palette: Option<Palette<'_>>,
) -> Result<Image> {
    decode_with(format, width, height, data, palette, &Limits::default())
}

/// [`decode`] with the caller's limits bounding the decoded image.
pub fn decode_with(
    format: TexFormat,
    width: u32,
    height: u32,
    data: &[u8],
    palette: Option<Palette<'_>>,
    limits: &Limits,
) -> Result<Image> {
    let len = level_size(format, width, height)?;
    let bytes = Reader::new(data).bytes(0, len)?;
    decode_at(format, width, height, bytes, palette, 0, limits)
}

/// Decodes one level into `out`: RGBA8 bytes, row-major, exactly `width × height × 4` long. The
/// same pixels as [`decode`], into a buffer the caller owns and may reuse (nothing is allocated
/// except an indexed format's palette colours).
pub fn decode_into(
    format: TexFormat,
    width: u32,
    height: u32,
    data: &[u8],
    palette: Option<Palette<'_>>,
    out: &mut [u8],
) -> Result<()> {
    let len = level_size(format, width, height)?;
    let bytes = Reader::new(data).bytes(0, len)?;
    let count = image::check_dims(width, height, &Limits::UNLIMITED)?;
    let (pixels, rest) = out.as_chunks_mut::<4>();
    if pixels.len() != count || !rest.is_empty() {
        return Err(Error::without_offset(ErrorKind::Invalid(format!(
            "{width}x{height} level needs {} output bytes, got {}",
            count * 4,
            out.len()
        ))));
    }
    decode_pixels(format, width, height, bytes, palette, 0, pixels)
}

fn decode_at(
    format: TexFormat,
    width: u32,
    height: u32,
    bytes: &[u8],
    palette: Option<Palette<'_>>,
    offset: u64,
    limits: &Limits,
) -> Result<Image> {
    let count = check_alloc(width, height, limits)?;
    let mut pixels = vec![[0u8; 4]; count];
    decode_pixels(format, width, height, bytes, palette, offset, &mut pixels)?;
    Ok(Image::from_parts(width, height, pixels))
}

/// Decodes `bytes` (exactly the level's blocks) into `out` (`width × height` pixels).
fn decode_pixels(
    format: TexFormat,
    width: u32,
    height: u32,
    bytes: &[u8],
    palette: Option<Palette<'_>>,
    offset: u64,
    out: &mut [Rgba],
) -> Result<()> {
    let (w, h) = (width as usize, height as usize);
    if !format.is_indexed() {
        format.require_block()?;
        return if fast::decode_direct(format, w, h, bytes, out) {
            Ok(())
        } else {
            Err(Error::without_offset(ErrorKind::Invalid(format!(
                "no decoder for texture format {:#x}",
                format.0
            ))))
        };
    }
    let palette = palette.ok_or_else(|| {
        Error::new(
            ErrorKind::Invalid(format!(
                "{} texture without a palette",
                format.name().unwrap_or("indexed")
            )),
            offset,
        )
    })?;
    palette.format.require_known()?;
    // Only the entries up to the largest stored index are converted (a palette in first-use
    // order, or a small level of a mip chain, uses few of them), into a stack table when they
    // fit: the conversion, not the decode, is the cost of a small level with a large palette.
    let used = fast::max_index(format, bytes).map_or(0, |m| usize::from(m) + 1);
    let n = used.min(palette.len());
    let mut table = [[0u8; 4]; 256];
    let heap;
    let colors: &[Rgba] = match table.get_mut(..n) {
        Some(t) => {
            palette.convert_into(t);
            // Every stored index is below `n` when the palette holds them all: the whole table
            // (zeros past `n`, never read) then serves C4 and C8 without a copy or a range check.
            let all: &[Rgba] = &table;
            if used <= palette.len() {
                all
            } else {
                all.get(..n).unwrap_or(all)
            }
        }
        None => {
            heap = {
                let mut v = vec![[0u8; 4]; n];
                palette.convert_into(&mut v);
                v
            };
            &heap
        }
    };
    if fast::decode_indexed(format, w, h, bytes, colors, out) {
        return Ok(());
    }
    // An index past the palette: the per-block walk names the first block holding one.
    let mut idx = [0u16; 64];
    let pixels = blocks::untile(format, width, height, bytes, |b, at, px| {
        blocks::decode_indices(format, b, &mut idx);
        for (p, &i) in px.iter_mut().zip(&idx) {
            let i = i & 0x3FFF;
            *p = *colors.get(usize::from(i)).ok_or_else(|| {
                Error::new(
                    ErrorKind::Invalid(format!(
                        "palette index {i} past the palette's {} entries",
                        colors.len()
                    )),
                    offset + at as u64,
                )
            })?;
        }
        Ok(())
    })?;
    out.copy_from_slice(&pixels);
    Ok(())
}

/// The largest palette index stored in `data` (an indexed format's whole blocks, padding
/// texels included; C14X2 without its ignored top bits), `None` for a direct format or no data.
pub fn max_index(format: TexFormat, data: &[u8]) -> Option<u16> {
    fast::max_index(format, data)
}

/// The raw palette indices of one `width × height` level of an indexed format, row-major.
/// C14X2 values keep the two top bits the hardware ignores (mask with `0x3FFF`).
/// The index list is bounded by the default [`Limits`].
pub fn decode_indices(format: TexFormat, width: u32, height: u32, data: &[u8]) -> Result<Vec<u16>> {
    decode_indices_with(format, width, height, data, &Limits::default())
}

/// [`decode_indices`] with the caller's limits bounding the index list.
pub fn decode_indices_with(
    format: TexFormat,
    width: u32,
    height: u32,
    data: &[u8],
    limits: &Limits,
) -> Result<Vec<u16>> {
    require_indexed(format)?;
    image::check_dims(width, height, limits)?;
    let len = level_size(format, width, height)?;
    let bytes = Reader::new(data).bytes(0, len)?;
    blocks::untile(format, width, height, bytes, |b, _, idx| {
        blocks::decode_indices(format, b, idx);
        Ok(())
    })
}

/// Stores row-major palette indices as one level of an indexed format (C4 keeps the low 4 bits,
/// C8 the low 8, C14X2 all 16). Padding repeats the edge indices.
pub fn encode_indices(
    format: TexFormat,
    width: u32,
    height: u32,
    indices: &[u16],
) -> Result<Vec<u8>> {
    require_indexed(format)?;
    let count = image::check_dims(width, height, &Limits::default())?;
    if indices.len() != count {
        return Err(Error::without_offset(ErrorKind::Invalid(format!(
            "{width}x{height} level needs {count} indices, got {}",
            indices.len()
        ))));
    }
    let mut out = vec![0u8; level_size(format, width, height)?];
    let at = |x: u32, y: u32| {
        indices
            .get((y as usize) * (width as usize) + x as usize)
            .copied()
            .unwrap_or(0)
    };
    blocks::tile(format, width, height, at, &mut out, |idx, o| {
        blocks::encode_indices(format, idx, o)
    })?;
    Ok(out)
}

fn require_indexed(format: TexFormat) -> Result<()> {
    if format.is_indexed() {
        Ok(())
    } else {
        Err(Error::without_offset(ErrorKind::Invalid(format!(
            "{} is not a palette format",
            format.name().unwrap_or("unknown format")
        ))))
    }
}

/// Encodes one level in a direct (non-palette) format. Pixels outside the image that fill the
/// last blocks repeat the edge pixels.
pub fn encode(format: TexFormat, image: &Image) -> Result<Vec<u8>> {
    if format.is_indexed() {
        return Err(Error::without_offset(ErrorKind::Invalid(format!(
            "{} needs a palette: use encode_mips",
            format.name().unwrap_or("indexed format")
        ))));
    }
    let mut out = vec![0u8; level_size(format, image.width(), image.height())?];
    let at = |x, y| image.clamped(x, y);
    let direct = |px: &_, o: &mut [u8]| blocks::encode_direct(format, px, o);
    let encode: &dyn Fn(&_, &mut [u8]) = if format == TexFormat::CMPR {
        &cmpr::encode_block
    } else {
        &direct
    };
    blocks::tile(format, image.width(), image.height(), at, &mut out, encode)?;
    Ok(out)
}

/// Options for [`encode_mips`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Palette format for C4/C8/C14X2 (default RGB5A3: keeps alpha).
    pub palette_format: PaletteFormat,
    /// Most palette entries to use (default: all the format can address).
    pub max_palette_entries: Option<usize>,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            palette_format: PaletteFormat::RGB5A3,
            max_palette_entries: None,
        }
    }
}

/// An encoded texture: the image data of all levels and, for indexed formats, the palette.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Encoded {
    /// All levels, one after another.
    pub data: Vec<u8>,
    /// Palette entries (2 bytes each); empty for direct formats.
    pub palette: Vec<u8>,
}

impl Encoded {
    /// Number of palette entries.
    pub fn palette_entries(&self) -> usize {
        self.palette.len() / 2
    }
}

/// Encodes a mip chain (level `i` must be [`level_dims`] of level 0 at `i`; see
/// [`Image::mip_chain`]). Indexed formats get one palette built from all levels. A level 0 past
/// [`MAX_PIXELS`] is refused.
pub fn encode_mips(
    format: TexFormat,
    levels: &[Image],
    options: &EncodeOptions,
) -> Result<Encoded> {
    format.require_block()?;
    let Some(first) = levels.first() else {
        return Err(Error::without_offset(ErrorKind::Invalid(
            "no image to encode".into(),
        )));
    };
    check_image_size(first.width(), first.height())?;
    for (i, img) in levels.iter().enumerate() {
        let want = level_dims(first.width(), first.height(), i as u32);
        if (img.width(), img.height()) != want {
            return Err(Error::without_offset(ErrorKind::Invalid(format!(
                "mip level {i} is {}x{}, expected {}x{}",
                img.width(),
                img.height(),
                want.0,
                want.1
            ))));
        }
    }
    let mut out = Encoded::default();
    if !format.is_indexed() {
        for img in levels {
            out.data.extend(encode(format, img)?);
        }
        return Ok(out);
    }
    let pf = options.palette_format.require_known()?;
    let max = options
        .max_palette_entries
        .unwrap_or(usize::MAX)
        .min(format.max_palette_entries());
    if let Some(out) = from_table(format, levels, pf, max)? {
        return Ok(out);
    }
    let q = palette::quantise(levels.iter().flat_map(|l| l.pixels()), pf, max);
    out.palette = q.entries.iter().flat_map(|e| e.to_be_bytes()).collect();
    for img in levels {
        let start = out.data.len();
        out.data
            .resize(start + level_size(format, img.width(), img.height())?, 0);
        let at = |x, y| q.index(pf, img.clamped(x, y));
        if let Some(dst) = out.data.get_mut(start..) {
            blocks::tile(format, img.width(), img.height(), at, dst, |idx, o| {
                blocks::encode_indices(format, idx, o)
            })?;
        }
    }
    Ok(out)
}

/// A level 0 with a colour table ([`Image::indexed`]) that fits `max` entries of `pf` exactly,
/// encoded with that table as its palette, in its order: a decoded C4/C8 texture comes back with
/// its own palette and indices. Lower mip levels take each texel's nearest entry of that table
/// (one palette serves the whole chain), so level 0 stays exact. Padding outside the image is
/// index 0, as HAL's encoder writes it (its C8 images' padding columns). `None` when there is
/// no such table.
fn from_table(
    format: TexFormat,
    levels: &[Image],
    pf: PaletteFormat,
    max: usize,
) -> Result<Option<Encoded>> {
    let (Some(first), 1..=256) = (levels.first(), format.max_palette_entries()) else {
        return Ok(None);
    };
    let Some((colors, indices)) = first.table() else {
        return Ok(None);
    };
    let codes: Vec<u16> = colors.iter().map(|&c| palette::to_code(pf, c)).collect();
    let exact = codes
        .iter()
        .zip(colors)
        .all(|(&code, &c)| palette::to_rgba(pf, code) == c);
    let fits = colors.len() <= max.min(format.max_palette_entries())
        && indices.iter().all(|&i| usize::from(i) < colors.len());
    if !exact || !fits {
        return Ok(None);
    }
    let (bw, bh, _) = format.require_block()?;
    let mut data = Vec::new();
    for (k, img) in levels.iter().enumerate() {
        let (w, h) = (img.width(), img.height());
        let (pw, ph) = (w.div_ceil(bw) * bw, h.div_ceil(bh) * bh);
        let index = |x: u32, y: u32| -> u16 {
            if k == 0 {
                let at = (y as usize) * (w as usize) + x as usize;
                indices.get(at).map_or(0, |&i| u16::from(i))
            } else {
                img.pixel(x, y)
                    .map_or(0, |p| palette::nearest(colors, p) as u16)
            }
        };
        let padded: Vec<u16> = (0..ph)
            .flat_map(|y| (0..pw).map(move |x| (x, y)))
            .map(|(x, y)| if y < h && x < w { index(x, y) } else { 0 })
            .collect();
        data.extend(encode_indices(format, pw, ph, &padded)?);
    }
    Ok(Some(Encoded {
        data,
        palette: codes.iter().flat_map(|e| e.to_be_bytes()).collect(),
    }))
}

/// A sensible format for storing `image` (e.g. converting a PNG with no format given): I8 when
/// the image is grey with alpha equal to intensity (as I8 decodes), IA8 for other grey images
/// (both exact), CMPR for colour images whose alpha is only 0 or 255, RGB5A3 otherwise.
pub fn suggest_format(image: &Image) -> TexFormat {
    let px = image.pixels();
    if image.is_grey() {
        if px.iter().all(|&[i, _, _, a]| i == a) {
            TexFormat::I8
        } else {
            TexFormat::IA8
        }
    } else if px.iter().all(|p| p[3] == 0 || p[3] == 0xFF) {
        TexFormat::CMPR
    } else {
        TexFormat::RGB5A3
    }
}

/// The format an importer stores `image` in for the game (e.g. glTF → J3D): opaque colour →
/// CMPR (4 bits per texel, what Nintendo's models use for most colour textures), colour with
/// any alpha → RGB5A3, opaque grey → I8, grey with alpha → IA8.
///
/// Unlike [`suggest_format`], which keeps the decoded RGBA8 where a format can, this favours
/// size the way the games do: CMPR is lossy, and I8 decodes with alpha equal to intensity,
/// which the materials of opaque textures ignore.
pub fn choose_format(image: &Image) -> TexFormat {
    match (image.is_grey(), image.is_opaque()) {
        (true, true) => TexFormat::I8,
        (true, false) => TexFormat::IA8,
        (false, true) => TexFormat::CMPR,
        (false, false) => TexFormat::RGB5A3,
    }
}

/// Fuzz body: decodes `data` as a texture whose shape comes from its first 8 bytes (format,
/// palette format, width, height, mips, palette length), then re-encodes what decoded. Never
/// panics; work is bounded by the input size.
pub fn fuzz_decode(data: &[u8]) {
    let Some((head, rest)) = data.split_at_checked(8) else {
        return;
    };
    let [f, pf, w0, w1, h0, h1, mips, pal] = <[u8; 8]>::try_from(head).unwrap_or_default();
    let format = TexFormat(f & 0xF);
    let width = u32::from(u16::from_be_bytes([w0, w1]) & 0x1FF);
    let height = u32::from(u16::from_be_bytes([h0, h1]) & 0x1FF);
    let (pal_bytes, image) = rest.split_at(rest.len().min(usize::from(pal) * 2));
    let tex = Texture::new(format, width, height, image)
        .with_mips(u32::from(mips & 7))
        .with_palette(Palette::new(PaletteFormat(pf % 4), pal_bytes))
        .at(8);
    let _ = tex.size();
    let _ = tex.indices(0);
    let Ok(levels) = tex.decode() else {
        return;
    };
    // Re-encode small results only: CMPR and palette encoders are the slow paths.
    if levels.first().is_some_and(|l| l.pixels().len() <= 64 * 64) {
        let opts = EncodeOptions {
            palette_format: PaletteFormat(pf % 3),
            max_palette_entries: Some(usize::from(mips) + 1),
        };
        let _ = encode_mips(format, &levels, &opts);
    }
}
