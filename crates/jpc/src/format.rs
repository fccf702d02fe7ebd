//! The crate's contract with a registry ([`gcio::FileFormat`]) and what a registry shows of a
//! container ([`gcio::Describe`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use gcio::{Confidence, Describe, Detected, Diagnostic, FileFormat, Limits, Result};

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

/// Blocks per tag over every effect.
fn tags(j: &Jpc) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for b in j.resources.iter().flat_map(|r| &r.blocks) {
        *m.entry(b.tag_str()).or_insert(0) += 1;
    }
    m
}

impl Describe for Format {
    /// Effects and textures, the blocks per tag and the texture names.
    fn describe(data: &[u8], j: &Jpc) -> String {
        let mut text = format!(
            "JParticle container JPAC2-10 ({} bytes): {} effects, {} textures\n",
            data.len(),
            j.resources.len(),
            j.textures.len()
        );
        for (tag, n) in tags(j) {
            let _ = writeln!(text, "  {tag}: {n} blocks");
        }
        let names: Vec<String> = j
            .textures
            .iter()
            .map(|t| String::from_utf8_lossy(&t.name).into_owned())
            .collect();
        let _ = writeln!(text, "  textures: {}", names.join(", "));
        text
    }

    /// Blocks per tag.
    fn facts(j: &Jpc) -> Vec<(String, u64)> {
        tags(j)
            .into_iter()
            .map(|(t, n)| (format!("block {t}"), n))
            .collect()
    }

    #[cfg(feature = "test-support")]
    fn samples() -> Vec<(String, Vec<u8>)> {
        crate::build::samples()
    }
}
