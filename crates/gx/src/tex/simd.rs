//! x86-64-v3 (AVX2, SSSE3 `pshufb`) kernels for the formats whose scalar form cannot keep up with
//! Dolphin's SIMD decoder: I4, I8, IA8, RGB565, RGB5A3, RGBA8, CMPR.
//!
//! The CPU is checked at run time by `pulp` (`V3::try_new`), and `V3::vectorize` runs the whole
//! decode inside a function compiled for those features; the intrinsics it hands out are safe
//! methods, so this crate keeps `forbid(unsafe_code)`. Registers are filled and emptied with
//! `pulp::cast` (a size-checked transmute between plain-data types). The walk over blocks and the
//! edge handling are `fast`'s; only the per-row or per-block work differs. `fast`'s portable
//! kernels stay the path on other CPUs and the reference in the tests.

use core::arch::x86_64::{__m128i, __m256i};
use core::marker::PhantomData;

use pulp::{NullaryFnOnce, cast, x86::V3};

use super::fast::{
    Block, Row, RowTile, TILE_PIXELS, Tile, blocks_with, cmpr_colors, src_row, tiles_offset_with,
    tiles_with, untile_shifted, untile_with,
};
use super::format::TexFormat;
use super::pixel::Rgba;

/// Decodes I4, I8, IA8, RGB565, RGB5A3, RGBA8 or CMPR (`data` = exactly the level's blocks) into `out`
/// (`width × height`) when the CPU has x86-64-v3; false (nothing written) otherwise or for other
/// formats.
pub(super) fn decode_direct(
    format: TexFormat,
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
) -> bool {
    let Some(s) = v3() else {
        return false;
    };
    // Where the output sits decides how rows of eight pixels (32 bytes) are stored: a
    // 32-byte store straddles two cache lines every other time unless the output is 32-byte
    // aligned. A 16-byte aligned allocation (most of them, large ones always) is 16 bytes off
    // half the time: there, levels wider than the tile walk's shift their 32-byte stores back
    // onto the boundaries (`fast::untile_shifted`) and the rest store 16-byte halves (`put8`).
    let at = out.as_ptr() as usize % 32;
    if at == 0 {
        decode_with::<false>(s, format, width, height, data, out, false)
    } else {
        decode_with::<true>(s, format, width, height, data, out, at == 16)
    }
}

/// The three walks of a kernel of 8-pixel rows, in order of preference: `$tile` through the
/// tile walk when `$tiled`, the shifted row walk when `$shifted`, the row walk otherwise.
macro_rules! walks {
    ($s:ident, $w:ident, $h:ident, $d:ident, $out:ident, $tiled:expr, $shifted:expr,
     <$W:literal, $H:literal, $B:literal>, $tile:ty, $row:ident) => {
        ($tiled && $s.vectorize(Job::<$W, $H, $B, $tile, ByTile>::new($w, $h, $d, $out, $s)))
            || ($shifted
                && $s.vectorize(Job::<8, $H, $B, $row<false>, ByShift>::new(
                    $w, $h, $d, $out, $s,
                )))
            || $s.vectorize(Job::<$W, $H, $B, $row<SPLIT>, ByRow>::new(
                $w, $h, $d, $out, $s,
            ))
    };
}

