//! The crate's contract with a registry ([`gcio::FileFormat`]): a registry (the `gcformats`
//! facade) names, detects, parses, writes back and validates model blocks through it alone.

use gcio::{ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Block, BlockView};

/// The GPL model block format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "gpl";
    const EXTENSIONS: &'static [&'static str] = &["gpl"];
    const CONVERSIONS: &'static [ConversionSpec] = &[ConversionSpec {
        from: &["gpl"],
        to: &["json"],
        options: &[],
        help: "facial poses as JSON",
    }];

    type View<'a> = BlockView<'a>;
    type Model = Block;

    /// Header arithmetic plus parsing sections ([`crate::sniff`]); without the version words
    /// only weak, so only a `.gpl` name claims the block.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<BlockView<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &BlockView<'_>, limits: &Limits) -> Result<Block> {
        Block::from_view(view, limits)
    }

    fn write(model: &Block) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Block) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
