//! MSBF message flows (SMG2): the crate's contract (`msbf::Format`: detection by the `MsgFlwBn`
//! magic, parse, write, the MSBF-* rules) presented with `info` (every flow from its label),
//! survey facts, `check` with options (`-o object=KinopioBank` checks branch-function parameters,
//! `-o messages=N` checks message ids against an MSBT of N entries), and `convert` goes
//! MSBF ⇄ JSON (identical bytes for unedited JSON) and MSBF → DOT (Graphviz).

use std::fmt::Write as _;

use gcio::{Diagnostic, Error, Result};
use msbf::CheckOptions;

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input, Options};
use crate::{Present, Registered};

/// The MSBF format's presentation.
pub struct Msbf;

/// The registry entry.
pub static ENTRY: Registered<msbf::Format, Msbf> = Registered::new(Msbf);

fn check_options(opts: &Options) -> Result<CheckOptions> {
    let message_count = opts
        .get("messages")
        .map(|v| {
            v.parse()
                .map_err(|e| Error::message(format!("-o messages={v}: {e}")))
        })
        .transpose()?;
    Ok(CheckOptions {
        message_count,
        object: opts.get("object").cloned(),
    })
}

impl Present<msbf::Format> for Msbf {
    fn check_options(&self) -> &'static [(&'static str, &'static str)] {
        &[
            (
                "object",
                "NAME: the actor class the flows belong to (MSBF-012)",
            ),
            (
                "messages",
                "N: entries in the MSBT the flows show (MSBF-013)",
            ),
        ]
    }

    fn info(&self, data: &Input<'_>, m: &msbf::Msbf) -> Result<Info> {
        let nodes = m.flow().map(|f| f.nodes.as_slice()).unwrap_or_default();
        let count = |k: msbf::names::NodeType| nodes.iter().filter(|n| n.kind() == k).count();
        let sections: Vec<String> = m
            .sections
            .iter()
            .map(|s| String::from_utf8_lossy(&s.magic()).into_owned())
            .collect();
        let mut text = format!(
            "{}-endian, version {}, sections [{}]\n{} nodes ({} entry, {} message, {} condition, {} event), {} branch-list entries, {} labels in {} buckets\n",
            if m.endian == gcio::Endian::Big {
                "big"
            } else {
                "little"
            },
            m.version,
            sections.join(", "),
            nodes.len(),
            count(msbf::names::NodeType::ENTRY),
            count(msbf::names::NodeType::MESSAGE),
            count(msbf::names::NodeType::CONDITION),
            count(msbf::names::NodeType::EVENT),
            m.flow().map_or(0, |f| f.branches.len()),
            m.labels().map_or(0, |l| l.len()),
            m.labels().map_or(0, |l| l.buckets.len()),
        );
        let mut flows = Vec::new();
        for e in m.entries() {
            let label = String::from_utf8_lossy(e.label).into_owned();
            let walk = m
                .flow()
                .map(|f| f.walk(e.node as usize, data.limits()))
                .transpose()?
                .unwrap_or_default();
            let _ = writeln!(text, "{label} (node {}):", e.node);
            for &i in &walk {
                if let Some(n) = nodes.get(i) {
                    let targets: Vec<String> = m
                        .flow()
                        .map(|f| f.edges(i).map(|e| e.to.to_string()).collect())
                        .unwrap_or_default();
                    let arrow = if targets.is_empty() {
                        "end".to_owned()
                    } else {
                        format!("-> {}", targets.join(" | "))
                    };
                    let _ = writeln!(text, "  {}  {arrow}", msbf::describe(i, n));
                }
            }
            flows.push(serde_json::json!({"label": label, "entry_node": e.node, "nodes": walk}));
        }
        let json = serde_json::json!({
            "endian": if m.endian == gcio::Endian::Big { "big" } else { "little" },
            "version": m.version,
            "sections": sections,
            "nodes": nodes.len(),
            "entries": count(msbf::names::NodeType::ENTRY),
            "messages": count(msbf::names::NodeType::MESSAGE),
            "conditions": count(msbf::names::NodeType::CONDITION),
            "events": count(msbf::names::NodeType::EVENT),
            "branch_list": m.flow().map(|f| f.branches.clone()).unwrap_or_default(),
            "buckets": m.labels().map_or(0, |l| l.buckets.len()),
            "flows": flows,
        });
        Ok(Info { text, json })
    }

    /// Survey facts: byte order and how often each node type occurs.
    fn facts(&self, _data: &Input<'_>, m: &msbf::Msbf) -> Vec<(String, u64)> {
        let mut facts = vec![(format!("byte order {:?}", m.endian), 1)];
        for s in &m.sections {
            if let msbf::SectionKind::Flow(flow) = &s.kind {
                for n in &flow.nodes {
                    let kind = n.kind();
                    let name = kind
                        .name()
                        .map_or_else(|| format!("{}", kind.0), str::to_owned);
                    facts.push((format!("node {name}"), 1));
                }
            }
        }
        facts
    }

    /// The validator with the rules `-o object=…` and `-o messages=N` enable.
    fn check(&self, data: &Input<'_>, opts: &Options) -> Result<Vec<Diagnostic>> {
        Ok(msbf::validate_model_for(
            data.parsed::<msbf::Msbf>()?,
            &check_options(opts)?,
        ))
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        let (src, dst) = (extension_of(from), extension_of(to));
        let is_msbf = input.starts_with(msbf::raw::MAGIC);
        let out = match (is_msbf, src.as_str(), dst.as_str()) {
            (true, _, "json") => {
                msbf::Msbf::parse_with(input, limits).map(|m| (m.to_json() + "\n").into_bytes())
            }
            (true, _, "dot" | "gv") => {
                msbf::Msbf::parse_with(input, limits).map(|m| m.to_dot().into_bytes())
            }
            (false, "json", "msbf") => std::str::from_utf8(input)
                .map_err(|e| Error::message(format!("JSON is not UTF-8: {e}")))
                .and_then(msbf::Msbf::from_json)
                .and_then(|m| m.write()),
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        msbf::build::samples()
    }
}
