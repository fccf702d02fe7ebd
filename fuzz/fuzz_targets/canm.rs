#![no_main]
//! Camera animations: view, model, writer (must reproduce the input), JSON round trip,
//! validator, evaluation.
libfuzzer_sys::fuzz_target!(|data: &[u8]| canm::fuzz_canm(data));
