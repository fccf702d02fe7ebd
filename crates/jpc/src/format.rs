//! The crate's contract with a registry ([`gcio::FileFormat`]).

use gcio::{Confidence, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Jpc, View};

/// The JParticle container format, as a registry sees it.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "jpc";
    const EXTENSIONS: &'static [&'static str] = &["jpc"];

    type View<'a> = View<'a>;
    type Model = Jpc;

    /// `JPAC2-10`; the detail is the version.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::sniff(data)
            .then(|| Detected::new(Self::NAME, Confidence::Strong).with_detail("JPAC2-10"))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        View::parse_with(data, limits)
    }

    fn from_view(view: &View<'_>, limits: &Limits) -> Result<Jpc> {
        Jpc::from_view(view, limits)
    }

    fn write(model: &Jpc) -> Result<Vec<u8>> {
        model.write()
    }

    fn raw_parts(model: &Jpc) -> Vec<String> {
        model.raw_parts()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
