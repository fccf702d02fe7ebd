//! JAudio sound animation tables (`.bas`): the crate's contract (`bas::Format`: weak detection
//! by name, parse, write, the BAS-* rules) presented with `info` (the sounds), survey facts and
//! `convert x.bas x.json` and back.

use std::fmt::Write as _;

use gcio::{Error, ErrorKind, Result};

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The sound animation table format's presentation.
pub struct Bas;

/// The registry entry.
pub static ENTRY: Registered<bas::Format, Bas> = Registered::new(Bas);

impl Present<bas::Format> for Bas {
    fn info(&self, data: &Input<'_>, t: &bas::Bas) -> Result<Info> {
        let mut text = format!(
            "sound animation table ({} bytes): {} sounds\n",
            data.len(),
            t.sounds.len()
        );
        let mut sounds = Vec::new();
        for s in &t.sounds {
            let _ = writeln!(
                text,
                "  sound {:#010x} frames {}…{} pitch {} volume {} pan {} flags {:#x} {:?}",
                s.sound_id,
                s.note_on,
                s.note_off,
                s.pitch,
                s.volume,
                s.pan,
                s.flags,
                s.flag_names()
            );
            sounds.push(serde_json::json!({
                "sound_id": s.sound_id, "note_on": s.note_on, "note_off": s.note_off,
                "pitch": s.pitch, "volume": s.volume, "pan": s.pan, "flags": s.flags,
            }));
        }
        let json = serde_json::json!({ "sounds": sounds });
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, t: &bas::Bas) -> Vec<(String, u64)> {
        let mut out = vec![(format!("sounds {}", t.sounds.len()), 1)];
        for s in &t.sounds {
            out.push((format!("flags {:#x}", s.flags), 1));
        }
        out
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        let invalid = |m: String| Error::without_offset(ErrorKind::Invalid(m));
        let out = match (extension_of(from).as_str(), extension_of(to).as_str()) {
            ("bas", "json") => bas::Bas::parse_with(input, limits)
                .and_then(|t| bas::to_json(&t))
                .and_then(|j| serde_json::to_vec_pretty(&j).map_err(|e| invalid(e.to_string()))),
            ("json", "bas") => serde_json::from_slice(input)
                .map_err(|e| invalid(format!("JSON: {e}")))
                .and_then(|j| bas::from_json(&j))
                .and_then(|t| t.write()),
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        bas::build::samples()
    }
}
