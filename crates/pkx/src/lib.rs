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
//! - [`Format`]: the crate's contract with a registry ([`gcio::FileFormat`]), what the
//!   `gcformats` facade detects, parses, writes and validates containers through.
//! - [`defaults`]: the metadata of a model made elsewhere ([`Pkx::with_defaults`]: slots from
//!   animation names, body map and head bone from joint names, neutral shiny).
//! - `json` (feature `json`): the metadata as JSON (header only, with names) and back.
//!
//! ```
//! use pkx::{AnimEntry, AnimType, Game, Header, PartAnim, Pkx, Shiny, SubAnim, Timing};
//! use pkx::{XdFlags, XdHeader};
//!
//! // An XD Pokémon file built by hand: the header, one looping idle slot (sub-animation 0 of
//! // the model's animations) and 16 padding slots, no GPT1 particle block, and the embedded
//! // HSD model (an empty archive here; a real one comes from `hsd_dat`).
//! let header = Header::Xd(XdHeader {
//!     reserved_04: 0,
//!     reserved_0c: 0,
//!     particle_orientation: 1,
//!     species_id: 25,
//!     type_id: 0x0C,
//!     part_anims: [PartAnim::NONE; 4],
//!     flags: XdFlags::empty(),
//!     unknown_69: 0,
//!     distortion_param: 0,
//!     distortion_type: 0,
//!     reserved_6d: 0,
//!     head_bone: 0,
//!     shiny: Shiny::IDENTITY,
//! });
//! let slot = |anim_type, looped: bool| AnimEntry {
//!     anim_type,
//!     sub_anim_count: u32::from(looped),
//!     damage_flags: 0,
//!     reserved_0c: 0,
//!     timing: Timing::Seconds([if looped { 2.0 } else { 0.0 }, 0.0, 0.0, 0.0]),
//!     reserved_20: [0; 44],
//!     body_map: [0; 16],
//!     sub_anims: [if looped {
//!         SubAnim { motion_type: 2, anim_index: 0 }
//!     } else {
//!         SubAnim::padding(Game::Xd)
//!     }; 8],
//!     terminator: Game::Xd.terminator(),
//! };
//! let mut entries = vec![slot(AnimType::LOOP, true)];
//! entries.extend((1..17).map(|_| slot(AnimType::ACTION, false)));
//! let dat = hsd_dat::Dat::default().write().unwrap();
//! let p = Pkx::new(header, entries, Vec::new(), dat);
//! let bytes = p.write().unwrap();
//!
//! // Detect, parse (the same model, the same bytes) and validate.
//! assert_eq!(pkx::game(&bytes), Some(Game::Xd));
//! let back = Pkx::parse(&bytes).unwrap();
//! assert_eq!(back, p);
//! assert_eq!(back.write().unwrap(), bytes);
//!
//! // The validator checks the slots against the embedded model too: the idle slot plays
//! // animation 0, which the empty archive does not have (PKX-006); nothing else is an error.
//! let findings = pkx::validate_model(&back);
//! let errors: Vec<_> = findings
//!     .iter()
//!     .filter(|d| matches!(d.severity, gcio::Severity::Error))
//!     .map(|d| d.rule.as_str())
//!     .collect();
//! assert_eq!(errors, ["PKX-006"]);
//!
//! // Edit: the same model as a Colosseum file (frames, inverted padding polarity).
//! let colo = back.to_game(Game::Colosseum);
//! let again = Pkx::parse(&colo.write().unwrap()).unwrap();
//! assert_eq!(again.game(), Game::Colosseum);
//! assert!(again.entries[0].is_active(Game::Colosseum));
//! assert!(!again.entries[1].is_active(Game::Colosseum));
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod dat;
pub mod defaults;
mod format;
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
pub use defaults::ModelNames;
pub use format::Format;
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
