//! The crate's contracts with a registry ([`gcio::FileFormat`]): two formats, so two unit types —
//! [`BmdFormat`] for models and material files (recognised by their magic) and [`BtiFormat`] for
//! standalone textures (no magic, so claimed only under a `.bti` name).

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Bmd, BmdView, Bti};

/// J3D models and material files (BMD/BDL/BMT), as a registry sees them.
pub struct BmdFormat;

impl FileFormat for BmdFormat {
    const NAME: &'static str = "j3d-bmd";
    /// A BDL is reported as such: it carries the MDL3 display lists a BMD lacks.
    const ALIASES: &'static [&'static str] = &["j3d-bdl"];
    const EXTENSIONS: &'static [&'static str] = &["bmd", "bdl"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["bmd", "bdl"],
            to: &["obj"],
            options: &[],
            help: "geometry with a material library and PNG textures",
        },
        ConversionSpec {
            from: &["bmd", "bdl"],
            to: &["glb"],
            options: &[
                (
                    "anim",
                    "a J3D animation to add (--anim X.bck/.btk/.brk/..., repeatable)",
                ),
                ("fps", "frames per second animations are sampled at (60)"),
            ],
            help: "glTF 2.0 binary: meshes, skin, textures, animations",
        },
        ConversionSpec {
            from: &["glb", "gltf"],
            to: &["bmd", "bdl"],
            options: &[
                (
                    "texfmt",
                    "texture format for images without a recorded one (cmpr, rgb5a3, i8 ...)",
                ),
                ("mipmaps", "mip levels for those textures (1)"),
            ],
            help: "import: joints, skin, shapes, materials and textures (our glb's extras kept)",
        },
    ];

    type View<'a> = BmdView<'a>;
    type Model = Bmd;

    /// `J3D2bmd`, `J3D2bdl` (named `j3d-bdl`) or `J3D2bmt` (detail: a material file).
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::detect(data)?;
        match data.get(..7)? {
            b"J3D2bdl" => Some(Detected::new("j3d-bdl", Confidence::Strong)),
            b"J3D2bmd" => Some(Detected::new(Self::NAME, Confidence::Strong)),
            b"J3D2bmt" => Some(
                Detected::new(Self::NAME, Confidence::Strong).with_detail("material file (bmt)"),
            ),
            _ => None,
        }
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<BmdView<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &BmdView<'_>, limits: &Limits) -> Result<Bmd> {
        Bmd::from_view(view, limits)
    }

    fn write(model: &Bmd) -> Result<Vec<u8>> {
        model.write()
    }

    /// The chunks kept as bytes (a chunk without a typed form or in a layout the writers do not
    /// reproduce).
    fn raw_parts(model: &Bmd) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}

/// Standalone GX textures (`.bti`), as a registry sees them.
pub struct BtiFormat;

impl FileFormat for BtiFormat {
    const NAME: &'static str = "bti";
    const NEEDS_NAME: bool = true;
    const EXTENSIONS: &'static [&'static str] = &["bti"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["bti"],
            to: &["png"],
            options: &[],
            help: "the first image level decoded",
        },
        ConversionSpec {
            from: &["png"],
            to: &["bti"],
            options: &[
                ("format", "texture format (--format cmpr|rgb5a3|...; cmpr)"),
                (
                    "like",
                    "a BTI whose format, wrap, filters, LOD and mip count to keep",
                ),
            ],
            help: "an encoded texture",
        },
    ];

    /// The file's bytes: a BTI is one 32-byte header and the data it points to, so there is no
    /// structure to borrow beyond them; [`Bti`] reads both.
    type View<'a> = &'a [u8];
    type Model = Bti;

    /// Weak at best (no magic): a header that parses with a non-empty size whose first image
    /// fits ([`crate::detect_bti`]).
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::detect_bti(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with<'a>(data: &'a [u8], _limits: &Limits) -> Result<&'a [u8]> {
        Ok(data)
    }

    fn from_view(view: &&[u8], limits: &Limits) -> Result<Bti> {
        Bti::parse_with(view, limits)
    }

    fn write(model: &Bti) -> Result<Vec<u8>> {
        model.write()
    }

    /// The texture rules (J3D-079): a fixed walk of one header, so no limit applies.
    fn validate_with(data: &[u8], _limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_bti(data)
    }
}
