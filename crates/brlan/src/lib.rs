//! NintendoWare for Revolution layout animations (`.brlan`, magic `RLAN`) — read, written back
//! byte for byte, checked against what the game's animation code reads, converted to JSON, and
//! evaluated at a frame as the game does ([`eval`]).
//!
//! A file is the NW4R frame (as in `brlyt`) holding `pat1` (the tag: animation name, frame
//! range, the groups it binds) and `pai1` (the animation: length, loop flag, the texture files
//! a pattern switches between, and per pane or material its animations — `RLPA` pane SRT,
//! `RLVI` visibility, `RLVC` vertex colours, `RLMC` material colours, `RLTS` texture SRT,
//! `RLTP` texture pattern, `RLIM` indirect SRT — each a list of targets with Hermite or step
//! keys). Other sections (`pah1`) are kept as bytes.
//!
//! ```
//! use brlan::{Brlan, eval};
//!
//! let anim = brlan::build::sample();
//! let bytes = anim.write().unwrap();
//! assert_eq!(Brlan::parse(&bytes).unwrap(), anim);
//! assert!(brlan::validate(&bytes).is_empty());
//!
//! // The picture's x position: -100 at frame 0, 100 from frame 30, halfway between at 15
//! // (up to the f32 rounding of the game's formula).
//! let pic = &anim.anim().unwrap().contents[0];
//! let x = |f| eval::target(&pic.infos[0].targets[0], f).unwrap().to_f32();
//! assert_eq!((x(0.0), x(45.0)), (-100.0, 100.0));
//! assert!(x(15.0).abs() < 1e-4);
//! ```
#![forbid(unsafe_code)]

pub mod apply;
#[cfg(any(test, feature = "test-support"))]
pub mod build;
pub mod eval;
mod format;
mod fuzz;
pub mod model;
pub mod validate;
mod view;
mod write;

pub use apply::apply;
pub use format::Format;
pub use fuzz::fuzz_brlan;
pub use model::{Brlan, Keys, MAGIC, Section};
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

/// The model as JSON (lossless: `from_json(to_json(a))` writes the same bytes; a non-finite
/// float is its hex bits, names are Latin-1 text).
#[cfg(feature = "json")]
pub fn to_json(anim: &Brlan) -> gcio::Result<serde_json::Value> {
    serde_json::to_value(anim).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// The model from [`to_json`]'s output.
#[cfg(feature = "json")]
pub fn from_json(v: &serde_json::Value) -> gcio::Result<Brlan> {
    serde::Deserialize::deserialize(v).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// Recognises a layout animation (`RLAN` + byte order mark); every format crate has this
/// `detect` (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).then_some(gcio::Confidence::Strong)
}
