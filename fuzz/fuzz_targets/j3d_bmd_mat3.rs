#![no_main]
//! MAT3 chunks: typed model, byte-exact write, material resolution and re-deduplication.
libfuzzer_sys::fuzz_target!(|data: &[u8]| j3d_bmd::fuzz_mat3(data));
