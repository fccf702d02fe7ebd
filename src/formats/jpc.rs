//! JParticle containers (`.jpc`): the crate's contract (`jpc::Format`: detection, parse, write,
//! the JPC-* rules) presented with `info` (effects and textures) and survey facts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use gcio::Result;

use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The particle container format's presentation.
pub struct Jpc;

/// The registry entry.
pub static ENTRY: Registered<jpc::Format, Jpc> = Registered::new(Jpc);

/// Blocks per tag over every effect.
fn tags(j: &jpc::Jpc) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for b in j.resources.iter().flat_map(|r| &r.blocks) {
        *m.entry(b.tag_str()).or_insert(0) += 1;
    }
    m
}

impl Present<jpc::Format> for Jpc {
    fn info(&self, data: &Input<'_>, j: &jpc::Jpc) -> Result<Info> {
        let mut text = format!(
            "JParticle container JPAC2-10 ({} bytes): {} effects, {} textures\n",
            data.len(),
            j.resources.len(),
            j.textures.len()
        );
        let blocks = tags(j);
        for (tag, n) in &blocks {
            let _ = writeln!(text, "  {tag}: {n} blocks");
        }
        let names: Vec<String> = j
            .textures
            .iter()
            .map(|t| String::from_utf8_lossy(&t.name).into_owned())
            .collect();
        let _ = writeln!(text, "  textures: {}", names.join(", "));
        let json = serde_json::json!({
            "effects": j.resources.len(),
            "blocks": blocks,
            "textures": names,
        });
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, j: &jpc::Jpc) -> Vec<(String, u64)> {
        tags(j)
            .into_iter()
            .map(|(t, n)| (format!("block {t}"), n))
            .collect()
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        jpc::build::samples()
    }
}
