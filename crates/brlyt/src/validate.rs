//! The validator: rule ids `BRLYT-001`… catalogued in `docs/rules/brlyt.md`. What the NW4R
//! loader (`nw4r::lyt::Layout::Build`) reads without checking — material, texture and font
//! indices, nesting markers, group member names — is checked here; what it ignores (the file
//! size word, bytes past the sections) is reported as kept.

use gcio::{Diagnostic, Limits};

use crate::model::{Brlyt, Kept, Section, decode, typed};
use crate::tree::Nesting;
use crate::view::View;

/// Validates a layout. A file that does not parse gives one `BRLYT-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `BRLYT-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match View::parse_with(data, limits) {
        Ok(v) => validate_view(&v),
        Err(e) => vec![Diagnostic::error("BRLYT-001", e.offset(), e.to_string())],
    }
}

/// The loader's caps on a material's lists (more are read past but not used).
const CAPS: [(&str, usize); 6] = [
    ("texture maps", 8),
    ("texture matrices", 10),
    ("coordinate generators", 8),
    ("indirect matrices", 3),
    ("indirect stages", 4),
    ("TEV stages", 16),
];

/// Validates a parsed view.
pub fn validate_view(v: &View<'_>) -> Vec<Diagnostic> {
    let f = &v.frame;
    let mut out = f.findings(
        v.data_len,
        ("BRLYT-002", "BRLYT-003", "BRLYT-016"),
        "layout",
    );
    let mut sections = Vec::with_capacity(f.sections.len());
    for s in &f.sections {
        let (sec, kept) = decode(s);
        let at = Some(s.offset as u64);
        let magic = String::from_utf8_lossy(&s.magic);
        match kept {
            Kept::No => {}
            Kept::Unknown => out.push(Diagnostic::info(
                "BRLYT-004",
                at,
                format!(
                    "section `{magic}` is not a layout section the loader reads; kept as bytes"
                ),
            )),
            Kept::Broken(e) => out.push(Diagnostic::error(
                "BRLYT-005",
                e.offset().or(at),
                e.to_string(),
            )),
            Kept::Layout => out.push(Diagnostic::warning(
                "BRLYT-006",
                at,
                format!(
                    "section `{magic}` is not laid out as the writer lays it out; kept as bytes"
                ),
            )),
        }
        // The loader reads a section whatever its layout: check what it reads.
        sections.push(match typed(s) {
            Some(Ok(t)) => t,
            _ => sec,
        });
    }
    let at = |i: usize| f.sections.get(i).map(|s| s.offset as u64);
    let m = Brlyt {
        frame: f.to_frame(v.data_len),
        sections,
    };
    let tree = m.tree();
    for fault in &tree.faults {
        let (i, msg) = match *fault {
            Nesting::StartWithoutParent(i) => (
                Some(i),
                "a start marker with no pane or group before it".to_owned(),
            ),
            Nesting::EndWithoutStart(i) => (Some(i), "an end marker with no open level".to_owned()),
            Nesting::Unclosed(n) => (
                None,
                format!("{n} levels still open at the end of the file"),
            ),
        };
        out.push(Diagnostic::error("BRLYT-007", i.and_then(at), msg));
    }
    // A list that does not parse has no length to check indices against.
    let broken = |magic: &[u8; 4]| {
        m.sections
            .iter()
            .any(|s| matches!(s, Section::Raw(r) if r.magic.0 == magic))
    };
    let (textures, fonts, materials) = (m.textures().len(), m.fonts().len(), m.materials());
    let (check_tex, check_font, check_mat) = (!broken(b"txl1"), !broken(b"fnl1"), !broken(b"mat1"));
    for (i, s) in m.sections.iter().enumerate() {
        let mut mats: Vec<u16> = Vec::new();
        match s {
            Section::Picture(p) => mats.push(p.material),
            Section::Text(t) => {
                mats.push(t.material);
                if check_font && usize::from(t.font) >= fonts {
                    out.push(Diagnostic::error(
                        "BRLYT-010",
                        at(i),
                        format!("text pane `{}`: font {} of {fonts}", t.pane.name, t.font),
                    ));
                }
                let stored = t
                    .text
                    .as_ref()
                    .map_or(0, |u| (u.len() + usize::from(!t.unterminated)) * 2);
                if stored > usize::from(t.buffer_bytes) {
                    out.push(Diagnostic::warning(
                        "BRLYT-015",
                        at(i),
                        format!(
                            "text pane `{}`: {stored} string bytes in a buffer of {}",
                            t.pane.name, t.buffer_bytes
                        ),
                    ));
                }
            }
            Section::Window(w) => {
                mats.push(w.content.material);
                mats.extend(w.frames.iter().map(|f| f.material));
            }
            Section::Materials(list) => {
                for mat in list {
                    for t in &mat.tex_maps {
                        if check_tex && usize::from(t.texture) >= textures {
                            out.push(Diagnostic::error(
                                "BRLYT-009",
                                at(i),
                                format!(
                                    "material `{}`: texture {} of {textures}",
                                    mat.name, t.texture
                                ),
                            ));
                        }
                    }
                    let lens = [
                        mat.tex_maps.len(),
                        mat.tex_srts.len(),
                        mat.tex_coord_gens.len(),
                        mat.ind_srts.len(),
                        mat.ind_stages.len(),
                        mat.tev_stages.len(),
                    ];
                    for ((what, cap), n) in CAPS.iter().zip(lens) {
                        if n > *cap {
                            out.push(Diagnostic::info(
                                "BRLYT-014",
                                at(i),
                                format!(
                                    "material `{}`: {n} {what}, the loader uses {cap}",
                                    mat.name
                                ),
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
        for mi in mats {
            if check_mat && usize::from(mi) >= materials.len() {
                let name = s.pane().map(|p| p.name.text()).unwrap_or_default();
                out.push(Diagnostic::error(
                    "BRLYT-008",
                    at(i),
                    format!("pane `{name}`: material {mi} of {}", materials.len()),
                ));
            }
        }
    }
    let roots: Vec<usize> = tree.roots().collect();
    if let Some(&extra) = roots.get(1) {
        let i = tree.panes.get(extra).map(|p| p.section);
        out.push(Diagnostic::warning(
            "BRLYT-012",
            i.and_then(at),
            format!(
                "{} top-level panes: the loader draws the tree of the first only",
                roots.len()
            ),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for p in &tree.panes {
        if let Some(pane) = m.pane_of(p)
            && !seen.insert(pane.name.key())
        {
            out.push(Diagnostic::warning(
                "BRLYT-013",
                at(p.section),
                format!(
                    "a second pane named `{}` (found by name: the first wins)",
                    pane.name
                ),
            ));
        }
    }
    for g in &tree.groups {
        if let Some(Section::Group(grp)) = m.sections.get(g.section) {
            for (name, found) in grp.panes.iter().zip(&g.members) {
                if found.is_none() {
                    out.push(Diagnostic::warning(
                        "BRLYT-011",
                        at(g.section),
                        format!(
                            "group `{}`: no pane named `{name}` (the loader leaves it out)",
                            grp.name
                        ),
                    ));
                }
            }
        }
    }
    out
}
