//! RGBA8 images: what textures decode to and encode from, mip generation, and PSNR.

use super::pixel::Rgba;
use gcio::{Error, ErrorKind, Limits, Result};

/// Largest width or height accepted anywhere in `tex` (the 16-bit fields of BTI/TEX1 headers).
/// GX hardware samples at most 1024 × 1024; larger values still decode, bounded by [`Limits`].
pub const MAX_DIMENSION: u32 = 0xFFFF;

/// Most pixels an image read from outside (a PNG to convert) or encoded into a texture may have:
/// 8192 × 8192, 64 times what GX samples, 256 MiB as RGBA8. A declared size past it is refused
/// before anything is allocated, so a small file declaring 65535 × 65535 is an error.
pub const MAX_PIXELS: u64 = 1 << 26;

/// The most texels GX samples along a side: `TX_SETIMAGE0` holds width − 1 and height − 1 in
/// 10 bits each.
pub const MAX_SAMPLED_SIDE: u32 = 1024;

/// What keeps GX from sampling a texture of `width × height` with wrap modes `wrap` (S, T;
/// 0 clamps, 1 repeats, 2 mirrors) as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SamplingFault {
    /// A side past [`MAX_SAMPLED_SIDE`]: the hardware cannot address it.
    TooLarge,
    /// A side that repeats or mirrors but is no power of two.
    Wraps {
        /// `'S'` or `'T'`.
        axis: char,
        /// The side's texel count.
        side: u32,
        /// Its wrap mode.
        wrap: u32,
    },
}

/// Every [`SamplingFault`] of a texture: the check validators of any format with GX textures
/// make (sizes as [`sampled_size`] chooses them have none).
pub fn sampling_faults(width: u32, height: u32, wrap: [u32; 2]) -> Vec<SamplingFault> {
    let mut out = Vec::new();
    if width > MAX_SAMPLED_SIDE || height > MAX_SAMPLED_SIDE {
        out.push(SamplingFault::TooLarge);
    }
    for ((axis, side), wrap) in [('S', width), ('T', height)].into_iter().zip(wrap) {
        if wrap != 0 && side > 0 && !side.is_power_of_two() {
            out.push(SamplingFault::Wraps { axis, side, wrap });
        }
    }
    out
}

/// The size at which GX can sample an image of `width × height`: each side at most
/// [`MAX_SAMPLED_SIDE`], and a power of two along an axis whose wrap mode repeats or mirrors
/// (`repeat`: S, T; GX wraps only power-of-two sizes) — the power of two nearest the side
/// (by ratio). Texture coordinates are normalised, so a resized image maps as before.
pub fn sampled_size(width: u32, height: u32, repeat: [bool; 2]) -> (u32, u32) {
    let side = |v: u32, repeat: bool| {
        let v = v.max(1);
        let v = if repeat && !v.is_power_of_two() {
            let below = 1u32 << (31 - v.leading_zeros());
            // `v` nearer `2·below` than `below` by ratio: v² ≥ below · 2·below.
            if u64::from(v) * u64::from(v) >= 2 * u64::from(below) * u64::from(below) {
                below.saturating_mul(2)
            } else {
                below
            }
        } else {
            v
        };
        v.min(MAX_SAMPLED_SIDE)
    };
    (side(width, repeat[0]), side(height, repeat[1]))
}

/// Checks declared image dimensions against [`MAX_DIMENSION`] and [`MAX_PIXELS`].
pub fn check_image_size(width: u32, height: u32) -> Result<()> {
    check_dims(width, height, &Limits::UNLIMITED)?;
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PIXELS {
        return Err(Error::without_offset(ErrorKind::Limit {
            what: "image pixels",
            requested: pixels,
            max: MAX_PIXELS,
        }));
    }
    Ok(())
}

/// An RGBA8 image, row-major, top row first: `width × height` pixels. An indexed image also
/// keeps the colour table its pixels were drawn from ([`Image::indexed`]): the order and
/// duplicates of a C4/C8 palette, and which of two equal entries a pixel uses, are how it was
/// stored, which the pixels alone lose. Equality compares the pixels only.
#[derive(Debug, Clone, Default)]
pub struct Image {
    width: u32,
    height: u32,
    pixels: Vec<Rgba>,
    table: Option<Table>,
}

