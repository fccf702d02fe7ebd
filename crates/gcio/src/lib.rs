//! Shared I/O for gcformats: a zero-copy, bounds-checked reader with absolute file offsets, an
//! aligned writer with patched slots and framed sections, a string pool, [`Limits`] against
//! hostile input, bounded graph walks, one [`Error`] type with a structure breadcrumb, and the
//! [`Diagnostic`] type validators return.
//!
//! ```
//! use gcio::{Reader, Writer, Context};
//! use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned, byteorder::big_endian::U32};
//!
//! #[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
//! #[repr(C)]
//! struct Header { magic: [u8; 4], size: U32 }
//!
//! let mut w = Writer::new();
//! let sec = w.begin_section(*b"DEMO");
//! w.u16(7);
//! w.end_section(sec, 16, b"pad").unwrap();
//! let bytes = w.into_vec();
//!
//! let r = Reader::new(&bytes);
//! let h: &Header = r.get(0).unwrap();
//! assert_eq!((&h.magic, h.size.get()), (b"DEMO", 16));
//! let err = r.u32(14).context("DEMO").unwrap_err();
//! assert_eq!(err.to_string(), "DEMO: 4 bytes at offset 0xe past end (size 0x10)");
//! ```
#![forbid(unsafe_code)]

#[cfg(feature = "test-support")]
pub mod corpus;
mod detect;
mod diag;
mod error;
mod float;
mod format;
mod limits;
mod mutate;
mod open_enum;
mod reader;
mod strpool;
pub mod text;
mod walk;
mod writer;

pub use detect::Confidence;
pub use diag::{Diagnostic, Findings, RuleCase, Severity, check_rule_cases, first_difference};
pub use error::{Context, Error, ErrorKind, Result};
pub use float::F32;
#[cfg(feature = "serde")]
pub use float::{json_f32, json_f32s};
#[cfg(feature = "test-support")]
pub use format::{BOUNDS, check_each_limit, check_limits};
pub use format::{ConversionSpec, Describe, Detected, FileFormat, has_extension};
pub use limits::Limits;
pub use mutate::mutate_text;
#[cfg(feature = "test-support")]
pub use mutate::replay_inputs;
pub use reader::{Cursor, Endian, Reader};
pub use strpool::{PoolOrder, StringPool};
pub use walk::Visited;
pub use writer::{Fixup, Section, Writer, padding_for};
pub use zerocopy;

/// Fuzz body: exercises every reader function at offsets and lengths taken from the input itself.
/// Must never panic; `cargo test` replays it on stable, cargo-fuzz drives it in `fuzz/`.
pub fn fuzz_reader(data: &[u8]) {
    let r = Reader::new(data);
    let mut c = r.cursor(0);
    let pick = |c: &mut Cursor<'_>| c.u16().map(usize::from).unwrap_or(0);
    for _ in 0..16 {
        let off = pick(&mut c);
        let len = pick(&mut c);
        let _ = r.bytes(off, len);
        let _ = r.sub(off, len).map(|s| s.u32(len));
        let _ = r.u24(off);
        let _ = r.f32_le(off);
        let _ = r.cstr(off);
        let _ = r.fixed_str(off, len);
        let _ = r.pstr(off, len % 5);
        let _ = r.table::<zerocopy::byteorder::big_endian::U32>(off, len);
        let _ = r.expect_magic(off, b"RARC");
        let _ = Limits::default().check_alloc(off as u64 * 0x10001, len as u64, 0);
    }
    let mut w = Writer::new();
    w.bytes(data).align(32, 0x40);
    let slot = w.reserve_u32();
    let _ = w.fix_here(slot);
    let _ = first_difference(data, w.as_slice());
}