/// [`decode_direct`] with the rows of eight pixels stored as [`put8`] does for `SPLIT`, and
/// through the shifted walk where it applies when `shifted` (output 16 bytes off).
#[inline(always)]
fn decode_with<const SPLIT: bool>(
    s: V3,
    format: TexFormat,
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    shifted: bool,
) -> bool {
    let (w, h, d) = (width, height, data);
    // One function compiled for AVX2 per format and walk (each `vectorize` call is its own): a
    // single one holding every format's walk spilled registers to a large stack frame on every
    // call, which small levels (a few dozen stores) pay for. Small levels (every mip chain ends
    // in them) go through the tile walk when they are whole blocks; I4 at every size, aligned.
    let tiled = w * h <= TILE_PIXELS;
    let tiled_i4 = tiled || !SPLIT;
    // Two 4-pixel blocks side by side per 32-byte row store when the block count is even.
    let even = w.div_ceil(4).is_multiple_of(2);
    // Small levels 16 bytes off: from 64 pixels wide the pairs shifted by one block (32-byte
    // stores on the boundaries) beat split stores (RGBA8 64 x 64: 1.12-1.18x gctex against
    // 1.00x); narrower, the cut of each row costs more than it saves (8 x 8: 0.80x).
    let offset = shifted && w >= 64;
    match format {
        TexFormat::I4 => walks!(s, w, h, d, out, tiled_i4, shifted,
            <8, 8, 32>, RowTile<I4Rows<SPLIT>>, I4Rows),
        TexFormat::I8 => walks!(s, w, h, d, out, tiled, shifted,
            <8, 4, 32>, RowTile<I8<SPLIT>>, I8),
        TexFormat::IA8
            if tiled
                && offset
                && s.vectorize(Job::<
                    4,
                    4,
                    32,
                    (RowTile<Ia8>, RowTile<Ia8Pair<false>>),
                    ByOffset<64>,
                >::new(w, h, d, out, s)) =>
        {
            true
        }
        TexFormat::IA8 if even => walks!(s, w, h, d, out, tiled, shifted,
            <8, 4, 64>, RowTile<Ia8Pair<SPLIT>>, Ia8Pair),
        TexFormat::IA8 => s.vectorize(Job::<4, 4, 32, Ia8, ByRow>::new(w, h, d, out, s)),
        TexFormat::RGB565 => s.vectorize(Job::<4, 4, 32, Rgb565, ByBlock>::new(w, h, d, out, s)),
        TexFormat::RGB5A3 => {
            (tiled && s.vectorize(Job::<4, 4, 32, Rgb5a3, ByTile>::new(w, h, d, out, s)))
                || s.vectorize(Job::<4, 4, 32, Rgb5a3, ByBlock>::new(w, h, d, out, s))
        }
        TexFormat::CMPR => s.vectorize(Job::<8, 8, 32, Cmpr, ByBlock>::new(w, h, d, out, s)),
        TexFormat::RGBA8
            if tiled
                && offset
                && s.vectorize(Job::<
                    4,
                    4,
                    64,
                    (RowTile<Rgba8>, Rgba8Tiles<false>),
                    ByOffset<128>,
                >::new(w, h, d, out, s)) =>
        {
            true
        }
        TexFormat::RGBA8 if even => walks!(s, w, h, d, out, tiled, shifted,
            <8, 4, 128>, Rgba8Tiles<SPLIT>, Rgba8Pair),
        TexFormat::RGBA8 => s.vectorize(Job::<4, 4, 64, Rgba8, ByRow>::new(w, h, d, out, s)),
        _ => false,
    }
}

/// The CPU's x86-64-v3 token, checked once per process (`V3::try_new` tests a dozen feature
/// flags, a measurable part of decoding an 8 × 8 level).
fn v3() -> Option<V3> {
    static V3_TOKEN: std::sync::OnceLock<Option<V3>> = std::sync::OnceLock::new();
    *V3_TOKEN.get_or_init(V3::try_new)
}

/// A kernel built inside the function `V3::vectorize` compiles for AVX2, where its constants
/// can be made opaque to the optimiser (see [`I8`]) and its intrinsics inline.
trait FromV3 {
    /// The kernel for `s`.
    fn from_v3(s: V3) -> Self;
}

/// [`FromV3`] for kernels that hold only the token.
macro_rules! from_token {
    ($($kernel:ident),*) => {$(
        impl FromV3 for $kernel {
            #[inline(always)]
            fn from_v3(s: V3) -> Self {
                Self(s)
            }
        }
    )*};
}

from_token!(Ia8, Rgb565, Rgb5a3, Cmpr, Rgba8);

/// [`FromV3`] for kernels that hold only the token and store rows through [`put8`].
macro_rules! from_token_split {
    ($($kernel:ident),*) => {$(
        impl<const SPLIT: bool> FromV3 for $kernel<SPLIT> {
            #[inline(always)]
            fn from_v3(s: V3) -> Self {
                Self(s)
            }
        }
    )*};
}

from_token_split!(I4Rows, Ia8Pair, Rgba8Pair);

impl<const SPLIT: bool> FromV3 for I8<SPLIT> {
    #[inline(always)]
    fn from_v3(s: V3) -> Self {
        Self::new(s)
    }
}

impl<R: FromV3> FromV3 for RowTile<R> {
    #[inline(always)]
    fn from_v3(s: V3) -> Self {
        Self(R::from_v3(s))
    }
}

