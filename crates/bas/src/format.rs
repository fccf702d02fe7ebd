//! The crate's contract with a registry ([`gcio::FileFormat`]) and what a registry shows of a
//! table ([`gcio::Describe`]).

use std::fmt::Write as _;

use gcio::{
    Confidence, ConversionSpec, Describe, Detected, Diagnostic, FileFormat, Limits, Result,
};

use crate::{Bas, View};

/// The sound animation table format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "bas";
    const EXTENSIONS: &'static [&'static str] = &["bas"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["bas"],
            to: &["json"],
            options: &[],
            help: "sound animation table as JSON",
        },
        ConversionSpec {
            from: &["json"],
            to: &["bas"],
            options: &[],
            help: "JSON back to a sound animation table",
        },
    ];
    /// No signature: only files named `.bas` are asked.
    const NEEDS_NAME: bool = true;

    type View<'a> = View<'a>;
    type Model = Bas;

    /// Weak: a count of 32-byte entries that fills the file, zero padding and control words.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).then(|| Detected::new(Self::NAME, Confidence::Weak))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        View::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Bas> {
        Bas::from_view(view, limits)
    }

    fn write(model: &Bas) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Bas) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}

impl Describe for Format {
    /// The table's sounds, one line each.
    fn describe(data: &[u8], t: &Bas) -> String {
        let mut text = format!(
            "sound animation table ({} bytes): {} sounds\n",
            data.len(),
            t.sounds.len()
        );
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
        }
        text
    }

    /// The sound count, and each sound's flags word.
    fn facts(t: &Bas) -> Vec<(String, u64)> {
        let mut out = vec![(format!("sounds {}", t.sounds.len()), 1)];
        for s in &t.sounds {
            out.push((format!("flags {:#x}", s.flags), 1));
        }
        out
    }

    #[cfg(feature = "json")]
    fn to_json(t: &Bas) -> Option<Result<Vec<u8>>> {
        Some(crate::to_json(t).and_then(|j| {
            serde_json::to_vec_pretty(&j).map_err(|e| gcio::Error::message(e.to_string()))
        }))
    }

    #[cfg(feature = "json")]
    fn from_json(json: &[u8], _limits: &Limits) -> Option<Result<Bas>> {
        Some(
            serde_json::from_slice(json)
                .map_err(|e| gcio::Error::message(format!("JSON: {e}")))
                .and_then(|j| crate::from_json(&j)),
        )
    }

    #[cfg(feature = "test-support")]
    fn samples() -> Vec<(String, Vec<u8>)> {
        crate::build::samples()
    }
}
