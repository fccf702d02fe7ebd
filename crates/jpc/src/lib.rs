//! JParticle effect containers (`.jpc`, `JPAC2-10`: Super Mario Galaxy 1 and 2) — read, written
//! back byte for byte and checked.
//!
//! A container holds effects ("resources", each an id and its blocks) and the textures they
//! draw with. Each block is a tag, a size and a body: `BEM1` the emitter (`JPADynamicsBlock`),
//! `BSP1` the base shape with its texture and colour animations, `ESP1` the extra shape (scale,
//! alpha, rotation over life), `SSP1` child particles, `ETX1` indirect and second textures,
//! `FLD1` forces, `KFA1` key curves, `TDB1` the effect's texture indices into the container's
//! `TEX1` table, whose entries are named BTI images (read through `j3d_bmd::Bti`). Block heads
//! are typed by the schemas of [`model`] (the JSystem decompilations' layouts), what follows
//! them as typed parts; a block of an unknown tag is kept as bytes. The layout is in
//! `docs/JPC.md`.
//!
//! ```
//! use jpc::{Jpc, Value};
//!
//! let mut jpc = jpc::build::sample();
//! let bytes = jpc.write().unwrap();
//! assert_eq!(Jpc::parse(&bytes).unwrap(), jpc);
//! assert!(jpc::validate(&bytes).is_empty());
//!
//! // Edit: double effect 0's emission rate (BEM1 `rate`).
//! let bem1 = &mut jpc.resources[0].blocks[0];
//! let i = jpc::model::BEM1.iter().position(|(n, _)| *n == "rate").unwrap();
//! bem1.fields[i] = Value::F32(gcio::F32::new(8.0));
//! let again = Jpc::parse(&jpc.write().unwrap()).unwrap();
//! assert_eq!(again.resources[0].blocks[0].field("rate"), Some(Value::F32(gcio::F32::new(8.0))));
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
pub use fuzz::fuzz_jpc;
pub use model::{Block, ColorKey, Jpc, Part, Resource, Texture, Ty, Value};
pub use validate::{validate, validate_view, validate_with};
pub use view::{BlockView, ResourceView, View, sniff};

/// Parses `data` into the zero-copy view with the default [`gcio::Limits`].
pub fn parse(data: &[u8]) -> gcio::Result<View<'_>> {
    View::parse_with(data, &gcio::Limits::default())
}

/// Parses into the zero-copy view; `limits` bound its resource, block and texture lists.
pub fn parse_with<'a>(data: &'a [u8], limits: &gcio::Limits) -> gcio::Result<View<'a>> {
    View::parse_with(data, limits)
}

/// Recognises a container (`JPAC2-10`); every format crate has this `detect`.
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).then_some(gcio::Confidence::Strong)
}
