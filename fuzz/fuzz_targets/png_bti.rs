#![no_main]
//! Image → texture converter: see `j3d_bmd::fuzz_png_bti` (PNG bytes as they are, and a
//! generated PNG converted to every texture format).
libfuzzer_sys::fuzz_target!(|data: &[u8]| j3d_bmd::fuzz_png_bti(data));
