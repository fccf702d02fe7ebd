//! Mario Super Sluggers model blocks (GPL, ACT, TEX, SKN and trailing sections) and their facial
//! pose section (model header +0x18): the runtime copies pose coordinates from it into the head's
//! vertex arrays every frame, so face edits must go through it.
//!
//! - [`BlockView`] / [`FacialView`]: zero-copy views; [`Mesh`]: the GPL arrays and SKN entries
//!   pose data is checked against.
//! - [`Block`] / [`FacialSection`]: owned models; writing repacks the section with the game's
//!   packing rule (docs/rules/gpl.md) and recomputes the block's section pointers, so an unchanged block is
//!   byte-identical.
//! - [`BlockView::validate`]: rules `GPL-001`…`GPL-018` (catalogue: `docs/rules/gpl.md`).
//! - Edits ([`edit`]): apply a base-mesh edit, replace a pose delta, unpatch, rebuild for a
//!   rigid or skinned submesh, neutralize, detach.
//! - [`build`]: realistic synthetic blocks for tests, benches and `samples/`.
//!
//! ```
//! use gpl_facial::{Block, BlockView, build};
//!
//! let bytes = build::birdo_block();
//! let view = gpl_facial::parse(&bytes).unwrap();
//! assert!(gpl_facial::validate_view(&view).is_empty());
//! let facial = view.facial().unwrap().unwrap();
//! assert_eq!(facial.header().object_count.get(), 2);
//! let block = Block::parse(&bytes).unwrap();
//! assert_eq!(block.write().unwrap(), bytes);
//! ```
#![forbid(unsafe_code)]

mod block;
#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod detect;
pub mod edit;
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
