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
    if let Ok(program) = crate::Program::from_view(&view, &Limits::default()) {
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

/// Assembler text → BMS, the path of `gcf convert x.txt x.bms`: a sample's disassembly with the
/// edits the input chooses ([`gcio::mutate_text`]); whatever assembles must write a sequence whose
/// disassembly writes back the same bytes. Never panics, hangs or allocates without bound.
pub fn fuzz_bms_text(data: &[u8]) {
    static TEMPLATES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let templates = TEMPLATES.get_or_init(|| {
        crate::build::samples()
            .unwrap_or_default()
            .iter()
            .filter_map(|s| Some(to_text(&crate::Program::parse(&s.bytes).ok()?)))
            .collect()
    });
    let (Some(&pick), Some(edits)) = (data.first(), data.get(1..)) else {
        return;
    };
    let Some(template) = templates.get(usize::from(pick) % templates.len().max(1)) else {
        return;
    };
    let Ok(program) = from_text(&gcio::mutate_text(template, edits)) else {
        return;
    };
    let Ok(bytes) = program.write() else { return };
    let back = crate::Program::parse(&bytes);
    assert!(back.is_ok(), "a written sequence disassembles: {back:?}");
    let Ok(back) = back else { return };
    assert_eq!(
        back.write().ok(),
        Some(bytes),
        "written sequence round-trips"
    );
}
