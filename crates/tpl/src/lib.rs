//! Wii TPL texture palette libraries — read, written back byte for byte, checked, and converted
//! to a folder of PNG files and back.
//!
//! A TPL is a file header (magic `0x0020AF30`, image count, table offset), an image table of
//! (image header, palette header) offsets, 0x24-byte image headers (size, GX format, texel
//! offset, wrap, filters, LOD), 0x0C-byte palette headers and the texel and palette data, coded
//! as `gx::tex` codes them. The layout is in `docs/TPL.md`.
//!
//! [`View`] borrows texels and palettes; [`Tpl`] owns them and keeps every offset as found, so
//! [`Tpl::write`] reproduces a parsed file exactly; [`Tpl::relayout`] lays out a new or resized
//! library; [`validate()`] reports `TPL-*` rules (`docs/rules/tpl.md`); [`folder`] converts to
//! PNG files and back.
//!
//! ```
//! let bytes = tpl::build::sample_bytes();
//! let lib = tpl::Tpl::parse(&bytes).unwrap();
//! assert_eq!(lib.images.len(), 3);
//! assert_eq!(lib.write().unwrap(), bytes);
//! let first = lib.images[0].texture().unwrap().decode_level(0).unwrap();
//! assert_eq!((first.width(), first.height()), (20, 12));
//! assert!(tpl::validate(&bytes).is_empty());
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
#[cfg(feature = "export")]
pub mod folder;
mod fuzz;
pub mod model;
pub mod validate;
mod view;
mod write;

pub use fuzz::fuzz_tpl;
pub use model::{Entry, Fill, ImageHeader, MAGIC, Palette, PaletteHeader, Tpl};
pub use validate::{validate, validate_view, validate_with};
pub use view::{EntryView, View, sniff};

/// Parses `data` into the zero-copy view with the default [`gcio::Limits`].
pub fn parse(data: &[u8]) -> gcio::Result<View<'_>> {
    View::parse_with(data, &gcio::Limits::default())
}

/// Parses into the zero-copy view; `limits` bounds the image count.
pub fn parse_with<'a>(data: &'a [u8], limits: &gcio::Limits) -> gcio::Result<View<'a>> {
    View::parse_with(data, limits)
}

/// Recognises a TPL texture palette (magic 0x0020AF30 and a table inside the file); every format crate has this `detect`
/// (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).then_some(gcio::Confidence::Strong)
}
