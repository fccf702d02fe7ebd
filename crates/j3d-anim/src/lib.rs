//! J3D animations — BCK, BCA, BTK, BRK, BPK, BTP, BVA, BLK, BLA — read, written back byte for
//! byte, checked and evaluated the way the game does.
//!
//! Every kind is a `J3D1` file with one chunk (`ANK1`, `ANF1`, `TTK1`, `TRK1`, `PAK1`, `TPT1`,
//! `VAF1`, `CLK1`, `CLF1`): a header of counts and offsets, entry tables whose tracks point into shared value
//! tables, and name tables. [`schema`] describes each kind as data; one parser ([`View`]), one
//! writer ([`Anim::write`]) and one validator ([`validate()`]) walk those descriptions.
//!
//! Nintendo's tools deduplicate value runs (a track may reuse keys another track stored), so the
//! model keeps the value tables and each track's index as found rather than per-track keyframes;
//! [`eval`] resolves them. Padding is kept as layout facts (the alignments applied), never as
//! bytes: [`Anim::raw_parts`] lists anything that is not, and is empty on every retail file seen.
//! What the game's loader (JSystem `J3DAnmLoader`) never checks is accepted and kept the same
//! way: a file stored without its end padding or with another size word, a chunk size inside the
//! tables, tables that share bytes, a BTK track count that is no whole number of entries, name
//! strings in another order, a chunk count other than 1; the validator reports each
//! (J3DA-014…019).
//!
//! [`fit`] builds animations from sampled values (an importer's glTF joint tracks → BCK) through
//! the Hermite key fitter of `gx::curve`, laid out as the tools lay them out.
//!
//! [`Format`] is the crate's contract with a registry ([`gcio::FileFormat`]), through which the
//! `gcformats` facade lists the family as `j3d-anim`, each kind under its own alias.
//!
//! This is its own crate, not modules of `j3d-bmd`: animations share only the `J3D1` container
//! header and the name-table format with models, and read model data only to check a binding. It
//! uses `j3d-bmd`'s name table and padding sentence rather than repeating them.
//!
//! ```
//! use j3d_anim::{Anim, Data, eval};
//!
//! // A 4-frame BVA written out here: shape 0 is always shown, shape 1 blinks (its per-frame
//! // track reads 0, 1, 0 from the shared byte table), with the tool's alignment padding.
//! let bytes: &[u8] = &[
//!     0x4A, 0x33, 0x44, 0x31, 0x62, 0x76, 0x61, 0x31, 0x00, 0x00, 0x00, 0x60,
//!     0x00, 0x00, 0x00, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
//!     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x56, 0x41, 0x46, 0x31,
//!     0x00, 0x00, 0x00, 0x40, 0x00, 0xFF, 0x00, 0x04, 0x00, 0x02, 0x00, 0x04,
//!     0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x28, 0x54, 0x68, 0x69, 0x73,
//!     0x20, 0x69, 0x73, 0x20, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x01,
//!     0x01, 0x00, 0x01, 0x00, 0x54, 0x68, 0x69, 0x73, 0x20, 0x69, 0x73, 0x20,
//!     0x70, 0x61, 0x64, 0x64, 0x69, 0x6E, 0x67, 0x20, 0x64, 0x61, 0x74, 0x61,
//! ];
//! let mut anim = Anim::parse(bytes).unwrap();
//! assert_eq!(anim.write().unwrap(), bytes);
//! assert!(j3d_anim::validate(bytes).is_empty());
//! assert_eq!(eval::visible(&anim, 1, 1.0), Some(true));
//! assert_eq!(eval::visible(&anim, 1, 2.0), Some(false));
//!
//! // Edit the value table (shape 1 now stays shown), write and check again.
//! anim.tables[1].data = Data::U8(vec![1, 1, 1, 1]);
//! let edited = anim.write().unwrap();
//! assert!(j3d_anim::validate(&edited).is_empty());
//! assert_eq!(eval::visible(&Anim::parse(&edited).unwrap(), 1, 2.0), Some(true));
//! ```
#![forbid(unsafe_code)]

pub mod bind;
#[cfg(any(test, feature = "test-support"))]
pub mod build;
pub mod eval;
#[cfg(feature = "export")]
pub mod export;
pub mod fit;
mod format;
mod fuzz;
#[cfg(feature = "import")]
pub mod import;
mod layout;
pub mod model;
pub mod schema;
pub mod validate;
mod view;
mod write;

pub use bind::Target;
pub use format::Format;
pub use fuzz::fuzz_anim;
pub use model::{
    Anim, ChunkSize, Data, FileSize, Fill, FullTrack, Gap, KeyTrack, Layout, Name, Names, Pattern,
    Place, Strings, Table, TevColor,
};
pub use schema::{Kind, SCHEMAS, Schema};
pub use validate::{validate, validate_model, validate_with};
pub use view::{FILE_HEADER, Span, View, sniff};

/// Parses `data` into the zero-copy view with the default [`gcio::Limits`].
pub fn parse(data: &[u8]) -> gcio::Result<View<'_>> {
    View::parse_with(data, &gcio::Limits::default())
}

/// Parses into the zero-copy view; `limits` bound nothing (the view reads tables on demand; [`Anim::from_view`] uses them).
pub fn parse_with<'a>(data: &'a [u8], limits: &gcio::Limits) -> gcio::Result<View<'a>> {
    View::parse_with(data, limits)
}

#[cfg(feature = "json")]
/// The model as JSON (lossless: `from_json(to_json(a))` writes the same bytes; a non-finite float
/// is its hex bits).
pub fn to_json(anim: &Anim) -> gcio::Result<serde_json::Value> {
    serde_json::to_value(anim).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
}

/// The model from [`to_json`]'s output.
#[cfg(feature = "json")]
pub fn from_json(v: &serde_json::Value) -> gcio::Result<Anim> {
    Anim::deserialize_value(v)
}

#[cfg(feature = "json")]
impl Anim {
    fn deserialize_value(v: &serde_json::Value) -> gcio::Result<Anim> {
        serde::Deserialize::deserialize(v).map_err(|e| gcio::Error::message(format!("JSON: {e}")))
    }
}

/// Recognises a J3D animation (magic `J3D1` + a known kind); every format crate has this `detect`
/// (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).is_some().then_some(gcio::Confidence::Strong)
}
