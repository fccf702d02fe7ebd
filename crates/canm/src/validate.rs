//! The validator: rule ids `CANM-001`… catalogued in `docs/rules/canm.md`.

use gcio::{Diagnostic, Limits};

use crate::model::{HEADER_SIZE, Kind, TRACK_NAMES};
use crate::view::View;

/// Validates a camera animation. A file that does not parse gives one `CANM-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `CANM-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match View::parse_with(data, limits) {
        Ok(v) => validate_view(&v),
        Err(e) => vec![Diagnostic::error("CANM-001", e.offset(), e.to_string())],
    }
}

/// Validates a parsed view.
pub fn validate_view(v: &View<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let m = v.to_model();
    if v.header[0] == 0 {
        out.push(Diagnostic::error(
            "CANM-002",
            Some(8),
            "the word at 0x08 is 0: the game refuses to load the animation",
        ));
    }
    if v.frames == 0 {
        out.push(Diagnostic::warning(
            "CANM-007",
            Some(0x18),
            "length of 0 frames: the game treats the animation as ended at once",
        ));
    }
    for (i, t) in v.tracks.iter().enumerate() {
        let name = TRACK_NAMES.get(i).copied().unwrap_or("?");
        let at = Some((HEADER_SIZE + i * v.kind.entry_size()) as u64);
        if t.count == 0 {
            out.push(Diagnostic::error(
                "CANM-004",
                at,
                format!("track {name} has no values (the game reads past it)"),
            ));
            continue;
        }
        if v.kind == Kind::Ckan && t.layout > 1 {
            out.push(Diagnostic::info(
                "CANM-009",
                at.map(|o| o + 8),
                format!(
                    "track {name}: key layout word {} (read as 4-float keys)",
                    t.layout
                ),
            ));
        }
        let Some(vals) = m.track_values(i) else {
            out.push(Diagnostic::error(
                "CANM-003",
                at,
                format!(
                    "track {name}: {} values from index {} run past the {} values of the table",
                    t.len(v.kind),
                    t.offset,
                    m.values.len()
                ),
            ));
            continue;
        };
        if let Some(j) = vals.iter().position(|x| !x.is_finite()) {
            out.push(Diagnostic::warning(
                "CANM-011",
                Some(v.value_at(t.offset as usize + j)),
                format!("track {name}: a value that is not a finite number"),
            ));
        }
        if v.kind != Kind::Ckan || t.count == 1 {
            continue;
        }
        let times: Vec<f32> = vals
            .chunks_exact(t.stride(v.kind))
            .filter_map(|k| k.first().copied())
            .collect();
        if let Some(j) = times.windows(2).position(|w| matches!(w, [a, b] if b < a)) {
            out.push(Diagnostic::warning(
                "CANM-005",
                Some(v.value_at(t.offset as usize + (j + 1) * t.stride(v.kind))),
                format!("track {name}: key {} comes before key {j}", j + 1),
            ));
        }
        if times.first().is_some_and(|&t0| t0 > 0.0) {
            out.push(Diagnostic::warning(
                "CANM-006",
                Some(v.value_at(t.offset as usize)),
                format!("track {name}: the first key is after frame 0 (earlier frames read before the track)"),
            ));
        }
        if let Some(&last) = times.last()
            && last < (v.frames.saturating_sub(1)) as f32
        {
            out.push(Diagnostic::warning(
                "CANM-008",
                at,
                format!(
                    "track {name}: the last key is at frame {last}, the animation runs to {} (later frames read the next record)",
                    v.frames
                ),
            ));
        }
    }
    if v.gap.iter().any(|&b| b != 0) {
        out.push(Diagnostic::info(
            "CANM-010",
            Some((HEADER_SIZE + 8 * v.kind.entry_size()) as u64),
            format!(
                "{} bytes between the track table and the values, kept",
                v.gap.len()
            ),
        ));
    }
    out
}
