#![no_main]
//! glTF → sysdolphin `.dat` import of arbitrary bytes read as a glb, in both compiler orders:
//! what imports parses, checks without errors and exports again.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hsd_dat::fuzz_import(data));
