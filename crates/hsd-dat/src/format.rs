//! The crate's contract with a registry ([`gcio::FileFormat`]): a registry (the `gcformats`
//! facade) names, detects, parses, writes back and validates archives through it alone.

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Archive, Dat};

/// The sysdolphin archive format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "hsd-dat";
    const EXTENSIONS: &'static [&'static str] = &["dat"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["dat"],
            to: &["glb", "obj", ""],
            options: &[],
            help: "models as glTF, or OBJ + PNG textures",
        },
        ConversionSpec {
            from: &["glb", "gltf"],
            to: &["dat"],
            options: &[
                ("order", "HAL compiler order: xd (default) or melee"),
                (
                    "texfmt",
                    "texture format for images without a recorded one (cmpr, rgb5a3, i8 ...)",
                ),
                (
                    "name",
                    "root name stem for the melee order (model → model_joint)",
                ),
                ("tol", "largest animation fitting error at any frame (1e-4)"),
            ],
            help: "import: joints, skin, meshes, materials and textures (our glb's extras kept)",
        },
    ];

    type View<'a> = Archive<'a>;
    type Model = Dat;

    /// The header's arithmetic ([`crate::sniff`]): no magic, but strict enough to be strong.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).then(|| Detected::new(Self::NAME, Confidence::Strong))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<Archive<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &Archive<'_>, limits: &Limits) -> Result<Dat> {
        Dat::from_view(view, limits)
    }

    fn write(model: &Dat) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Dat) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
