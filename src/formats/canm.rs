//! Galaxy camera animations (`.canm`): detected by `ANDO` + `CANM`/`CKAN`; `info` lists the
//! tracks, `check` runs the CANM-* rules, `roundtrip` writes the model back, `convert x.canm
//! x.json` and back.

use std::fmt::Write as _;

use gcio::{Diagnostic, Error, ErrorKind, Limits, Result};

#[cfg(feature = "convert")]
use crate::format::Conversion;
use crate::format::{
    Detection, Format, Info, Input, Options, Outputs, Rewrite, extension_of, one_file,
};

/// The camera animation format.
pub struct Canm;

impl Format for Canm {
    fn name(&self) -> &'static str {
        "canm"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["canm"]
    }

    fn detect(&self, data: &[u8], _path: &str) -> Option<Detection> {
        canm::detect(data)?;
        canm::sniff(data).map(|k| Detection {
            format: "canm",
            detail: Some(format!("{k:?}").to_ascii_uppercase()),
        })
    }

    /// The owned model, parsed once under the caller's [`Limits`] for every question.
    fn parse(&self, data: &[u8], limits: &Limits) -> Result<crate::Parsed> {
        Ok(Box::new(canm::Canm::parse_with(data, limits)?))
    }

    fn info(&self, data: &Input<'_>) -> Result<Info> {
        let a = data.parsed::<canm::Canm>()?;
        let mut text = format!(
            "camera animation {:?} ({} bytes): {} frames, header {:?}, {} values\n",
            a.kind,
            data.len(),
            a.frames,
            a.header,
            a.values.len()
        );
        let mut tracks = Vec::new();
        for (t, name) in a.tracks.iter().zip(canm::TRACK_NAMES) {
            let _ = writeln!(
                text,
                "  {name:<8} {:>4} {} from value {} (layout {})",
                t.count,
                if t.count == 1 {
                    "constant"
                } else {
                    "keys/frames"
                },
                t.offset,
                t.layout
            );
            tracks.push(serde_json::json!({
                "name": name, "count": t.count, "offset": t.offset, "layout": t.layout,
            }));
        }
        let json = serde_json::json!({
            "kind": format!("{:?}", a.kind),
            "frames": a.frames,
            "header": a.header,
            "values": a.values.len(),
            "tracks": tracks,
        });
        Ok(Info { text, json })
    }

    fn roundtrip(&self, data: &Input<'_>) -> Result<Rewrite> {
        let m = data.parsed::<canm::Canm>()?;
        Ok(Rewrite {
            bytes: m.write()?,
            raw: m.raw_parts(),
        })
    }

    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<Diagnostic>> {
        Ok(canm::validate_with(data, data.limits()))
    }

    fn facts(&self, data: &Input<'_>) -> Vec<(String, u64)> {
        let Ok(a) = data.parsed::<canm::Canm>() else {
            return Vec::new();
        };
        vec![
            (format!("kind {:?}", a.kind), 1),
            (format!("header {:?}", a.header), 1),
            (format!("trailer {:02X?}", a.trailer), 1),
        ]
    }

    #[cfg(feature = "convert")]
    fn convert(&self, job: &Conversion<'_>) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        let invalid = |m: String| Error::without_offset(ErrorKind::Invalid(m));
        let out = match (canm::sniff(input).is_some(), extension_of(to).as_str()) {
            (true, "json") => canm::Canm::parse_with(input, limits)
                .and_then(|a| canm::to_json(&a))
                .and_then(|j| serde_json::to_vec_pretty(&j).map_err(|e| invalid(e.to_string()))),
            (false, "canm") if extension_of(from) == "json" => serde_json::from_slice(input)
                .map_err(|e| invalid(format!("JSON: {e}")))
                .and_then(|j| canm::from_json(&j))
                .and_then(|a| a.write()),
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        canm::build::samples()
    }
}
