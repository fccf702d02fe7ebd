#![no_main]
//! `gcf pack` from a generated folder: see `gcf::archive::fuzz_pack` (folders with hostile names,
//! and an extracted sample whose manifest has input-chosen edits).
libfuzzer_sys::fuzz_target!(|data: &[u8]| gcf::archive::fuzz_pack(data));
