//! The crate's contract with a registry ([`gcio::FileFormat`]). BMS has no header, so detection
//! is [`gcio::Confidence::Weak`]: a registry claims a clean walk only for a `.bms` name.

use gcio::{ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Program, View};

/// The BMS sequence format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "bms";
    const NEEDS_NAME: bool = true;
    const EXTENSIONS: &'static [&'static str] = &["bms"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["bms"],
            to: &["txt"],
            options: &[],
            help: "disassemble to text",
        },
        ConversionSpec {
            from: &["txt"],
            to: &["bms"],
            options: &[],
            help: "assemble text back to a sequence",
        },
        ConversionSpec {
            from: &["bms"],
            to: &["mid", "midi"],
            options: &[("loops", "times each backward jump is taken (default 1)")],
            help: "render to standard MIDI",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Program;

    /// A clean control-flow walk from offset 0, never more than weak ([`crate::detect`]).
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::detect(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Program> {
        Program::from_view(view, limits)
    }

    fn write(model: &Program) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Program) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
