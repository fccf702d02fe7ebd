//! Mario Super Sluggers model blocks (GPL, ACT, TEX, SKN and trailing sections) and their facial
//! pose section (model header +0x18): the runtime copies pose coordinates from it into the head's
//! vertex arrays every frame, so face edits must go through it.
//!
//! - [`BlockView`] / [`FacialView`]: zero-copy views; [`Mesh`]: the GPL arrays and SKN entries
//!   pose data is checked against.
//! - [`Block`] / [`FacialSection`]: owned models; writing repacks the section with the game's
//!   packing rule (docs/rules/gpl.md) and recomputes the block's section pointers, so an unchanged block is
//!   byte-identical.
//! - [`validate()`] / [`validate_view`]: rules `GPL-001`…`GPL-018` (catalogue: `docs/rules/gpl.md`).
//! - Edits ([`edit`]): apply a base-mesh edit, replace a pose delta, unpatch, rebuild for a
//!   rigid or skinned submesh, neutralize, detach.
//! - [`Format`]: the crate's contract with a registry ([`gcio::FileFormat`]), what the
//!   `gcformats` facade detects, parses, writes and validates blocks through.
//! - `build` (feature `test-support`): realistic synthetic blocks for tests, benches and
//!   `samples/`.
//!
//! ```
//! use gpl_facial::{AttrFormat, Attribute, Descriptor, FacialObject, FacialSection, Run};
//!
//! // A facial section built by hand: one rigid object on submesh 1 with two poses (rest, then
//! // one delta) of a position attribute that maps vertices 3 and 4.
//! let format = AttrFormat::rigid_position(1);
//! let mut attribute = Attribute {
//!     entries: 2,
//!     format,
//!     runs: vec![Run { first: 3, len: 2 }, Run::TERMINATOR],
//!     poses: vec![Vec::new(); 2],
//! };
//! attribute.set_values(0, &[10, 20, 30, 40, 50, 60]).unwrap();
//! attribute.set_values(1, &[1, 0, -1, 0, 0, 0]).unwrap();
//! let mut section = FacialSection {
//!     max_pose_count: 2,
//!     pad: 0,
//!     reserved: 0,
//!     descriptors: vec![Descriptor::for_format(format)],
//!     objects: vec![FacialObject { pose_count: 2, attributes: vec![attribute] }],
//! };
//! let bytes = section.write().unwrap();
//! assert!(gpl_facial::validate_section(&bytes).is_empty());
//!
//! // Parse it back (the same model, the same bytes), edit the delta, check again.
//! let back = FacialSection::parse(&bytes).unwrap();
//! assert_eq!(back, section);
//! assert_eq!(back.write().unwrap(), bytes);
//! assert_eq!(back.objects[0].attributes[0].indices(), [3, 4]);
//! section.objects[0].attributes[0].set_values(1, &[0, 2, 0, 0, -2, 0]).unwrap();
//! let edited = section.write().unwrap();
//! assert!(gpl_facial::validate_section(&edited).is_empty());
//! let again = FacialSection::parse(&edited).unwrap();
//! assert_eq!(again.objects[0].attributes[0].values(1).unwrap(), [0, 2, 0, 0, -2, 0]);
//! ```
#![forbid(unsafe_code)]

mod attr;
mod block;
#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod detect;
pub mod edit;
mod format;
mod fuzz;
#[cfg(any(test, feature = "test-support"))]
pub mod golden;
#[cfg(feature = "json")]
mod json;
mod mesh;
mod model;
pub mod raw;
mod validate;
mod view;
mod write;

pub use block::{Block, BlockSection, BlockView, Body, HEADER_SIZE, parse, parse_with, slot};
pub use detect::{Confidence, detect, has_gpl_extension, sniff};
pub use format::Format;
pub use fuzz::fuzz_gpl_facial;
#[cfg(feature = "json")]
pub use json::{block_json, block_json_with, poses_json, poses_json_with};
pub use mesh::{
    ACT_VERSION, GPL_VERSION, Mesh, SKIN_STRIDE, Skin, SkinEntry, Submesh, VertexArray,
};
pub use model::{AttrFormat, AttrKind, Attribute, Descriptor, FacialObject, FacialSection, Run};
pub use validate::{
    DESCRIPTOR_FORMATS, validate, validate_facial, validate_section, validate_view, validate_with,
};
pub use view::{FacialView, ObjectView, RecordView, record_size};
pub use write::SECTION_ALIGN;
