#![no_main]
//! J3D animations: view, model, writer (must reproduce the input), JSON round trip, validator,
//! evaluation.
libfuzzer_sys::fuzz_target!(|data: &[u8]| j3d_anim::fuzz_anim(data));
