//! `YAZ0-*` findings for a Yaz0 stream.

use gcio::{Diagnostic, ErrorKind, Limits};

use crate::Stream;

/// Checks a Yaz0 stream against the `YAZ0-*` rules. A stream that does not decode gives one error
/// finding citing the rule it breaks, at the offset where decoding stopped.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a declared size over them is the `YAZ0-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match Stream::parse_with(data, limits) {
        Ok(s) => validate_model(&s),
        Err(e) => {
            let rule = match e.kind() {
                ErrorKind::Invalid(m) if m.contains("back-reference") => "YAZ0-003",
                _ => "YAZ0-001",
            };
            vec![Diagnostic::error(rule, e.offset(), e.to_string())]
        }
    }
}

/// [`validate`] of a stream already parsed (a stream that parsed decodes: only the rules about
/// its header and trailing bytes remain).
pub fn validate_model(stream: &Stream) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if stream.header.reserved != [0; 8] {
        out.push(Diagnostic::info(
            "YAZ0-002",
            Some(8),
            format!(
                "header bytes 0x08..0x10 are {:02x?} (0 on GameCube/Wii; an alignment on some Wii U games)",
                stream.header.reserved
            ),
        ));
    }
    if !stream.trailing.is_empty() {
        out.push(Diagnostic::info(
            "YAZ0-004",
            Some(stream.stats().end_offset as u64),
            format!(
                "{} byte(s) after the last token (tool-written stream; game-written streams end at the last group)",
                stream.trailing.len()
            ),
        ));
    }
    out
}
