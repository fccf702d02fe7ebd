//! The validator: rule ids `BAS-001`… catalogued in `docs/rules/bas.md`.

use gcio::{Diagnostic, Limits};

use crate::model::{FLAG_INTERVALS, KNOWN_FLAGS};
use crate::view::View;

/// Validates a sound animation table. A file that does not parse gives one `BAS-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `BAS-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match View::parse_with(data, limits) {
        Ok(v) => validate_view(&v),
        Err(e) => vec![Diagnostic::error("BAS-001", e.offset(), e.to_string())],
    }
}

/// Validates a parsed view.
pub fn validate_view(v: &View<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if v.control != 0 {
        out.push(Diagnostic::error(
            "BAS-002",
            Some(4),
            format!(
                "control word {:#x}: the game takes it as a pointer to a control object and calls through it",
                v.control
            ),
        ));
    }
    if v.pad != 0 {
        out.push(Diagnostic::info(
            "BAS-008",
            Some(2),
            format!("header padding {:#06x} is not 0, kept", v.pad),
        ));
    }
    let mut prev: Option<f32> = None;
    for (i, s) in v.sounds().enumerate() {
        let at = View::sound_at(i);
        if let Some(p) = prev
            && s.note_on < p
        {
            out.push(Diagnostic::warning(
                "BAS-003",
                Some(at + 4),
                format!(
                    "sound {i} starts at frame {} before sound {} (frame {p}): the game walks the table in order and plays it late or never",
                    s.note_on,
                    i - 1
                ),
            ));
        }
        prev = Some(s.note_on);
        for (name, x, off) in [
            ("note-on frame", s.note_on, 4),
            ("note-off frame", s.note_off, 8),
            ("pitch", s.pitch, 0x0C),
        ] {
            if !x.is_finite() {
                out.push(Diagnostic::warning(
                    "BAS-004",
                    Some(at + off),
                    format!("sound {i}: {name} is not a finite number"),
                ));
            }
        }
        if s.flags & FLAG_INTERVALS != 0 && s.repeat_interval == 0 {
            out.push(Diagnostic::warning(
                "BAS-005",
                Some(at + 0x19),
                format!(
                    "sound {i} plays at intervals with an interval of 0 (the game divides by it)"
                ),
            ));
        }
        if s.flags & !KNOWN_FLAGS != 0 {
            out.push(Diagnostic::info(
                "BAS-006",
                Some(at + 0x10),
                format!(
                    "sound {i}: flag bits {:#x} the game does not test",
                    s.flags & !KNOWN_FLAGS
                ),
            ));
        }
        if s.unknown_1a != 0 || s.padding.iter().any(|&b| b != 0) {
            out.push(Diagnostic::info(
                "BAS-008",
                Some(at + 0x1A),
                format!("sound {i}: non-zero bytes at 0x1A–0x1F, kept"),
            ));
        }
    }
    if !v.trailer.is_empty() {
        out.push(Diagnostic::info(
            "BAS-007",
            Some(v.trailer_offset() as u64),
            format!(
                "{} bytes after the last sound, kept (the game does not read them)",
                v.trailer.len()
            ),
        ));
    }
    out
}
