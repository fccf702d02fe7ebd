//! Super Mario Galaxy camera animations (`.canm`) — read, written back byte for byte, checked,
//! converted to JSON and evaluated at a frame as the game does.
//!
//! A file is a 0x20-byte header (`ANDO`, a type tag `CANM` or `CKAN`, four header words, the
//! length in frames, the value block's offset), eight track entries (camera position x/y/z,
//! watched point x/y/z, twist, field of view: count, first value index, and for CKAN a key
//! layout word), then the value block: its size in bytes and big-endian floats shared by all
//! tracks. `CANM` stores a value per frame; `CKAN` stores keys (time, value, tangent or in/out
//! tangents) interpolated by Hermite curves ([`eval`]). The layout is in `docs/CANM.md`.
//!
//! ```
//! use canm::{Canm, Kind, Track};
//!
//! // A keyed animation built by hand: position x rises from 0 to 100 over 60 frames (keys of
//! // time, value, tangent); every other track is one constant value.
//! let mut tracks = [Track { count: 1, offset: 0, layout: 0 }; 8];
//! let mut values = vec![0.0, 0.0, 0.0, 60.0, 100.0, 0.0];
//! tracks[0].count = 2;
//! for (i, t) in tracks.iter_mut().enumerate().skip(1) {
//!     t.offset = values.len() as u32;
//!     values.push(if i == 7 { 45.0 } else { 0.0 });
//! }
//! let mut anim = Canm {
//!     kind: Kind::Ckan,
//!     header: [1, 0, 1, 4],
//!     frames: 60,
//!     tracks,
//!     gap: Vec::new(),
//!     values,
//!     trailer: vec![0xFF; 4],
//! };
//! let bytes = anim.write().unwrap();
//! assert_eq!(Canm::parse(&bytes).unwrap(), anim);
//! assert!(canm::validate(&bytes).is_empty());
//! assert_eq!(canm::eval::pose(&anim, 60.0).unwrap().pos[0], 100.0);
//!
//! // Edit: move the end key, write and read back.
//! anim.values[4] = 250.0;
//! let edited = Canm::parse(&anim.write().unwrap()).unwrap();
//! assert_eq!(canm::eval::pose(&edited, 60.0).unwrap().pos[0], 250.0);
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
pub mod eval;
mod format;
mod fuzz;
pub mod model;
pub mod validate;
mod view;
mod write;

pub use format::Format;
pub use fuzz::fuzz_canm;
pub use model::{Canm, Kind, MAGIC, TRACK_NAMES, Track};
pub use validate::{validate, validate_view, validate_with};
pub use view::{View, sniff};

/// Parses `data` into the zero-copy view with the default [`gcio::Limits`].
pub fn parse(data: &[u8]) -> gcio::Result<View<'_>> {
    View::parse_with(data, &gcio::Limits::default())
}

/// Parses into the zero-copy view; `limits` bound the bytes the view may describe.
pub fn parse_with<'a>(data: &'a [u8], limits: &gcio::Limits) -> gcio::Result<View<'a>> {
    View::parse_with(data, limits)
}

#[cfg(feature = "json")]
/// The model as JSON (lossless: `from_json(to_json(a))` writes the same bytes; a non-finite value
/// is its hex bits).
pub fn to_json(anim: &Canm) -> gcio::Result<serde_json::Value> {
    serde_json::to_value(anim).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// The model from [`to_json`]'s output.
#[cfg(feature = "json")]
pub fn from_json(v: &serde_json::Value) -> gcio::Result<Canm> {
    serde::Deserialize::deserialize(v).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// Recognises a camera animation (`ANDO` + `CANM`/`CKAN`); every format crate has this `detect`
/// (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).is_some().then_some(gcio::Confidence::Strong)
}
