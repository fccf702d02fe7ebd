//! Replays the text → binary fuzz body (`bms::fuzz_bms_text`) on reproducible inputs: sample text
//! with edits that make declared numbers extreme and structure break.

#[test]
fn replay() {
    for input in gcio::replay_inputs(400) {
        bms::fuzz_bms_text(&input);
    }
}
