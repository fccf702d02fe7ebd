//! Whole-block decoders writing straight into the output rows: the decode path of every format.
//!
//! A block row band (`block height` output rows) is walked block by block; each block of a format
//! is a fixed-size array (`&[u8; 32]`, `&[u8; 64]`) and each of its output rows a fixed-size
//! `&mut [Rgba; W]`, so the per-pixel work has no bounds checks and the compiler unrolls and
//! vectorises it. Blocks that stick out of the image (right and bottom edges) decode into a
//! scratch block and copy the visible part. `blocks::decode_direct` / `cmpr::decode_block` stay
//! the reference the tests compare against. On x86-64 CPUs with AVX2, `simd` supplies the
//! kernels of the formats it covers (the walk stays this module's); these kernels are the
//! portable path and checked on every CPU.

#[cfg(test)]
use super::cmpr;
use super::format::TexFormat;
use super::pixel::Rgba;

/// Decodes row `r` (`< H`) of a block of `B` bytes into `W` pixels. Closures are kernels; the
/// SIMD kernels are types whose `#[inline(always)]` method keeps the whole chain inlined into
/// the function compiled for their CPU features (a closure body may be compiled apart, without
/// them, and then every intrinsic becomes a call).
pub(super) trait Row<const W: usize, const B: usize> {
    /// True when [`Row::rows2`] shares work between a pair of rows: the walk then goes over a
    /// band two output rows at a time.
    const PAIRS: bool = false;

    /// Decodes row `r` of `block` into `out`.
    fn row(&self, block: &[u8; B], r: usize, out: &mut [Rgba; W]);

    /// Decodes rows `r` (even) and `r + 1` of `block`.
    #[inline(always)]
    fn rows2(&self, block: &[u8; B], r: usize, out0: &mut [Rgba; W], out1: &mut [Rgba; W]) {
        self.row(block, r, out0);
        self.row(block, r + 1, out1);
    }
}

impl<const W: usize, const B: usize, F: Fn(&[u8; B], usize, &mut [Rgba; W])> Row<W, B> for F {
    #[inline(always)]
    fn row(&self, block: &[u8; B], r: usize, out: &mut [Rgba; W]) {
        self(block, r, out)
    }
}

/// Decodes a whole block of `B` bytes, its row `y` at `out[y * stride + x0..]` (as [`Row`], for
/// kernels that share work between rows).
pub(super) trait Block<const B: usize> {
    /// Decodes `block` into `out`.
    fn block(&self, block: &[u8; B], out: &mut [Rgba], stride: usize, x0: usize);
}

impl<const B: usize, F: Fn(&[u8; B], &mut [Rgba], usize, usize)> Block<B> for F {
    #[inline(always)]
    fn block(&self, block: &[u8; B], out: &mut [Rgba], stride: usize, x0: usize) {
        self(block, out, stride, x0)
    }
}

/// Decodes four rows of a block of `B` bytes, `W` pixels wide.
pub(super) trait Tile<const W: usize, const B: usize> {
    /// Decodes rows `top..top + 4` of `block` into `rows`.
    fn tile(&self, block: &[u8; B], top: usize, rows: [&mut [Rgba; W]; 4]);
}

/// A [`Row`] kernel as a [`Tile`]: four rows one after the other (two pairs for kernels that
/// share work between the rows of a pair).
pub(super) struct RowTile<R>(pub(super) R);

impl<const W: usize, const B: usize, R: Row<W, B>> Tile<W, B> for RowTile<R> {
    #[inline(always)]
    fn tile(&self, b: &[u8; B], top: usize, rows: [&mut [Rgba; W]; 4]) {
        let [d0, d1, d2, d3] = rows;
        if R::PAIRS {
            self.0.rows2(b, top, d0, d1);
            self.0.rows2(b, top + 2, d2, d3);
        } else {
            for (r, d) in [d0, d1, d2, d3].into_iter().enumerate() {
                self.0.row(b, top + r, d);
            }
        }
    }
}

/// Largest level, in pixels, decoded by [`tiles_with`]: its output (16 KB at most) stays in the
/// L1 cache while four rows are written at a time. Larger levels are faster by rows in address
/// order (128 × 128 to 1024 × 1024 measured), except I4 into 32-byte aligned output.
pub(super) const TILE_PIXELS: usize = 64 * 64;

/// Decodes `width × height` pixels of whole `W × H` blocks (`H` a multiple of 4, `width` of `W`,
/// `height` of `H`; false, nothing written, otherwise) from `data` into `out`, block by block,
/// four rows of a block at a time through `tile`. Per four output rows the rows are split off
/// once and zipped with the band's blocks: no bounds check per store and no division per band,
/// which is where a row walk spends the time of a small level (a few blocks per band).
#[inline(always)]
pub(super) fn tiles_with<const W: usize, const H: usize, const B: usize, T: Tile<W, B>>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    tile: T,
) -> bool {
    if !width.is_multiple_of(W) || !height.is_multiple_of(H) || !H.is_multiple_of(4) {
        return false;
    }
    let blocks_x = width / W;
    let (mut blocks, _) = data.as_chunks::<B>();
    let (mut pieces, _) = out.as_chunks_mut::<W>();
    if blocks_x == 1 {
        // One block per band (the last levels of a mip chain): its rows follow one another.
        let (groups, _) = pieces.as_chunks_mut::<4>();
        for (g, [d0, d1, d2, d3]) in groups.iter_mut().enumerate() {
            if let Some(b) = blocks.get(g / (H / 4)) {
                tile.tile(b, 4 * (g % (H / 4)), [d0, d1, d2, d3]);
            }
        }
        return true;
    }
    for _ in 0..height / H {
        let Some((band, rest)) = blocks.split_at_checked(blocks_x) else {
            break;
        };
        blocks = rest;
        for part in 0..H / 4 {
            let Some((rows, more)) = pieces.split_at_mut_checked(4 * blocks_x) else {
                return true;
            };
            pieces = more;
            let (r0, rows) = rows.split_at_mut(blocks_x);
            let (r1, rows) = rows.split_at_mut(blocks_x);
            let (r2, r3) = rows.split_at_mut(blocks_x);
            for ((((b, d0), d1), d2), d3) in band.iter().zip(r0).zip(r1).zip(r2).zip(r3) {
                tile.tile(b, 4 * part, [d0, d1, d2, d3]);
            }
        }
    }
    true
}

