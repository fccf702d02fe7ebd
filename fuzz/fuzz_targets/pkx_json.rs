#![no_main]
//! Text → binary converter: see `pkx::fuzz_pkx_json` (sample text with input-chosen edits).
libfuzzer_sys::fuzz_target!(|data: &[u8]| pkx::fuzz_pkx_json(data));