/// The colour table of an indexed image: at most 256 colours and each pixel's index.
#[derive(Debug, Clone)]
struct Table {
    colors: Vec<Rgba>,
    indices: Vec<u8>,
}

impl PartialEq for Image {
    fn eq(&self, o: &Image) -> bool {
        (self.width, self.height, &self.pixels) == (o.width, o.height, &o.pixels)
    }
}

impl Eq for Image {}

pub(crate) fn check_dims(width: u32, height: u32, limits: &Limits) -> Result<usize> {
    for (what, v) in [("texture width", width), ("texture height", height)] {
        if v > MAX_DIMENSION {
            return Err(Error::without_offset(ErrorKind::Limit {
                what,
                requested: u64::from(v),
                max: u64::from(MAX_DIMENSION),
            }));
        }
    }
    let count = u64::from(width) * u64::from(height);
    limits.check_alloc(count, 4, 0)?;
    usize::try_from(count).map_err(|_| Error::without_offset(ErrorKind::Overflow("pixel count")))
}

impl Image {
    /// An image from `width × height` pixels; errors if the count differs or a side exceeds
    /// [`MAX_DIMENSION`].
    pub fn new(width: u32, height: u32, pixels: Vec<Rgba>) -> Result<Image> {
        let count = check_dims(width, height, &Limits::UNLIMITED)?;
        if pixels.len() != count {
            return Err(Error::without_offset(ErrorKind::Invalid(format!(
                "{width}x{height} image needs {count} pixels, got {}",
                pixels.len()
            ))));
        }
        Ok(Image {
            width,
            height,
            pixels,
            table: None,
        })
    }

    /// An indexed image: `width × height` indices into `colors` (at most 256), row-major. The
    /// pixels are the colours; [`Image::table`] gives the table back, so an encoder can keep
    /// the palette's order (a PNG's PLTE, a C8 texture's TLUT). Errors if the count differs or
    /// an index is past the table.
    pub fn indexed(width: u32, height: u32, colors: Vec<Rgba>, indices: Vec<u8>) -> Result<Image> {
        let bad = |what: String| Err(Error::without_offset(ErrorKind::Invalid(what)));
        if colors.len() > 256 {
            return bad(format!(
                "colour table of {} entries (at most 256)",
                colors.len()
            ));
        }
        let pixels = indices
            .iter()
            .map(|&i| colors.get(usize::from(i)).copied())
            .collect::<Option<Vec<Rgba>>>();
        let Some(pixels) = pixels else {
            return bad(format!(
                "an index is past the colour table's {} entries",
                colors.len()
            ));
        };
        let mut img = Image::new(width, height, pixels)?;
        img.table = Some(Table { colors, indices });
        Ok(img)
    }

    /// The colour table and each pixel's index, for an image made by [`Image::indexed`].
    pub fn table(&self) -> Option<(&[Rgba], &[u8])> {
        self.table
            .as_ref()
            .map(|t| (t.colors.as_slice(), t.indices.as_slice()))
    }

    /// An image from packed RGBA8 bytes (as PNG decoders produce them).
    pub fn from_rgba8(width: u32, height: u32, bytes: &[u8]) -> Result<Image> {
        Image::from_channels(width, height, 4, bytes)
    }

    /// An image from packed 8-bit samples with `channels` per pixel, the layouts PNG decoders
    /// produce: 1 = grey, 2 = grey + alpha, 3 = RGB, 4 = RGBA. Missing alpha is opaque.
    pub fn from_channels(width: u32, height: u32, channels: usize, bytes: &[u8]) -> Result<Image> {
        if !(1..=4).contains(&channels) || !bytes.len().is_multiple_of(channels) {
            return Err(Error::without_offset(ErrorKind::Invalid(format!(
                "{} bytes are not whole pixels of {channels} channels",
                bytes.len()
            ))));
        }
        let pixels = bytes
            .chunks_exact(channels)
            .map(|c| match *c {
                [i] => [i, i, i, 0xFF],
                [i, a] => [i, i, i, a],
                [r, g, b] => [r, g, b, 0xFF],
                [r, g, b, a] => [r, g, b, a],
                _ => [0; 4],
            })
            .collect();
        Image::new(width, height, pixels)
    }