/// [`tiles_with`] for output 16 bytes (4 pixels) off a 32-byte boundary and 4 × 4 blocks decoded
/// in side-by-side pairs (`pair`, 8 pixels: one 32-byte store per row): each band's rows are cut
/// into the first block's 4 pixels (`single`), pairs of blocks 1-2, 3-4, … on 32-byte boundaries,
/// and the last block's 4 pixels when the count is even, so no row store straddles a cache line
/// or is split in two. `B2` is `2 × B`. False (nothing written) unless the level is whole blocks
/// at least two wide.
#[inline(always)]
pub(super) fn tiles_offset_with<const B: usize, const B2: usize, S, P>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    single: S,
    pair: P,
) -> bool
where
    S: Tile<4, B>,
    P: Tile<8, B2>,
{
    if B2 != 2 * B || width < 8 || !width.is_multiple_of(4) || !height.is_multiple_of(4) {
        return false;
    }
    let n = width / 4;
    let (blocks, _) = data.as_chunks::<B>();
    for (band, rows) in blocks.chunks_exact(n).zip(out.chunks_exact_mut(4 * width)) {
        let (r0, rows) = rows.split_at_mut(width);
        let (r1, rows) = rows.split_at_mut(width);
        let (r2, r3) = rows.split_at_mut(width);
        let (Some(c0), Some(c1), Some(c2), Some(c3)) =
            (offset(r0), offset(r1), offset(r2), offset(r3))
        else {
            return true;
        };
        let Some((first, _)) = band.split_first() else {
            return true;
        };
        single.tile(first, 0, [c0.0, c1.0, c2.0, c3.0]);
        let (pairs, _) = band
            .as_flattened()
            .get(B..)
            .unwrap_or_default()
            .as_chunks::<B2>();
        let mids = c0.1.iter_mut().zip(c1.1).zip(c2.1).zip(c3.1);
        for (b, (((d0, d1), d2), d3)) in pairs.iter().zip(mids) {
            pair.tile(b, 0, [d0, d1, d2, d3]);
        }
        if let (Some(t0), Some(t1), Some(t2), Some(t3), Some(last)) =
            (c0.2, c1.2, c2.2, c3.2, band.last())
        {
            single.tile(last, 0, [t0, t1, t2, t3]);
        }
    }
    true
}

/// A row cut for [`tiles_offset_with`]: its first 4 pixels, the 8-pixel pieces after them, and
/// the last 4 pixels when they are left over.
type Offset<'a> = (
    &'a mut [Rgba; 4],
    &'a mut [[Rgba; 8]],
    Option<&'a mut [Rgba; 4]>,
);

/// See [`Offset`].
#[inline(always)]
fn offset(row: &mut [Rgba]) -> Option<Offset<'_>> {
    let (head, rest) = row.split_first_chunk_mut::<4>()?;
    let (mid, tail) = rest.as_chunks_mut::<8>();
    Some((head, mid, tail.first_chunk_mut::<4>()))
}

/// Decodes `width × height` pixels from `data` (the level's blocks of `B` bytes, each `W × H`
/// pixels) into `out` (`width × height`). `row` decodes one row of a block.
///
/// A full band of blocks is walked output row by output row: each row is one slice cut into
/// `[Rgba; W]` pieces zipped with the band's blocks, so the stores run in address order with no
/// bounds checks. Blocks that stick out (right and bottom edges) decode into a scratch block.
#[inline(always)]
pub(super) fn untile_with<const W: usize, const H: usize, const B: usize, R: Row<W, B>>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    row: R,
) {
    if width == 0 || height == 0 {
        return;
    }
    if width <= SMALL_WIDTH && width.is_multiple_of(W) && height.is_multiple_of(H) {
        return small_with::<W, H, B, R>(width, height, data, out, row);
    }
    let blocks_x = width.div_ceil(W);
    let full_x = width / W;
    for (blocks, band) in bands::<H, B>(blocks_x, width, data, out) {
        let edge = if band.len() == width * H {
            if R::PAIRS {
                for r in (0..H).step_by(2) {
                    if let Some(two) = band.get_mut(r * width..(r + 2) * width) {
                        let (d0, d1) = two.split_at_mut(width);
                        let pairs = d0.as_chunks_mut::<W>().0.iter_mut();
                        let pairs = pairs.zip(d1.as_chunks_mut::<W>().0.iter_mut());
                        for ((d0, d1), b) in pairs.zip(blocks) {
                            row.rows2(b, r, d0, d1);
                        }
                    }
                }
            } else {
                for r in 0..H {
                    if let Some(dst) = band.get_mut(r * width..(r + 1) * width) {
                        for (d, b) in dst.as_chunks_mut::<W>().0.iter_mut().zip(blocks) {
                            row.row(b, r, d);
                        }
                    }
                }
            }
            blocks.get(full_x..).unwrap_or_default()
        } else {
            blocks
        };
        let first = blocks.len() - edge.len();
        for (i, b) in edge.iter().enumerate() {
            let x0 = (first + i) * W;
            let cols = W.min(width.saturating_sub(x0));
            let mut tmp = [[0u8; 4]; W];
            for (r, dst) in band.chunks_mut(width).take(H).enumerate() {
                row.row(b, r, &mut tmp);
                if let (Some(d), Some(s)) = (dst.get_mut(x0..x0 + cols), tmp.get(..cols)) {
                    d.copy_from_slice(s);
                }
            }
        }
    }
}

