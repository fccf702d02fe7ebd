//! The validator: rule ids `JPC-001`… catalogued in `docs/rules/jpc.md`.

use gcio::{Diagnostic, Limits};

use crate::model::{Part, Value};
use crate::view::{View, type_block};

/// Validates a container. A file that does not parse gives one `JPC-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `JPC-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match View::parse_with(data, limits) {
        Ok(v) => validate_view(&v, limits),
        Err(e) => vec![Diagnostic::error("JPC-001", e.offset(), e.to_string())],
    }
}

/// Validates a parsed view.
pub fn validate_view(v: &View<'_>, limits: &Limits) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let textures = v.textures.len();
    let mut last_id: Option<u16> = None;
    for r in &v.resources {
        let at = Some(r.offset as u64);
        if last_id.is_some_and(|p| r.id <= p) {
            out.push(Diagnostic::warning(
                "JPC-003",
                at,
                format!(
                    "effect id {} after {}: the game searches the ids in order",
                    r.id,
                    last_id.unwrap_or(0)
                ),
            ));
        }
        last_id = Some(r.id);
        let count = |t: &[u8; 4]| r.blocks.iter().filter(|b| &b.tag == t).count();
        if count(b"FLD1") != usize::from(r.field_count)
            || count(b"KFA1") != usize::from(r.key_count)
        {
            out.push(Diagnostic::error(
                "JPC-002",
                at.map(|o| o + 4),
                format!(
                    "effect {}: header says {} FLD1 and {} KFA1 blocks, it has {} and {} (the game sizes its tables by the header)",
                    r.id,
                    r.field_count,
                    r.key_count,
                    count(b"FLD1"),
                    count(b"KFA1")
                ),
            ));
        }
        for t in [b"BEM1", b"BSP1", b"TDB1"] {
            if count(t) != 1 {
                out.push(Diagnostic::error(
                    "JPC-004",
                    at,
                    format!(
                        "effect {}: {} {} blocks (the game needs exactly one)",
                        r.id,
                        count(t),
                        String::from_utf8_lossy(t)
                    ),
                ));
            }
        }
        for b in &r.blocks {
            let typed = type_block(b.tag, b.bytes, r.texture_count);
            let at = Some(b.offset as u64);
            if typed.parts.iter().any(|p| matches!(p, Part::Bytes(_))) {
                out.push(Diagnostic::warning(
                    "JPC-005",
                    at,
                    format!(
                        "effect {}: {} block of {} bytes does not fit its documented layout (kept as bytes)",
                        r.id,
                        typed.tag_str(),
                        b.bytes.len()
                    ),
                ));
            }
            for p in &typed.parts {
                match p {
                    Part::U16s(idx) => {
                        if idx.len() != usize::from(r.texture_count) {
                            out.push(Diagnostic::error(
                                "JPC-002",
                                at,
                                format!(
                                    "effect {}: TDB1 holds {} indices, the header says {}",
                                    r.id,
                                    idx.len(),
                                    r.texture_count
                                ),
                            ));
                        }
                        if let Some(&i) = idx.iter().find(|&&i| usize::from(i) >= textures) {
                            out.push(Diagnostic::error(
                                "JPC-006",
                                at,
                                format!(
                                    "effect {}: texture index {i} past the {textures} textures",
                                    r.id
                                ),
                            ));
                        }
                    }
                    Part::Pad(bytes) if bytes.iter().any(|&x| x != 0) => {
                        out.push(Diagnostic::info(
                            "JPC-007",
                            at,
                            format!(
                                "effect {}: non-zero padding in {}, kept",
                                r.id,
                                typed.tag_str()
                            ),
                        ));
                    }
                    _ => {}
                }
            }
            if b.tag == *b"BSP1"
                && let Some(Value::U8(t)) = typed.field("tex_index")
                && (t as usize) >= usize::from(r.texture_count)
                && r.texture_count > 0
            {
                out.push(Diagnostic::error(
                    "JPC-006",
                    at,
                    format!(
                        "effect {}: BSP1 texture {t} past the {} TDB1 entries",
                        r.id, r.texture_count
                    ),
                ));
            }
        }
    }
    if v.gap.iter().any(|&b| b != 0) {
        out.push(Diagnostic::info(
            "JPC-007",
            Some((v.texture_offset - v.gap.len()) as u64),
            "non-zero bytes before the texture table, kept",
        ));
    }
    for (i, (at, bytes)) in v.textures.iter().enumerate() {
        let image = bytes.get(crate::model::TEX1_HEADER_SIZE..).unwrap_or(&[]);
        let ok = j3d_bmd::Bti::parse_with(image, limits)
            .and_then(|b| b.write())
            .is_ok_and(|w| w == image);
        if !ok {
            out.push(Diagnostic::error(
                "JPC-008",
                Some(*at as u64 + 0x20),
                format!("texture {i}: the BTI image does not read back as stored"),
            ));
        }
        for d in j3d_bmd::validate_bti(image) {
            if d.severity == gcio::Severity::Error {
                out.push(Diagnostic::error(
                    "JPC-008",
                    Some(*at as u64 + 0x20 + d.offset.unwrap_or(0)),
                    format!("texture {i}: {} {}", d.rule, d.message),
                ));
            }
        }
    }
    if !v.trailer.is_empty() {
        out.push(Diagnostic::info(
            "JPC-009",
            None,
            format!("{} bytes after the last texture, kept", v.trailer.len()),
        ));
    }
    out
}