/// [`Job`]s walking the level output row by output row (`fast::untile_with`, [`Row`] kernels).
struct ByRow;
/// [`Job`]s walking the level block by block (`fast::blocks_with`, [`Block`] kernels).
struct ByBlock;
/// [`Job`]s walking output row by output row shifted by 4 pixels (`fast::untile_shifted`,
/// [`Row`] kernels of 8 pixels; whole blocks at least two wide only: the job returns false,
/// nothing written, otherwise).
struct ByShift;
/// [`Job`]s walking 4 × 4 blocks in pairs shifted by one block (`fast::tiles_offset_with`,
/// kernel `(single, pair)`, a pair `B2` bytes; output 16 bytes off a 32-byte boundary, whole blocks only: the job
/// returns false, nothing written, otherwise).
struct ByOffset<const B2: usize>;
/// [`Job`]s walking four rows of a block at a time (`fast::tiles_with`, [`Tile`] kernels; whole
/// blocks only: the job returns false, nothing written, otherwise).
struct ByTile;

/// One decode of a level of `W × H` blocks of `B` bytes into `out` with the kernel `K` and the
/// walk `M`, run by `V3::vectorize`: its `call` builds the kernel and is inlined into the
/// function compiled for AVX2, and so is everything below it.
struct Job<'a, const W: usize, const H: usize, const B: usize, K, M> {
    width: usize,
    height: usize,
    data: &'a [u8],
    out: &'a mut [Rgba],
    s: V3,
    kernel: PhantomData<(K, M)>,
}

impl<'a, const W: usize, const H: usize, const B: usize, K, M> Job<'a, W, H, B, K, M> {
    #[inline(always)]
    fn new(width: usize, height: usize, data: &'a [u8], out: &'a mut [Rgba], s: V3) -> Self {
        Self {
            width,
            height,
            data,
            out,
            s,
            kernel: PhantomData,
        }
    }
}

impl<const W: usize, const H: usize, const B: usize, K: FromV3 + Row<W, B>> NullaryFnOnce
    for Job<'_, W, H, B, K, ByRow>
{
    type Output = bool;

    #[inline(always)]
    fn call(self) -> bool {
        let kernel = K::from_v3(self.s);
        untile_with::<W, H, B, K>(self.width, self.height, self.data, self.out, kernel);
        true
    }
}

impl<const H: usize, const B: usize, K: FromV3 + Row<8, B>> NullaryFnOnce
    for Job<'_, 8, H, B, K, ByShift>
{
    type Output = bool;

    #[inline(always)]
    fn call(self) -> bool {
        let kernel = K::from_v3(self.s);
        untile_shifted::<H, B, K>(self.width, self.height, self.data, self.out, kernel)
    }
}

impl<const B: usize, const B2: usize, S, P> NullaryFnOnce for Job<'_, 4, 4, B, (S, P), ByOffset<B2>>
where
    S: FromV3 + Tile<4, B>,
    P: FromV3 + Tile<8, B2>,
{
    type Output = bool;

    #[inline(always)]
    fn call(self) -> bool {
        let (single, pair) = (S::from_v3(self.s), P::from_v3(self.s));
        tiles_offset_with::<B, B2, S, P>(self.width, self.height, self.data, self.out, single, pair)
    }
}

impl<const W: usize, const H: usize, const B: usize, K: FromV3 + Block<B>> NullaryFnOnce
    for Job<'_, W, H, B, K, ByBlock>
{
    type Output = bool;

    #[inline(always)]
    fn call(self) -> bool {
        let kernel = K::from_v3(self.s);
        blocks_with::<W, H, B>(self.width, self.height, self.data, self.out, kernel);
        true
    }
}

impl<const W: usize, const H: usize, const B: usize, K: FromV3 + Tile<W, B>> NullaryFnOnce
    for Job<'_, W, H, B, K, ByTile>
{
    type Output = bool;

    #[inline(always)]
    fn call(self) -> bool {
        let kernel = K::from_v3(self.s);
        tiles_with::<W, H, B, K>(self.width, self.height, self.data, self.out, kernel)
    }
}

/// Eight bytes in the low half of a register.
#[inline(always)]
fn low64(bytes: &[u8; 8]) -> __m128i {
    cast([u64::from_le_bytes(*bytes), 0])
}

/// Byte `k` of each pixel group picked from `v` by `mask` (`pshufb`).
#[inline(always)]
fn shuffle(s: V3, v: __m128i, mask: [u8; 16]) -> __m128i {
    s.ssse3._mm_shuffle_epi8(v, cast(mask))
}

/// `pshufb` on both 128-bit lanes, each with its own mask.
#[inline(always)]
fn shuffle256(s: V3, v: __m256i, mask: [u8; 32]) -> __m256i {
    s.avx2._mm256_shuffle_epi8(v, cast(mask))
}

