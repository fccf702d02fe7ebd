#![no_main]
//! Standalone BTI textures: parse and byte-exact write.
libfuzzer_sys::fuzz_target!(|data: &[u8]| j3d_bmd::fuzz_bti(data));
