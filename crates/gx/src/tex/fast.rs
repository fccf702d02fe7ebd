//! Whole-block decoders writing straight into the output rows: the decode path of every format.
//!
//! A block row band (`block height` output rows) is walked block by block; each block of a format
//! is a fixed-size array (`&[u8; 32]`, `&[u8; 64]`) and each of its output rows a fixed-size
//! `&mut [Rgba; W]`, so the per-pixel work has no bounds checks and the compiler unrolls and
//! vectorises it. Blocks that stick out of the image (right and bottom edges) decode into a
//! scratch block and copy the visible part. `blocks::decode_direct` / `cmpr::decode_block` stay
//! the reference the tests compare against.

use super::cmpr;
use super::format::TexFormat;
use super::pixel::{Rgba, expand4, ia8_to_rgba, rgb5a3_to_rgba, rgb565_to_rgba};

/// The `W` pixels at `at` of `out` (`None` when they do not fit).
#[inline(always)]
fn row<const W: usize>(out: &mut [Rgba], at: usize) -> Option<&mut [Rgba; W]> {
    out.get_mut(at..at.checked_add(W)?)?.try_into().ok()
}

/// Decodes `width × height` pixels from `data` (the level's blocks of `B` bytes, each `W × H`
/// pixels) into `out` (`width × height`). `block(bytes, out, stride, x0)` writes one block's rows
/// at `out[r * stride + x0..][..W]`.
#[inline(always)]
fn untile<const W: usize, const H: usize, const B: usize>(
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [Rgba],
    block: impl Fn(&[u8; B], &mut [Rgba], usize, usize),
) {
    if width == 0 || height == 0 {
        return;
    }
    let blocks_x = width.div_ceil(W);
    let full_x = width / W;
    for (band_data, band) in data.chunks(blocks_x * B).zip(out.chunks_mut(width * H)) {
        let full_band = band.len() == width * H;
        let (blocks, _) = band_data.as_chunks::<B>();
        for (bx, b) in blocks.iter().enumerate() {
            let x0 = bx * W;
            if full_band && bx < full_x {
                block(b, band, width, x0);
                continue;
            }
            let mut tmp = [[0u8; 4]; 64];
            block(b, &mut tmp, W, 0);
            let cols = W.min(width.saturating_sub(x0));
            for (src, dst) in tmp.chunks_exact(W).zip(band.chunks_mut(width)) {
                if let (Some(d), Some(s)) = (dst.get_mut(x0..x0 + cols), src.get(..cols)) {
                    d.copy_from_slice(s);
                }
            }
        }
    }
}

/// One block of 2-byte big-endian pixels (IA8, RGB565, RGB5A3): 4 × 4.
#[inline(always)]
fn block16(b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize, px: impl Fn(u16) -> Rgba) {
    for (r, src) in b.as_chunks::<8>().0.iter().enumerate() {
        if let Some(d) = row::<4>(out, r * stride + x0) {
            for (p, v) in d.iter_mut().zip(src.as_chunks::<2>().0) {
                *p = px(u16::from_be_bytes(*v));
            }
        }
    }
}

fn i4(b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize) {
    for (r, src) in b.as_chunks::<4>().0.iter().enumerate() {
        if let Some(d) = row::<8>(out, r * stride + x0) {
            for (pair, &v) in d.as_chunks_mut::<2>().0.iter_mut().zip(src) {
                let (hi, lo) = (expand4(v >> 4), expand4(v & 0xF));
                *pair = [[hi; 4], [lo; 4]];
            }
        }
    }
}

fn i8(b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize) {
    for (r, src) in b.as_chunks::<8>().0.iter().enumerate() {
        if let Some(d) = row::<8>(out, r * stride + x0) {
            for (p, &v) in d.iter_mut().zip(src) {
                *p = [v; 4];
            }
        }
    }
}

fn ia4(b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize) {
    for (r, src) in b.as_chunks::<8>().0.iter().enumerate() {
        if let Some(d) = row::<8>(out, r * stride + x0) {
            for (p, &v) in d.iter_mut().zip(src) {
                let i = expand4(v & 0xF);
                *p = [i, i, i, expand4(v >> 4)];
            }
        }
    }
}

fn rgba8(b: &[u8; 64], out: &mut [Rgba], stride: usize, x0: usize) {
    let (ar, gb) = b.split_at(32);
    for (r, (ar, gb)) in ar
        .as_chunks::<8>()
        .0
        .iter()
        .zip(gb.as_chunks::<8>().0)
        .enumerate()
    {
        if let Some(d) = row::<4>(out, r * stride + x0) {
            for ((p, [a, r]), [g, b]) in d
                .iter_mut()
                .zip(ar.as_chunks::<2>().0)
                .zip(gb.as_chunks::<2>().0)
            {
                *p = [*r, *g, *b, *a];
            }
        }
    }
}

