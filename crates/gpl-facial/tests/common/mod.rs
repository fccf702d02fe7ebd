//! Hand-written fixtures shared by the integration tests.
#![allow(
    dead_code,
    unused_imports,
    clippy::unwrap_used,
    clippy::indexing_slicing
)]

pub use gpl_facial::golden::{be, hex, tiny, tiny_bytes};

/// A minimal block around `facial`: a 0x20-byte GPL stand-in at 0x20, the facial section at
/// 0x40 and a 0x20-byte ptr8 section after it.
pub fn tiny_block(facial: &[u8]) -> Vec<u8> {
    let ptr8 = 0x40 + facial.len() as u32;
    let mut b = Vec::new();
    for w in [0u32, 0x20, 0, 0, 0, 0, 0x40, ptr8] {
        b.extend_from_slice(&w.to_be_bytes());
    }
    b.extend_from_slice(&0x00B7_49E0u32.to_be_bytes());
    b.resize(0x40, 0);
    b.extend_from_slice(facial);
    b.extend_from_slice(b"TRAILING ptr8 SECTION...........");
    b
}
