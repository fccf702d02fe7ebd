//! CMPR: S3TC/DXT1 with GameCube twists — an 8 × 8 block holds four 4 × 4 sub-blocks (top-left,
//! top-right, bottom-left, bottom-right), colours are big-endian RGB565, each row of indices is
//! one byte with the leftmost pixel in the top two bits, and the interpolated colours are the
//! hardware's 5/8 + 3/8 blends (not DXT1's thirds). When `c0 <= c1` the third colour is the
//! average and index 3 is that average with alpha 0 [EXT: noclip `decode_cmpr`, Dolphin].
//!
//! The encoder fits each sub-block's endpoints along the principal axis of its colours, refines
//! them by least squares on the chosen indices, then searches ±1 steps of each RGB565 component,
//! in both the four-colour and (with transparency, only) the three-colour mode.
//! [`encode_exact`] re-encodes pixels decoded from CMPR without loss instead.

use std::ops::Range;

use gcio::Result;

use super::blocks::{self, Block};
use super::pixel::{Rgba, expand5, expand6, narrow5, narrow6, rgb565_to_rgba, rgba_to_rgb565};
use super::{Image, TexFormat, level_size};

/// Pixels with alpha below this are encoded transparent.
const ALPHA_CUTOFF: u8 = 0x80;

fn blend(a: u8, b: u8, wa: u32, wb: u32, shift: u32) -> u8 {
    ((u32::from(a) * wa + u32::from(b) * wb) >> shift) as u8
}

fn mix(a: Rgba, b: Rgba, wa: u32, wb: u32, shift: u32, alpha: u8) -> Rgba {
    let [r0, g0, b0, _] = a;
    let [r1, g1, b1, _] = b;
    [
        blend(r0, r1, wa, wb, shift),
        blend(g0, g1, wa, wb, shift),
        blend(b0, b1, wa, wb, shift),
        alpha,
    ]
}

/// The four colours a sub-block's endpoints select from.
pub(crate) fn colors(c0: u16, c1: u16) -> [Rgba; 4] {
    let (a, b) = (rgb565_to_rgba(c0), rgb565_to_rgba(c1));
    if c0 > c1 {
        [a, b, mix(a, b, 5, 3, 3, 0xFF), mix(a, b, 3, 5, 3, 0xFF)]
    } else {
        [a, b, mix(a, b, 1, 1, 1, 0xFF), mix(a, b, 1, 1, 1, 0)]
    }
}

/// Decodes one 32-byte CMPR block into 8 × 8 pixels: the reference `fast` is tested against.
#[cfg(test)]
pub(crate) fn decode_block(block: &[u8], px: &mut Block<Rgba>) {
    for (s, sub) in block.chunks_exact(8).enumerate() {
        let (sx, sy) = ((s & 1) * 4, (s >> 1) * 4);
        if let [a, b, c, d, rows @ ..] = sub {
            let pal = colors(u16::from_be_bytes([*a, *b]), u16::from_be_bytes([*c, *d]));
            for (y, bits) in rows.iter().enumerate() {
                for x in 0..4 {
                    let i = usize::from((bits >> (6 - 2 * x)) & 3);
                    if let (Some(p), Some(c)) = (px.get_mut((sy + y) * 8 + sx + x), pal.get(i)) {
                        *p = *c;
                    }
                }
            }
        }
    }
}

/// Encodes 8 × 8 pixels into one 32-byte CMPR block.
pub(crate) fn encode_block(px: &Block<Rgba>, out: &mut [u8]) {
    for (s, dst) in out.chunks_exact_mut(8).enumerate() {
        dst.copy_from_slice(&encode_sub(&sub_block(px, s)));
    }
}

/// The 16 pixels of sub-block `s` (0..4: top-left, top-right, bottom-left, bottom-right).
fn sub_block(px: &Block<Rgba>, s: usize) -> [Rgba; 16] {
    let (sx, sy) = ((s & 1) * 4, (s >> 1) * 4);
    let mut sub = [[0u8; 4]; 16];
    for (j, p) in sub.iter_mut().enumerate() {
        if let Some(v) = px.get((sy + j / 4) * 8 + sx + j % 4) {
            *p = *v;
        }
    }
    sub
}