fn cmpr(b: &[u8; 32], out: &mut [Rgba], stride: usize, x0: usize) {
    for (s, sub) in b.as_chunks::<8>().0.iter().enumerate() {
        let [c0h, c0l, c1h, c1l, rows @ ..] = *sub;
        let pal = cmpr::colors(
            u16::from_be_bytes([c0h, c0l]),
            u16::from_be_bytes([c1h, c1l]),
        );
        let (sx, sy) = ((s & 1) * 4, (s >> 1) * 4);
        for (y, bits) in rows.iter().enumerate() {
            if let Some(d) = row::<4>(out, (sy + y) * stride + x0 + sx) {
                for (x, p) in d.iter_mut().enumerate() {
                    let i = usize::from(bits >> (6 - 2 * x)) & 3;
                    *p = pal.get(i).copied().unwrap_or_default();
                }
            }
        }
    }
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
    let (w, h) = (width, height);
    match format {
        TexFormat::I4 => untile::<8, 8, 32>(w, h, data, out, i4),
        TexFormat::I8 => untile::<8, 4, 32>(w, h, data, out, i8),
        TexFormat::IA4 => untile::<8, 4, 32>(w, h, data, out, ia4),
        TexFormat::IA8 => untile::<4, 4, 32>(w, h, data, out, |b, o, s, x| {
            block16(b, o, s, x, ia8_to_rgba)
        }),
        TexFormat::RGB565 => untile::<4, 4, 32>(w, h, data, out, |b, o, s, x| {
            block16(b, o, s, x, rgb565_to_rgba)
        }),
        TexFormat::RGB5A3 => untile::<4, 4, 32>(w, h, data, out, |b, o, s, x| {
            block16(b, o, s, x, rgb5a3_to_rgba)
        }),
        TexFormat::RGBA8 => untile::<4, 4, 64>(w, h, data, out, rgba8),
        TexFormat::CMPR => untile::<8, 8, 32>(w, h, data, out, cmpr),
        _ => return false,
    }
    true
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
                let max = data.iter().map(|&b| (b >> 4).max(b & 0xF)).max();
                if max.is_some_and(|m| usize::from(m) >= colors.len()) {
                    return false;
                }
            }
            let table: [Rgba; 16] =
                std::array::from_fn(|i| colors.get(i).copied().unwrap_or_default());
            untile::<8, 8, 32>(w, h, data, out, |b, o, stride, x0| {
                for (r, src) in b.as_chunks::<4>().0.iter().enumerate() {
                    if let Some(d) = row::<8>(o, r * stride + x0) {
                        for (pair, &v) in d.as_chunks_mut::<2>().0.iter_mut().zip(src) {
                            let hi = table.get(usize::from(v >> 4)).copied().unwrap_or_default();
                            let lo = table.get(usize::from(v & 0xF)).copied().unwrap_or_default();
                            *pair = [hi, lo];
                        }
                    }
                }
            });
        }
        TexFormat::C8 => {
            if colors.len() < 256 {
                let max = data.iter().copied().max();
                if max.is_some_and(|m| usize::from(m) >= colors.len()) {
                    return false;
                }
            }
            let table: [Rgba; 256] =
                std::array::from_fn(|i| colors.get(i).copied().unwrap_or_default());
            untile::<8, 4, 32>(w, h, data, out, |b, o, stride, x0| {
                for (r, src) in b.as_chunks::<8>().0.iter().enumerate() {
                    if let Some(d) = row::<8>(o, r * stride + x0) {
                        for (p, &v) in d.iter_mut().zip(src) {
                            *p = table.get(usize::from(v)).copied().unwrap_or_default();
                        }
                    }
                }
            });
        }
        TexFormat::C14X2 => {
            const N: usize = 1 << 14;
            if colors.len() < N {
                let max = data
                    .as_chunks::<2>()
                    .0
                    .iter()
                    .map(|v| u16::from_be_bytes(*v) & 0x3FFF)
                    .max();
                if max.is_some_and(|m| usize::from(m) >= colors.len()) {
                    return false;
                }
            }
            // Every index is in the palette now: lookups need only the 14-bit mask.
            untile::<4, 4, 32>(w, h, data, out, |b, o, s, x| {
                block16(b, o, s, x, |v| {
                    colors
                        .get(usize::from(v & 0x3FFF))
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn direct_matches_reference(
            which in 0usize..8,
            w in 0u32..40,
            h in 0u32..40,
            seed in any::<u64>(),
        ) {
            let format = [TexFormat::I4, TexFormat::I8, TexFormat::IA4, TexFormat::IA8,
                TexFormat::RGB565, TexFormat::RGB5A3, TexFormat::RGBA8, TexFormat::CMPR][which];
            let len = super::super::level_size(format, w, h).unwrap();
            let mut s = seed | 1;
            let data: Vec<u8> = (0..len).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s as u8 }).collect();
            let mut out = vec![[0u8; 4]; (w * h) as usize];
            prop_assert!(decode_direct(format, w as usize, h as usize, &data, &mut out));
            prop_assert_eq!(out, reference(format, w, h, &data));
        }

        #[test]
        fn indexed_matches_reference(
            which in 0usize..3,
            w in 0u32..40,
            h in 0u32..40,
            entries in 1usize..300,
            seed in any::<u64>(),
        ) {
            let format = [TexFormat::C4, TexFormat::C8, TexFormat::C14X2][which];
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
