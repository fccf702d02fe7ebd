//! Mario Super Sluggers model blocks with their facial pose section. A block has no magic, so
//! detection is strict header arithmetic plus parsing sections (`gpl_facial::sniff`); the `.gpl`
//! extension only breaks ties. `convert block.gpl poses.json` writes each facial object's mapped
//! vertices, rest pose and per-pose deltas.

use std::fmt::Write as _;
use std::path::Path;

use gcio::{Diagnostic, Error, ErrorKind, Result};
use gpl_facial::{Block, BlockView, Confidence, slot};

use crate::format::{Detection, Format, Info, Options, extension, io_error};

/// GPL model blocks (`gpl`).
pub struct GplFacial;

fn invalid(m: String) -> Error {
    Error::without_offset(ErrorKind::Invalid(m))
}

impl Format for GplFacial {
    fn name(&self) -> &'static str {
        "gpl"
    }

    fn detect(&self, data: &[u8], path: &str) -> Option<Detection> {
        match gpl_facial::sniff(data)? {
            Confidence::Strong => Some(Detection::new("gpl")),
            Confidence::Weak if gpl_facial::has_gpl_extension(path) => Some(Detection::new("gpl")),
            Confidence::Weak => None,
        }
    }

    fn info(&self, data: &[u8]) -> Result<Info> {
        let v = BlockView::parse(data)?;
        let mut text = String::new();
        for i in 1..8 {
            if let Some((s, e)) = v.extent(i) {
                let name = slot::NAMES.get(i).copied().unwrap_or("?");
                let _ = writeln!(text, "{name:<7} @ {s:#08x}  {:#x} bytes", e - s);
            }
        }
        let mesh = v.mesh()?;
        let _ = writeln!(
            text,
            "{} submeshes{}",
            mesh.submeshes.len(),
            if mesh.skin.is_some() { ", skinned" } else { "" }
        );
        match v.facial() {
            None => text.push_str("no facial pose section\n"),
            Some(f) => {
                let s = gpl_facial::FacialSection::from_view(&f?, &gcio::Limits::default())?;
                let _ = writeln!(
                    text,
                    "facial: {} objects, {} type descriptors, max pose count {}",
                    s.objects.len(),
                    s.descriptors.len(),
                    s.max_pose_count
                );
                for (i, o) in s.objects.iter().enumerate() {
                    let _ = writeln!(text, "  object {i}: {} poses", o.pose_count);
                    for a in &o.attributes {
                        let [t, k, c, w] = a.format.to_bytes();
                        let _ = writeln!(
                            text,
                            "    {t:02x} {k:02x} {c:02x} {w:02x}: {} entries, {} runs",
                            a.entries,
                            a.runs.iter().take_while(|r| r.len != 0).count()
                        );
                    }
                }
            }
        }
        Ok(Info {
            text,
            json: gpl_facial::block_json(&v),
        })
    }

    fn roundtrip(&self, data: &[u8]) -> Result<Vec<u8>> {
        Block::parse(data)?.write()
    }

    fn check(&self, data: &[u8], _opts: &Options) -> Result<Vec<Diagnostic>> {
        Ok(BlockView::parse(data)?.validate())
    }

    fn convert(&self, input: &[u8], from: &Path, to: &Path, _opts: &Options) -> Option<Result<()>> {
        if extension(to) != "json"
            || (extension(from) != "gpl" && gpl_facial::sniff(input).is_none())
        {
            return None;
        }
        let result = Block::parse(input).and_then(|b| {
            let s = b.facial().ok_or_else(|| {
                invalid("the block has no facial pose section (ptr7 is 0)".into())
            })?;
            serde_json::to_vec_pretty(&gpl_facial::poses_json(s))
                .map_err(|e| invalid(e.to_string()))
        });
        Some(result.and_then(|out| std::fs::write(to, out).map_err(|e| io_error(to, e))))
    }

    fn facts(&self, data: &[u8]) -> Vec<(String, u64)> {
        let Ok(b) = Block::parse(data) else {
            return Vec::new();
        };
        let Some(s) = b.facial() else {
            return vec![("no facial section".into(), 1)];
        };
        let mut facts = vec![
            ("facial section".to_string(), 1),
            ("facial object".into(), s.objects.len() as u64),
        ];
        for o in &s.objects {
            facts.push((format!("object pose count {}", o.pose_count), 1));
            for a in &o.attributes {
                let [_, k, c, w] = a.format.to_bytes();
                facts.push((format!("record {k:02x} {c:02x} {w:02x}"), 1));
                let term = a.runs.last() == Some(&gpl_facial::Run::TERMINATOR);
                facts.push((format!("run list terminated={term}"), 1));
            }
        }
        facts
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        gpl_facial::build::samples()
    }
}
