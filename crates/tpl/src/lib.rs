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
//! library; [`validate()`] reports `TPL-*` rules (`docs/rules/tpl.md`); `folder` (feature
//! `export`) converts to PNG files and back.
//!
//! ```
//! use gx::tex::{Image, TexFormat};
//! use tpl::{Entry, ImageHeader, Tpl};
//!
//! // A one-image library built by hand: a 16×8 gradient coded as RGB5A3.
//! let img = Image::from_fn(16, 8, |x, y| [(x * 16) as u8, (y * 32) as u8, 0x80, 0xFF]).unwrap();
//! let header = ImageHeader {
//!     height: 8,
//!     width: 16,
//!     format: u32::from(TexFormat::RGB5A3.0),
//!     data_offset: 0,
//!     wrap_s: 0,
//!     wrap_t: 0,
//!     min_filter: 1,
//!     mag_filter: 1,
//!     lod_bias: 0.0,
//!     edge_lod: 0,
//!     min_lod: 0,
//!     max_lod: 0,
//!     unpacked: 0,
//! };
//! let data = gx::tex::encode(TexFormat::RGB5A3, &img).unwrap();
//! let mut lib = Tpl::new();
//! lib.images.push(Entry { header_offset: 0, header, data, palette: None });
//! lib.relayout().unwrap();
//! let bytes = lib.write().unwrap();
//!
//! // Parse, check, edit, write back.
//! let mut back = Tpl::parse(&bytes).unwrap();
//! assert_eq!(back, lib);
//! assert_eq!(back.write().unwrap(), bytes);
//! assert!(tpl::validate(&bytes).is_empty());
//! let first = back.images[0].texture().unwrap().decode_level(0).unwrap();
//! assert_eq!((first.width(), first.height()), (16, 8));
//! back.images[0].header.wrap_s = 1;
//! assert!(tpl::validate(&back.write().unwrap()).is_empty());
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
#[cfg(feature = "export")]
pub mod folder;
mod format;
mod fuzz;
pub mod model;
pub mod validate;
mod view;
mod write;

pub use format::Format;
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
