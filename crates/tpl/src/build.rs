//! Builders of valid libraries for tests, samples and examples (game files are never committed).

use gx::tex::{EncodeOptions, Image, PaletteFormat, TexFormat};

use crate::model::{Entry, ImageHeader, Palette, PaletteHeader, Tpl};

/// A header for a `width × height` image of `format` with `levels` mip levels, clamped edges
/// and linear filtering (the converter's defaults); offsets are set by [`Tpl::relayout`].
pub fn header(format: TexFormat, width: u16, height: u16, levels: u8) -> ImageHeader {
    ImageHeader {
        height,
        width,
        format: u32::from(format.0),
        data_offset: 0,
        wrap_s: 0,
        wrap_t: 0,
        min_filter: if levels > 1 { 5 } else { 1 },
        mag_filter: 1,
        lod_bias: 0.0,
        edge_lod: 0,
        min_lod: 0,
        max_lod: levels.saturating_sub(1),
        unpacked: 0,
    }
}

/// An entry holding `img` encoded in `format` with `levels` levels (indexed formats get a
/// palette of `palette_format`).
pub fn entry(
    img: &Image,
    format: TexFormat,
    levels: u8,
    palette_format: PaletteFormat,
) -> gcio::Result<Entry> {
    let w = u16::try_from(img.width()).unwrap_or(u16::MAX);
    let h = u16::try_from(img.height()).unwrap_or(u16::MAX);
    let opts = EncodeOptions {
        palette_format,
        ..EncodeOptions::default()
    };
    let enc = gx::tex::encode_mips(format, &img.mip_chain(u32::from(levels.max(1))), &opts)?;
    let palette = format.is_indexed().then(|| Palette {
        header_offset: 0,
        header: PaletteHeader {
            entries: u16::try_from(enc.palette.len() / 2).unwrap_or(u16::MAX),
            unpacked: 0,
            pad: 0,
            format: u32::from(palette_format.0),
            data_offset: 0,
        },
        data: enc.palette.clone(),
    });
    Ok(Entry {
        header_offset: 0,
        header: header(format, w, h, levels.max(1)),
        data: enc.data,
        palette,
    })
}

/// A library of `entries`, laid out afresh.
pub fn library(entries: Vec<Entry>) -> gcio::Result<Tpl> {
    let mut t = Tpl {
        images: entries,
        ..Tpl::new()
    };
    t.relayout()?;
    Ok(t)
}

/// A three-image sample: RGB5A3 20×12, C8 with an RGB565 palette 16×16, CMPR 32×32 with three
/// mip levels.
pub fn sample() -> Tpl {
    let a = Image::test_pattern(20, 12, true).ok();
    let b = Image::from_fn(16, 16, |x, y| [(x * 16) as u8, (y * 16) as u8, 0, 255]).ok();
    let c = Image::test_pattern(32, 32, false).ok();
    let rgb5a3 = PaletteFormat::RGB5A3;
    let entries = [
        a.and_then(|i| entry(&i, TexFormat::RGB5A3, 1, rgb5a3).ok()),
        b.and_then(|i| entry(&i, TexFormat::C8, 1, PaletteFormat::RGB565).ok()),
        c.and_then(|i| entry(&i, TexFormat::CMPR, 3, rgb5a3).ok()),
    ];
    library(entries.into_iter().flatten().collect()).unwrap_or_default()
}

/// The sample's bytes.
pub fn sample_bytes() -> Vec<u8> {
    sample().write().unwrap_or_default()
}
