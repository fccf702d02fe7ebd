//! JAudio2 BMS music sequences (Super Mario Galaxy 1/2): decode and encode every instruction,
//! discover the control flow from offset 0, edit the program as labelled blocks or as text,
//! write it back byte for byte, validate it and export MIDI.
//!
//! BMS has no header: a file is an instruction stream whose root track starts at offset 0
//! (reference `bms.md`, rules `BMS-*`).
//!
//! ```
//! use bms::{Program, build::SeqBuilder};
//!
//! let data = bms::build::demo_song();
//! let view = bms::parse(&data).unwrap();
//! assert!(view.tracks().len() > 1);
//! let program = view.to_program().unwrap();
//! assert_eq!(program.write().unwrap(), data);          // byte-exact
//! let text = bms::to_text(&program);
//! assert_eq!(bms::from_text(&text).unwrap().write().unwrap(), data);
//! assert!(bms::validate(&data).iter().all(|d| d.severity != gcio::Severity::Error));
//! let midi = bms::midi::export(&data, &bms::midi::ExportOptions::default()).unwrap();
//! assert_eq!(&midi[..4], b"MThd");
//! # let _ = (Program::default(), SeqBuilder::new());
//! ```
#![forbid(unsafe_code)]

pub mod build;
pub mod flow;
mod fuzz;
pub mod golden;
pub mod insn;
pub mod midi;
mod model;
pub mod opcode;
mod text;
mod validate;
mod view;

pub use flow::{Flow, Track};
pub use fuzz::fuzz_bms;
pub use insn::{Args, Body, Command, Instruction, Printf, RegPrefix, Vlq};
pub use model::{Block, Content, FRESH_LABEL, Program};
pub use text::{from_text, label_name, note_name, to_text};
pub use validate::validate;
pub use view::{View, parse, parse_with};