/// [`untile_with`] for an output 16 bytes (4 pixels) past a 32-byte boundary and a kernel of
/// 8-pixel rows: each output row is cut into its first 4 pixels, 8-pixel pieces on 32-byte
/// boundaries and its last 4 pixels, and piece `i` joins the right half of block `i`'s row to
/// the left half of block `i + 1`'s (the kernel writes into a register-sized scratch row). In
/// the plain walk every other 32-byte store straddles two cache lines there, which costs more
/// than the lane moves; 16-byte stores measured no better. False (nothing written) unless the
/// level is whole blocks, at least two wide.
#[inline(always)]
pub(super) fn untile_shifted<const H: usize, const B: usize, R: Row<8, B>>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    row: R,
) -> bool {
    if width < 16 || !width.is_multiple_of(8) || !height.is_multiple_of(H) {
        return false;
    }
    let blocks_x = width / 8;
    let step = if R::PAIRS { 2 } else { 1 };
    let (mut blocks, _) = data.as_chunks::<B>();
    let mut rest = out;
    for _ in 0..height / H {
        let Some((band, more)) = blocks.split_at_checked(blocks_x) else {
            break;
        };
        blocks = more;
        let Some((first, others)) = band.split_first() else {
            break;
        };
        for group in 0..H / step {
            let r = group * step;
            let Some((rows, more)) = rest.split_at_mut_checked(step * width) else {
                return true;
            };
            rest = more;
            if R::PAIRS {
                let (d0, d1) = rows.split_at_mut(width);
                let (Some((h0, m0, t0)), Some((h1, m1, t1))) = (cut(d0), cut(d1)) else {
                    return true;
                };
                let (mut p0, mut p1) = ([[0; 4]; 8], [[0; 4]; 8]);
                row.rows2(first, r, &mut p0, &mut p1);
                (*h0, *h1) = (left(&p0), left(&p1));
                let m1 = m1.as_chunks_mut::<8>().0.iter_mut();
                for ((x0, x1), b) in m0.as_chunks_mut::<8>().0.iter_mut().zip(m1).zip(others) {
                    let (mut c0, mut c1) = ([[0; 4]; 8], [[0; 4]; 8]);
                    row.rows2(b, r, &mut c0, &mut c1);
                    (*x0, *x1) = (join(&p0, &c0), join(&p1, &c1));
                    (p0, p1) = (c0, c1);
                }
                (*t0, *t1) = (right(&p0), right(&p1));
            } else if let Some((h, m, t)) = cut(rows) {
                let mut p = [[0; 4]; 8];
                row.row(first, r, &mut p);
                *h = left(&p);
                for (x, b) in m.as_chunks_mut::<8>().0.iter_mut().zip(others) {
                    let mut c = [[0; 4]; 8];
                    row.row(b, r, &mut c);
                    *x = join(&p, &c);
                    p = c;
                }
                *t = right(&p);
            }
        }
    }
    true
}

/// A row's first 4 pixels, the pixels between, and its last 4.
#[inline(always)]
fn cut(row: &mut [Rgba]) -> Option<(&mut [Rgba; 4], &mut [Rgba], &mut [Rgba; 4])> {
    let (head, rest) = row.split_first_chunk_mut::<4>()?;
    let (mid, tail) = rest.split_last_chunk_mut::<4>()?;
    Some((head, mid, tail))
}

/// Pixels 0-3 of an 8-pixel row.
#[inline(always)]
fn left(p: &[Rgba; 8]) -> [Rgba; 4] {
    let [a, b, c, d, ..] = *p;
    [a, b, c, d]
}

/// Pixels 4-7 of an 8-pixel row.
#[inline(always)]
fn right(p: &[Rgba; 8]) -> [Rgba; 4] {
    let [.., e, f, g, h] = *p;
    [e, f, g, h]
}

/// Pixels 4-7 of `prev` then 0-3 of `next`.
#[inline(always)]
fn join(prev: &[Rgba; 8], next: &[Rgba; 8]) -> [Rgba; 8] {
    let ([.., a, b, c, d], [e, f, g, h, ..]) = (*prev, *next);
    [a, b, c, d, e, f, g, h]
}

/// Widest image (in pixels) walked block by block by [`small_with`]: one or two blocks per band,
/// where the band walk's set-up per output row (slicing the row, zipping it with the band) costs
/// more than the row's stores. Wider images (32 and 64 pixels measured) are faster by rows.
const SMALL_WIDTH: usize = 16;

