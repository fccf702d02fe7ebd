//! Fonts as the glyph source of `brlyt::render`: a [`FontSet`] holds parsed fonts by file name
//! (the names a layout's `fnl1` lists), their sheets decoded once, and hands out each glyph's
//! cell as an image with the widths [`Brfnt::glyph`] finds, as the runtime draws it.

use brlyt::render::{Glyph as CellImage, GlyphSource, Metrics};
use gcio::Result;
use gx::tex::{Image, TexFormat};

use crate::Brfnt;

/// Fonts by file name, sheets decoded.
#[derive(Debug, Clone, Default)]
pub struct FontSet {
    fonts: Vec<(String, Brfnt, Vec<Image>)>,
}

/// The file name part of a path or `fnl1` name, compared without case.
fn base_name(p: &str) -> &str {
    p.rsplit(['/', '\\']).next().unwrap_or(p)
}

impl FontSet {
    /// An empty set.
    pub fn new() -> FontSet {
        FontSet::default()
    }

    /// Adds `font` under `name` (a file name or path; layouts name fonts by file name), decoding
    /// its sheets. Intensity sheets (I4, I8: every Wii font's glyphs) become white texels whose
    /// alpha is the intensity, which the text colour then tints, as the runtime's text shading
    /// treats them; other formats keep their decoded colours.
    pub fn insert(&mut self, name: &str, font: Brfnt) -> Result<()> {
        let count = font.glyphs().map_or(0, |g| g.sheets.len());
        let intensity = font
            .glyphs()
            .and_then(|g| g.tex_format())
            .is_some_and(|f| f == TexFormat::I4 || f == TexFormat::I8);
        let mut sheets = Vec::with_capacity(count.min(256));
        for i in 0..count {
            let img = font.sheet_rgba(i)?;
            sheets.push(if intensity {
                Image::from_fn(img.width(), img.height(), |x, y| {
                    let v = img.pixel(x, y).map_or(0, |p| p[0]);
                    [255, 255, 255, v]
                })?
            } else {
                img
            });
        }
        self.fonts.push((base_name(name).to_owned(), font, sheets));
        Ok(())
    }

    /// How many fonts the set holds.
    pub fn len(&self) -> usize {
        self.fonts.len()
    }

    /// True when the set holds no font.
    pub fn is_empty(&self) -> bool {
        self.fonts.is_empty()
    }

    fn find(&self, name: &str) -> Option<&(String, Brfnt, Vec<Image>)> {
        let name = base_name(name);
        self.fonts.iter().find(|f| f.0.eq_ignore_ascii_case(name))
    }
}

impl GlyphSource for FontSet {
    /// The cell size of the font's sheets and its line feed.
    fn metrics(&self, font: &str) -> Option<Metrics> {
        let (_, f, _) = self.find(font)?;
        let (_, info) = f.info()?;
        let g = f.glyphs()?;
        Some(Metrics {
            width: f32::from(g.cell_width),
            height: f32::from(g.cell_height),
            line_feed: f32::from(info.line_feed),
        })
    }

    /// The glyph's cell cut from its sheet, its left space and advance.
    fn glyph(&self, font: &str, code: u32) -> Option<CellImage> {
        let (_, f, sheets) = self.find(font)?;
        let g = f.glyph(code)?;
        let sheet = sheets.get(g.sheet)?;
        let image = Image::from_fn(u32::from(g.width), u32::from(g.height), |x, y| {
            sheet.pixel(g.x + x, g.y + y).unwrap_or([0; 4])
        })
        .ok()?;
        Some(CellImage {
            image,
            left: f32::from(g.widths.left),
            advance: f32::from(g.widths.char_width),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `latin` (built by `crate::build`): 6 × 7 cells, line feed 9; `J` is glyph 9, widths
    /// (left 1, advance 6 + 9 % 3 = 6), its cell filled with intensity 10 (170 in 8 bits).
    #[test]
    fn glyphs_are_their_cells_in_white_with_intensity_as_alpha() {
        let mut set = FontSet::new();
        set.insert("font/Latin.brfnt", crate::build::latin())
            .unwrap();
        assert_eq!(set.len(), 1);
        let m = set.metrics("latin.BRFNT").unwrap();
        assert_eq!((m.width, m.height, m.line_feed), (6.0, 7.0, 9.0));
        let g = set.glyph("latin.brfnt", 'J' as u32).unwrap();
        assert_eq!((g.left, g.advance), (1.0, 6.0));
        assert_eq!((g.image.width(), g.image.height()), (6, 7));
        assert_eq!(g.image.pixel(0, 0), Some([255, 255, 255, 170]));
        assert_eq!(g.image.pixel(5, 6), Some([255, 255, 255, 170]));
        assert!(set.metrics("other.brfnt").is_none());
        assert!(set.glyph("other.brfnt", 'J' as u32).is_none());
    }
}