/// Mask repeating bytes `first..first + 4` four times each in lane 0 and `first + 4..first + 8`
/// in lane 1: eight intensities to eight RGBA pixels when both lanes hold them.
// Built at compile time: an index out of range fails the build, not a run.
#[allow(clippy::indexing_slicing)]
const fn quads(first: u8) -> [u8; 32] {
    let mut m = [0; 32];
    let mut k = 0;
    while k < 32 {
        m[k] = first + (k / 4) as u8;
        k += 1;
    }
    m
}

/// The same 16-byte `pshufb` mask for both lanes.
// Built at compile time: an index out of range fails the build, not a run.
#[allow(clippy::indexing_slicing)]
const fn both_lanes(lane: [u8; 16]) -> [u8; 32] {
    let mut m = [0; 32];
    let mut k = 0;
    while k < 32 {
        m[k] = lane[k % 16];
        k += 1;
    }
    m
}

/// [`quads`] from byte 0.
const QUADS: [u8; 32] = quads(0);

/// Stores `rows` (registers of `W` pixels) at `out[y * stride + x0..][..W]`, top to bottom,
/// skipping rows that do not fit. Each row's place is found on its own (one bounds check, no
/// chain of slice splits from row to row), so the stores issue back to back.
#[inline(always)]
fn store<const W: usize, T: pulp::bytemuck::NoUninit, const N: usize>(
    out: &mut [Rgba],
    stride: usize,
    x0: usize,
    rows: [T; N],
) where
    [Rgba; W]: pulp::bytemuck::AnyBitPattern,
{
    for (y, v) in rows.into_iter().enumerate() {
        if let Some(d) = out
            .get_mut(y * stride + x0..)
            .and_then(|r| r.first_chunk_mut::<W>())
        {
            *d = cast(v);
        }
    }
}

/// Stores a row of eight pixels: one 32-byte store, or for `SPLIT` (output not 32-byte
/// aligned) its two 16-byte halves, which a 16-byte aligned output never straddles a cache line
/// with. The compiler fence between them (no instruction) keeps LLVM from merging them back
/// into one 32-byte store.
#[inline(always)]
fn put8<const SPLIT: bool>(s: V3, d: &mut [Rgba; 8], v: __m256i) {
    if let (true, [lo, hi]) = (SPLIT, d.as_chunks_mut::<4>().0) {
        *lo = cast(s.avx._mm256_castsi256_si128(v));
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        *hi = cast(s.avx2._mm256_extracti128_si256::<1>(v));
    } else {
        *d = cast(v);
    }
}

/// I4, an 8 × 8 block walked output row by output row like I8, two rows per step: their eight
/// bytes broadcast from memory, each byte's high nibble expanded (`n << 4 | n`) into the low
/// quarter of a lane and its low nibble into the next, so one `pshufb` per row picks the row's
/// eight intensities four times each (one shuffle-port operation per 32-byte store).
struct I4Rows<const SPLIT: bool>(V3);

/// Mask of [`I4Rows`] for row `odd` of a pair: pixel `p` of the row is byte `p / 2` of the
/// row's four (plus 4 for the odd row), its high nibble (quarter 0) or its low one (quarter 1);
/// lane 0 holds pixels 0-3, lane 1 pixels 4-7.
// Built at compile time: an index out of range fails the build, not a run.
#[allow(clippy::indexing_slicing)]
const fn i4_mask(odd: u8) -> [u8; 32] {
    let mut m = [0; 32];
    let mut k = 0;
    while k < 32 {
        let p = (k / 4) as u8;
        m[k] = 4 * odd + p / 2 + 8 * (p % 2);
        k += 1;
    }
    m
}

impl<const SPLIT: bool> Row<8, 32> for I4Rows<SPLIT> {
    const PAIRS: bool = true;

    #[inline(always)]
    fn row(&self, b: &[u8; 32], r: usize, d: &mut [Rgba; 8]) {
        let mut other = [[0; 4]; 8];
        if r.is_multiple_of(2) {
            self.rows2(b, r, d, &mut other);
        } else {
            self.rows2(b, r - 1, &mut other, d);
        }
    }

