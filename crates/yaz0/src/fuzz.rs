//! Fuzz bodies: decoding arbitrary bytes never panics, and whatever parses writes back exactly.

use gcio::Limits;

use crate::{Encoder, Stream, yay0};

const FUZZ_LIMITS: Limits = Limits {
    max_alloc_bytes: 1 << 24,
    max_elements: 1 << 24,
    max_nodes: 1 << 16,
    max_depth: 64,
};

/// Decodes `data` as Yaz0 and Yay0; for streams that parse, checks that the model writes back the
/// same bytes and agrees with the decoder. Also encodes the input with the fast encoder and checks
/// that it decodes back.
pub fn fuzz_decode(data: &[u8]) {
    let decoded = crate::decode_with(data, &FUZZ_LIMITS);
    if let Ok(s) = Stream::parse_with(data, &FUZZ_LIMITS) {
        assert_eq!(s.write(), data, "Yaz0 stream model must write back exactly");
        assert_eq!(Some(&s.decode()), decoded.as_ref().ok());
    } else {
        assert!(decoded.is_err());
    }
    let _ = crate::validate_with(data, &FUZZ_LIMITS);
    if let Ok(y) = yay0::Stream::parse(data) {
        assert_eq!(y.write(), data, "Yay0 stream model must write back exactly");
    }
    let _ = yay0::decode_with(data, &FUZZ_LIMITS);
    if data.len() <= 4096 {
        let enc = Stream::encode(data, Encoder::Fast).write();
        assert_eq!(crate::decode(&enc).ok().as_deref(), Some(data));
    }
}