/// [`untile_with`] for images of whole blocks at most [`SMALL_WIDTH`] wide: block after block,
/// each of its rows stored straight at its place (one bounds check per row, no scratch block, no
/// division: the block's place advances by `W` pixels, and by a band at the end of a band).
#[inline(always)]
fn small_with<const W: usize, const H: usize, const B: usize, R: Row<W, B>>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    row: R,
) {
    let (blocks, _) = data.as_chunks::<B>();
    let count = (width / W) * (height / H);
    let (mut x0, mut base) = (0, 0);
    for b in blocks.iter().take(count) {
        if R::PAIRS {
            for r in (0..H).step_by(2) {
                let at = base + r * width + x0;
                if let Some((d0, d1)) = out
                    .get_mut(at..at + width + W)
                    .map(|two| two.split_at_mut(width))
                    && let (Some(d0), Some(d1)) =
                        (d0.first_chunk_mut::<W>(), d1.first_chunk_mut::<W>())
                {
                    row.rows2(b, r, d0, d1);
                }
            }
        } else {
            for r in 0..H {
                if let Some(d) = span::<W>(out, base + r * width + x0) {
                    row.row(b, r, d);
                }
            }
        }
        x0 += W;
        if x0 == width {
            x0 = 0;
            base += width * H;
        }
    }
}

/// The bands of a level: `(blocks of the band, its output rows)`, `blocks_x` blocks of `B`
/// bytes and `width × H` pixels each (the last output band may be shorter). Cut by
/// `split_at`, not zipped `chunks` (whose zip divides both lengths by the chunk sizes).
#[inline(always)]
fn bands<'a, const H: usize, const B: usize>(
    blocks_x: usize,
    width: usize,
    data: &'a [u8],
    out: &'a mut [Rgba],
) -> impl Iterator<Item = (&'a [[u8; B]], &'a mut [Rgba])> {
    let (mut blocks, _) = data.as_chunks::<B>();
    out.chunks_mut(width * H).map_while(move |band| {
        if blocks.is_empty() {
            return None;
        }
        let (this, rest) = blocks.split_at(blocks_x.min(blocks.len()));
        blocks = rest;
        Some((this, band))
    })
}

/// Row `r` of a block of 8-byte rows (I8, IA4, C8: 8 × 4; and the 2-byte formats' 4 × 4).
#[inline(always)]
pub(super) fn src_row<const N: usize, const B: usize>(b: &[u8; B], r: usize) -> &[u8; N] {
    b.as_chunks::<N>().0.get(r).unwrap_or(&[0; N])
}

/// [`untile_with`] for a closure kernel, through [`tiles_with`] for small levels of whole
/// blocks (as the SIMD kernels are).
#[inline(always)]
fn untile<const W: usize, const H: usize, const B: usize>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    row: impl Fn(&[u8; B], usize, &mut [Rgba; W]),
) {
    if width * height > TILE_PIXELS
        || !tiles_with::<W, H, B, _>(width, height, data, out, RowTile(&row))
    {
        untile_with::<W, H, B, _>(width, height, data, out, row);
    }
}

/// Lookup tables splitting a 16-bit pixel into its two bytes: the RGBA8 result is
/// `hi[p >> 8] | lo[p & 0xFF]` (as little-endian `u32`s of `[r, g, b, a]`). Every channel's
/// bit-replicated expansion takes its bits from one byte or from disjoint bits of both, so the
/// two halves OR together exactly (the tests compare every code with `pixel`'s conversions).
struct Split {
    hi: [u32; 256],
    lo: [u32; 256],
}

const fn px(r: u32, g: u32, b: u32, a: u32) -> u32 {
    u32::from_le_bytes([r as u8, g as u8, b as u8, a as u8])
}

const fn e5(v: u32) -> u32 {
    (v << 3) | (v >> 2)
}

const fn e4(v: u32) -> u32 {
    (v << 4) | v
}

const fn e3(v: u32) -> u32 {
    (v << 5) | (v << 2) | (v >> 1)
}

/// RGB565: R from the high byte; G's six bits span both (`hhh` then `lll`), its expansion
/// `g << 2 | g >> 4` puts the high bits at 7..5 and 1..0, the low ones at 4..2; B from the low.
// Built at compile time: an index out of range fails the build, not a run.
#[allow(clippy::indexing_slicing)]
static RGB565: Split = {
    let mut t = Split {
        hi: [0; 256],
        lo: [0; 256],
    };
    let mut i = 0;
    while i < 256 {
        let v = i as u32;
        t.hi[i] = px(e5(v >> 3), ((v & 7) << 5) | ((v & 7) >> 1), 0, 0);
        t.lo[i] = px(0, (v >> 5) << 2, e5(v & 0x1F), 0xFF);
        i += 1;
    }
    t
};

/// RGB5A3: the high byte picks the mode (bit 7), so the low table has one half per mode
/// (`lo[(hi & 0x80) << 1 | lo]`). Opaque RGB555: G's five bits are `hh` + `lll`, expanded as
/// `g << 3 | g >> 2` (high bits at 7..6 and 2..1, low ones at 5..3 and 0). A3RGB444: alpha and R
/// from the high byte, G and B from the low.
// Built at compile time: an index out of range fails the build, not a run.
#[allow(clippy::indexing_slicing)]
static RGB5A3: ([u32; 256], [u32; 512]) = {
    let mut hi = [0; 256];
    let mut lo = [0; 512];
    let mut i = 0;
    while i < 256 {
        let v = i as u32;
        hi[i] = if v & 0x80 != 0 {
            px(
                e5((v >> 2) & 0x1F),
                ((v & 3) << 6) | ((v & 3) << 1),
                0,
                0xFF,
            )
        } else {
            px(e4(v & 0xF), 0, 0, e3((v >> 4) & 7))
        };
        lo[i] = px(0, e4(v >> 4), e4(v & 0xF), 0);
        lo[256 + i] = px(0, ((v >> 5) << 3) | (v >> 7), e5(v & 0x1F), 0);
        i += 1;
    }
    (hi, lo)
};

