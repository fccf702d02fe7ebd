//! The crate's contract with a registry ([`gcio::FileFormat`]). BCSV has no magic number, so
//! detection is the strict header arithmetic of [`crate::detect`]: a loose but readable table is
//! [`gcio::Confidence::Weak`], claimed only under one of the table extensions.

use gcio::{ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Table, View};

/// The BCSV / JMap table format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "bcsv";
    const EXTENSIONS: &'static [&'static str] = &crate::EXTENSIONS;
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &crate::EXTENSIONS,
            to: &["csv", "json"],
            options: &[],
            help: "JMap table to text",
        },
        ConversionSpec {
            from: &["csv", "json"],
            to: &crate::EXTENSIONS,
            options: &[],
            help: "text back to a JMap table",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Table;

    /// [`crate::detect`]'s confidence: weak for a loose header, strong when every check holds.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::detect(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Table> {
        Table::from_view(view, limits)
    }

    fn write(model: &Table) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Table) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gcio::Confidence;

    #[test]
    fn detection_keeps_the_confidence() {
        // A table without fields is readable but loose: weak, so only a table name claims it.
        let loose = [0u8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0];
        let d = Format::detect(&loose).unwrap();
        assert_eq!(d.confidence, Confidence::Weak);
        assert!(d.claims("a.tbl", Format::EXTENSIONS));
        assert!(!d.claims("a.bin", Format::EXTENSIONS));
    }
}
