#![no_main]
//! TPL: view, model, writer (must reproduce the input), validator, PNG folder round trip.
libfuzzer_sys::fuzz_target!(|data: &[u8]| tpl::fuzz_tpl(data));
