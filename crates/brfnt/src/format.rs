//! The crate's contract with a registry ([`gcio::FileFormat`]).

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Brfnt, View};

/// The NW4R font format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "brfnt";
    const EXTENSIONS: &'static [&'static str] = &["brfnt"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["brfnt"],
            to: &["json"],
            options: &[],
            help: "font as JSON (sheets as stored texels), each sheet also as a PNG beside it",
        },
        ConversionSpec {
            from: &["json"],
            to: &["brfnt"],
            options: &[],
            help: "JSON back to a font",
        },
        ConversionSpec {
            from: &[""],
            to: &["brfnt"],
            options: &[],
            help: "a folder of the JSON and its sheet PNGs back to a font (edited PNGs re-encoded)",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Brfnt;

    /// `RFNT` + byte order mark `FE FF`; the detail is the version.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).then(|| {
            let v = data
                .get(6..8)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u16::from_be_bytes);
            Detected::new(Self::NAME, Confidence::Strong).with_detail(format!(
                "version {}.{}",
                v >> 8,
                v & 0xFF
            ))
        })
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        View::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Brfnt> {
        Brfnt::from_view(view, limits)
    }

    fn write(model: &Brfnt) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Brfnt) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
