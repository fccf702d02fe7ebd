//! Palette (TLUT) building for C4/C8/C14X2 encoding.
//!
//! Pixels are first snapped to the palette format's 16-bit codes. If the distinct codes fit,
//! they become the palette in first-use order (so an image the palette format can represent
//! round-trips exactly). Otherwise median cut splits the weighted colours into boxes (largest
//! `range × weight` first), each box's mean becomes an entry, and for palettes of at most 256
//! entries a few k-means passes refine them (until no entry moves). Work is bounded: at most
//! 65,536 distinct codes, 4 k-means passes.

use super::format::PaletteFormat;
use super::pixel::{
    Rgba, dist2, ia8_to_rgba, rgb5a3_to_rgba, rgb565_to_rgba, rgba_to_ia8, rgba_to_rgb5a3,
    rgba_to_rgb565,
};
use std::collections::BinaryHeap;

const CODES: usize = 1 << 16;
const KMEANS_PASSES: usize = 4;
const KMEANS_MAX_ENTRIES: usize = 256;

/// RGBA of a palette entry.
pub(crate) fn to_rgba(format: PaletteFormat, code: u16) -> Rgba {
    match format {
        PaletteFormat::IA8 => ia8_to_rgba(code),
        PaletteFormat::RGB565 => rgb565_to_rgba(code),
        _ => rgb5a3_to_rgba(code),
    }
}

/// Nearest palette entry code for a pixel.
pub(crate) fn to_code(format: PaletteFormat, p: Rgba) -> u16 {
    match format {
        PaletteFormat::IA8 => rgba_to_ia8(p),
        PaletteFormat::RGB565 => rgba_to_rgb565(p),
        _ => rgba_to_rgb5a3(p),
    }
}

/// A built palette: its entries and, for every pixel code, the entry to use.
pub(crate) struct Quantised {
    pub entries: Vec<u16>,
    lookup: Vec<u16>,
}

impl Quantised {
    /// Palette index for a pixel.
    pub fn index(&self, format: PaletteFormat, p: Rgba) -> u16 {
        self.lookup
            .get(usize::from(to_code(format, p)))
            .copied()
            .unwrap_or(0)
    }
}

struct Color {
    rgba: Rgba,
    weight: u32,
    code: u16,
}

/// Builds a palette of at most `max` entries (at least 1) for `pixels`.
pub(crate) fn quantise<'a>(
    pixels: impl Iterator<Item = &'a Rgba>,
    format: PaletteFormat,
    max: usize,
) -> Quantised {
    let max = max.clamp(1, CODES);
    let mut counts = vec![0u32; CODES];
    let mut order = Vec::new();
    for p in pixels {
        let code = to_code(format, *p);
        if let Some(c) = counts.get_mut(usize::from(code)) {
            if *c == 0 {
                order.push(code);
            }
            *c = c.saturating_add(1);
        }
    }
    let mut lookup = vec![0u16; CODES];
    if order.len() <= max {
        for (i, &code) in order.iter().enumerate() {
            if let Some(l) = lookup.get_mut(usize::from(code)) {
                *l = i as u16;
            }
        }
        if order.is_empty() {
            order.push(0);
        }
        return Quantised {
            entries: order,
            lookup,
        };
    }
    let mut colors: Vec<Color> = order
        .iter()
        .map(|&code| Color {
            rgba: to_rgba(format, code),
            weight: counts.get(usize::from(code)).copied().unwrap_or(1),
            code,
        })
        .collect();
    let boxes = median_cut(&mut colors, max);
    let mut entries: Vec<u16> = boxes
        .iter()
        .map(|r| to_code(format, mean(colors.get(r.clone()).unwrap_or(&[]))))
        .collect();
    if entries.len() <= KMEANS_MAX_ENTRIES {
        for _ in 0..KMEANS_PASSES {
            let assign = nearest_all(&colors, &entries, format);
            // Per entry: weighted channel sums, then total weight.
            let mut sums = vec![[0u64; 5]; entries.len()];
            for (c, &a) in colors.iter().zip(&assign) {
                if let Some(s) = sums.get_mut(a) {
                    let w = u64::from(c.weight);
                    for (acc, v) in s
                        .iter_mut()
                        .zip(c.rgba.iter().map(|&v| u64::from(v) * w).chain([w]))
                    {
                        *acc += v;
                    }
                }
            }
            let mut moved = false;
            for (e, s) in entries.iter_mut().zip(&sums) {
                if let [r, g, b, a, w] = *s
                    && w > 0
                {
                    let avg = |v: u64| ((v + w / 2) / w) as u8;
                    let next = to_code(format, [avg(r), avg(g), avg(b), avg(a)]);
                    moved |= next != *e;
                    *e = next;
                }
            }
            if !moved {
                break;
            }
        }
        for (c, e) in colors.iter().zip(nearest_all(&colors, &entries, format)) {
            if let Some(l) = lookup.get_mut(usize::from(c.code)) {
                *l = e as u16;
            }
        }
    } else {
        for (i, r) in boxes.iter().enumerate() {
            for c in colors.get(r.clone()).unwrap_or(&[]) {
                if let Some(l) = lookup.get_mut(usize::from(c.code)) {
                    *l = i as u16;
                }
            }
        }
    }
    entries.truncate(max);
    Quantised { entries, lookup }
}

