//! CMPR: S3TC/DXT1 with GameCube twists — an 8 × 8 block holds four 4 × 4 sub-blocks (top-left,
//! top-right, bottom-left, bottom-right), colours are big-endian RGB565, each row of indices is
//! one byte with the leftmost pixel in the top two bits, and the interpolated colours are the
//! hardware's 5/8 + 3/8 blends (not DXT1's thirds). When `c0 <= c1` the third colour is the
//! average and index 3 is that average with alpha 0 [EXT: noclip `decode_cmpr`, Dolphin].
//!
//! The encoder fits each sub-block's endpoints along the principal axis of its colours, refines
//! them by least squares on the chosen indices, then searches ±1 steps of each RGB565 component,
//! in both the four-colour and (with transparency, only) the three-colour mode.

use super::blocks::Block;
use super::pixel::{Rgba, narrow5, narrow6, rgb565_to_rgba};

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
        let (sx, sy) = ((s & 1) * 4, (s >> 1) * 4);
        let mut sub = [[0u8; 4]; 16];
        for (j, p) in sub.iter_mut().enumerate() {
            if let Some(v) = px.get((sy + j / 4) * 8 + sx + j % 4) {
                *p = *v;
            }
        }
        dst.copy_from_slice(&encode_sub(&sub));
    }
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
    let [a, b] = fit.c0.to_be_bytes();
    let [c, d] = fit.c1.to_be_bytes();
    let mut out = [a, b, c, d, 0, 0, 0, 0];
    for (row, idx) in out.iter_mut().skip(4).zip(fit.idx.chunks_exact(4)) {
        *row = idx.iter().fold(0, |acc, &i| (acc << 2) | i);
    }
    out
}
