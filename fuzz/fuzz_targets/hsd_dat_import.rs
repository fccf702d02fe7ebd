#![no_main]
//! glTF → sysdolphin `.dat` import: see `hsd_dat::fuzz_import` (an in-code sample's glb with
//! input-chosen edits to its JSON or binary chunk, imported in both compiler orders).
libfuzzer_sys::fuzz_target!(|data: &[u8]| hsd_dat::fuzz_import(data));