/// An RGB565 pixel (stored big-endian) as RGBA8, through the split tables.
#[inline(always)]
pub(super) fn rgb565(v: [u8; 2]) -> Rgba {
    let [h, l] = v;
    let hi = RGB565.hi.get(usize::from(h)).copied().unwrap_or(0);
    let lo = RGB565.lo.get(usize::from(l)).copied().unwrap_or(0);
    (hi | lo).to_le_bytes()
}

/// An RGB5A3 pixel (stored big-endian) as RGBA8, through the split tables.
#[inline(always)]
pub(super) fn rgb5a3(v: [u8; 2]) -> Rgba {
    let [h, l] = v;
    let hi = RGB5A3.0.get(usize::from(h)).copied().unwrap_or(0);
    let lo = RGB5A3
        .1
        .get((usize::from(h & 0x80) << 1) | usize::from(l))
        .copied()
        .unwrap_or(0);
    (hi | lo).to_le_bytes()
}

/// Row `r` of a 4 × 4 block of 2-byte pixels (IA8, RGB565, RGB5A3, C14X2).
#[inline(always)]
fn row16(b: &[u8; 32], r: usize, d: &mut [Rgba; 4], px: impl Fn([u8; 2]) -> Rgba) {
    for (p, v) in d.iter_mut().zip(src_row::<8, 32>(b, r).as_chunks::<2>().0) {
        *p = px(*v);
    }
}

/// `N` source bytes rearranged into `M` output bytes: `out[k] = src[pick(k)]`. With constant
/// picks the compiler turns this into byte shuffles (unpacks) instead of per-pixel arithmetic.
#[inline(always)]
fn shuffle<const N: usize, const M: usize>(
    src: &[u8; N],
    pick: impl Fn(usize) -> usize,
) -> [u8; M] {
    std::array::from_fn(|k| src.get(pick(k)).copied().unwrap_or(0))
}

/// Writes `M` bytes of pixels (`M = 4 × W`).
#[inline(always)]
fn put<const W: usize, const M: usize>(d: &mut [Rgba; W], bytes: [u8; M]) {
    for (p, v) in d.iter_mut().zip(bytes.as_chunks::<4>().0) {
        *p = *v;
    }
}

/// I4: the two pixels of each byte (high nibble left), expanded as `n << 4 | n`.
// Built at compile time: an index out of range fails the build, not a run.
#[allow(clippy::indexing_slicing)]
static I4: [[Rgba; 2]; 256] = {
    let mut t = [[[0; 4]; 2]; 256];
    let mut i = 0;
    while i < 256 {
        let (hi, lo) = ((i as u8 >> 4) * 0x11, (i as u8 & 0xF) * 0x11);
        t[i] = [[hi; 4], [lo; 4]];
        i += 1;
    }
    t
};

#[inline(always)]
fn i4(b: &[u8; 32], r: usize, d: &mut [Rgba; 8]) {
    for (pair, &v) in d
        .as_chunks_mut::<2>()
        .0
        .iter_mut()
        .zip(src_row::<4, 32>(b, r))
    {
        *pair = I4.get(usize::from(v)).copied().unwrap_or_default();
    }
}

#[inline(always)]
fn i8(b: &[u8; 32], r: usize, d: &mut [Rgba; 8]) {
    put(d, shuffle::<8, 32>(src_row::<8, 32>(b, r), |k| k / 4));
}

#[inline(always)]
fn ia4(b: &[u8; 32], r: usize, d: &mut [Rgba; 8]) {
    let src = src_row::<8, 32>(b, r);
    // Intensity (low nibble) then alpha (high nibble) of each byte, expanded.
    let e: [u8; 16] = std::array::from_fn(|k| {
        let v = src.get(k / 2).copied().unwrap_or(0);
        if k % 2 == 0 {
            (v << 4) | (v & 0xF)
        } else {
            (v & 0xF0) | (v >> 4)
        }
    });
    put(
        d,
        shuffle::<16, 32>(&e, |k| (k / 4) * 2 + usize::from(k % 4 == 3)),
    );
}

#[inline(always)]
fn ia8(b: &[u8; 32], r: usize, d: &mut [Rgba; 4]) {
    // Stored: alpha, intensity.
    put(
        d,
        shuffle::<8, 16>(src_row::<8, 32>(b, r), |k| {
            (k / 4) * 2 + usize::from(k % 4 != 3)
        }),
    );
}

#[inline(always)]
fn rgba8(b: &[u8; 64], r: usize, d: &mut [Rgba; 4]) {
    // Row r: 8 bytes of AR pairs at 8r, 8 bytes of GB pairs at 32 + 8r.
    let row: [u8; 16] = std::array::from_fn(|k| {
        let at = if k < 8 { 8 * r + k } else { 32 + 8 * r + k - 8 };
        b.get(at).copied().unwrap_or(0)
    });
    put(
        d,
        shuffle::<16, 16>(&row, |k| {
            let j = k / 4;
            match k % 4 {
                0 => 2 * j + 1,
                1 => 8 + 2 * j,
                2 => 8 + 2 * j + 1,
                _ => 2 * j,
            }
        }),
    );
}

