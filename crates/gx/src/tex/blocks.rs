//! Block tiling (image <-> blocks in row-major block order) and the per-block codecs of the
//! direct and indexed formats. CMPR's blocks live in `cmpr.rs`.
//!
//! Inside a block, pixels are raster-ordered; 4-bit formats put the left pixel in the high
//! nibble; 16-bit values are big-endian; RGBA8 stores the block's 16 AR pairs, then its 16 GB
//! pairs [EXT: noclip `decode_rgba8`, gclib `texture_utils.py`].

use super::format::TexFormat;
use super::pixel::{Rgba, luma, narrow4, rgba_to_ia8, rgba_to_rgb5a3, rgba_to_rgb565};
use gcio::Result;

/// The pixels (or indices) of one block, raster order, `block width × block height` used.
pub(crate) type Block<T> = [T; 64];

/// Decodes `data` (exactly the level's blocks) into `width × height` values, calling `decode`
/// once per block with the block's bytes and its offset in `data`.
pub(crate) fn untile<T: Copy + Default>(
    format: TexFormat,
    width: u32,
    height: u32,
    data: &[u8],
    mut decode: impl FnMut(&[u8], usize, &mut Block<T>) -> Result<()>,
) -> Result<Vec<T>> {
    let (bw, bh, bytes) = format.require_block()?;
    let (w, h, bw, bh) = (width as usize, height as usize, bw as usize, bh as usize);
    let mut out = vec![T::default(); w * h];
    if w == 0 || h == 0 {
        return Ok(out);
    }
    let blocks_x = w.div_ceil(bw);
    let mut px = [T::default(); 64];
    for (i, block) in data.chunks_exact(bytes).enumerate() {
        decode(block, i * bytes, &mut px)?;
        let (x0, y0) = ((i % blocks_x) * bw, (i / blocks_x) * bh);
        let cols = bw.min(w.saturating_sub(x0));
        for (row, src) in px.chunks_exact(bw).take(bh).enumerate() {
            let y = y0 + row;
            if y >= h {
                break;
            }
            let start = y * w + x0;
            if let (Some(d), Some(s)) = (out.get_mut(start..start + cols), src.get(..cols)) {
                d.copy_from_slice(s);
            }
        }
    }
    Ok(out)
}

/// Encodes `width × height` values (`pixel(x, y)`, called with coordinates clamped to the image,
/// so padding repeats the edge) into `out`, which holds exactly the level's blocks.
pub(crate) fn tile<T: Copy + Default>(
    format: TexFormat,
    width: u32,
    height: u32,
    pixel: impl Fn(u32, u32) -> T,
    out: &mut [u8],
    mut encode: impl FnMut(&Block<T>, &mut [u8]),
) -> Result<()> {
    let (bw, bh, bytes) = format.require_block()?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    let blocks_x = width.div_ceil(bw) as usize;
    let mut px = [T::default(); 64];
    for (i, block) in out.chunks_exact_mut(bytes).enumerate() {
        let x0 = (i % blocks_x) as u32 * bw;
        let y0 = (i / blocks_x) as u32 * bh;
        for (j, p) in px.iter_mut().take((bw * bh) as usize).enumerate() {
            let (c, r) = (j as u32 % bw, j as u32 / bw);
            *p = pixel((x0 + c).min(width - 1), (y0 + r).min(height - 1));
        }
        encode(&px, block);
    }
    Ok(())
}

fn be16(pair: &[u8]) -> u16 {
    match pair {
        [hi, lo] => u16::from_be_bytes([*hi, *lo]),
        _ => 0,
    }
}

