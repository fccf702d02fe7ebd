//! The validator: rule ids `TPL-001`… catalogued in `docs/rules/tpl.md`.

use gcio::{Diagnostic, Limits};
use gx::tex::TexFormat;

use crate::view::View;

/// Largest texture side GX addresses (the texture registers hold 10 bits of size − 1).
pub const MAX_SIDE: u16 = 1024;

/// Validates a TPL file. A file that does not parse gives one `TPL-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `TPL-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match View::parse_with(data, limits) {
        Ok(v) => validate_view(&v),
        Err(e) => vec![Diagnostic::error("TPL-001", e.offset(), e.to_string())],
    }
}

/// Validates a parsed view.
pub fn validate_view(v: &View<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, e) in v.entries.iter().enumerate() {
        let h = &e.header;
        let at = Some(u64::from(e.header_offset));
        let Some(format) = h.tex_format() else {
            continue; // the view refuses unknown formats
        };
        if h.width == 0 || h.height == 0 {
            out.push(Diagnostic::error(
                "TPL-007",
                at,
                format!("image {i}: size {}x{} has a zero side", h.width, h.height),
            ));
        } else if h.width > MAX_SIDE || h.height > MAX_SIDE {
            out.push(Diagnostic::warning(
                "TPL-007",
                at,
                format!(
                    "image {i}: size {}x{} is larger than GX's {MAX_SIDE}",
                    h.width, h.height
                ),
            ));
        }
        if h.wrap_s > 2 || h.wrap_t > 2 {
            out.push(Diagnostic::warning(
                "TPL-004",
                at.map(|o| o + 0x0C),
                format!(
                    "image {i}: wrap modes {}/{} (0–2 exist)",
                    h.wrap_s, h.wrap_t
                ),
            ));
        }
        if h.min_filter > 5 || h.mag_filter > 1 {
            out.push(Diagnostic::warning(
                "TPL-005",
                at.map(|o| o + 0x14),
                format!(
                    "image {i}: filters {}/{} (min 0–5, mag 0–1 exist)",
                    h.min_filter, h.mag_filter
                ),
            ));
        }
        if h.data_offset % 32 != 0 {
            out.push(Diagnostic::warning(
                "TPL-006",
                Some(u64::from(h.data_offset)),
                format!(
                    "image {i}: texel data at {:#x} is not 32-byte aligned (GX loads textures from 32-byte addresses)",
                    h.data_offset
                ),
            ));
        }
        let side = u32::from(h.width.max(h.height)).max(1);
        let max_levels = 32 - side.leading_zeros();
        if h.levels() > max_levels {
            out.push(Diagnostic::warning(
                "TPL-008",
                at.map(|o| o + 0x21),
                format!(
                    "image {i}: {} mip levels, a {}x{} texture has at most {max_levels}",
                    h.levels(),
                    h.width,
                    h.height
                ),
            ));
        }
        match (format.is_indexed(), e.palette) {
            (true, None) => out.push(Diagnostic::error(
                "TPL-002",
                at,
                format!(
                    "image {i}: {} needs a palette, the table names none",
                    name(format)
                ),
            )),
            (true, Some((off, p, _))) => {
                if p.palette_format().is_none() {
                    out.push(Diagnostic::error(
                        "TPL-002",
                        Some(u64::from(off) + 4),
                        format!("image {i}: unknown palette format {:#x}", p.format),
                    ));
                } else if usize::from(p.entries) > format.max_palette_entries() {
                    out.push(Diagnostic::warning(
                        "TPL-012",
                        Some(u64::from(off)),
                        format!(
                            "image {i}: {} palette entries, {} addresses {}",
                            p.entries,
                            name(format),
                            format.max_palette_entries()
                        ),
                    ));
                }
            }
            (false, Some((off, _, _))) => out.push(Diagnostic::info(
                "TPL-010",
                Some(u64::from(off)),
                format!(
                    "image {i}: a palette on direct format {} (unused)",
                    name(format)
                ),
            )),
            (false, None) => {}
        }
        // Decoding finds palette indices past the palette's end.
        if let Some(t) = e.texture()
            && e.palette
                .is_some_and(|(_, p, _)| p.palette_format().is_some())
            && let Err(err) = t.decode()
        {
            out.push(Diagnostic::error(
                "TPL-003",
                err.offset(),
                format!("image {i}: {err}"),
            ));
        }
    }
    let mut spans = v.spans();
    spans.sort();
    for w in spans.windows(2) {
        if let [(a, alen, an), (b, _, bn)] = w
            && a + alen > *b
        {
            out.push(Diagnostic::info(
                "TPL-011",
                Some(*b as u64),
                format!("{bn} shares bytes with {an}"),
            ));
        }
    }
    for f in v.fill() {
        out.push(Diagnostic::info(
            "TPL-009",
            Some(u64::from(f.offset)),
            format!(
                "{} non-zero bytes between structures (kept as they are)",
                f.bytes.len()
            ),
        ));
    }
    out
}

fn name(f: TexFormat) -> String {
    f.name()
        .map_or_else(|| format!("format {:#x}", f.0), str::to_owned)
}
