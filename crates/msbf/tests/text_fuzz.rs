//! Replays the text → binary fuzz body (`msbf::fuzz_msbf_json`) on reproducible inputs: sample text
//! with edits that make declared numbers extreme and structure break.

#[test]
fn replay() {
    for input in gcio::replay_inputs(400) {
        msbf::fuzz_msbf_json(&input);
    }
}
