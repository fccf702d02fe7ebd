//! NW4R layouts (`.brlyt`): the crate's contract (`brlyt::Format`: detection, parse, write, the
//! BRLYT-* rules) presented with `info` (lists, materials and the pane tree), survey facts and
//! `convert x.brlyt x.json` and back.

use std::fmt::Write as _;

use gcio::{Error, ErrorKind, Result};

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The layout format's presentation.
pub struct Brlyt;

/// The registry entry.
pub static ENTRY: Registered<brlyt::Format, Brlyt> = Registered::new(Brlyt);

/// The pane kind a section names.
fn kind(s: &brlyt::Section) -> &'static str {
    match s {
        brlyt::Section::Picture(_) => "picture",
        brlyt::Section::Text(_) => "text",
        brlyt::Section::Window(_) => "window",
        brlyt::Section::Bounding(_) => "bounding",
        _ => "pane",
    }
}

impl Present<brlyt::Format> for Brlyt {
    fn info(&self, data: &Input<'_>, l: &brlyt::Brlyt) -> Result<Info> {
        let size = l.layout().map(|x| [x.size[0].get(), x.size[1].get()]);
        let mut text = format!(
            "NW4R layout ({} bytes, version {:#06x}): {} sections, screen {:?}\n  textures: {}\n  fonts: {}\n  materials: {}\n",
            data.len(),
            l.frame.version,
            l.sections.len(),
            size.unwrap_or_default(),
            l.textures()
                .iter()
                .map(|n| n.text())
                .collect::<Vec<_>>()
                .join(", "),
            l.fonts()
                .iter()
                .map(|n| n.text())
                .collect::<Vec<_>>()
                .join(", "),
            l.materials().len(),
        );
        let tree = l.tree();
        let mut panes = Vec::new();
        for root in tree.roots() {
            for p in tree.walk(root) {
                let (Some(node), Some(sec)) = (
                    tree.panes.get(p),
                    tree.panes.get(p).and_then(|n| l.sections.get(n.section)),
                ) else {
                    continue;
                };
                let Some(pane) = sec.pane() else { continue };
                let mut depth = 0;
                let mut up = node.parent;
                while let Some(u) = up {
                    depth += 1;
                    up = tree.panes.get(u).and_then(|n| n.parent);
                }
                let _ = writeln!(
                    text,
                    "  {:indent$}{} {} {}x{}{}",
                    "",
                    kind(sec),
                    pane.name,
                    pane.size[0].get(),
                    pane.size[1].get(),
                    if pane.visible() { "" } else { " (hidden)" },
                    indent = 2 * depth
                );
                panes.push(serde_json::json!({
                    "name": pane.name.text(), "kind": kind(sec), "depth": depth,
                    "size": [pane.size[0].get(), pane.size[1].get()], "visible": pane.visible(),
                }));
            }
        }
        let json = serde_json::json!({
            "version": l.frame.version,
            "sections": l.sections.len(),
            "textures": l.textures().iter().map(|n| n.text()).collect::<Vec<_>>(),
            "fonts": l.fonts().iter().map(|n| n.text()).collect::<Vec<_>>(),
            "materials": l.materials().len(),
            "panes": panes,
            "groups": tree.groups.len(),
        });
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, l: &brlyt::Brlyt) -> Vec<(String, u64)> {
        let mut out = vec![(format!("version {:#06x}", l.frame.version), 1)];
        for s in &l.sections {
            out.push((
                format!("section {}", String::from_utf8_lossy(&s.magic())),
                1,
            ));
        }
        out
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        let invalid = |m: String| Error::without_offset(ErrorKind::Invalid(m));
        let out = match (brlyt::sniff(input), extension_of(to).as_str()) {
            (true, "json") => brlyt::Brlyt::parse_with(input, limits)
                .and_then(|l| brlyt::to_json(&l))
                .and_then(|j| serde_json::to_vec_pretty(&j).map_err(|e| invalid(e.to_string()))),
            (false, "brlyt") if extension_of(from) == "json" => serde_json::from_slice(input)
                .map_err(|e| invalid(format!("JSON: {e}")))
                .and_then(|j| brlyt::from_json(&j))
                .and_then(|l| l.write()),
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        brlyt::build::samples()
    }
}
