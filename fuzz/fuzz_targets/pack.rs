#![no_main]
//! `gcf pack` from a generated folder: see `gcformats::archive::fuzz_pack` (folders with hostile names,
//! and an extracted sample whose manifest has input-chosen edits).
libfuzzer_sys::fuzz_target!(|data: &[u8]| gcformats::archive::fuzz_pack(data));
