//! Pokémon Colosseum and XD model containers (`.pkx`): battle metadata wrapped around an HSD
//! `.dat`, in both games' layouts, byte for byte.
//!
//! - [`detect`] tells XD from Colosseum with the combined rule PKX-001 and rejects what fits
//!   neither; [`parse`] → [`View`] is the zero-copy view (typed header, entries, GPT1, DAT).
//! - [`Pkx`] is the owned model: every field typed, reserved and padding bytes kept, so
//!   [`Pkx::write`] reproduces any parsed file. Semantics: active vs padding slots by each game's
//!   motion_type polarity ([`SubAnim::is_active`]), [`Pkx::resolve`] maps slots to the DAT's
//!   `ModelSet.anims[]`, [`Pkx::triggers`] abstracts the part-animation triggers, slot names for
//!   Pokémon and each game's trainers ([`ModelKind`]), [`Pkx::to_game`] converts the header.
//! - [`validate`] / [`validate_model`] cite PKX-* rules and runs `hsd-dat`'s rules on the embedded model.
//! - [`json`]: the metadata as JSON (header only, with names) and back.
//!
//! ```
//! use pkx::{Game, Pkx, build};
//!
//! let bytes = build::xd_pokemon().unwrap().write().unwrap();
//! assert_eq!(pkx::game(&bytes), Some(Game::Xd));
//! let p = Pkx::parse(&bytes).unwrap();
//! assert_eq!(p.write().unwrap(), bytes);
//! assert!(pkx::validate_model(&p).is_empty());
//! assert!(p.entries[0].is_active(Game::Xd));
//!
//! // The same model as a Colosseum file: frames, inverted polarity, trailing shiny.
//! let colo = p.to_game(Game::Colosseum);
//! let back = Pkx::parse(&colo.write().unwrap()).unwrap();
//! assert_eq!(back.game(), Game::Colosseum);
//! assert_eq!(back.entries[0].sub_anims[0].motion_type, 0);
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod dat;
mod fuzz;
#[cfg(any(test, feature = "test-support"))]
pub mod golden;
#[cfg(feature = "json")]
pub mod json;
mod model;
pub mod names;
pub mod raw;
mod validate;
mod view;
mod write;

pub use dat::DatFacts;
pub use fuzz::fuzz_pkx;
#[cfg(all(feature = "json", feature = "test-support"))]
pub use fuzz::fuzz_pkx_json;
pub use model::{
    AnimEntry, AnimType, ColosseumHeader, Header, Pads, PartAnim, Pkx, Shiny, SubAnim, Timing,
    Trigger, XdFlags, XdHeader,
};
pub use names::{BODY_PARTS, ModelKind};
pub use validate::{validate, validate_model, validate_model_as, validate_with};
pub use view::{Game, HeaderView, Layout, View, detect, game, parse, parse_with};