    /// An image of one colour, bounded by the default [`Limits`].
    pub fn filled(width: u32, height: u32, pixel: Rgba) -> Result<Image> {
        Image::filled_with(width, height, pixel, &Limits::default())
    }

    /// [`Image::filled`] with the caller's limits bounding the pixel buffer.
    pub fn filled_with(width: u32, height: u32, pixel: Rgba, limits: &Limits) -> Result<Image> {
        let count = check_dims(width, height, limits)?;
        Image::new(width, height, vec![pixel; count])
    }

    /// An image whose pixel at `(x, y)` is `f(x, y)`, bounded by the default [`Limits`].
    pub fn from_fn(width: u32, height: u32, f: impl FnMut(u32, u32) -> Rgba) -> Result<Image> {
        Image::from_fn_with(width, height, &Limits::default(), f)
    }

    /// [`Image::from_fn`] with the caller's limits bounding the pixel buffer.
    pub fn from_fn_with(
        width: u32,
        height: u32,
        limits: &Limits,
        mut f: impl FnMut(u32, u32) -> Rgba,
    ) -> Result<Image> {
        check_dims(width, height, limits)?;
        let pixels = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| f(x, y))
            .collect();
        Image::new(width, height, pixels)
    }

    /// A synthetic test image for tests, benches and samples: horizontal and vertical gradients,
    /// a hard diagonal edge, a bright ring, light noise, and alpha falling off in the bottom-right
    /// quarter when `alpha` is set. Deterministic.
    pub fn test_pattern(width: u32, height: u32, alpha: bool) -> Result<Image> {
        let (w, h) = (width.max(1), height.max(1));
        Image::from_fn(width, height, |x, y| {
            let noise = ((x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) >> 28) as u8;
            let edge: u8 = if x * h + y * w < w * h { 40 } else { 200 };
            let (dx, dy) = (
                i64::from(x) - i64::from(w / 2),
                i64::from(y) - i64::from(h / 2),
            );
            let r = i64::from(w.min(h) / 4);
            let ring = (dx * dx + dy * dy - r * r).abs() < 4 * r.max(1);
            let blue = if ring {
                255
            } else {
                (u64::from(y) * 255 / u64::from(h)) as u8
            };
            let a = if alpha && x >= w / 2 && y >= h / 2 {
                (255 - (u64::from(x - w / 2) * 255 / u64::from(w - w / 2).max(1))) as u8
            } else {
                255
            };
            [
                (u64::from(x) * 255 / u64::from(w)) as u8,
                edge + noise,
                blue,
                a,
            ]
        })
    }

    pub(crate) fn from_parts(width: u32, height: u32, pixels: Vec<Rgba>) -> Image {
        Image {
            width,
            height,
            pixels,
            table: None,
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, row-major.
    pub fn pixels(&self) -> &[Rgba] {
        &self.pixels
    }

    /// The pixels as packed RGBA8 bytes (what PNG encoders take).
    pub fn as_rgba8(&self) -> &[u8] {
        self.pixels.as_flattened()
    }

    /// The pixels, consuming the image.
    pub fn into_pixels(self) -> Vec<Rgba> {
        self.pixels
    }

    /// The pixel at `(x, y)`, if inside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgba> {
        if x >= self.width {
            return None;
        }
        let i = u64::from(y) * u64::from(self.width) + u64::from(x);
        usize::try_from(i)
            .ok()
            .and_then(|i| self.pixels.get(i))
            .copied()
    }

    /// The pixel at `(x, y)` clamped to the image (edge replication); transparent black if empty.
    pub(crate) fn clamped(&self, x: u32, y: u32) -> Rgba {
        self.pixel(
            x.min(self.width.saturating_sub(1)),
            y.min(self.height.saturating_sub(1)),
        )
        .unwrap_or([0; 4])
    }

    /// True if every pixel is opaque.
    pub fn is_opaque(&self) -> bool {
        self.pixels.iter().all(|p| p[3] == 0xFF)
    }

    /// True if every pixel is grey (`r == g == b`).
    pub fn is_grey(&self) -> bool {
        self.pixels.iter().all(|&[r, g, b, _]| r == g && g == b)
    }

    /// The next mip level: half the size (at least 1), each pixel the rounded mean of a 2 × 2 box
    /// (edges replicated for odd sizes).
    pub fn half(&self) -> Image {
        let (w, h) = ((self.width / 2).max(1), (self.height / 2).max(1));
        let pixels = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let quad = [(0, 0), (1, 0), (0, 1), (1, 1)]
                    .map(|(dx, dy)| self.clamped(2 * x + dx, 2 * y + dy));
                let mut out = [0u8; 4];
                for (c, o) in out.iter_mut().enumerate() {
                    let sum: u32 = quad
                        .iter()
                        .map(|p| u32::from(p.get(c).copied().unwrap_or(0)))
                        .sum();
                    *o = ((sum + 2) / 4) as u8;
                }
                out
            })
            .collect();
        Image::from_parts(w, h, pixels)
    }

    /// The image at the size GX samples it ([`sampled_size`], `repeat`: whether it wraps along
    /// S and T), `None` when it already has that size.
    pub fn sampled(&self, repeat: [bool; 2]) -> Result<Option<Image>> {
        let (w, h) = sampled_size(self.width, self.height, repeat);
        if (w, h) == (self.width, self.height) {
            return Ok(None);
        }
        self.resized(w, h).map(Some)
    }

    /// The image resampled to `width × height` (each at least 1): halved by 2 × 2 boxes while
    /// both sides stay at least twice the target, then bilinear at texel centres (edges
    /// replicated).
    pub fn resized(&self, width: u32, height: u32) -> Result<Image> {
        let (w, h) = (width.max(1), height.max(1));
        check_image_size(w, h)?;
        let mut src = std::borrow::Cow::Borrowed(self);
        while src.width >= 2 * w && src.height >= 2 * h {
            src = std::borrow::Cow::Owned(src.half());
        }
        if (src.width, src.height) == (w, h) {
            return Ok(src.into_owned());
        }
        let axis = |v: u32, from: u32, to: u32| {
            let at = ((v as f32 + 0.5) * from as f32 / to as f32 - 0.5).max(0.0);
            let lo = at.floor();
            (lo as u32, at - lo)
        };
        let pixels = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let ((x0, fx), (y0, fy)) = (axis(x, src.width, w), axis(y, src.height, h));
                let quad =
                    [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| src.clamped(x0 + dx, y0 + dy));
                let weights = [
                    (1.0 - fx) * (1.0 - fy),
                    fx * (1.0 - fy),
                    (1.0 - fx) * fy,
                    fx * fy,
                ];
                let mut out = [0u8; 4];
                for (c, o) in out.iter_mut().enumerate() {
                    let v: f32 = quad
                        .iter()
                        .zip(weights)
                        .map(|(p, wgt)| f32::from(p.get(c).copied().unwrap_or(0)) * wgt)
                        .sum();
                    *o = v.round().clamp(0.0, 255.0) as u8;
                }
                out
            })
            .collect();
        Ok(Image::from_parts(w, h, pixels))
    }

    /// This image followed by `count - 1` successively halved mip levels (`count` at least 1).
    pub fn mip_chain(&self, count: u32) -> Vec<Image> {
        let mut levels = vec![self.clone()];
        for _ in 1..count.clamp(1, 17) {
            if let Some(last) = levels.last() {
                let next = last.half();
                levels.push(next);
            }
        }
        levels
    }
}

/// Peak signal-to-noise ratio of `b` against `a` over all four channels, in dB (`f64::INFINITY`
/// when identical). Errors if the sizes differ.
pub fn psnr(a: &Image, b: &Image) -> Result<f64> {
    if (a.width, a.height) != (b.width, b.height) {
        return Err(Error::without_offset(ErrorKind::Invalid(format!(
            "PSNR of a {}x{} and a {}x{} image",
            a.width, a.height, b.width, b.height
        ))));
    }
    let sq: u64 = a
        .pixels
        .iter()
        .zip(&b.pixels)
        .map(|(p, q)| u64::from(super::pixel::dist2(*p, *q)))
        .sum();
    if sq == 0 {
        return Ok(f64::INFINITY);
    }
    let mse = sq as f64 / (a.pixels.len() as f64 * 4.0);
    Ok(10.0 * (255.0 * 255.0 / mse).log10())
}