    #[inline(always)]
    fn rows2(&self, b: &[u8; 32], r: usize, d0: &mut [Rgba; 8], d1: &mut [Rgba; 8]) {
        let (s, a) = (self.0, &self.0.avx2);
        let pair = b.as_chunks::<8>().0.get(r / 2).copied().unwrap_or_default();
        let v = bcast64(s, pair);
        let k = |m: u8| s.avx._mm256_set1_epi8(m as i8);
        let hi = a._mm256_and_si256(v, k(0xF0));
        let lo = a._mm256_and_si256(v, k(0x0F));
        let hi = a._mm256_or_si256(hi, a._mm256_srli_epi16::<4>(hi));
        let lo = a._mm256_or_si256(lo, a._mm256_slli_epi16::<4>(lo));
        // Quarters 0 and 2 from the high nibbles, 1 and 3 from the low.
        let both = a._mm256_blend_epi32::<0b1100_1100>(hi, lo);
        put8::<SPLIT>(s, d0, shuffle256(s, both, i4_mask(0)));
        put8::<SPLIT>(s, d1, shuffle256(s, both, i4_mask(1)));
    }
}

/// I8, one row of an 8 × 4 block: each byte four times. Rows 2k and 2k + 1 sit in both lanes
/// (one 16-byte broadcast load) and the row's mask picks its bytes. The masks are opaque to
/// the optimiser (built from a `black_box` zero once per call): with constant masks LLVM
/// rewrites the broadcast and `pshufb` into three shuffles, one of them lane-crossing.
struct I8<const SPLIT: bool> {
    s: V3,
    masks: [__m256i; 2],
}

impl<const SPLIT: bool> I8<SPLIT> {
    #[inline(always)]
    fn new(s: V3) -> Self {
        let zero = s.avx._mm256_set1_epi8(core::hint::black_box(0));
        let masks = [QUADS, quads(8)].map(|m| s.avx2._mm256_or_si256(cast(m), zero));
        Self { s, masks }
    }
}

impl<const SPLIT: bool> Row<8, 32> for I8<SPLIT> {
    #[inline(always)]
    fn row(&self, b: &[u8; 32], r: usize, d: &mut [Rgba; 8]) {
        let s = self.s;
        let pair = b
            .as_chunks::<16>()
            .0
            .get(r / 2)
            .copied()
            .unwrap_or_default();
        let v = s.avx2._mm256_broadcastsi128_si256(cast(pair));
        let [even, odd] = self.masks;
        let mask = if r.is_multiple_of(2) { even } else { odd };
        put8::<SPLIT>(s, d, s.avx2._mm256_shuffle_epi8(v, mask));
    }
}

/// IA8, one row of a 4 × 4 block: stored alpha, intensity; out intensity ×3, alpha.
struct Ia8(V3);

impl Row<4, 32> for Ia8 {
    #[inline(always)]
    fn row(&self, b: &[u8; 32], r: usize, d: &mut [Rgba; 4]) {
        let s = self.0;
        const MASK: [u8; 16] = [1, 1, 1, 0, 3, 3, 3, 2, 5, 5, 5, 4, 7, 7, 7, 6];
        *d = cast(shuffle(s, low64(src_row::<8, 32>(b, r)), MASK));
    }
}

/// Eight bytes in every quarter of a register (`vpbroadcastq`, a load-port operation when the
/// bytes come from memory).
#[inline(always)]
fn bcast64(s: V3, bytes: [u8; 8]) -> __m256i {
    s.avx._mm256_set1_epi64x(i64::from_le_bytes(bytes))
}

/// Lane 0 from `lo`, lane 1 from `hi` (`vpblendd`, any vector port: no shuffle-port work).
#[inline(always)]
fn lanes(s: V3, lo: __m256i, hi: __m256i) -> __m256i {
    s.avx2._mm256_blend_epi32::<0xF0>(lo, hi)
}

/// IA8, one row of two side-by-side 4 × 4 blocks (64 bytes): each block's 8-byte row broadcast
/// from memory into its lane, one `vpshufb`, one 32-byte store.
struct Ia8Pair<const SPLIT: bool>(V3);

impl<const SPLIT: bool> Row<8, 64> for Ia8Pair<SPLIT> {
    #[inline(always)]
    fn row(&self, b: &[u8; 64], r: usize, d: &mut [Rgba; 8]) {
        let s = self.0;
        const MASK: [u8; 32] = both_lanes([1, 1, 1, 0, 3, 3, 3, 2, 5, 5, 5, 4, 7, 7, 7, 6]);
        let rows = b.as_chunks::<8>().0;
        let at = |i: usize| rows.get(i).copied().unwrap_or_default();
        let v = lanes(s, bcast64(s, at(r)), bcast64(s, at(4 + r)));
        put8::<SPLIT>(s, d, shuffle256(s, v, MASK));
    }
}

