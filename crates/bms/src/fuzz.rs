//! Fuzz body shared by the cargo-fuzz target and `cargo test` seed replay.

use gcio::{Limits, Reader};

use crate::insn::Instruction;
use crate::midi::{ExportOptions, render};
use crate::text::{from_text, to_text};
use crate::validate::validate;
use crate::view::parse_with;

/// Decodes at every offset, discovers the control flow, checks that the disassembly writes the
/// input back exactly and survives the text form, validates, and renders MIDI with small bounds.
/// Panics only when an invariant breaks (that is the finding).
pub fn fuzz_bms(data: &[u8]) {
    let r = Reader::new(data);
    for off in 0..data.len().min(64) {
        if let Ok((insn, size)) = Instruction::decode(r, off) {
            let bytes = insn.to_bytes();
            assert_eq!(
                bytes.ok().as_deref(),
                data.get(off..off + size),
                "re-encode at {off}"
            );
        }
    }
    let limits = Limits {
        max_nodes: 1 << 16,
        ..Limits::default()
    };
    let Ok(view) = parse_with(data, &limits) else {
        return;
    };
    if let Ok(program) = view.to_program() {
        assert_eq!(program.write().ok().as_deref(), Some(data), "round trip");
        let text = to_text(&program);
        let again = from_text(&text).and_then(|p| p.write());
        assert_eq!(again.ok().as_deref(), Some(data), "text round trip");
    }
    let _ = validate(data);
    let opts = ExportOptions {
        max_steps: 4096,
        max_tracks: 8,
        ..ExportOptions::default()
    };
    if let Ok(song) = render(data, &opts) {
        let _ = song.to_smf();
    }
}