/// Decodes one block of a direct (non-palette, non-CMPR) format: the reference `fast` is tested
/// against.
#[cfg(test)]
pub(crate) fn decode_direct(format: TexFormat, block: &[u8], px: &mut Block<Rgba>) {
    use super::pixel::{expand4, grey, ia8_to_rgba, rgb5a3_to_rgba, rgb565_to_rgba};
    match format {
        TexFormat::I4 => {
            for (pair, b) in px.chunks_exact_mut(2).zip(block) {
                if let [p0, p1] = pair {
                    let (i0, i1) = (expand4(b >> 4), expand4(b & 0xF));
                    (*p0, *p1) = (grey(i0, i0), grey(i1, i1));
                }
            }
        }
        TexFormat::I8 => px.iter_mut().zip(block).for_each(|(p, &i)| *p = grey(i, i)),
        TexFormat::IA4 => px
            .iter_mut()
            .zip(block)
            .for_each(|(p, &b)| *p = grey(expand4(b & 0xF), expand4(b >> 4))),
        TexFormat::RGBA8 => {
            if let Some((ar, gb)) = block.split_at_checked(32) {
                for ((p, ar), gb) in px
                    .iter_mut()
                    .zip(ar.chunks_exact(2))
                    .zip(gb.chunks_exact(2))
                {
                    if let ([a, r], [g, b]) = (ar, gb) {
                        *p = [*r, *g, *b, *a];
                    }
                }
            }
        }
        _ => {
            let convert = match format {
                TexFormat::IA8 => ia8_to_rgba,
                TexFormat::RGB565 => rgb565_to_rgba,
                _ => rgb5a3_to_rgba,
            };
            px.iter_mut()
                .zip(block.chunks_exact(2))
                .for_each(|(p, v)| *p = convert(be16(v)));
        }
    }
}

/// Encodes one block of a direct (non-palette, non-CMPR) format.
pub(crate) fn encode_direct(format: TexFormat, px: &Block<Rgba>, out: &mut [u8]) {
    match format {
        TexFormat::I4 => {
            for (b, pair) in out.iter_mut().zip(px.chunks_exact(2)) {
                if let [p0, p1] = pair {
                    *b = (narrow4(luma(*p0)) << 4) | narrow4(luma(*p1));
                }
            }
        }
        TexFormat::I8 => out.iter_mut().zip(px).for_each(|(b, p)| *b = luma(*p)),
        TexFormat::IA4 => out
            .iter_mut()
            .zip(px)
            .for_each(|(b, p)| *b = (narrow4(p[3]) << 4) | narrow4(luma(*p))),
        TexFormat::RGBA8 => {
            let (ar, gb) = out.split_at_mut(out.len().min(32));
            for ((p, ar), gb) in px
                .iter()
                .zip(ar.chunks_exact_mut(2))
                .zip(gb.chunks_exact_mut(2))
            {
                let [r, g, b, a] = *p;
                ar.copy_from_slice(&[a, r]);
                gb.copy_from_slice(&[g, b]);
            }
        }
        _ => {
            let convert = match format {
                TexFormat::IA8 => rgba_to_ia8,
                TexFormat::RGB565 => rgba_to_rgb565,
                _ => rgba_to_rgb5a3,
            };
            out.chunks_exact_mut(2)
                .zip(px)
                .for_each(|(o, p)| o.copy_from_slice(&convert(*p).to_be_bytes()));
        }
    }
}

/// Decodes one block of palette indices. C14X2 keeps its two ignored top bits, so
/// [`encode_indices`] reproduces the bytes; lookups mask them off.
pub(crate) fn decode_indices(format: TexFormat, block: &[u8], idx: &mut Block<u16>) {
    match format {
        TexFormat::C4 => {
            for (pair, b) in idx.chunks_exact_mut(2).zip(block) {
                if let [i0, i1] = pair {
                    (*i0, *i1) = (u16::from(b >> 4), u16::from(b & 0xF));
                }
            }
        }
        TexFormat::C8 => idx
            .iter_mut()
            .zip(block)
            .for_each(|(i, &b)| *i = u16::from(b)),
        _ => idx
            .iter_mut()
            .zip(block.chunks_exact(2))
            .for_each(|(i, v)| *i = be16(v)),
    }
}

/// Encodes one block of palette indices (values are truncated to the format's index width).
pub(crate) fn encode_indices(format: TexFormat, idx: &Block<u16>, out: &mut [u8]) {
    match format {
        TexFormat::C4 => {
            for (b, pair) in out.iter_mut().zip(idx.chunks_exact(2)) {
                if let [i0, i1] = pair {
                    *b = ((*i0 as u8 & 0xF) << 4) | (*i1 as u8 & 0xF);
                }
            }
        }
        TexFormat::C8 => out.iter_mut().zip(idx).for_each(|(b, &i)| *b = i as u8),
        _ => out
            .chunks_exact_mut(2)
            .zip(idx)
            .for_each(|(o, &i)| o.copy_from_slice(&i.to_be_bytes())),
    }
}