/// The `W` pixels at `at` of `out` (`None` when they do not fit).
#[inline(always)]
fn span<const W: usize>(out: &mut [Rgba], at: usize) -> Option<&mut [Rgba; W]> {
    out.get_mut(at..at.checked_add(W)?)?.try_into().ok()
}

/// `r | g << 8 | b << 16` spread to one channel per 16-bit lane.
#[inline(always)]
fn spread(p: u32) -> u64 {
    let p = u64::from(p);
    (p & 0xFF) | ((p & 0xFF00) << 8) | ((p & 0xFF_0000) << 16)
}

/// The inverse of [`spread`] (each lane's low 8 bits).
#[inline(always)]
fn pack(x: u64) -> u32 {
    ((x & 0xFF) | ((x >> 8) & 0xFF00) | ((x >> 16) & 0xFF_0000)) as u32
}

/// A sub-block's four colours (as `cmpr::colors`), little-endian `u32`s of `[r, g, b, a]`:
/// endpoints through the RGB565 tables, blends with all three channels at once in 16-bit lanes
/// (a lane's sum stays below 2^11, and the shift's spill from the next lane is masked off).
#[inline(always)]
pub(super) fn cmpr_colors(c0: [u8; 2], c1: [u8; 2]) -> [u32; 4] {
    let (a, b) = (
        u32::from_le_bytes(rgb565(c0)),
        u32::from_le_bytes(rgb565(c1)),
    );
    let (sa, sb) = (spread(a), spread(b));
    const OPAQUE: u32 = 0xFF00_0000;
    if u16::from_be_bytes(c0) > u16::from_be_bytes(c1) {
        [
            a,
            b,
            pack((sa * 5 + sb * 3) >> 3) | OPAQUE,
            pack((sa * 3 + sb * 5) >> 3) | OPAQUE,
        ]
    } else {
        let avg = pack((sa + sb) >> 1);
        [a, b, avg | OPAQUE, avg]
    }
}

/// One CMPR block (four 4 × 4 sub-blocks): row `y` at `out[y * stride + x0..][..8]`.
#[inline(always)]
fn cmpr(b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize) {
    for (s, sub) in b.as_chunks::<8>().0.iter().enumerate() {
        let [c0h, c0l, c1h, c1l, rows @ ..] = *sub;
        let pal = cmpr_colors([c0h, c0l], [c1h, c1l]);
        let (sx, sy) = ((s & 1) * 4, (s >> 1) * 4);
        for (y, bits) in rows.iter().enumerate() {
            if let Some(d) = span::<4>(out, (sy + y) * stride + x0 + sx) {
                for (x, p) in d.iter_mut().enumerate() {
                    let i = usize::from(bits >> (6 - 2 * x)) & 3;
                    *p = pal.get(i).copied().unwrap_or_default().to_le_bytes();
                }
            }
        }
    }
}

/// [`untile`] for formats decoded a whole block at a time (CMPR, whose sub-block colours serve
/// four rows): `block(bytes, out, stride, x0)` writes the block's rows at
/// `out[r * stride + x0..][..W]`; edge blocks go through a scratch block.
#[inline(always)]
pub(super) fn blocks_with<const W: usize, const H: usize, const B: usize>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    block: impl Block<B>,
) {
    if width == 0 || height == 0 {
        return;
    }
    let blocks_x = width.div_ceil(W);
    for (blocks, band) in bands::<H, B>(blocks_x, width, data, out) {
        let full = if band.len() == width * H {
            width / W
        } else {
            0
        };
        let (inner, edge) = blocks.split_at(full.min(blocks.len()));
        for (bx, b) in inner.iter().enumerate() {
            block.block(b, band, width, bx * W);
        }
        for (i, b) in edge.iter().enumerate() {
            let x0 = (inner.len() + i) * W;
            let mut tmp = [[0u8; 4]; 64];
            block.block(b, &mut tmp, W, 0);
            let cols = W.min(width.saturating_sub(x0));
            for (src, dst) in tmp.chunks_exact(W).zip(band.chunks_mut(width)) {
                if let (Some(d), Some(s)) = (dst.get_mut(x0..x0 + cols), src.get(..cols)) {
                    d.copy_from_slice(s);
                }
            }
        }
    }
}

/// [`blocks_with`] for a closure kernel.
#[inline(always)]
fn untile_blocks<const W: usize, const H: usize, const B: usize>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    block: impl Fn(&[u8; B], &mut [Rgba], usize, usize),
) {
    blocks_with::<W, H, B>(width, height, data, out, block);
}

/// Decodes a direct format or CMPR (`data` = exactly the level's blocks) into `out`
/// (`width × height`). Returns false for formats it does not handle (indexed, unknown).
pub(crate) fn decode_direct(
    format: TexFormat,
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if super::simd::decode_direct(format, width, height, data, out) {
        return true;
    }
    decode_portable(format, width, height, data, out)
}

