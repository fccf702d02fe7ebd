//! Yaz0 and Yay0, the LZ compression of GameCube/Wii files (`.szs`, compressed RARC members).
//!
//! - Decoding: [`decode`] / [`decode_with`] (size bounded by [`gcio::Limits`]) and
//!   [`decode_into`] for a caller-owned buffer; truncated streams, back-references before the start
//!   and streams producing more than the declared size are errors with stream offsets, and so
//!   is a payload buffer the machine cannot give (fallible allocation, never an abort);
//!   [`decode_prefix`] expands only the first bytes (to name what is inside).
//! - The stream model [`Stream`] keeps every token decision, the header's reserved words, the
//!   unused flag bits and the bytes after the last group: an unchanged stream writes back byte for
//!   byte whatever encoder made it ([`yay0::Stream`] does the same for Yay0).
//!   [`Stream::decisions`] keeps only the decisions (no literal bytes), which with the payload
//!   give the stream back ([`Stream::from_decisions`]): how an extracted archive keeps a
//!   stream no known encoder reproduces.
//! - Encoders ([`Encoder`]): [`Matching`] variants that reproduce Nintendo's look-ahead encoder,
//!   gclib's, Whitehole's, oead's (levels 6–9, zlib-ng's match finder), libyaz0's and
//!   EveryFileExplorer's (and Hack.io's, with its window sizes; Haroohie's MarioKartToolbox is
//!   its 0x1000 window), MKW-SP's and CTLib's (pinned on the `szs` crate's encoders) and
//!   Wiimm's SZS tools' at every level (pinned on `wszst`'s output) exactly, a fast hash-chain
//!   encoder and an optimal-parse encoder.
//!   [`Stream::identify`] names the exact encoders that reproduce a stream, each stopping at
//!   its first differing token and within [`gcio::Limits`].
//! - [`Yaz0Format`] and [`Yay0Format`] are the crate's contracts with a registry
//!   ([`gcio::FileFormat`]): names, extensions, detection, the token model, the rules and the
//!   conversions offered, so the `gcformats` facade takes them from here.
//!
//! ```
//! use yaz0::{Encoder, Matching, Stream};
//!
//! let data = b"abcabcabcabc-abcabcabcabc".repeat(4);
//! let bytes = yaz0::encode(&data, Encoder::Matching(Matching::Nintendo));
//! assert_eq!(yaz0::decode(&bytes).unwrap(), data);
//!
//! let stream = Stream::parse(&bytes).unwrap();
//! assert_eq!(stream.write(), bytes);
//! assert!(stream.identify(&data).contains(&Encoder::Matching(Matching::Nintendo)));
//! ```
#![forbid(unsafe_code)]

mod alloc;
mod best;
#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod ctlib;
mod decode;
mod encode;
mod fast;
mod format;
mod fuzz;
mod matcher;
mod oead;
mod stream;
mod token;
mod validate;
pub mod yay0;

pub use decode::{
    HEADER_LEN, Header, MAGIC, decode, decode_into, decode_prefix, decode_with, is_yaz0,
};
pub use encode::{Encoder, Matching, Trailer};
pub use format::{Yay0Format, Yaz0Format};
pub use fuzz::fuzz_decode;
pub use stream::{Stats, Stream};
pub use token::{MAX_DIST, MAX_LEN, MIN_LEN, Token, expand};
pub use validate::{validate, validate_model, validate_with};

/// Compresses `data` into a complete Yaz0 file with `encoder` (including the encoder's trailing
/// bytes).
pub fn encode(data: &[u8], encoder: Encoder) -> Vec<u8> {
    let mut w = stream::GroupWriter::new(data.len());
    match encoder {
        // The writer inlines into `fast`'s loop (a closure would be a call per token).
        Encoder::Fast => w = fast::fast_owned(data, w),
        _ => encoder.run(data, &mut |t| {
            w.push(t);
            true
        }),
    }
    // `None` only if the tokens needed more bytes than a stream of `data.len()` bytes can
    // (no encoder writes such tokens): the token-list path, which grows as it goes.
    w.finish(encoder)
        .unwrap_or_else(|| Stream::encode(data, encoder).write())
}

/// Most output one stream byte can give: a 3-byte back-reference copies 0x111 bytes, and the
/// flag byte costs 1/8 per token.
const MAX_RATIO: u64 = 0x111 * 8 / (3 * 8 + 1) + 1;

/// Recognises a Yaz0 stream: the magic, a 16-byte header and a declared size the remaining bytes
/// could expand to. Text that merely starts with "Yaz0" fails this (its "size" is four letters),
/// while a damaged or truncated stream still passes. Every format crate has this `detect` (the
/// registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    let h = Header::parse(data).ok()?;
    let body = (data.len().saturating_sub(HEADER_LEN)) as u64;
    (is_yaz0(data)
        && data.len() >= HEADER_LEN
        && u64::from(h.size) <= body.saturating_mul(MAX_RATIO))
    .then_some(gcio::Confidence::Strong)
}
