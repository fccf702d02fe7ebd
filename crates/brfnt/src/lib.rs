//! NintendoWare for Revolution fonts (`.brfnt`, `RFNT`) — read, written back byte for byte,
//! checked, their glyphs looked up as the runtime does and their sheets decoded.
//!
//! A font is an NW4R binary file (header `RFNT`, byte order mark `FE FF`, version 1.4 or 1.2)
//! of blocks: `FINF` (line feed, alternate glyph, default widths, encoding, pointers to the
//! glyph sheets and the heads of the width and code map lists, height/width/ascent), `TGLP`
//! (cell geometry and the sheets: GX textures, I4 or IA4 in Wii fonts), `CWDH` (widths of a range
//! of glyph indices, linked) and `CMAP` (codes to glyph indices, linked: direct, table or scan).
//! Pointers are file offsets of a block's data (its offset + 8); the model holds them as block
//! indices and the writer derives them. The layout is in `docs/BRFNT.md`.
//!
//! ```
//! use brfnt::Brfnt;
//!
//! let font = brfnt::build::latin();
//! let bytes = font.write().unwrap();
//! assert_eq!(Brfnt::parse(&bytes).unwrap(), font);
//! assert!(brfnt::validate(&bytes).is_empty());
//!
//! // `J` (direct map: index 9) is the second cell of the third row of sheet 0.
//! let g = font.glyph('J' as u32).unwrap();
//! assert_eq!((g.index, g.sheet, g.x, g.y), (9, 0, 8, 17));
//! // A code no map holds draws the alternate glyph.
//! assert!(font.glyph('Z' as u32).unwrap().alternate);
//! let sheet = font.sheet_rgba(g.sheet).unwrap();
//! assert_eq!(sheet.pixel(g.x, g.y).unwrap()[0], brfnt::build::cell_level(9) * 17);
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod format;
mod fuzz;
pub mod glyph;
pub mod model;
#[cfg(feature = "render")]
pub mod render;
pub mod validate;
mod view;
mod write;

pub use format::Format;
pub use fuzz::fuzz_brfnt;
pub use glyph::{Glyph, sheet_image};
pub use model::{
    Block, Brfnt, CharWidths, CodeMap, Glyphs, Info, Link, Mapping, Metrics, ScanEntry, Sheet,
    Widths,
};
pub use validate::{validate, validate_view, validate_with};
pub use view::{View, sniff};

/// Parses `data` into the zero-copy view with the default [`gcio::Limits`].
pub fn parse(data: &[u8]) -> gcio::Result<View<'_>> {
    View::parse_with(data, &gcio::Limits::default())
}

/// Parses into the zero-copy view; `limits` bound its block list.
pub fn parse_with<'a>(data: &'a [u8], limits: &gcio::Limits) -> gcio::Result<View<'a>> {
    View::parse_with(data, limits)
}

#[cfg(feature = "json")]
/// The model as JSON (lossless: `from_json(to_json(f))` writes the same bytes; sheets as hex).
pub fn to_json(font: &Brfnt) -> gcio::Result<serde_json::Value> {
    serde_json::to_value(font).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// The model from [`to_json`]'s output.
#[cfg(feature = "json")]
pub fn from_json(v: &serde_json::Value) -> gcio::Result<Brfnt> {
    serde::Deserialize::deserialize(v).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// Recognises a font (`RFNT` + `FE FF`); every format crate has this `detect`.
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).then_some(gcio::Confidence::Strong)
}