/// [`decode_direct`] without the SIMD kernels: the path on other CPUs.
fn decode_portable(
    format: TexFormat,
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
) -> bool {
    let (w, h) = (width, height);
    match format {
        TexFormat::I4 => untile::<8, 8, 32>(w, h, data, out, i4),
        TexFormat::I8 => untile::<8, 4, 32>(w, h, data, out, i8),
        TexFormat::IA4 => untile::<8, 4, 32>(w, h, data, out, ia4),
        TexFormat::IA8 => untile::<4, 4, 32>(w, h, data, out, ia8),
        TexFormat::RGB565 => untile::<4, 4, 32>(w, h, data, out, |b, r, d| row16(b, r, d, rgb565)),
        TexFormat::RGB5A3 => untile::<4, 4, 32>(w, h, data, out, |b, r, d| row16(b, r, d, rgb5a3)),
        TexFormat::RGBA8 => untile::<4, 4, 64>(w, h, data, out, rgba8),
        TexFormat::CMPR => untile_blocks::<8, 8, 32>(w, h, data, out, cmpr),
        _ => return false,
    }
    true
}

/// The largest palette index stored in `data` (every block, padding included), for an indexed
/// format; `None` for no data or another format.
pub(crate) fn max_index(format: TexFormat, data: &[u8]) -> Option<u16> {
    match format {
        TexFormat::C4 => data.iter().map(|&b| u16::from((b >> 4).max(b & 0xF))).max(),
        TexFormat::C8 => data.iter().copied().max().map(u16::from),
        TexFormat::C14X2 => data
            .as_chunks::<2>()
            .0
            .iter()
            .map(|v| u16::from_be_bytes(*v) & 0x3FFF)
            .max(),
        _ => None,
    }
}