/// RGBA8, one row of two side-by-side 4 × 4 blocks (128 bytes): per lane the block's AR and GB
/// rows (four broadcast loads, three blends), one `vpshufb`, one 32-byte store.
struct Rgba8Pair<const SPLIT: bool>(V3);

impl<const SPLIT: bool> Row<8, 128> for Rgba8Pair<SPLIT> {
    #[inline(always)]
    fn row(&self, b: &[u8; 128], r: usize, d: &mut [Rgba; 8]) {
        let s = self.0;
        const MASK: [u8; 32] = both_lanes([1, 8, 9, 0, 3, 10, 11, 2, 5, 12, 13, 4, 7, 14, 15, 6]);
        let rows = b.as_chunks::<8>().0;
        let at = |i: usize| bcast64(s, rows.get(i).copied().unwrap_or_default());
        // Quarters: left AR, left GB, right AR, right GB.
        let ar = lanes(s, at(r), at(8 + r));
        let gb = lanes(s, at(4 + r), at(12 + r));
        let v = s.avx2._mm256_blend_epi32::<0b1100_1100>(ar, gb);
        put8::<SPLIT>(s, d, shuffle256(s, v, MASK));
    }
}

/// RGBA8, one row of a 4 × 4 block: its AR pairs at `8r`, GB pairs at `32 + 8r`.
struct Rgba8(V3);

impl Row<4, 64> for Rgba8 {
    #[inline(always)]
    fn row(&self, b: &[u8; 64], r: usize, d: &mut [Rgba; 4]) {
        let s = self.0;
        const MASK: [u8; 16] = [1, 8, 9, 0, 3, 10, 11, 2, 5, 12, 13, 4, 7, 14, 15, 6];
        let rows = b.as_chunks::<8>().0;
        let (ar, gb) = (
            rows.get(r).copied().unwrap_or_default(),
            rows.get(4 + r).copied().unwrap_or_default(),
        );
        let v: __m128i = cast([u64::from_le_bytes(ar), u64::from_le_bytes(gb)]);
        *d = cast(shuffle(s, v, MASK));
    }
}

/// RGBA8, two side-by-side 4 × 4 blocks (128 bytes) as one 8 × 4 tile: per pair of rows, the
/// left block's 16 AR (or GB) bytes in lane 0 and the right block's in lane 1 (a 16-byte load
/// and an insert from memory: no shuffle-port work), interleaved byte by byte
/// (`vpunpck{l,h}bw`: each pixel's `A G R B`), put in order by one `vpshufb` per output row, one
/// 32-byte store per row. The mask is opaque to the optimiser (see [`I8`]): with a constant
/// mask LLVM turns the interleave and `vpshufb` into two shuffles and a `vpblendvb`.
struct Rgba8Tiles<const SPLIT: bool> {
    s: V3,
    mask: __m256i,
}

impl<const SPLIT: bool> FromV3 for Rgba8Tiles<SPLIT> {
    #[inline(always)]
    fn from_v3(s: V3) -> Self {
        const MASK: [u8; 32] = both_lanes([2, 1, 3, 0, 6, 5, 7, 4, 10, 9, 11, 8, 14, 13, 15, 12]);
        let zero = s.avx._mm256_set1_epi8(core::hint::black_box(0));
        let mask = s.avx2._mm256_or_si256(cast(MASK), zero);
        Self { s, mask }
    }
}

impl<const SPLIT: bool> Tile<8, 128> for Rgba8Tiles<SPLIT> {
    #[inline(always)]
    fn tile(&self, b: &[u8; 128], _top: usize, rows: [&mut [Rgba; 8]; 4]) {
        let (s, mask) = (self.s, self.mask);
        let (a, x) = (&s.avx2, &s.avx);
        let q = b.as_chunks::<16>().0;
        let at = |i: usize| -> __m128i { cast(q.get(i).copied().unwrap_or_default()) };
        let pair =
            |i: usize| a._mm256_inserti128_si256::<1>(x._mm256_castsi128_si256(at(i)), at(i + 4));
        // Quarters of a block: AR rows 0-1, AR rows 2-3, GB rows 0-1, GB rows 2-3.
        let (ar01, ar23, gb01, gb23) = (pair(0), pair(1), pair(2), pair(3));
        let four = [
            a._mm256_unpacklo_epi8(ar01, gb01),
            a._mm256_unpackhi_epi8(ar01, gb01),
            a._mm256_unpacklo_epi8(ar23, gb23),
            a._mm256_unpackhi_epi8(ar23, gb23),
        ];
        for (d, v) in rows.into_iter().zip(four) {
            put8::<SPLIT>(s, d, a._mm256_shuffle_epi8(v, mask));
        }
    }
}

