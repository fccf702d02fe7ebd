//! The validator: rule ids `BRLAN-001`… catalogued in `docs/rules/brlan.md`. What the NW4R
//! animation code reads without checking — the curve type a tag's keys are read as, key order
//! for its binary search, the first key, texture pattern indices — is checked here; what it
//! ignores (the file size word, unknown tags, bytes past the sections) is reported as kept.

use gcio::{Diagnostic, Limits};

use crate::eval::{curve_of, target_name};
use crate::model::{Kept, Section, decode, typed};
use crate::view::View;

/// Validates an animation. A file that does not parse gives one `BRLAN-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `BRLAN-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match View::parse_with(data, limits) {
        Ok(v) => validate_view(&v),
        Err(e) => vec![Diagnostic::error("BRLAN-001", e.offset(), e.to_string())],
    }
}

/// Validates a parsed view.
pub fn validate_view(v: &View<'_>) -> Vec<Diagnostic> {
    let f = &v.frame;
    let mut out = f.findings(
        v.data_len,
        ("BRLAN-002", "BRLAN-003", "BRLAN-015"),
        "animation",
    );
    let mut anim = None;
    for s in &f.sections {
        let at = Some(s.offset as u64);
        let magic = String::from_utf8_lossy(&s.magic);
        match decode(s).1 {
            Kept::No => {}
            Kept::Unknown => out.push(Diagnostic::info(
                "BRLAN-004",
                at,
                format!("section `{magic}` is not one this crate types; kept as bytes"),
            )),
            Kept::Broken(e) => out.push(Diagnostic::error(
                "BRLAN-005",
                e.offset().or(at),
                e.to_string(),
            )),
            Kept::Layout => out.push(Diagnostic::warning(
                "BRLAN-006",
                at,
                format!(
                    "section `{magic}` is not laid out as the writer lays it out; kept as bytes"
                ),
            )),
        }
        if let Some(Ok(Section::Anim(a))) = typed(s) {
            anim.get_or_insert((a, s.offset as u64));
        } else if &s.magic == b"pai1" {
            anim.get_or_insert_with(|| (crate::model::Anim::default(), u64::MAX));
        }
    }
    let Some((a, at)) = anim else {
        out.push(Diagnostic::error(
            "BRLAN-007",
            None,
            "no `pai1` section: the game has no animation to bind",
        ));
        return out;
    };
    let at = (at != u64::MAX).then_some(at);
    if a.frame_size == 0 {
        out.push(Diagnostic::warning("BRLAN-014", at, "length of 0 frames"));
    }
    for c in &a.contents {
        if c.kind > 1 {
            out.push(Diagnostic::info(
                "BRLAN-013",
                at,
                format!(
                    "`{}`: content kind {} (the game binds it as a material)",
                    c.name, c.kind
                ),
            ));
        }
        for i in &c.infos {
            let Some(curve) = curve_of(&i.tag.0) else {
                out.push(Diagnostic::info(
                    "BRLAN-010",
                    at,
                    format!("`{}`: tag `{}` the game does not animate", c.name, i.tag),
                ));
                continue;
            };
            for t in &i.targets {
                let what = format!("`{}` {} target {}", c.name, i.tag, t.target);
                if t.keys.curve() != curve {
                    out.push(Diagnostic::error(
                        "BRLAN-009",
                        at,
                        format!(
                            "{what}: curve type {}, the game reads {} keys",
                            t.keys.curve(),
                            if curve == 1 { "step" } else { "Hermite" }
                        ),
                    ));
                }
                if t.keys.is_empty() {
                    out.push(Diagnostic::error(
                        "BRLAN-012",
                        at,
                        format!("{what}: no keys (the game reads the first key regardless)"),
                    ));
                }
                if target_name(&i.tag.0, t.target).is_none() {
                    out.push(Diagnostic::warning(
                        "BRLAN-011",
                        at,
                        format!("{what}: no such element of the tag (the game writes past it)"),
                    ));
                }
                let frames = t.keys.frames();
                if frames.windows(2).any(|w| matches!(w, [x, y] if y < x)) {
                    out.push(Diagnostic::warning(
                        "BRLAN-008",
                        at,
                        format!("{what}: key frames decrease (the game's binary search needs them sorted)"),
                    ));
                }
                if let crate::model::Keys::Step(k) = &t.keys
                    && &i.tag.0 == b"RLTP"
                    && let Some(bad) = k.iter().find(|k| usize::from(k.value) >= a.files.len())
                {
                    out.push(Diagnostic::error(
                        "BRLAN-016",
                        at,
                        format!("{what}: texture {} of {} files", bad.value, a.files.len()),
                    ));
                }
            }
        }
    }
    out
}
