//! The crate's contract with a registry ([`gcio::FileFormat`]).

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Brlyt, View};

/// The layout format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "brlyt";
    const EXTENSIONS: &'static [&'static str] = &["brlyt"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["brlyt"],
            to: &["json"],
            options: &[],
            help: "layout as JSON",
        },
        ConversionSpec {
            from: &["json"],
            to: &["brlyt"],
            options: &[],
            help: "JSON back to a layout",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Brlyt;

    /// `RLYT` + byte order mark; the section count is the detail.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).then(|| {
            let n = data
                .get(14..16)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u16::from_be_bytes);
            Detected::new(Self::NAME, Confidence::Strong).with_detail(format!("{n} sections"))
        })
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        View::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Brlyt> {
        Brlyt::from_view(view, limits)
    }

    fn write(model: &Brlyt) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Brlyt) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
