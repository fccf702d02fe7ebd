//! NW4R layout animations (`.brlan`): the crate's contract (`brlan::Format`: detection, parse,
//! write, the BRLAN-* rules) presented with `info` (tag, length, animated panes and
//! materials), survey facts and `convert x.brlan x.json` and back.

use std::fmt::Write as _;

use gcio::{Error, ErrorKind, Result};

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The layout animation format's presentation.
pub struct Brlan;

/// The registry entry.
pub static ENTRY: Registered<brlan::Format, Brlan> = Registered::new(Brlan);

impl Present<brlan::Format> for Brlan {
    fn info(&self, data: &Input<'_>, a: &brlan::Brlan) -> Result<Info> {
        let tag = a.tag().map(|t| (t.name.text(), t.start, t.end));
        let mut text = format!(
            "NW4R layout animation ({} bytes, version {:#06x}): {} sections, tag {:?}\n",
            data.len(),
            a.frame.version,
            a.sections.len(),
            tag
        );
        let mut contents = Vec::new();
        if let Some(anim) = a.anim() {
            let _ = writeln!(
                text,
                "  {} frames{}, {} texture files: {}",
                anim.frame_size,
                if anim.looped != 0 { ", looped" } else { "" },
                anim.files.len(),
                anim.files
                    .iter()
                    .map(|n| n.text())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for c in &anim.contents {
                let tags: Vec<String> = c
                    .infos
                    .iter()
                    .map(|i| format!("{} ×{}", i.tag, i.targets.len()))
                    .collect();
                let kind = if c.kind == 0 { "pane" } else { "material" };
                let _ = writeln!(text, "  {kind} {}: {}", c.name, tags.join(", "));
                contents.push(serde_json::json!({
                    "name": c.name.text(), "kind": kind, "tags": tags,
                }));
            }
        }
        let json = serde_json::json!({
            "version": a.frame.version,
            "sections": a.sections.len(),
            "tag": tag.map(|t| t.0),
            "frames": a.anim().map(|x| x.frame_size),
            "contents": contents,
        });
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, a: &brlan::Brlan) -> Vec<(String, u64)> {
        let mut out = vec![(format!("version {:#06x}", a.frame.version), 1)];
        for c in a.anim().iter().flat_map(|x| &x.contents) {
            for i in &c.infos {
                for t in &i.targets {
                    out.push((format!("tag {} curve {}", i.tag, t.keys.curve()), 1));
                }
            }
        }
        out
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        let invalid = |m: String| Error::without_offset(ErrorKind::Invalid(m));
        let out = match (brlan::sniff(input), extension_of(to).as_str()) {
            (true, "json") => brlan::Brlan::parse_with(input, limits)
                .and_then(|a| brlan::to_json(&a))
                .and_then(|j| serde_json::to_vec_pretty(&j).map_err(|e| invalid(e.to_string()))),
            (false, "brlan") if extension_of(from) == "json" => serde_json::from_slice(input)
                .map_err(|e| invalid(format!("JSON: {e}")))
                .and_then(|j| brlan::from_json(&j))
                .and_then(|a| a.write()),
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        brlan::build::samples()
    }
}
