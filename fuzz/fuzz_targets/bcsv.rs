#![no_main]
//! BCSV: view, getters, model, writer (must reproduce the input), CSV and JSON round trips, validator.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bcsv::fuzz_bcsv(data));
