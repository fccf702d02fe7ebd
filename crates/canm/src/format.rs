//! The crate's contract with a registry ([`gcio::FileFormat`]).

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Canm, View};

/// The camera animation format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "canm";
    const EXTENSIONS: &'static [&'static str] = &["canm"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["canm"],
            to: &["json"],
            options: &[],
            help: "camera animation as JSON",
        },
        ConversionSpec {
            from: &["json"],
            to: &["canm"],
            options: &[],
            help: "JSON back to a camera animation",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Canm;

    /// `ANDO` + `CANM`/`CKAN`; the kind is the detail.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).map(|k| {
            Detected::new(Self::NAME, Confidence::Strong)
                .with_detail(format!("{k:?}").to_ascii_uppercase())
        })
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        View::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Canm> {
        Canm::from_view(view, limits)
    }

    fn write(model: &Canm) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Canm) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
