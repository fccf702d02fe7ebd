//! The crate's contract with a registry ([`gcio::FileFormat`]): the magic and a table offset
//! inside the file make detection strong.

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Tpl, View};

/// The TPL texture library format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "tpl";
    const EXTENSIONS: &'static [&'static str] = &["tpl"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["tpl"],
            to: &[""],
            options: &[],
            help: "one PNG per image + tpl.json",
        },
        ConversionSpec {
            from: &[""],
            to: &["tpl"],
            options: &[],
            help: "the library rebuilt from such a folder",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Tpl;

    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).then(|| Detected::new(Self::NAME, Confidence::Strong))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Tpl> {
        Tpl::from_view(view, limits)
    }

    fn write(model: &Tpl) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Tpl) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
