//! Replays the text → binary fuzz body (`ibnk::fuzz_ibnk_json`) on reproducible inputs: sample text
//! with edits that make declared numbers extreme and structure break.

/// Inputs cargo-fuzz found (each once failed the body's assertion).
const FOUND: &[&[u8]] = &[&[0x08, 0x31, 0x74, 0x01]];

#[test]
fn replay() {
    for input in FOUND {
        ibnk::fuzz_ibnk_json(input);
    }
    for input in gcio::replay_inputs(400) {
        ibnk::fuzz_ibnk_json(&input);
    }
}
