//! JAudio2 BMS music sequences (Super Mario Galaxy 1/2): decode and encode every instruction,
//! discover the control flow from offset 0, edit the program as labelled blocks or as text,
//! write it back byte for byte, validate it and export MIDI.
//!
//! BMS has no header: a file is an instruction stream whose root track starts at offset 0
//! (reference `bms.md`, rules `BMS-*`).
//!
//! - [`Instruction::decode`] / [`Instruction::encode`]: one instruction at any offset ([`opcode`]
//!   holds the command table, [`golden`] the bytes ⇄ instruction table).
//! - [`parse`] → [`View`]: control-flow discovery ([`Flow`]) over the borrowed bytes.
//! - [`Program`]: labelled code / table / data blocks covering every byte; [`Program::write`]
//!   re-lays them out and relocates every offset; [`to_text`] / [`from_text`] are the text form.
//! - [`validate`], [`midi::export`], [`build`] (builders and samples), [`fuzz_bms`].
//! - [`Format`]: the crate's contract with a registry ([`gcio::FileFormat`]).
//!
//! ```
//! use bms::{build::SeqBuilder, midi, opcode::ops};
//!
//! // Assemble: the root opens track 0, which plays a gate note twice in a counted loop.
//! let mut b = SeqBuilder::new();
//! let melody = b.label();
//! b.cmd(ops::OPEN_TRACK, &[0, melody.0]).wait(480).cmd(ops::FINISH, &[]);
//! b.place(melody)
//!     .cmd(ops::LOOP_S, &[2])
//!     .gate(60, 100, 120)
//!     .cmd(ops::LOOP_E, &[])
//!     .cmd(ops::FINISH, &[]);
//! let data = b.build().unwrap();
//!
//! // Discover, disassemble, write back byte for byte, through text too.
//! let view = bms::parse(&data).unwrap();
//! assert_eq!(view.tracks().len(), 2);
//! let program = bms::Program::from_view(&view, &gcio::Limits::default()).unwrap();
//! assert_eq!(program.write().unwrap(), data);
//! let text = bms::to_text(&program);
//! assert!(text.contains("note 60, 0x00, 100, 120"));
//! assert_eq!(bms::from_text(&text).unwrap().write().unwrap(), data);
//!
//! // Validate and render.
//! assert!(bms::validate(&data).is_empty());
//! let song = midi::render(&data, &midi::ExportOptions::default()).unwrap();
//! assert_eq!(song.tracks[1].note_count(), 2);
//! assert!(song.to_smf().starts_with(b"MThd"));
//! ```
#![forbid(unsafe_code)]

pub mod build;
pub mod flow;
mod format;
mod fuzz;
#[cfg(any(test, feature = "test-support"))]
pub mod golden;
pub mod insn;
pub mod midi;
mod model;
pub mod opcode;
mod text;
mod ticks;
mod validate;
mod view;

pub use flow::{Flow, Track};
pub use format::Format;
pub use fuzz::{fuzz_bms, fuzz_bms_text};
pub use insn::{Args, Body, Command, Instruction, Printf, RegPrefix, Vlq};
pub use model::{Block, Content, FRESH_LABEL, Program};
pub use text::{from_text, label_name, note_name, to_text};
pub use validate::{validate, validate_with};
pub use view::{View, parse, parse_with};

/// Recognises a sequence: BMS has no header, so at best [`gcio::Confidence::Weak`] (a registry
/// claims it only for a `.bms` name) when offset 0 is code and the control-flow walk from it is
/// clean (errors and BMS-007 findings under 1 in 8 instructions), judged on the walk's first
/// [`flow::DETECT_ITEMS`] steps, so memory stays small whatever the input's size. Every format crate has this
/// `detect` (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    let flow = Flow::detect(data, &gcio::Limits::default()).ok()?;
    let problems = flow
        .findings()
        .iter()
        .filter(|d| d.severity == gcio::Severity::Error || d.rule == "BMS-007")
        .count();
    (flow.class(0) == flow::Class::Code && problems * 8 < flow.instruction_count())
        .then_some(gcio::Confidence::Weak)
}