fn nearest_all(colors: &[Color], entries: &[u16], format: PaletteFormat) -> Vec<usize> {
    let pal: Vec<Rgba> = entries.iter().map(|&e| to_rgba(format, e)).collect();
    colors.iter().map(|c| nearest(&pal, c.rgba)).collect()
}

/// Index of the entry of `pal` nearest to `p` (the first of equals; 0 for an empty table).
pub(crate) fn nearest(pal: &[Rgba], p: Rgba) -> usize {
    pal.iter()
        .enumerate()
        .min_by_key(|&(_, q)| dist2(*q, p))
        .map_or(0, |(i, _)| i)
}

/// Weighted mean colour.
fn mean(colors: &[Color]) -> Rgba {
    let total: u64 = colors
        .iter()
        .map(|c| u64::from(c.weight))
        .sum::<u64>()
        .max(1);
    let mut out = [0u8; 4];
    for (k, o) in out.iter_mut().enumerate() {
        let s: u64 = colors
            .iter()
            .map(|c| u64::from(c.rgba.get(k).copied().unwrap_or(0)) * u64::from(c.weight))
            .sum();
        *o = ((s + total / 2) / total) as u8;
    }
    out
}

/// Widest channel of a box and its `range × weight` score.
fn score(colors: &[Color]) -> (u64, usize) {
    let weight: u64 = colors.iter().map(|c| u64::from(c.weight)).sum();
    (0..4)
        .map(|k| {
            let vals = colors.iter().map(|c| c.rgba.get(k).copied().unwrap_or(0));
            let (lo, hi) = vals.fold((255u8, 0u8), |(lo, hi), v| (lo.min(v), hi.max(v)));
            (u64::from(hi.saturating_sub(lo)) * weight, k)
        })
        .max()
        .unwrap_or((0, 0))
}

/// Splits `colors` (reordered in place) into at most `max` ranges.
fn median_cut(colors: &mut [Color], max: usize) -> Vec<std::ops::Range<usize>> {
    let mut done = Vec::new();
    let mut heap = BinaryHeap::new();
    let (s, k) = score(colors);
    heap.push((s, k, 0usize, colors.len()));
    while let Some((s, k, start, end)) = heap.pop() {
        if s == 0 || end - start < 2 || done.len() + heap.len() + 1 >= max {
            done.push(start..end);
            continue;
        }
        let Some(slice) = colors.get_mut(start..end) else {
            continue;
        };
        slice.sort_unstable_by_key(|c| c.rgba.get(k).copied().unwrap_or(0));
        let total: u64 = slice.iter().map(|c| u64::from(c.weight)).sum();
        let mut acc = 0u64;
        let mut cut = 1;
        for (i, c) in slice.iter().enumerate() {
            acc += u64::from(c.weight);
            if acc * 2 >= total {
                cut = (i + 1).clamp(1, slice.len() - 1);
                break;
            }
        }
        for (a, b) in [(start, start + cut), (start + cut, end)] {
            let (s, k) = colors.get(a..b).map_or((0, 0), score);
            heap.push((s, k, a, b));
        }
    }
    done
}