/// The 16 pixels of a 4 × 4 block of 2-byte (big-endian) pixels in native-order 16-bit lanes:
/// rows 0-1 in lane 0, rows 2-3 in lane 1.
#[inline(always)]
fn native16(s: V3, b: &[u8; 32]) -> __m256i {
    // Built at compile time: an index out of range fails the build, not a run.
    #[allow(clippy::indexing_slicing)]
    const SWAP: [u8; 32] = {
        let mut m = [0; 32];
        let mut k = 0;
        while k < 32 {
            m[k] = ((k % 16) ^ 1) as u8;
            k += 1;
        }
        m
    };
    shuffle256(s, cast(*b), SWAP)
}

/// Rows 0-3 of a block from its pixels' `R | G << 8` and `B | A << 8` halves in 16-bit lanes
/// ([`native16`]'s order): unpacklo gives rows 0 and 2, unpackhi 1 and 3.
#[inline(always)]
fn rgba_rows(s: V3, rg: __m256i, ba: __m256i) -> [__m128i; 4] {
    let a = &s.avx2;
    let even = a._mm256_unpacklo_epi16(rg, ba);
    let odd = a._mm256_unpackhi_epi16(rg, ba);
    [
        s.avx._mm256_castsi256_si128(even),
        s.avx._mm256_castsi256_si128(odd),
        a._mm256_extracti128_si256::<1>(even),
        a._mm256_extracti128_si256::<1>(odd),
    ]
}

/// RGB565, a whole 4 × 4 block in 16-bit lanes: `r << 3 | r >> 2`, `g << 2 | g >> 4`,
/// `b << 3 | b >> 2` as shifted and masked copies of the pixel, packed to `RG` and `BA` halves.
struct Rgb565(V3);

impl Block<32> for Rgb565 {
    #[inline(always)]
    fn block(&self, b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize) {
        let s = self.0;
        let a = &s.avx2;
        let p = native16(s, b);
        let k = |v: i16| s.avx._mm256_set1_epi16(v);
        let red = a._mm256_or_si256(
            a._mm256_and_si256(a._mm256_srli_epi16::<8>(p), k(0xF8)),
            a._mm256_srli_epi16::<13>(p),
        );
        let green = a._mm256_or_si256(
            a._mm256_and_si256(a._mm256_slli_epi16::<5>(p), k(0xFC00_u16 as i16)),
            a._mm256_and_si256(a._mm256_srli_epi16::<1>(p), k(0x0300)),
        );
        let blue = a._mm256_or_si256(
            a._mm256_and_si256(a._mm256_slli_epi16::<3>(p), k(0xF8)),
            a._mm256_and_si256(a._mm256_srli_epi16::<2>(p), k(0x07)),
        );
        let rg = a._mm256_or_si256(red, green);
        let ba = a._mm256_or_si256(blue, k(0xFF00_u16 as i16));
        store::<4, _, 4>(out, stride, x0, rgba_rows(s, rg, ba));
    }
}

/// RGB5A3, a whole 4 × 4 block in 16-bit lanes: both readings of every pixel computed as
/// shifted and masked copies (bit 15 set: RGB555, each channel `v << 3 | v >> 2`, alpha 255;
/// clear: ARGB3444, `v << 4 | v` and alpha `a << 5 | a << 2 | a >> 1`), the pixel's own picked
/// by its sign (`vpblendvb` on `p >> 15`). Decoded as a tile (small levels) or a block.
struct Rgb5a3(V3);

