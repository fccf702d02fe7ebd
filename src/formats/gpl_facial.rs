//! Mario Super Sluggers model blocks with their facial pose section: the crate's contract
//! (`gpl_facial::Format`: detection by strict header arithmetic plus parsing sections, weak
//! without the version words so that only a `.gpl` name claims such a block; parse, write)
//! presented with `info`, survey facts and `check`. `convert block.gpl poses.json` writes each
//! facial object's mapped vertices, rest pose and per-pose deltas.

use std::fmt::Write as _;

use gcio::{Diagnostic, Error, Result};
use gpl_facial::{Block, slot};

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices};
use crate::format::{Info, Input, Options, Outputs, extension_of, one_file};
use crate::{Present, Registered};

/// The GPL model block format's presentation.
pub struct GplFacial;

/// The registry entry.
pub static ENTRY: Registered<gpl_facial::Format, GplFacial> = Registered::new(GplFacial);

impl Present<gpl_facial::Format> for GplFacial {
    fn info(&self, data: &Input<'_>, _block: &Block) -> Result<Info> {
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

    /// The GPL-* rules; a block that does not parse under the caller's limits is the check's
    /// error (as `gcf check` reported it before the contract), not a GPL-001 finding.
    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<Diagnostic>> {
        Ok(gpl_facial::validate_view(&gpl_facial::parse_with(
            data,
            data.limits(),
        )?))
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
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

    fn facts(&self, _data: &Input<'_>, b: &Block) -> Vec<(String, u64)> {
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
    use crate::Format;
    use crate::formats::Ask;

    #[test]
    fn detection_is_strict_and_extension_breaks_ties() {
        let b = gpl_facial::build::birdo_block();
        assert!(ENTRY.detect(&b, "x.bin").is_some());
        let mut weak = b.clone();
        weak[0x20] ^= 0x80; // GPL version word
        assert!(ENTRY.detect(&weak, "x.bin").is_none());
        assert!(ENTRY.detect(&weak, "catherine.gpl").is_some());
        assert!(ENTRY.detect(&b[..0x40], "x.gpl").is_none());
        assert!(ENTRY.detect(b"", "x.gpl").is_none());
    }

    #[test]
    fn info_check_roundtrip_convert() {
        let b = gpl_facial::build::luigi_block();
        let info = ENTRY.info_of(&b).unwrap();
        assert!(info.text.contains("facial: 4 objects"), "{}", info.text);
        assert!(info.text.contains("00 01 06 02: 356 entries"));
        assert_eq!(ENTRY.roundtrip_of(&b).unwrap(), b.clone().into());
        assert!(ENTRY.check_of(&b, &Options::new()).unwrap().is_empty());
        let mut spec = gpl_facial::build::birdo();
        spec.facial.as_mut().unwrap().objects[0].attributes[0]
            .runs
            .pop();
        let broken = spec.build().unwrap();
        let rules: Vec<String> = ENTRY
            .check_of(&broken, &Options::new())
            .unwrap()
            .into_iter()
            .map(|d| d.rule)
            .collect();
        assert_eq!(rules, vec!["GPL-008"]);
        let (opts, none) = (Options::new(), Companions::new());
        let out = ENTRY
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
            ENTRY.convert(&Conversion {
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
            ENTRY
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
            ENTRY
                .facts_of(&b)
                .iter()
                .any(|(k, _)| k == "run list terminated=true")
        );
    }
}
