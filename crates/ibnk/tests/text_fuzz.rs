//! Replays the text → binary fuzz body (`ibnk::fuzz_ibnk_json`) on reproducible inputs: sample text
//! with edits that make declared numbers extreme and structure break.

#[test]
fn replay() {
    for input in gcio::replay_inputs(400) {
        ibnk::fuzz_ibnk_json(&input);
    }
}
