//! The crate's contract with a registry ([`gcio::FileFormat`]): a registry (the `gcformats`
//! facade) names, detects, parses, writes back and validates containers through it alone.

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Pkx, View};

/// The PKX container format, as a registry sees it: detection names the game's layout
/// (`pkx-xd`, `pkx-colosseum`).
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "pkx";
    const ALIASES: &'static [&'static str] = &["pkx-xd", "pkx-colosseum"];
    const EXTENSIONS: &'static [&'static str] = &["pkx"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["pkx"],
            to: &["json"],
            options: &[],
            help: "container metadata as JSON",
        },
        ConversionSpec {
            from: &["json"],
            to: &["pkx"],
            options: &[("dat", "the DAT model to embed (--dat D)")],
            help: "a container from JSON metadata",
        },
        ConversionSpec {
            from: &["glb", "gltf"],
            to: &["pkx"],
            options: &[
                (
                    "meta",
                    "the metadata JSON `convert x.pkx x.json` writes (header, slots, shiny)",
                ),
                ("game", "xd or colosseum: must be the metadata's game"),
            ],
            help: "import: the model as a DAT (HAL's XD order) in a container",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Pkx;

    /// PKX-001 ([`crate::game`]); the game's layout is the name.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::game(data).map(|g| Detected::new(g.format_name(), Confidence::Strong))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Pkx> {
        Pkx::from_view(view, limits)
    }

    fn write(model: &Pkx) -> Result<Vec<u8>> {
        model.write()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
