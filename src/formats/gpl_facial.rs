//! Mario Super Sluggers model blocks with their facial pose section. A block has no magic, so
//! detection is strict header arithmetic plus parsing sections (`gpl_facial::sniff`); the `.gpl`
//! extension only breaks ties. `convert block.gpl poses.json` writes each facial object's mapped
//! vertices, rest pose and per-pose deltas.

use std::fmt::Write as _;

use gcio::{Diagnostic, Error, Limits, Result};
use gpl_facial::{Block, slot};

#[cfg(feature = "convert")]
use crate::format::Conversion;
use crate::format::{
    Detection, Format, Info, Input, Options, Outputs, Rewrite, extension_of, one_file,
};

/// GPL model blocks (`gpl`).
pub struct GplFacial;

impl Format for GplFacial {
    fn name(&self) -> &'static str {
        "gpl"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["gpl"]
    }

    fn detect(&self, data: &[u8], path: &str) -> Option<Detection> {
        gpl_facial::detect(data)?
            .claims(gpl_facial::has_gpl_extension(path))
            .then(|| Detection::new("gpl"))
    }

    /// The owned model, parsed once under the caller's [`Limits`] (the write-back and the
    /// model's questions); the questions that read the zero-copy view make it under the same
    /// limits.
    fn parse(&self, data: &[u8], limits: &Limits) -> Result<crate::Parsed> {
        Ok(Box::new(Block::parse_with(data, limits)?))
    }

    fn info(&self, data: &Input<'_>) -> Result<Info> {
        let v = gpl_facial::parse_with(data, data.limits())?;
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
                let s = gpl_facial::FacialSection::from_view(&f?, data.limits())?;
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
        #[cfg(feature = "json")]
        let json = gpl_facial::block_json_with(&v, data.limits());
        #[cfg(not(feature = "json"))]
        let json = ();
        Ok(Info { text, json })
    }

    fn roundtrip(&self, data: &Input<'_>) -> Result<Rewrite> {
        let b = data.parsed::<Block>()?;
        Ok(Rewrite {
            bytes: b.write()?,
            raw: b.raw_parts(),
        })
    }

    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<Diagnostic>> {
        Ok(gpl_facial::validate_view(&gpl_facial::parse_with(
            data,
            data.limits(),
        )?))
    }

    #[cfg(feature = "convert")]
    fn convert(&self, job: &Conversion<'_>) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        if extension_of(to) != "json"
            || (extension_of(from) != "gpl" && gpl_facial::sniff(input).is_none())
        {
            return Ok(None);
        }
        let v = gpl_facial::parse_with(input, limits)?;
        let f = v
            .facial()
            .ok_or_else(|| Error::message("the block has no facial pose section (ptr7 is 0)"))??;
        let s = gpl_facial::FacialSection::from_view(&f, limits)?;
        let out = serde_json::to_vec_pretty(&gpl_facial::poses_json_with(&s, limits))
            .map_err(|e| Error::message(e.to_string()))?;
        Ok(Some(one_file(to, out)))
    }

    fn facts(&self, data: &Input<'_>) -> Vec<(String, u64)> {
        let Ok(b) = data.parsed::<Block>() else {
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

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        gpl_facial::build::samples()
    }
}

#[cfg(all(test, feature = "convert"))]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::Companions;
    use crate::formats::Ask;

    #[test]
    fn detection_is_strict_and_extension_breaks_ties() {
        let b = gpl_facial::build::birdo_block();
        assert!(GplFacial.detect(&b, "x.bin").is_some());
        let mut weak = b.clone();
        weak[0x20] ^= 0x80; // GPL version word
        assert!(GplFacial.detect(&weak, "x.bin").is_none());
        assert!(GplFacial.detect(&weak, "catherine.gpl").is_some());
        assert!(GplFacial.detect(&b[..0x40], "x.gpl").is_none());
        assert!(GplFacial.detect(b"", "x.gpl").is_none());
    }

    #[test]
    fn info_check_roundtrip_convert() {
        let b = gpl_facial::build::luigi_block();
        let info = GplFacial.info_of(&b).unwrap();
        assert!(info.text.contains("facial: 4 objects"), "{}", info.text);
        assert!(info.text.contains("00 01 06 02: 356 entries"));
        assert_eq!(GplFacial.roundtrip_of(&b).unwrap(), b.clone().into());
        assert!(GplFacial.check_of(&b, &Options::new()).unwrap().is_empty());
        let mut spec = gpl_facial::build::birdo();
        spec.facial.as_mut().unwrap().objects[0].attributes[0]
            .runs
            .pop();
        let broken = spec.build().unwrap();
        let rules: Vec<String> = GplFacial
            .check_of(&broken, &Options::new())
            .unwrap()
            .into_iter()
            .map(|d| d.rule)
            .collect();
        assert_eq!(rules, vec!["GPL-008"]);
        let (opts, none) = (Options::new(), Companions::new());
        let out = GplFacial
            .convert(&Conversion {
                input: &b,
                from: "luigi.gpl",
                to: "poses.json",
                opts: &opts,
                companions: &none,
                limits: &gcio::Limits::default(),
            })
            .unwrap()
            .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, "poses.json");
        let j: serde_json::Value = serde_json::from_slice(&out[0].1).unwrap();
        assert_eq!(
            j["objects"][1]["attributes"][0]["vertices"]
                .as_array()
                .unwrap()
                .len(),
            356
        );
        assert!(matches!(
            GplFacial.convert(&Conversion {
                input: &b,
                from: "luigi.gpl",
                to: "x.csv",
                opts: &opts,
                companions: &none,
                limits: &gcio::Limits::default()
            }),
            Ok(None)
        ));
        let low = gpl_facial::build::samples()
            .into_iter()
            .find(|(n, _)| n.starts_with("L_"))
            .unwrap()
            .1;
        assert!(
            GplFacial
                .convert(&Conversion {
                    input: &low,
                    from: "l.gpl",
                    to: "poses.json",
                    opts: &opts,
                    companions: &none,
                    limits: &gcio::Limits::default()
                })
                .is_err()
        );
        assert!(
            GplFacial
                .facts_of(&b)
                .iter()
                .any(|(k, _)| k == "run list terminated=true")
        );
    }
}
