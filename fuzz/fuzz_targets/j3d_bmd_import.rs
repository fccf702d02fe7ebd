#![no_main]
//! glTF → BMD/BDL import: see `j3d_bmd::fuzz_import` (an in-code sample's glb with input-chosen
//! edits to its JSON or binary chunk, imported as a BMD and as a BDL).
libfuzzer_sys::fuzz_target!(|data: &[u8]| j3d_bmd::fuzz_import(data));
