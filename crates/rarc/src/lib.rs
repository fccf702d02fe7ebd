//! RARC (`JKRArchive`) archives, the `.arc` files of GameCube/Wii games (usually inside Yaz0:
//! `.szs`).
//!
//! - [`parse`] gives a zero-copy [`Rarc`] view: header, tables, names, member bytes
//!   ([`Rarc::file_bytes`], [`Rarc::decompressed`]), a bounded tree walk and a case-insensitive
//!   [`Rarc::lookup`].
//! - [`Archive`] is the owned model: tables in stored order plus every layout fact, so
//!   [`Archive::write`] reproduces any parsed archive byte for byte; edits (`replace_data`,
//!   `rename`, `add_file`, `remove_file`, `move_file`, `sync_file_ids`) change only what they touch.
//! - [`pack`] builds a new archive in the retail SMG layout; [`tree`] turns an archive back into
//!   the [`Dir`] tree it packs from.
//! - [`manifest`] takes an archive apart into files plus a readable manifest and packs it back
//!   byte for byte (compression [`layer`]s included).
//! - [`validate`] reports `RARC-*` findings.
//! - [`Format`] is the crate's contract with a registry ([`gcio::FileFormat`]), so the
//!   `gcformats` facade adapts it generically.
//!
//! ```
//! use rarc::{Dir, Item, PackOptions};
//!
//! let root = Dir {
//!     name: b"Stage".to_vec(),
//!     children: vec![Item::File { name: b"a.bin".to_vec(), attr: None, data: vec![1, 2, 3], id: None }],
//! };
//! let bytes = rarc::pack(&root, PackOptions::default()).write().unwrap();
//! let view = rarc::parse(&bytes).unwrap();
//! let e = view.lookup("A.BIN").unwrap().unwrap();
//! assert_eq!(view.file_bytes(&e).unwrap(), &[1, 2, 3]);
//! assert_eq!(rarc::Archive::parse(&bytes).unwrap().write().unwrap(), bytes);
//! ```
#![forbid(unsafe_code)]

mod attr;
mod format;
mod fuzz;
pub mod layer;
pub mod manifest;
mod model;
mod name;
mod pack;
pub mod raw;
mod validate;
mod view;
mod write;

pub use attr::{Attr, name_hash, node_type};
pub use format::Format;
pub use fuzz::fuzz_parse;
pub use model::{Archive, Entry, Gap, Node, Region, Target};
pub use pack::{Dir, Item, PackOptions, default_attr, pack, sample_tree, tree, tree_with};
pub use validate::{validate, validate_with};
pub use view::{DirRef, EntryRef, FileRef, Rarc, parse, parse_with};

/// True when `data` starts with the RARC magic.
pub fn is_rarc(data: &[u8]) -> bool {
    data.starts_with(b"RARC")
}

/// Recognises a RARC archive (its magic); every format crate has this `detect`
/// (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    is_rarc(data).then_some(gcio::Confidence::Strong)
}