/// The result of [`encode_exact`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Exact {
    /// The level's CMPR data.
    pub data: Vec<u8>,
    /// Sub-blocks (8-byte units, in data order: `data[8 * i..]`) no endpoint pair reproduces
    /// exactly; they hold the fitting encoder's output.
    pub inexact: Vec<u32>,
}

/// Encodes an image decoded from CMPR back to CMPR, reproducing its pixels exactly where
/// possible (e.g. to rebuild a texture after a format conversion, or to re-encode unedited
/// textures of an imported model without generation loss).
///
/// Each 4 × 4 sub-block takes endpoints from its own colours that are RGB565 values, plus
/// black: pairs in both orders, four-colour mode first, brightest first. When none fits, an
/// endpoint no texel shows is solved for per channel from a known one and a blended or
/// transparent texel; when every texel is a blend, both are, the closest pair winning. The
/// first palette holding every texel wins, each texel taking its first equal entry. Flat
/// sub-blocks get the form Nintendo's J3D encoders mostly write: (colour, black) in four-colour
/// mode, all zeros for black. Sub-blocks nothing fits (images not decoded from CMPR) get the
/// fitting encoder's output and are listed in [`Exact::inexact`].
///
/// On the corpus (`tests/tex_real.rs`), every sub-block of the 145 real CMPR textures is exact;
/// byte for byte, 97.8 % of the 135,632 sub-blocks of 68 J3D/BTI textures come back (39
/// textures entirely) and, with [`Flat::Hal`] ([`encode_exact_with`]), 97.7 % of the 36,964 of
/// 77 HSD ones (35; 89.1 % with this function's J3D form). The rest differ in the unused second
/// endpoint of flat sub-blocks (some of Nintendo's encoders write one blue step, Chibi-Robo's
/// HSD tool one blue step up in three-colour mode) or in the form of flat black. A proptest finds
/// random CMPR blocks, blend-only ones included, all exact.
pub fn encode_exact(image: &Image) -> Result<Exact> {
    encode_exact_with(image, Flat::Black)
}

/// How an encoder wrote a flat opaque sub-block (one colour, every texel index 0): the second
/// endpoint no texel uses, and the mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Flat {
    /// (colour, black) in four-colour mode, black as all zeros: Nintendo's J3D encoders.
    #[default]
    Black,
    /// HAL's sysdolphin encoder: the colour one green step darker in four-colour mode, or, when
    /// its green is 0, one red step brighter in three-colour mode (842 of the 875 flat
    /// sub-blocks of Melee's `PlMrNr.dat`); white as (black, white) in three-colour mode, every
    /// texel index 1 (all 90 white flat sub-blocks of `TyBSword.dat`, `TyDaisy.dat` and
    /// Chibi-Robo's `cb_plug.dat`); other colours as [`Flat::Black`].
    Hal,
    /// The colour and the colour one green step darker in four-colour mode, every colour (white
    /// too); a colour without green as (one green step brighter, the colour), index 1.
    GreenStep,
    /// (colour, black) in four-colour mode; black as (white, black), index 1.
    BlackWhite,
    /// The colour one blue step brighter in three-colour mode (one red step where blue is 31),
    /// white as in [`Flat::Hal`]; black is (black, one blue step).
    BlueUp,
}

impl Flat {
    /// Every form, [`Flat::Hal`] (HSD's default) first.
    pub const ALL: [Flat; 5] = [
        Flat::Hal,
        Flat::Black,
        Flat::BlackWhite,
        Flat::GreenStep,
        Flat::BlueUp,
    ];

