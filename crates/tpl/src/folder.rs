//! A library as a folder of PNG files and back: `gcf convert x.tpl dir/` and `gcf convert dir/
//! x.tpl`.
//!
//! The folder holds `<i>.png` (level 0 of image `i`, RGBA8), `<i>.texels` (the stored texels
//! and palette entries) and [`MANIFEST`], the model without its bytes (every header field and
//! offset). Rebuilding keeps an image's stored texels while they still decode to its PNG, so an
//! untouched folder rebuilds the file byte for byte even for lossy formats (CMPR, palettes); an
//! edited PNG is encoded again in the image's format (mip chain and palette regenerated), and the
//! library is laid out afresh when a size changed.

use gcio::{Error, Result};
use gx::tex::{EncodeOptions, Image, PaletteFormat};

use crate::model::Tpl;

/// The manifest's file name.
pub const MANIFEST: &str = "tpl.json";

/// PNG file name of image `i`.
pub fn png_name(i: usize) -> String {
    format!("{i}.png")
}

/// Stored-texel file name of image `i`.
pub fn texels_name(i: usize) -> String {
    format!("{i}.texels")
}

/// The folder's files (name, bytes): the manifest, one PNG per image and its stored texels.
pub fn to_folder(tpl: &Tpl) -> Result<Vec<(String, Vec<u8>)>> {
    let manifest =
        serde_json::to_vec_pretty(tpl).map_err(|e| Error::message(format!("JSON: {e}")))?;
    let mut out = vec![(MANIFEST.to_owned(), manifest)];
    for (i, e) in tpl.images.iter().enumerate() {
        let tex = e.texture().ok_or_else(|| {
            Error::message(format!(
                "image {i}: unknown texture format {:#x}",
                e.header.format
            ))
        })?;
        let img = tex
            .decode_level(0)
            .map_err(|err| err.context(format!("image {i}")))?;
        out.push((png_name(i), gx::png::encode(&img)?));
        let mut raw = e.data.clone();
        raw.extend(e.palette.iter().flat_map(|p| p.data.iter().copied()));
        out.push((texels_name(i), raw));
    }
    Ok(out)
}

/// Rebuilds the library from a folder written by [`to_folder`]; `read` returns a file's bytes by
/// name (`None` when absent: a missing `.texels` file means "encode the PNG").
pub fn from_folder(read: impl Fn(&str) -> Option<Vec<u8>>) -> Result<Tpl> {
    let manifest =
        read(MANIFEST).ok_or_else(|| Error::message(format!("{MANIFEST} is missing")))?;
    let mut tpl: Tpl = serde_json::from_slice(&manifest)
        .map_err(|e| Error::message(format!("{MANIFEST}: {e}")))?;
    let mut resized = false;
    for (i, e) in tpl.images.iter_mut().enumerate() {
        let ctx = |err: Error| err.context(format!("image {i}"));
        let png_file = png_name(i);
        let png =
            read(&png_file).ok_or_else(|| Error::message(format!("{png_file} is missing")))?;
        let img = gx::png::decode(&png).map_err(|err| ctx(err.context(png_file.clone())))?;
        let size = e.header.data_size().ok_or_else(|| {
            Error::message(format!(
                "image {i}: unknown texture format {:#x}",
                e.header.format
            ))
        })?;
        if let Some(raw) = read(&texels_name(i))
            && let Some((data, pal)) = raw.split_at_checked(size)
        {
            e.data = data.to_vec();
            if let Some(p) = &mut e.palette {
                p.data = pal.to_vec();
            }
            let same = e.texture().and_then(|t| t.decode_level(0).ok());
            if same.as_ref() == Some(&img)
                && e.palette
                    .as_ref()
                    .is_none_or(|p| p.header.data_size() == p.data.len())
            {
                continue;
            }
        }
        let old = (e.data.len(), e.palette.as_ref().map(|p| p.data.len()));
        encode(e, &img).map_err(ctx)?;
        resized |= old != (e.data.len(), e.palette.as_ref().map(|p| p.data.len()));
    }
    if resized {
        tpl.relayout()?;
    }
    Ok(tpl)
}

/// Encodes `img` into the entry in its header's format, keeping the number of levels (as far as
/// the new size allows) and the palette format.
fn encode(e: &mut crate::Entry, img: &Image) -> Result<()> {
    let format = e
        .header
        .tex_format()
        .ok_or_else(|| Error::message(format!("unknown texture format {:#x}", e.header.format)))?;
    let (w, h) = (
        u16::try_from(img.width()).map_err(|_| Error::message("image wider than 65535"))?,
        u16::try_from(img.height()).map_err(|_| Error::message("image taller than 65535"))?,
    );
    let side = u32::from(w.max(h)).max(1);
    let levels = e.header.levels().min(32 - side.leading_zeros());
    let palette_format = e
        .palette
        .as_ref()
        .and_then(|p| p.header.palette_format())
        .unwrap_or(PaletteFormat::RGB5A3);
    let opts = EncodeOptions {
        palette_format,
        ..EncodeOptions::default()
    };
    let enc = gx::tex::encode_mips(format, &img.mip_chain(levels), &opts)?;
    e.header.width = w;
    e.header.height = h;
    e.header.max_lod = e
        .header
        .min_lod
        .saturating_add(u8::try_from(levels - 1).unwrap_or(u8::MAX));
    e.data = enc.data;
    if format.is_indexed() {
        let p = e.palette.get_or_insert_with(|| crate::Palette {
            header_offset: 0,
            header: crate::PaletteHeader {
                entries: 0,
                unpacked: 0,
                pad: 0,
                format: u32::from(palette_format.0),
                data_offset: 0,
            },
            data: Vec::new(),
        });
        p.header.entries = u16::try_from(enc.palette.len() / 2)
            .map_err(|_| Error::message("palette over 65535 entries"))?;
        p.data = enc.palette;
    }
    Ok(())
}
