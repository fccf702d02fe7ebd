//! Replays the text → binary fuzz body (`pkx::fuzz_pkx_json`) on reproducible inputs: sample text
//! with edits that make declared numbers extreme and structure break.

#[test]
fn replay() {
    for input in gcio::replay_inputs(400) {
        pkx::fuzz_pkx_json(&input);
    }
}