    /// The form's name (`hal`, `black`, `black_white`, `green_step`, `blue_up`).
    pub fn name(self) -> &'static str {
        match self {
            Flat::Black => "black",
            Flat::Hal => "hal",
            Flat::GreenStep => "green_step",
            Flat::BlackWhite => "black_white",
            Flat::BlueUp => "blue_up",
        }
    }

    /// The form named `name` ([`Flat::name`]).
    pub fn from_name(name: &str) -> Option<Flat> {
        Flat::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// [`encode_exact`] with flat sub-blocks written the way `flat` says.
pub fn encode_exact_with(image: &Image, flat: Flat) -> Result<Exact> {
    let (w, h) = (image.width(), image.height());
    let mut out = Exact {
        data: vec![0; level_size(TexFormat::CMPR, w, h)?],
        inexact: Vec::new(),
    };
    let mut n = 0u32;
    let inexact = &mut out.inexact;
    let at = |x, y| image.clamped(x, y);
    blocks::tile(TexFormat::CMPR, w, h, at, &mut out.data, |px, o| {
        for (s, dst) in o.chunks_exact_mut(8).enumerate() {
            let sub = sub_block(px, s);
            let enc = exact_sub(&sub, flat).unwrap_or_else(|| {
                inexact.push(n);
                encode_sub(&sub)
            });
            dst.copy_from_slice(&enc);
            n += 1;
        }
    })?;
    Ok(out)
}

/// Packs endpoints and 16 indices as a stored sub-block.
fn pack(c0: u16, c1: u16, idx: &[u8; 16]) -> [u8; 8] {
    let [a, b] = c0.to_be_bytes();
    let [c, d] = c1.to_be_bytes();
    let mut out = [a, b, c, d, 0, 0, 0, 0];
    for (row, idx) in out.iter_mut().skip(4).zip(idx.chunks_exact(4)) {
        *row = idx.iter().fold(0, |acc, &i| (acc << 2) | i);
    }
    out
}

/// Indices reproducing `px` exactly from the palette of `(c0, c1)`: opaque pixels take the first
/// equal opaque entry, transparent ones entry 3 of the three-colour mode.
fn exact_indices(c0: u16, c1: u16, px: &[Rgba; 16]) -> Option<[u8; 16]> {
    let pal = colors(c0, c1);
    let mut idx = [0u8; 16];
    for (p, i) in px.iter().zip(idx.iter_mut()) {
        *i = pal.iter().position(|c| c == p)? as u8;
    }
    Some(idx)
}

/// A flat opaque sub-block of RGB565 colour `c` as `flat` writes it.
fn flat_sub(c: u16, flat: Flat) -> Option<[u8; 8]> {
    let (blue, green, red) = (c & 0x1F, (c >> 5) & 0x3F, c >> 11);
    let (c0, c1) = match flat {
        Flat::Hal | Flat::BlueUp if c == 0xFFFF => (0, c),
        Flat::Hal | Flat::GreenStep if green > 0 => (c, c - 0x20),
        Flat::GreenStep => (c + 0x20, c),
        Flat::BlackWhite if c == 0 => (0xFFFF, 0),
        Flat::BlueUp if blue < 0x1F => (c, c + 1),
        Flat::Hal | Flat::BlueUp if red < 0x1F => (c, c + 0x800),
        _ => (c, 0),
    };
    let p = rgb565_to_rgba(c);
    Some(pack(c0, c1, &exact_indices(c0, c1, &[p; 16])?))
}

/// The form the flat opaque sub-blocks of stored CMPR `data` (one colour, every texel one
/// index) were written in: the [`Flat`] that writes most of them byte for byte, the earliest
/// of [`Flat::ALL`] on ties; `None` when no form writes any. An encoder writes every flat
/// sub-block of a texture alike, so this recovers the form its tool used
/// ([`encode_exact_with`] then gives the texture back as stored).
pub fn flat_form(data: &[u8]) -> Option<Flat> {
    let mut counts = [0usize; Flat::ALL.len()];
    for sub in data.chunks_exact(8) {
        let Ok(&[a, b, x, y, r0, r1, r2, r3]) = <&[u8; 8]>::try_from(sub) else {
            continue;
        };
        let i = r0 >> 6;
        if [r0, r1, r2, r3].iter().any(|&r| r != i * 0x55) {
            continue;
        }
        let (c0, c1) = (u16::from_be_bytes([a, b]), u16::from_be_bytes([x, y]));
        let Some(c) = colors(c0, c1)
            .get(usize::from(i))
            .filter(|p| p[3] == 0xFF)
            .and_then(|&p| exact565(p))
        else {
            continue;
        };
        for (n, &f) in counts.iter_mut().zip(&Flat::ALL) {
            *n += usize::from(flat_sub(c, f).as_ref().map(|x| &x[..]) == Some(sub));
        }
    }
    let best = counts.iter().copied().max().filter(|&n| n > 0)?;
    Flat::ALL
        .iter()
        .zip(counts)
        .find(|&(_, n)| n == best)
        .map(|(&f, _)| f)
}

/// An exact encoding of one sub-block, if endpoints derived from its colours give one (see
/// [`encode_exact`]).
fn exact_sub(px: &[Rgba; 16], flat: Flat) -> Option<[u8; 8]> {
    let mut distinct: Vec<Rgba> = Vec::with_capacity(4);
    for p in px {
        if !distinct.contains(p) {
            if distinct.len() == 4 || !matches!(p[3], 0 | 0xFF) {
                // No CMPR palette holds more than four colours or partial alpha.
                return None;
            }
            distinct.push(*p);
        }
    }
    let try_pair = |(c0, c1): (u16, u16)| Some(pack(c0, c1, &exact_indices(c0, c1, px)?));
    // A flat opaque sub-block: written in the form `flat` says.
    if let [p] = distinct[..]
        && p[3] == 0xFF
        && let Some(c) = exact565(p)
    {
        return flat_sub(c, flat);
    }
    // Endpoints among the colours, and black (transparent texels often average with it).
    let mut known: Vec<u16> = distinct.iter().filter_map(|&p| exact565(p)).collect();
    known.sort_unstable_by(|a, b| b.cmp(a));
    if !known.contains(&0) {
        known.push(0);
    }
    let pairs = || {
        known
            .iter()
            .flat_map(|&a| known.iter().map(move |&b| (a, b)))
    };
    // Four-colour pairs (c0 > c1) first, brightest first; then three-colour ones.
    let four = pairs().filter(|(a, b)| a > b);
    let three = pairs().filter(|(a, b)| a <= b);
    let found = if flat == Flat::BlueUp {
        three.chain(four).find_map(try_pair)
    } else {
        four.chain(three).find_map(try_pair)
    };
    if let Some(out) = found {
        return Some(out);
    }
    // HSD's encoders write the three-colour form where both fit equally.
    let three_first = flat != Flat::Black;
    // One endpoint appears in no texel: solve for it from a known endpoint and a blended colour.
    let one_unseen = || {
        known
            .iter()
            .flat_map(|&a| {
                distinct.iter().flat_map(move |&d| {
                    BLENDS.iter().flat_map(move |&(wa, wb, shift)| {
                        solve(a, d, wa, wb, shift).flat_map(move |b| {
                            let (hi, lo) = (a.max(b), a.min(b));
                            if flat == Flat::BlueUp {
                                [(lo, hi), (hi, lo)]
                            } else {
                                [(hi, lo), (lo, hi)]
                            }
                        })
                    })
                })
            })
            .find_map(try_pair)
    };
    // Texels that are all blends (HAL's encoder writes many): black is the only known endpoint,
    // and the closest pair of unseen endpoints is what such encoders pick.
    if known.len() == 1 {
        both_unseen(&distinct, px, three_first).or_else(one_unseen)
    } else {
        one_unseen().or_else(|| both_unseen(&distinct, px, three_first))
    }
}

/// The palette's blends as `(wa, wb, shift)`: `(wa·c0 + wb·c1) >> shift` per channel is entry 2
/// and entry 3 of the four-colour mode, and the three-colour average.
const BLENDS: [(u32, u32, u32); 3] = [(5, 3, 3), (3, 5, 3), (1, 1, 1)];

/// Every 5- and 6-bit channel value expanded to 8 bits, as the decoder does.
static E5: [u32; 32] = expanded();
static E6: [u32; 64] = expanded();

// Const evaluation has no `get_mut`; `v < N` bounds the index.
#[allow(clippy::indexing_slicing)]
const fn expanded<const N: usize>() -> [u32; N] {
    let mut t = [0; N];
    let mut v = 0;
    while v < N {
        t[v] = if N == 64 {
            expand6(v as u8)
        } else {
            expand5(v as u8)
        } as u32;
        v += 1;
    }
    t
}

/// Endpoints neither of which any texel shows: every texel is a blend (four-colour entries 2
/// and 3) or the three-colour average (opaque or transparent). Solved per channel; the pair
/// with the closest endpoints wins, among equally close ones the three-colour average's when
/// `three_first` (HSD's encoders), else the four-colour blends'.
fn both_unseen(distinct: &[Rgba], px: &[Rgba; 16], three_first: bool) -> Option<[u8; 8]> {
    // (four-colour mode, the blend each distinct colour is): a palette has two blends.
    let mut assignments: Vec<(bool, Vec<usize>)> = Vec::new();
    match distinct {
        [_] => assignments.extend([(true, vec![0]), (true, vec![1])]),
        [_, _] => assignments.extend([(true, vec![0, 1]), (true, vec![1, 0])]),
        _ => {}
    }
    if distinct
        .windows(2)
        .all(|w| matches!(w, [a, b] if a[..3] == b[..3]))
    {
        assignments.push((false, vec![2; distinct.len()]));
    }
    if three_first && assignments.last().is_some_and(|a| !a.0) {
        assignments.rotate_right(1);
    }
    let mut best: Option<(u32, [u8; 8])> = None;
    for (four, blend) in assignments {
        let rule = |c: usize| -> Vec<(u32, u32, u32, u8)> {
            distinct
                .iter()
                .zip(&blend)
                .filter_map(|(d, &k)| {
                    let (wa, wb, shift) = BLENDS.get(k).copied()?;
                    Some((wa, wb, shift, *d.get(c)?))
                })
                .collect()
        };
        let (r, g, b) = (
            channel_pairs(&E5, &rule(0)),
            channel_pairs(&E6, &rule(1)),
            channel_pairs(&E5, &rule(2)),
        );
        for &(r0, r1) in &r {
            for &(g0, g1) in &g {
                for &(b0, b1) in &b {
                    let (c0, c1) = ((r0 << 11) | (g0 << 5) | b0, (r1 << 11) | (g1 << 5) | b1);
                    if (c0 > c1) != four {
                        continue;
                    }
                    let spread = [(r0, r1), (g0, g1), (b0, b1)]
                        .iter()
                        .map(|&(x, y)| u32::from(x.abs_diff(y)))
                        .sum();
                    if best.is_some_and(|(s, _)| s <= spread) {
                        continue;
                    }
                    if let Some(idx) = exact_indices(c0, c1, px) {
                        best = Some((spread, pack(c0, c1, &idx)));
                    }
                }
            }
        }
    }
    best.map(|(_, out)| out)
}

/// Channel values `(x, y)` (indices into the expanded values `e`) meeting every
/// `(wa, wb, shift, value)` rule `(wa·x + wb·y) >> shift == value` on the expanded values: the two closest pairs with
/// `x > y`, `x == y` and `x < y` each (the endpoints' order decides the mode), the earliest in
/// `(x, y)` order among equally close ones.
fn channel_pairs(e: &[u32], rules: &[(u32, u32, u32, u8)]) -> Vec<(u16, u16)> {
    let top = e.len() as u16;
    // For each `x` the `y` every rule allows form one range ([`allowed`]): only the two `y`
    // nearest `x` on each side can be among the closest.
    let mut out: Vec<(u16, u16)> = Vec::new();
    for (x, &ex) in (0u16..).zip(e) {
        let (mut lo, mut hi) = (0u16, top);
        for &rule in rules {
            let r = allowed(e, ex, rule);
            (lo, hi) = (lo.max(r.start), hi.min(r.end));
        }
        if lo >= hi {
            continue;
        }
        let below = x.min(hi);
        let above = (x + 1).max(lo);
        let candidates = [
            below.checked_sub(2).filter(|&y| y >= lo),
            below.checked_sub(1).filter(|&y| y >= lo),
            (lo..hi).contains(&x).then_some(x),
            Some(above).filter(|&y| y < hi),
            Some(above + 1).filter(|&y| y < hi),
        ];
        out.extend(candidates.into_iter().flatten().map(|y| (x, y)));
    }
    out.sort_by_key(|&(x, y)| x.abs_diff(y));
    let mut kept = [0u8; 3];
    out.retain(|&(x, y)| {
        let n = kept.get_mut((x.cmp(&y) as i8 + 1) as usize);
        n.is_some_and(|n| {
            *n = n.saturating_add(1);
            *n <= 2
        })
    });
    out
}

/// The RGB565 value whose colour is the texel's (alpha aside), if there is one.
fn exact565(p: Rgba) -> Option<u16> {
    let c = rgba_to_rgb565(p);
    (rgb565_to_rgba(c) == [p[0], p[1], p[2], 0xFF]).then_some(c)
}

/// Every RGB565 `b` with `(wa·a + wb·b) >> shift == d` in each channel (the palette's blends),
/// red-major.
fn solve(a: u16, d: Rgba, wa: u32, wb: u32, shift: u32) -> impl Iterator<Item = u16> {
    let ea = rgb565_to_rgba(a);
    let channel = |c: usize, e: &[u32]| match (ea.get(c), d.get(c)) {
        (Some(&x), Some(&want)) => allowed(e, u32::from(x), (wa, wb, shift, want)),
        _ => 0..0,
    };
    let (r, g, b) = (channel(0, &E5), channel(1, &E6), channel(2, &E5));
    r.flat_map(move |r| {
        let b = b.clone();
        g.clone()
            .flat_map(move |g| b.clone().map(move |b| (r << 11) | (g << 5) | b))
    })
}

/// The channel values `y` (indices into the expanded values `e`) with
/// `(wa·ex + wb·e[y]) >> shift == v`: one range, as expanded values grow with the value.
fn allowed(e: &[u32], ex: u32, (wa, wb, shift, v): (u32, u32, u32, u8)) -> Range<u16> {
    let sum = |ey: u32| (wa * ex + wb * ey) >> shift;
    let lo = e.partition_point(|&ey| sum(ey) < u32::from(v));
    let hi = e.partition_point(|&ey| sum(ey) <= u32::from(v));
    lo as u16..hi.max(lo) as u16
}

/// A candidate encoding of one sub-block.
#[derive(Clone, Copy)]
struct Fit {
    err: u32,
    c0: u16,
    c1: u16,
    idx: [u8; 16],
}

fn rgb_dist(a: Rgba, b: Rgba) -> u32 {
    let d = |x: u8, y: u8| {
        let d = i32::from(x) - i32::from(y);
        (d * d) as u32
    };
    d(a[0], b[0]) + d(a[1], b[1]) + d(a[2], b[2])
}

/// Scores endpoints in one mode (ordering them as the mode needs); `None` if the mode cannot
/// hold them (four colours need distinct endpoints and no transparent pixel) or the error
/// reaches `limit` (the best so far: scoring stops early).
fn eval(c0: u16, c1: u16, four: bool, px: &[Rgba; 16], limit: u32) -> Option<Fit> {
    let (c0, c1) = match (four, c0.cmp(&c1)) {
        (true, std::cmp::Ordering::Equal) => return None,
        (true, _) => (c0.max(c1), c0.min(c1)),
        (false, _) => (c0.min(c1), c0.max(c1)),
    };
    let pal = colors(c0, c1);
    let usable = if four { 4 } else { 3 };
    let mut fit = Fit {
        err: 0,
        c0,
        c1,
        idx: [0; 16],
    };
    for (p, i) in px.iter().zip(fit.idx.iter_mut()) {
        if p[3] < ALPHA_CUTOFF {
            if four {
                return None;
            }
            *i = 3;
            continue;
        }
        let (best, e) = pal
            .iter()
            .take(usable)
            .enumerate()
            .map(|(k, c)| (k, rgb_dist(*p, *c)))
            .min_by_key(|&(_, e)| e)
            .unwrap_or((0, 0));
        *i = best as u8;
        fit.err += e;
        if fit.err >= limit {
            return None;
        }
    }
    Some(fit)
}

fn to565(c: [f32; 3]) -> u16 {
    let q = |v: f32| v.round().clamp(0.0, 255.0) as u8;
    (u16::from(narrow5(q(c[0]))) << 11)
        | (u16::from(narrow6(q(c[1]))) << 5)
        | u16::from(narrow5(q(c[2])))
}

fn rgb_f(p: Rgba) -> [f32; 3] {
    [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]
}

/// Endpoints at the extremes of the opaque pixels' projection on their principal axis.
fn principal_endpoints(px: &[Rgba; 16]) -> (u16, u16) {
    let mut opaque = [[0f32; 3]; 16];
    let mut count = 0;
    for (slot, p) in opaque
        .iter_mut()
        .zip(px.iter().filter(|p| p[3] >= ALPHA_CUTOFF))
    {
        *slot = rgb_f(*p);
        count += 1;
    }
    let opaque = opaque.get(..count).unwrap_or(&[]);
    let n = opaque.len().max(1) as f32;
    let mut mean = [0f32; 3];
    for p in opaque {
        mean.iter_mut().zip(p).for_each(|(m, v)| *m += v / n);
    }
    let mut cov = [[0f32; 3]; 3];
    for p in opaque {
        let d = [p[0] - mean[0], p[1] - mean[1], p[2] - mean[2]];
        for (row, di) in cov.iter_mut().zip(d) {
            row.iter_mut().zip(d).for_each(|(c, dj)| *c += di * dj);
        }
    }
    let mut axis = [1f32, 1.0, 1.0];
    for _ in 0..8 {
        let next = cov.map(|row| row[0] * axis[0] + row[1] * axis[1] + row[2] * axis[2]);
        let len = next.iter().map(|v| v * v).sum::<f32>().sqrt();
        if len < 1e-6 {
            break;
        }
        axis = next.map(|v| v / len);
    }
    let t = |p: &[f32; 3]| {
        (p[0] - mean[0]) * axis[0] + (p[1] - mean[1]) * axis[1] + (p[2] - mean[2]) * axis[2]
    };
    let (lo, hi) = opaque
        .iter()
        .map(t)
        .fold((0f32, 0f32), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let at = |s: f32| {
        [
            mean[0] + axis[0] * s,
            mean[1] + axis[1] * s,
            mean[2] + axis[2] * s,
        ]
    };
    (to565(at(hi)), to565(at(lo)))
}

/// Least-squares endpoints for the indices of `fit`: pixel ≈ w·c0 + (1 − w)·c1.
fn least_squares(fit: &Fit, four: bool, px: &[Rgba; 16]) -> Option<(u16, u16)> {
    let weights: &[f32] = if four {
        &[1.0, 0.0, 5.0 / 8.0, 3.0 / 8.0]
    } else {
        &[1.0, 0.0, 0.5]
    };
    let (mut a, mut b, mut c) = (0f32, 0f32, 0f32);
    let (mut x, mut y) = ([0f32; 3], [0f32; 3]);
    for (p, &i) in px.iter().zip(&fit.idx) {
        let Some(&w) = weights.get(usize::from(i)) else {
            continue;
        };
        if p[3] < ALPHA_CUTOFF {
            continue;
        }
        let v = 1.0 - w;
        (a, b, c) = (a + w * w, b + w * v, c + v * v);
        for ((xc, yc), pc) in x.iter_mut().zip(y.iter_mut()).zip(rgb_f(*p)) {
            *xc += w * pc;
            *yc += v * pc;
        }
    }
    let det = a * c - b * b;
    if det.abs() < 1e-6 {
        return None;
    }
    let [xr, xg, xb] = x;
    let [yr, yg, yb] = y;
    let e0 = [(xr, yr), (xg, yg), (xb, yb)].map(|(x, y)| (c * x - b * y) / det);
    let e1 = [(xr, yr), (xg, yg), (xb, yb)].map(|(x, y)| (a * y - b * x) / det);
    Some((to565(e0), to565(e1)))
}

/// Steps one RGB565 component of `c` by `delta`, if it stays in range.
fn nudge(c: u16, component: usize, delta: i32) -> Option<u16> {
    let (shift, mask) = [(11, 0x1F), (5, 0x3F), (0, 0x1F)].get(component).copied()?;
    let v = i32::from((c >> shift) & mask) + delta;
    if v < 0 || v > i32::from(mask) {
        return None;
    }
    Some((c & !(mask << shift)) | ((v as u16) << shift))
}

fn limit(best: &Option<Fit>) -> u32 {
    best.map_or(u32::MAX, |b| b.err)
}

fn better(best: &mut Option<Fit>, cand: Option<Fit>) -> bool {
    match (cand, best.as_ref()) {
        (Some(c), Some(b)) if c.err >= b.err => false,
        (Some(c), _) => {
            *best = Some(c);
            true
        }
        (None, _) => false,
    }
}

/// Best fit in one mode from `start`; `None` when the start already scores `beat` or worse
/// (the three-colour mode is only refined when it starts ahead of the four-colour result).
fn refine(start: (u16, u16), four: bool, px: &[Rgba; 16], beat: u32) -> Option<Fit> {
    let mut best = eval(start.0, start.1, four, px, beat);
    if best.is_none() && four {
        // Equal endpoints: split them by one green step to enter four-colour mode.
        for c1 in [nudge(start.1, 1, -1), nudge(start.1, 1, 1)]
            .into_iter()
            .flatten()
        {
            let cand = eval(start.0, c1, four, px, limit(&best));
            better(&mut best, cand);
        }
    }
    for _ in 0..2 {
        let Some(fit) = best else { break };
        if fit.err == 0 {
            return best;
        }
        let improved = least_squares(&fit, four, px).is_some_and(|(c0, c1)| {
            let cand = eval(c0, c1, four, px, limit(&best));
            better(&mut best, cand)
        });
        if !improved {
            break;
        }
    }
    for _ in 0..4 {
        let Some(fit) = best else { break };
        if fit.err == 0 {
            break;
        }
        let mut improved = false;
        for end in 0..2 {
            for comp in 0..3 {
                for delta in [-1, 1] {
                    let Some(cur) = best else { continue };
                    let (c0, c1) = if end == 0 {
                        (nudge(cur.c0, comp, delta), Some(cur.c1))
                    } else {
                        (Some(cur.c0), nudge(cur.c1, comp, delta))
                    };
                    if let (Some(c0), Some(c1)) = (c0, c1) {
                        let cand = eval(c0, c1, four, px, limit(&best));
                        improved |= better(&mut best, cand);
                    }
                }
            }
        }
        if !improved {
            break;
        }
    }
    best
}

fn encode_sub(px: &[Rgba; 16]) -> [u8; 8] {
    let transparent = px.iter().any(|p| p[3] < ALPHA_CUTOFF);
    let fit = if px.iter().all(|p| p[3] < ALPHA_CUTOFF) {
        Fit {
            err: 0,
            c0: 0,
            c1: 0,
            idx: [3; 16],
        }
    } else {
        let start = principal_endpoints(px);
        let mut best = if transparent {
            None
        } else {
            refine(start, true, px, u32::MAX)
        };
        if limit(&best) > 0 {
            let three = refine(start, false, px, limit(&best));
            better(&mut best, three);
        }
        best.unwrap_or(Fit {
            err: 0,
            c0: 0,
            c1: 0,
            idx: [0; 16],
        })
    };
    pack(fit.c0, fit.c1, &fit.idx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition: every pair scanned, sorted stably by distance, two kept per order.
    fn scanned(e: &[u32], rules: &[(u32, u32, u32, u8)]) -> Vec<(u16, u16)> {
        let n = e.len() as u16;
        let e = |v: u16| e[usize::from(v)];
        let mut out: Vec<(u16, u16)> = (0..n)
            .flat_map(|x| (0..n).map(move |y| (x, y)))
            .filter(|&(x, y)| {
                rules
                    .iter()
                    .all(|&(wa, wb, s, v)| (wa * e(x) + wb * e(y)) >> s == u32::from(v))
            })
            .collect();
        out.sort_by_key(|&(x, y)| x.abs_diff(y));
        let mut kept = [0u8; 3];
        out.retain(|&(x, y)| {
            let n = &mut kept[(x.cmp(&y) as i8 + 1) as usize];
            *n = n.saturating_add(1);
            *n <= 2
        });
        out
    }

    proptest! {
        /// Rules met by one pair `(x, y)`: the palette's blends, and wider weights (one
        /// dominant endpoint leaves many `y` per `x`, where the second nearest matters).
        #[test]
        fn channel_pairs_are_the_scanned_ones(
            six in any::<bool>(),
            (x, y) in (0u8..32, 0u8..32),
            rules in prop::collection::vec((1u32..9, 1u32..9, 0u32..5), 0..3),
        ) {
            let e: &[u32] = if six { &E6 } else { &E5 };
            let (ex, ey) = (e[usize::from(x)], e[usize::from(y)]);
            let rules: Vec<_> = rules
                .into_iter()
                .chain(BLENDS.iter().copied().take(usize::from(x % 3)))
                .map(|(wa, wb, s)| (wa, wb, s, ((wa * ex + wb * ey) >> s) as u8))
                .collect();
            prop_assert_eq!(channel_pairs(e, &rules), scanned(e, &rules));
        }
    }
}
