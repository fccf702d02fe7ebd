//! The crate's contract with a registry ([`gcio::FileFormat`]): a flow file is recognised by its
//! `MsgFlwBn` magic. Checks that need the caller's options (an object's branch functions, the
//! MSBT's message count) stay with the registry's presentation ([`crate::validate_model_for`]).

use gcio::{ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Msbf, View};

/// The MSBF message flow format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "msbf";
    const EXTENSIONS: &'static [&'static str] = &["msbf"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["msbf"],
            to: &["json"],
            options: &[],
            help: "flow chart as JSON",
        },
        ConversionSpec {
            from: &["msbf"],
            to: &["dot", "gv"],
            options: &[],
            help: "flow chart as Graphviz",
        },
        ConversionSpec {
            from: &["json"],
            to: &["msbf"],
            options: &[],
            help: "JSON back to a flow chart",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Msbf;

    /// The `MsgFlwBn` magic.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::detect(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Msbf> {
        Msbf::from_view(view, limits)
    }

    fn write(model: &Msbf) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Msbf) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
