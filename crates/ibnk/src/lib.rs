//! JAudio IBNK instrument banks, both layouts (version 0 offset tables, version 1 chunks), and
//! the WSYS wave systems their velocity regions point into.
//!
//! - [`parse`] gives a zero-copy [`View`]; [`Bank::parse`] an owned [`Bank`] that
//!   [`Bank::write`] turns back into the exact input bytes.
//! - [`Bank::play`] answers "what plays" for (program, key, velocity): the wave id, volume
//!   and pitch the runtime would use, or why nothing plays.
//! - [`validate`] reports `IBNK-*` rules; [`wsys::missing_waves`] checks a bank against its
//!   wave system.
//! - [`build`] makes realistic banks of both versions from one [`build::Design`].
//! - [`Format`]: the crate's contract with a registry ([`gcio::FileFormat`]).
//!
//! ```
//! use ibnk::{build, Bank};
//!
//! let bank: Bank = build::demo().to_v1(7);
//! let bytes = bank.write().unwrap();
//! assert_eq!(ibnk::parse(&bytes).unwrap().version(), 1);
//! let back = ibnk::Bank::parse(&bytes).unwrap();
//! assert_eq!(back.write().unwrap(), bytes);
//! assert!(ibnk::validate(&bytes).is_empty());
//!
//! // Program 0 is a piano: key 60 at velocity 100 plays the loud middle sample.
//! let note = back.play(0, 60, 100).unwrap();
//! assert_eq!(note.wave, 0x0011);
//! // Nothing is mapped at program 5.
//! assert!(back.play(5, 60, 100).is_err());
//! ```
#![forbid(unsafe_code)]

pub mod build;
mod format;
mod fuzz;
#[cfg(any(test, feature = "test-support"))]
pub mod golden;
pub mod model;
mod play;
pub mod raw;
mod read;
mod validate;
pub mod view;
mod write;
pub mod wsys;

pub use format::Format;
pub use fuzz::fuzz_ibnk;
#[cfg(feature = "json")]
pub use fuzz::fuzz_ibnk_json;
pub use gcio::F32;
pub use model::{Bank, Body, Link};
pub use play::{Note, ProgramSummary, Silence};
pub use validate::{validate, validate_model, validate_with};
pub use view::{View, parse, parse_with};

/// Recognises an instrument bank (magic `IBNK`); every format crate has this `detect`
/// (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    data.starts_with(b"IBNK")
        .then_some(gcio::Confidence::Strong)
}
