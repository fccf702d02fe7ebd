#![no_main]
//! KCL collision: view, model, writer (must reproduce the input), validator, queries, OBJ export
//! and re-building.
libfuzzer_sys::fuzz_target!(|data: &[u8]| kcl::fuzz_kcl(data));
