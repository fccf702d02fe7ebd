//! Images and palettes: sizes by GX texture format and decoding through `gx::tex`.

use gcio::{Context, Error, Result};
use gx::tex::{Palette as GxPalette, PaletteFormat, TexFormat, Texture};

use crate::graph::{Graph, Kind};
use crate::types::{Image, Palette, TObj, TexAnim};
use crate::view::Archive;

pub use crate::types::image_size;

/// An image desc and the palette it is drawn with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureRef {
    /// Data offset of the [`Image`].
    pub image: u32,
    /// Data offset of the [`Palette`] (from the TObj), for indexed formats.
    pub palette: Option<u32>,
}

impl Archive<'_> {
    /// Every distinct (image, palette) pair the graph's TObjs use, then those of texture
    /// animations (image `i` of a TexAnim with its palette `i`, or its last palette when it has
    /// fewer: the frames of an animated C8 texture, such as Melee's eyes, share or swap palettes
    /// alongside the images), then images reached only otherwise, without palette. An indexed
    /// image is listed only with a palette: a TexAnim without palettes draws its images with
    /// the palette of the TObj it animates, which only the MatAnimJoint walk binds
    /// ([`Archive::material_animation`]).
    pub fn textures(&self, g: &Graph) -> Vec<TextureRef> {
        let mut out: Vec<TextureRef> = Vec::new();
        let indexed = |image: u32| {
            self.read::<Image>(image)
                .is_ok_and(|h| u8::try_from(h.format).is_ok_and(|f| TexFormat(f).is_indexed()))
        };
        let add = |out: &mut Vec<TextureRef>, r: TextureRef| {
            if !out.contains(&r) && (r.palette.is_some() || !indexed(r.image)) {
                out.push(r);
            }
        };
        for n in g.nodes.iter().filter(|n| n.kind == Kind::TObj) {
            if let Ok(t) = self.read::<TObj>(n.offset)
                && let Some(image) = t.image
            {
                add(
                    &mut out,
                    TextureRef {
                        image,
                        palette: t.palette,
                    },
                );
            }
        }
        for n in g.nodes.iter().filter(|n| n.kind == Kind::TexAnim) {
            let Ok(t) = self.read::<TexAnim>(n.offset) else {
                continue;
            };
            let entry = |table: Option<u32>, i: u16| {
                table.and_then(|tbl| self.pointer(tbl.wrapping_add(4 * u32::from(i))).ok()?)
            };
            for i in 0..t.n_images {
                if let Some(image) = entry(t.image_table, i) {
                    let p = i.min(t.n_palettes.saturating_sub(1));
                    let palette = (t.n_palettes > 0)
                        .then(|| entry(t.palette_table, p))
                        .flatten();
                    add(&mut out, TextureRef { image, palette });
                }
            }
        }
        for &image in &g.images {
            if !out.iter().any(|r| r.image == image) {
                add(
                    &mut out,
                    TextureRef {
                        image,
                        palette: None,
                    },
                );
            }
        }
        out
    }

    /// Decodes the first level of a texture to RGBA8.
    pub fn decode_texture(&self, t: &TextureRef) -> Result<gx::tex::Image> {
        let img: Image = self.read(t.image)?;
        let at = self.data().abs(t.image as usize);
        let format = u8::try_from(img.format)
            .map(TexFormat)
            .map_err(|_| Error::invalid(at, format!("image format {}", img.format)))?;
        let data = img
            .data
            .ok_or_else(|| Error::invalid(at, "image has no pixel data"))?;
        let bytes = self.data().rest(data as usize).context("image data")?;
        let mut tex = Texture::new(format, u32::from(img.width), u32::from(img.height), bytes)
            .at(self.data().abs(data as usize))
            .with_limits(self.limits());
        let mut palette = None;
        let entries;
        if let Some(p) = t.palette {
            let pal: Palette = self.read(p)?;
            let lut = pal.data.ok_or_else(|| {
                Error::invalid(self.data().abs(p as usize), "palette has no entries")
            })?;
            let fmt = u8::try_from(pal.format)
                .map(PaletteFormat)
                .unwrap_or(PaletteFormat(0xFF));
            entries = self.tlut(&tex, lut, usize::from(pal.n_entries))?;
            palette = Some(GxPalette::new(fmt, &entries));
        }
        if let Some(p) = palette {
            tex = tex.with_palette(p);
        }
        let pixels = tex
            .decode_level(0)
            .with_context(|| format!("image at {:#x}", t.image))?;
        Ok(palette
            .and_then(|p| indexed(&tex, p, &pixels))
            .unwrap_or(pixels))
    }
}

impl Archive<'_> {
    /// The palette bytes `tex` is drawn with: the LUT's `n` entries at `lut`, or, when texels
    /// index past them (20XX's and retail Melee trophies: index 207 of 197 entries), what the
    /// GPU reads there: GXLoadTlut loads whole 16-entry lines, so the LUT's padding (up to the
    /// next multiple of 16 entries, as far as the file goes), then zeros.
    fn tlut(&self, tex: &Texture<'_>, lut: u32, n: usize) -> Result<Vec<u8>> {
        // Every texel of the level's blocks, the padding past the image's sides included.
        let used = tex
            .level_data(0)
            .ok()
            .and_then(|(bytes, _, _)| gx::tex::max_index(tex.format, bytes))
            .map_or(0, |m| usize::from(m) + 1);
        let want = if used <= n {
            n
        } else {
            used.max(n.next_multiple_of(16))
        };
        let lines = n.next_multiple_of(16).min(want);
        let data = self.data();
        let mut out = data
            .bytes(lut as usize, lines * 2)
            .or_else(|_| data.bytes(lut as usize, n * 2))
            .context("palette entries")?
            .to_vec();
        out.resize(want * 2, 0);
        Ok(out)
    }
}

/// A C4/C8 texture's first level with its palette as the colour table (gx::tex::Image::indexed):
/// an export keeps the palette's order and each pixel's entry (a palette PNG), which HAL's
/// quantiser chose from source colours the file no longer has, so an import can write them back.
fn indexed(
    tex: &Texture<'_>,
    palette: GxPalette<'_>,
    pixels: &gx::tex::Image,
) -> Option<gx::tex::Image> {
    let colors = palette.colors().ok()?;
    let indices = tex.indices(0).ok()?;
    // C14X2's top two bits are ignored by the hardware.
    let indices: Vec<u8> = indices
        .into_iter()
        .map(|i| u8::try_from(i & 0x3FFF).ok())
        .collect::<Option<_>>()?;
    gx::tex::Image::indexed(pixels.width(), pixels.height(), colors, indices).ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes() {
        assert_eq!(super::image_size(0xE, 8, 8), Some(32));
        assert_eq!(super::image_size(6, 4, 4), Some(64));
        assert_eq!(super::image_size(1, 9, 1), Some(64));
        assert_eq!(super::image_size(7, 4, 4), None);
    }
}
