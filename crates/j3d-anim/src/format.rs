//! The crate's contract with a registry ([`gcio::FileFormat`]): one format, `j3d-anim`, whose
//! detection names the kind (`j3d-bck` …), since each kind animates something else.

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Anim, View};

/// The J3D animation family, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "j3d-anim";
    /// One name per kind ([`crate::Kind::format_name`]).
    const ALIASES: &'static [&'static str] = &[
        "j3d-bck", "j3d-bca", "j3d-btk", "j3d-brk", "j3d-bpk", "j3d-btp", "j3d-bva", "j3d-blk",
        "j3d-bla",
    ];
    const EXTENSIONS: &'static [&'static str] = &[
        "bck", "bca", "btk", "brk", "bpk", "btp", "bva", "blk", "bla",
    ];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &[
                "bck", "bca", "btk", "brk", "bpk", "btp", "bva", "blk", "bla",
            ],
            to: &["json"],
            options: &[],
            help: "J3D animation as JSON",
        },
        ConversionSpec {
            from: &["json"],
            to: &[
                "bck", "bca", "btk", "brk", "bpk", "btp", "bva", "blk", "bla",
            ],
            options: &[],
            help: "JSON back to a J3D animation",
        },
        ConversionSpec {
            from: &["glb", "gltf"],
            to: &["bck", "btk", "brk"],
            options: &[
                ("anim", "the glTF animation to convert (default the first)"),
                ("fps", "frames per second the animation is sampled at (60)"),
                (
                    "tol",
                    "fitting tolerance: scale, rotation (radians) X, translation 10·X (0.001); BRK colour units (0.6)",
                ),
            ],
            help: "import: joints (BCK), texture transforms (BTK), base colours (BRK) as Hermite keys",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Anim;

    /// `J3D1` + a known kind's tag and chunk magic; named by the kind.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).map(|k| Detected::new(k.format_name(), Confidence::Strong))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Anim> {
        Anim::from_view(view, limits)
    }

    fn write(model: &Anim) -> Result<Vec<u8>> {
        model.write()
    }

    /// Padding or gaps kept as bytes rather than layout facts (none on retail files seen).
    fn raw_parts(model: &Anim) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
