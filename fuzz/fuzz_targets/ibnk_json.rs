#![no_main]
//! Text → binary converter: see `ibnk::fuzz_ibnk_json` (sample text with input-chosen edits).
libfuzzer_sys::fuzz_target!(|data: &[u8]| ibnk::fuzz_ibnk_json(data));
