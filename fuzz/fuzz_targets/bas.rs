#![no_main]
//! Sound animation tables: view, model, writer (must reproduce the input), JSON round trip,
//! validator.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bas::fuzz_bas(data));
