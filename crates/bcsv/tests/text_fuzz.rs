//! Replays the text → binary fuzz bodies (`bcsv::fuzz_bcsv_csv`, `bcsv::fuzz_bcsv_json`) on
//! reproducible inputs: sample text with edits that make declared numbers extreme and structure
//! break.

#[test]
fn replay() {
    for input in gcio::replay_inputs(400) {
        bcsv::fuzz_bcsv_csv(&input);
        bcsv::fuzz_bcsv_json(&input);
    }
}
