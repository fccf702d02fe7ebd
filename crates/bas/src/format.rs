//! The crate's contract with a registry ([`gcio::FileFormat`]).

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

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
