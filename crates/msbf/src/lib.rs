//! MSBF ("MsgFlwBn"): the message flows of Super Mario Galaxy 2, which decide which text box
//! follows which, where a YesNo choice branches and which events fire.
//!
//! - [`parse`]: zero-copy access to the header, FLW2 nodes and branch list, FEN1 labels.
//! - [`Msbf`]: the owned model ([`Msbf::parse`], edit, [`Msbf::write`] byte for byte, both byte
//!   orders), its JSON form ([`Msbf::to_json`], [`Msbf::from_json`]) and Graphviz ([`Msbf::to_dot`]).
//! - The flow as a graph: [`Msbf::entries`], [`Flow::edges`], [`Flow::walk`], [`Flow::cycles`].
//! - [`validate`], [`validate_model`]: findings citing `MSBF-*` rule ids.
//! - [`build`]: builders for realistic flows.
//! - [`Format`]: the crate's contract with a registry ([`gcio::FileFormat`]).
//!
//! ```
//! use msbf::{Msbf, build::FlowBuilder, names::{EventType, YesNo}};
//!
//! let mut b = FlowBuilder::new();
//! let entry = b.entry("Npc000");
//! let ask = b.message(0);
//! let question = b.yes_no(YesNo::DREAMER);
//! let yes = b.event(EventType::SW_A_ON, 0);
//! let no = b.message(1);
//! b.chain(&[entry, ask, question]).branch(question, yes, no);
//! let bytes = b.build().write()?;
//!
//! let m = Msbf::parse(&bytes)?;
//! assert_eq!(m.write()?, bytes);
//! assert!(msbf::validate_model(&m).is_empty());
//! let start = m.labels().and_then(|l| l.get(b"Npc000")).unwrap_or(u32::MAX);
//! let flow = m.flow().map(|f| f.walk(start as usize, &Default::default()));
//! assert_eq!(flow.transpose()?, Some(vec![0, 1, 2, 3, 4]));
//! # Ok::<(), gcio::Error>(())
//! ```
#![forbid(unsafe_code)]

pub mod build;
mod dot;
mod format;
mod fuzz;
#[cfg(any(test, feature = "test-support"))]
pub mod golden;
mod graph;
#[cfg(feature = "json")]
mod jsonfmt;
mod model;
pub mod names;
pub mod raw;
mod read;
mod validate;
pub mod view;
mod write;

pub use dot::describe;
pub use format::Format;
pub use fuzz::fuzz_msbf;
#[cfg(feature = "json")]
pub use fuzz::fuzz_msbf_json;
pub use graph::{Edge, EdgeKind, Entry};
pub use model::{
    CONDITION_ARG1, END, Flow, Frame, Label, LabelTable, MESSAGE_ARG1, Msbf, Node, SMG2_BUCKETS,
    Section, SectionKind, label_hash,
};
pub use validate::{
    CheckOptions, SPIN, UNREACHABLE, validate, validate_model, validate_model_for, validate_with,
};
pub use view::{View, parse, parse_with};

/// Recognises a flow file (magic `MsgFlwBn`); every format crate has this `detect`
/// (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    data.starts_with(raw::MAGIC)
        .then_some(gcio::Confidence::Strong)
}
