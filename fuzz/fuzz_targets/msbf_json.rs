#![no_main]
//! Text → binary converter: see `msbf::fuzz_msbf_json` (sample text with input-chosen edits).
libfuzzer_sys::fuzz_target!(|data: &[u8]| msbf::fuzz_msbf_json(data));
