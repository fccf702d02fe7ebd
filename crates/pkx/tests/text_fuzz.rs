//! Replays the text → binary fuzz body (`pkx::fuzz_pkx_json`) on reproducible inputs: sample text
//! with edits that make declared numbers extreme and structure break.

/// Inputs cargo-fuzz found (each once failed the body's assertion).
const FOUND: &[&[u8]] = &[&[0x04, 0x00, 0x35, 0x01]];

#[test]
fn replay() {
    for input in FOUND {
        pkx::fuzz_pkx_json(input);
    }
    for input in gcio::replay_inputs(400) {
        pkx::fuzz_pkx_json(&input);
    }
}
