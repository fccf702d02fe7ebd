#![no_main]
//! Layout animations: frame, typed sections, writer (must reproduce the input), JSON round
//! trip, validator, evaluation.
libfuzzer_sys::fuzz_target!(|data: &[u8]| brlan::fuzz_brlan(data));
