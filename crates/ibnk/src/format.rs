//! The crate's contract with a registry ([`gcio::FileFormat`]): a bank is recognised by its
//! `IBNK` magic; checking it against its wave system needs a companion file, which the
//! registry's presentation adds.

use gcio::{ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Bank, View};

/// The IBNK instrument bank format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "ibnk";
    const EXTENSIONS: &'static [&'static str] = &["bnk", "ibnk"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["bnk", "ibnk"],
            to: &["json"],
            options: &[],
            help: "instrument bank as JSON",
        },
        ConversionSpec {
            from: &["json"],
            to: &["bnk", "ibnk"],
            options: &[],
            help: "JSON back to an instrument bank",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Bank;

    /// The `IBNK` magic.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::detect(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Bank> {
        Bank::from_view(view, limits)
    }

    fn write(model: &Bank) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Bank) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
