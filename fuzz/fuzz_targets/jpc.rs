#![no_main]
//! JParticle containers: view, model, writer (must reproduce the input), validator.
libfuzzer_sys::fuzz_target!(|data: &[u8]| jpc::fuzz_jpc(data));