impl Rgb5a3 {
    #[inline(always)]
    fn rows(&self, b: &[u8; 32]) -> [__m128i; 4] {
        let s = self.0;
        let a = &s.avx2;
        let p = native16(s, b);
        let k = |v: i16| s.avx._mm256_set1_epi16(v);
        let and = |x: __m256i, m: i16| a._mm256_and_si256(x, k(m));
        let or = |x: __m256i, y: __m256i| a._mm256_or_si256(x, y);
        let hi = |x: __m256i| a._mm256_slli_epi16::<8>(x);
        // RGB555.
        let r = or(
            and(a._mm256_srli_epi16::<7>(p), 0xF8),
            and(a._mm256_srli_epi16::<12>(p), 7),
        );
        let g = or(
            and(a._mm256_srli_epi16::<2>(p), 0xF8),
            and(a._mm256_srli_epi16::<7>(p), 7),
        );
        let bl = or(
            and(a._mm256_slli_epi16::<3>(p), 0xF8),
            and(a._mm256_srli_epi16::<2>(p), 7),
        );
        let (rg1, ba1) = (or(r, hi(g)), or(bl, k(0xFF00_u16 as i16)));
        // ARGB3444.
        let r = or(
            and(a._mm256_srli_epi16::<4>(p), 0xF0),
            and(a._mm256_srli_epi16::<8>(p), 0xF),
        );
        let g = or(and(p, 0xF0), and(a._mm256_srli_epi16::<4>(p), 0xF));
        let bl = or(and(a._mm256_slli_epi16::<4>(p), 0xF0), and(p, 0xF));
        let al = or(
            or(
                and(a._mm256_srli_epi16::<7>(p), 0xE0),
                and(a._mm256_srli_epi16::<10>(p), 0x1C),
            ),
            and(a._mm256_srli_epi16::<13>(p), 3),
        );
        let (rg0, ba0) = (or(r, hi(g)), or(bl, hi(al)));
        let opaque = a._mm256_srai_epi16::<15>(p);
        let rg = a._mm256_blendv_epi8(rg0, rg1, opaque);
        let ba = a._mm256_blendv_epi8(ba0, ba1, opaque);
        rgba_rows(s, rg, ba)
    }
}

impl Block<32> for Rgb5a3 {
    #[inline(always)]
    fn block(&self, b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize) {
        store::<4, _, 4>(out, stride, x0, self.rows(b));
    }
}

impl Tile<4, 32> for Rgb5a3 {
    #[inline(always)]
    fn tile(&self, b: &[u8; 32], _top: usize, rows: [&mut [Rgba; 4]; 4]) {
        for (d, v) in rows.into_iter().zip(self.rows(b)) {
            *d = cast(v);
        }
    }
}

/// CMPR, a whole 8 × 8 block: each output row is row `y % 4` of two side-by-side 4 × 4
/// sub-blocks, so one register holds both sub-blocks' four colours (from `fast`'s palette
/// code) and one `vpermd` per row picks the eight pixels, their 2-bit indices shifted out of the
/// sub-blocks' index bytes lane by lane (`vpsrlvd`), the right sub-block's offset by 4.
struct Cmpr(V3);

impl Block<32> for Cmpr {
    #[inline(always)]
    fn block(&self, b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize) {
        let (s, a) = (self.0, &self.0.avx2);
        let v: __m256i = cast(*b);
        let three = s.avx._mm256_set1_epi32(3);
        let right: __m256i = cast([0u32, 0, 0, 0, 4, 4, 4, 4]);
        let subs = b.as_chunks::<8>().0;
        let pal = |i: usize| {
            let [c0h, c0l, c1h, c1l, ..] = subs.get(i).copied().unwrap_or_default();
            cmpr_colors([c0h, c0l], [c1h, c1l])
        };
        let mut rows8 = [s.avx._mm256_setzero_si256(); 8];
        for (half, four) in rows8.as_chunks_mut::<4>().0.iter_mut().enumerate() {
            let [l0, l1, l2, l3] = pal(2 * half);
            let [r0, r1, r2, r3] = pal(2 * half + 1);
            let colors: __m256i = cast([l0, l1, l2, l3, r0, r1, r2, r3]);
            // Dwords 1 and 3 (5 and 7) hold the index bytes of the two sub-blocks.
            let sel: [u32; 8] = if half == 0 {
                [1, 1, 1, 1, 3, 3, 3, 3]
            } else {
                [5, 5, 5, 5, 7, 7, 7, 7]
            };
            let bits = a._mm256_permutevar8x32_epi32(v, cast(sel));
            for (y, row) in four.iter_mut().enumerate() {
                // Pixel x of row y: bits 8y + 6 - 2x of the little-endian index word.
                let sh = 8 * y as u32;
                let shifts = [sh + 6, sh + 4, sh + 2, sh, sh + 6, sh + 4, sh + 2, sh];
                let idx = a._mm256_or_si256(
                    a._mm256_and_si256(a._mm256_srlv_epi32(bits, cast(shifts)), three),
                    right,
                );
                *row = a._mm256_permutevar8x32_epi32(colors, idx);
            }
        }
        store::<8, _, 8>(out, stride, x0, rows8);
    }
}
