#![no_main]
//! Text → binary converter: see `bms::fuzz_bms_text` (sample text with input-chosen edits).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bms::fuzz_bms_text(data));
