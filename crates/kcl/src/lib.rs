//! Nintendo KCL collision — the format of Super Mario Galaxy's `.kcl` members (and Mario Kart
//! Wii's): read, written back byte for byte, checked, queried and built from a triangle mesh.
//!
//! A file is a header, a position pool, a normal pool, the prisms (one per triangle: a corner, a
//! face normal, three edge normals, a height and an attribute) and an octree whose leaves list the
//! prisms near each cell. The octree is kept as laid out (root grid, branch blocks in file order,
//! the shared stream of 0-terminated lists), so the writer reproduces every file it reads;
//! [`Kcl::raw_parts`] reports anything kept as bytes and is empty on every real file seen.
//! [`build`] makes a file from triangles; [`query`](Kcl::query_point) answers point and ray
//! queries through the octree; [`pa`] reads the `.pa` attribute table beside a `.kcl`.
//! Layout and sources: `docs/KCL.md`; rules: `docs/rules/kcl.md`.
//!
//! ```
//! let tris = vec![([[0.0, 0.0, 0.0], [0.0, 0.0, 100.0], [100.0, 0.0, 0.0]], 0u16)];
//! let kcl = kcl::build::build(&tris, &kcl::build::Options::default()).unwrap();
//! let bytes = kcl.write().unwrap();
//! assert_eq!(kcl::Kcl::parse(&bytes).unwrap(), kcl);
//! assert_eq!(kcl.query_point([10.0, -1.0, 10.0]), vec![0]);
//! assert!(kcl::validate(&bytes).is_empty());
//! ```
#![forbid(unsafe_code)]

pub mod build;
mod format;
mod fuzz;
pub mod geom;
pub mod model;
pub mod obj;
pub mod pa;
pub mod query;
pub mod validate;
mod view;
mod write;

pub use format::Format;
pub use fuzz::fuzz_kcl;
pub use model::{Header, Kcl, Node, Octree, Prism};
pub use validate::{validate, validate_model, validate_with};
pub use view::{LEAF_FLAG, PRISM_SIZE, VEC_SIZE, View, sniff};

/// Parses `data` into the zero-copy view with the default [`gcio::Limits`].
pub fn parse(data: &[u8]) -> gcio::Result<View<'_>> {
    View::parse_with(data, &gcio::Limits::default())
}

/// Parses into the zero-copy view; `limits` bound nothing (the view allocates nothing sized from the file; [`Kcl::from_view`] uses them).
pub fn parse_with<'a>(data: &'a [u8], limits: &gcio::Limits) -> gcio::Result<View<'a>> {
    View::parse_with(data, limits)
}

/// Recognises a collision file (no magic: header offsets, whole-entry sections in order and an octree that walks); every format crate has this `detect`
/// (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    sniff(data).then_some(gcio::Confidence::Strong)
}
