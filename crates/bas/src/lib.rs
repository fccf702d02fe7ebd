//! JAudio sound animation tables (`.bas`, Super Mario Galaxy 1 and 2) — read, written back byte
//! for byte, checked and converted to JSON.
//!
//! A table lists the sounds an actor's animation of the same name starts (a `.bas` beside
//! `Walk.bck`): an 8-byte header (`u16` count, `u16` padding, `u32` control word, 0 in files)
//! and `count` entries of 32 bytes, as the game's `JAUSoundAnimationSound` reads them: the sound
//! id, note-on and note-off frames, base pitch, behaviour flags, base volume, pitch and volume
//! changes with the animation's speed, play count, pan and repeat interval. The game walks the
//! entries in order of their note-on frame. The layout is in `docs/BAS.md`.
//!
//! ```
//! use bas::{Bas, Sound};
//!
//! // A footstep at frame 12 (sound id 0x00090008), full volume, centre pan.
//! let mut table = Bas {
//!     sounds: vec![Sound { sound_id: 0x0009_0008, note_on: 12.0, note_off: 12.0, ..Sound::default() }],
//!     ..Bas::default()
//! };
//! let bytes = table.write().unwrap();
//! assert_eq!(bytes.len(), 8 + 32);
//! assert_eq!(Bas::parse(&bytes).unwrap(), table);
//! assert!(bas::validate(&bytes).is_empty());
//!
//! // Edit: a second footstep, quieter; out of frame order it is reported.
//! table.sounds.push(Sound { note_on: 4.0, note_off: 4.0, volume: 90, ..table.sounds[0] });
//! let ids: Vec<_> = bas::validate(&table.write().unwrap()).into_iter().map(|d| d.rule).collect();
//! assert_eq!(ids, ["BAS-003"]);
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod format;
mod fuzz;
pub mod model;
pub mod validate;
mod view;
mod write;

pub use format::Format;
pub use fuzz::fuzz_bas;
pub use model::{Bas, FLAG_NAMES, Sound};
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
/// The model as JSON (lossless: `from_json(to_json(t))` writes the same bytes; a non-finite value
/// is its hex bits).
pub fn to_json(table: &Bas) -> gcio::Result<serde_json::Value> {
    serde_json::to_value(table).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// The model from [`to_json`]'s output.
#[cfg(feature = "json")]
pub fn from_json(v: &serde_json::Value) -> gcio::Result<Bas> {
    serde::Deserialize::deserialize(v).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// Recognises a sound animation table by its shape (no signature: [`gcio::Confidence::Weak`],
/// so a registry claims only files named `.bas`); every format crate has this `detect`.
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).then_some(gcio::Confidence::Weak)
}