/// Decodes an indexed format through `colors` (the palette as RGBA8) into `out`. Returns false,
/// writing nothing, when an index is past the palette (the caller reports that error) or the
/// format is not indexed.
pub(crate) fn decode_indexed(
    format: TexFormat,
    width: usize,
    height: usize,
    data: &[u8],
    colors: &[Rgba],
    out: &mut [Rgba],
) -> bool {
    let (w, h) = (width, height);
    match format {
        TexFormat::C4 => {
            if colors.len() < 16 {
                let max = max_index(format, data);
                if max.is_some_and(|m| usize::from(m) >= colors.len()) {
                    return false;
                }
            }
            let table: [Rgba; 16] =
                std::array::from_fn(|i| colors.get(i).copied().unwrap_or_default());
            untile::<8, 8, 32>(w, h, data, out, |b, r, d| {
                for (pair, &v) in d
                    .as_chunks_mut::<2>()
                    .0
                    .iter_mut()
                    .zip(src_row::<4, 32>(b, r))
                {
                    let hi = table.get(usize::from(v >> 4)).copied().unwrap_or_default();
                    let lo = table.get(usize::from(v & 0xF)).copied().unwrap_or_default();
                    *pair = [hi, lo];
                }
            });
        }
        TexFormat::C8 => {
            if colors.len() < 256 {
                let max = max_index(format, data);
                if max.is_some_and(|m| usize::from(m) >= colors.len()) {
                    return false;
                }
            }
            // A caller's full table is used as is (no 1 KiB copy per call: small levels).
            let built: [Rgba; 256];
            let table = match colors.first_chunk::<256>() {
                Some(t) => t,
                None => {
                    built = std::array::from_fn(|i| colors.get(i).copied().unwrap_or_default());
                    &built
                }
            };
            untile::<8, 4, 32>(w, h, data, out, |b, r, d| {
                for (p, &v) in d.iter_mut().zip(src_row::<8, 32>(b, r)) {
                    *p = table.get(usize::from(v)).copied().unwrap_or_default();
                }
            });
        }
        TexFormat::C14X2 => {
            const N: usize = 1 << 14;
            if colors.len() < N {
                let max = max_index(format, data);
                if max.is_some_and(|m| usize::from(m) >= colors.len()) {
                    return false;
                }
            }
            // Every index is in the palette now: lookups need only the 14-bit mask.
            untile::<4, 4, 32>(w, h, data, out, |b, r, d| {
                row16(b, r, d, |v| {
                    colors
                        .get(usize::from(u16::from_be_bytes(v) & 0x3FFF))
                        .copied()
                        .unwrap_or_default()
                })
            });
        }
        _ => return false,
    }
    true
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::blocks;
    use super::*;
    use proptest::prelude::*;

    /// The reference: per-block decode into a scratch block, then copied (`blocks::untile`).
    fn reference(format: TexFormat, w: u32, h: u32, data: &[u8]) -> Vec<Rgba> {
        blocks::untile(format, w, h, data, |b, _, px| {
            if format == TexFormat::CMPR {
                cmpr::decode_block(b, px);
            } else {
                blocks::decode_direct(format, b, px);
            }
            Ok(())
        })
        .unwrap()
    }

    fn indexed_reference(
        format: TexFormat,
        w: u32,
        h: u32,
        data: &[u8],
        colors: &[Rgba],
    ) -> Vec<Rgba> {
        let mut idx = [0u16; 64];
        blocks::untile(format, w, h, data, |b, _, px| {
            blocks::decode_indices(format, b, &mut idx);
            for (p, &i) in px.iter_mut().zip(&idx) {
                *p = colors[usize::from(i & 0x3FFF)];
            }
            Ok(())
        })
        .unwrap()
    }

    #[test]
    fn cmpr_colours_match_reference() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let (c0, c1) = (s as u16, (s >> 16) as u16);
            let ours = cmpr_colors(c0.to_be_bytes(), c1.to_be_bytes()).map(u32::to_le_bytes);
            assert_eq!(ours, cmpr::colors(c0, c1), "{c0:#06x} {c1:#06x}");
            let ours = cmpr_colors(c1.to_be_bytes(), c0.to_be_bytes()).map(u32::to_le_bytes);
            assert_eq!(ours, cmpr::colors(c1, c0), "{c1:#06x} {c0:#06x}");
        }
        for c in 0..=u16::MAX {
            let ours = cmpr_colors(c.to_be_bytes(), c.to_be_bytes()).map(u32::to_le_bytes);
            assert_eq!(ours, cmpr::colors(c, c));
        }
    }

    #[test]
    fn split_tables_match_pixel_conversions() {
        use super::super::pixel::{rgb5a3_to_rgba, rgb565_to_rgba};
        for p in 0..=u16::MAX {
            assert_eq!(rgb565(p.to_be_bytes()), rgb565_to_rgba(p), "{p:#06x}");
            assert_eq!(rgb5a3(p.to_be_bytes()), rgb5a3_to_rgba(p), "{p:#06x}");
        }
    }

    /// The `which`-th direct format (8 of them) of `TexFormat::ALL`.
    fn direct_format(which: usize) -> TexFormat {
        let mut direct = TexFormat::ALL.into_iter().filter(|f| !f.is_indexed());
        direct.nth(which).unwrap()
    }

    /// Random blocks of a `w × h` level decoded by both paths into `out[at..]` equal the
    /// reference.
    fn check_direct(
        which: usize,
        w: u32,
        h: u32,
        at: usize,
        seed: u64,
    ) -> Result<(), TestCaseError> {
        let format = direct_format(which);
        let len = super::super::level_size(format, w, h).unwrap();
        let mut s = seed | 1;
        let data: Vec<u8> = (0..len)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s as u8
            })
            .collect();
        let n = (w * h) as usize;
        let mut buf = vec![[0u8; 4]; n + 8];
        let base = (buf.as_ptr() as usize % 32) / 4;
        let out = &mut buf[(at + 8 - base) % 8..][..n];
        let expect = reference(format, w, h, &data);
        prop_assert!(decode_direct(format, w as usize, h as usize, &data, out));
        prop_assert_eq!(&*out, &expect[..]);
        out.fill([0; 4]);
        prop_assert!(decode_portable(format, w as usize, h as usize, &data, out));
        prop_assert_eq!(&*out, &expect[..]);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn direct_matches_reference(
            which in 0usize..8,
            w in 0u32..80,
            h in 0u32..40,
            whole in any::<bool>(),
            at in 0usize..8,
            seed in any::<u64>(),
        ) {
            // Half the cases are whole blocks (the tile walk); `at` places the output at every
            // 4-byte offset from a 32-byte boundary (the SIMD walks store by alignment).
            let (w, h) = if whole { direct_format(which).padded(w, h).unwrap() } else { (w, h) };
            check_direct(which, w, h, at, seed)?;
        }

        #[test]
        fn large_levels_match_reference(
            which in 0usize..8,
            w in 8u32..400,
            h in 8u32..48,
            at in 0usize..8,
            seed in any::<u64>(),
        ) {
            // Wider than the tile walk: the row walks, shifted when 16 bytes off a boundary.
            let (w, h) = direct_format(which).padded(w.max(80), h).unwrap();
            check_direct(which, w, h, at, seed)?;
        }

        #[test]
        fn indexed_matches_reference(
            which in 0usize..3,
            w in 0u32..80,
            h in 0u32..40,
            whole in any::<bool>(),
            entries in 1usize..300,
            seed in any::<u64>(),
        ) {
            let format = [TexFormat::C4, TexFormat::C8, TexFormat::C14X2][which];
            let (w, h) = if whole { format.padded(w, h).unwrap() } else { (w, h) };
            let len = super::super::level_size(format, w, h).unwrap();
            let mut s = seed | 1;
            let mut next = move || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
            let colors: Vec<Rgba> = (0..entries).map(|_| next().to_le_bytes()[..4].try_into().unwrap()).collect();
            // Indices mostly inside the palette (C14X2's top bits set at random), some past it.
            let data: Vec<u8> = match format {
                TexFormat::C14X2 => (0..len / 2).flat_map(|_| {
                    let v = next();
                    let i = (v % (entries as u64 + 2)) as u16 | ((v >> 32) as u16 & 0xC000);
                    i.to_be_bytes()
                }).collect(),
                _ => (0..len).map(|_| next() as u8).collect(),
            };
            let mut out = vec![[0u8; 4]; (w * h) as usize];
            let ok = decode_indexed(format, w as usize, h as usize, &data, &colors, &mut out);
            let max = blocks::untile(format, w, h, &data, |b, _, idx| {
                blocks::decode_indices(format, b, idx);
                Ok(())
            }).unwrap().iter().map(|&i| usize::from(i & 0x3FFF)).max();
            let in_range = max.is_none_or(|m| m < colors.len());
            // Padding blocks count too: the slow path checks every stored index.
            let all_in_range = match format {
                TexFormat::C4 => data.iter().all(|&b| usize::from((b >> 4).max(b & 0xF)) < colors.len()),
                TexFormat::C8 => data.iter().all(|&b| usize::from(b) < colors.len()),
                _ => data.chunks_exact(2).all(|v| usize::from(u16::from_be_bytes([v[0], v[1]]) & 0x3FFF) < colors.len()),
            };
            prop_assert_eq!(ok, all_in_range);
            if ok {
                prop_assert!(in_range);
                prop_assert_eq!(out, indexed_reference(format, w, h, &data, &colors));
            }
        }
    }
}
