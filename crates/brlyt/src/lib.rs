//! NintendoWare for Revolution layouts (`.brlyt`, magic `RLYT`) — read, written back byte for
//! byte, checked against what the game's loader reads, converted to JSON, and walked as a pane
//! tree.
//!
//! A file is the NW4R frame ([`frame`]: header, then sections of magic + size) holding `lyt1`
//! (screen size), `txl1`/`fnl1` (texture and font file names), `mat1` (materials: colours,
//! texture maps and matrices, coordinate generators, TEV stages, indirect stages, alpha
//! compare, blend mode — the flags word says which are stored), the panes `pan1`, `pic1`,
//! `txt1`, `wnd1`, `bnd1` nested by `pas1`/`pae1`, and groups `grp1` nested by `grs1`/`gre1`.
//! Sections the loader does not read (`usd1` among them) are kept as bytes.
//!
//! ```
//! use brlyt::{Brlyt, Section};
//!
//! let mut lyt = brlyt::build::sample();
//! let bytes = lyt.write().unwrap();
//! assert_eq!(Brlyt::parse(&bytes).unwrap(), lyt);
//! assert!(brlyt::validate(&bytes).is_empty());
//!
//! // The tree: the root pane has the picture, text, window and bounding panes as children.
//! let tree = lyt.tree();
//! let root = tree.roots().next().unwrap();
//! assert_eq!(tree.panes[root].children.len(), 4);
//!
//! // Edit: hide the picture, write and read back.
//! for s in &mut lyt.sections {
//!     if let Section::Picture(p) = s {
//!         p.pane.flags &= !1;
//!     }
//! }
//! let edited = Brlyt::parse(&lyt.write().unwrap()).unwrap();
//! assert_eq!(edited, lyt);
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod format;
pub mod frame;
mod fuzz;
pub mod json;
pub mod model;
pub mod place;
#[cfg(feature = "render")]
pub mod render;
pub mod tree;
pub mod validate;
mod view;
mod write;

pub use format::Format;
pub use fuzz::fuzz_brlyt;
pub use json::Name;
pub use model::{Brlyt, MAGIC, Material, Pane, Section};
pub use tree::Tree;
pub use validate::{validate, validate_view, validate_with};
pub use view::{View, sniff};

/// Parses `data` into the zero-copy view with the default [`gcio::Limits`].
pub fn parse(data: &[u8]) -> gcio::Result<View<'_>> {
    View::parse_with(data, &gcio::Limits::default())
}

/// Parses into the zero-copy view; `limits` bound the sections the view may list.
pub fn parse_with<'a>(data: &'a [u8], limits: &gcio::Limits) -> gcio::Result<View<'a>> {
    View::parse_with(data, limits)
}

/// The model as JSON (lossless: `from_json(to_json(l))` writes the same bytes; a non-finite
/// float is its hex bits, names are Latin-1 text).
#[cfg(feature = "json")]
pub fn to_json(lyt: &Brlyt) -> gcio::Result<serde_json::Value> {
    serde_json::to_value(lyt).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// The model from [`to_json`]'s output.
#[cfg(feature = "json")]
pub fn from_json(v: &serde_json::Value) -> gcio::Result<Brlyt> {
    serde::Deserialize::deserialize(v).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// Recognises a layout (`RLYT` + byte order mark); every format crate has this `detect` (the
/// registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).then_some(gcio::Confidence::Strong)
}
