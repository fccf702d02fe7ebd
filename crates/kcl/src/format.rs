//! The crate's contract with a registry ([`gcio::FileFormat`]). KCL has no magic number, but
//! [`crate::sniff`] demands a header, sections and an octree that all hold, so detection is
//! strong without the file name.

use gcio::{Confidence, ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Kcl, View};

/// The KCL collision format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "kcl";
    const EXTENSIONS: &'static [&'static str] = &["kcl"];
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: &["kcl"],
            to: &["obj"],
            options: &[],
            help: "collision triangles (usemtl attr_N = attribute)",
        },
        ConversionSpec {
            from: &["obj"],
            to: &["kcl"],
            options: &[
                ("thickness", "prism depth behind each face (default 40)"),
                (
                    "max_per_leaf",
                    "split a cell while it lists more (default 8)",
                ),
                ("min_cell_shift", "smallest cell edge 2^N (default 3)"),
            ],
            help: "collision built from triangles",
        },
    ];

    type View<'a> = View<'a>;
    type Model = Kcl;

    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data).then(|| Detected::new(Self::NAME, Confidence::Strong))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Kcl> {
        Kcl::from_view(view, limits)
    }

    fn write(model: &Kcl) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Kcl) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
