//! Galaxy camera animations (`.canm`): the crate's contract (`canm::Format`: detection, parse,
//! write, the CANM-* rules) presented with `info` (the tracks), survey facts and `convert x.canm
//! x.json` and back.

use std::fmt::Write as _;

use gcio::{Error, ErrorKind, Result};

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The camera animation format's presentation.
pub struct Canm;

/// The registry entry.
pub static ENTRY: Registered<canm::Format, Canm> = Registered::new(Canm);

impl Present<canm::Format> for Canm {
    fn info(&self, data: &Input<'_>, a: &canm::Canm) -> Result<Info> {
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

    fn facts(&self, _data: &Input<'_>, a: &canm::Canm) -> Vec<(String, u64)> {
        vec![
            (format!("kind {:?}", a.kind), 1),
            (format!("header {:?}", a.header), 1),
            (format!("trailer {:02X?}", a.trailer), 1),
        ]
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
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
