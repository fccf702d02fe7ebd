#![no_main]
//! Text → binary converter: see `bcsv::fuzz_bcsv_csv` (sample text with input-chosen edits).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bcsv::fuzz_bcsv_csv(data));
