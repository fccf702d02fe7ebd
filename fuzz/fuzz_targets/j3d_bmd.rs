#![no_main]
//! J3D models through every layer: view, typed chunks, geometry, skeleton, OBJ, validator, model
//! round trip (which must be byte-exact whenever it parses).
libfuzzer_sys::fuzz_target!(|data: &[u8]| j3d_bmd::fuzz_bmd(data));
