#![no_main]
//! Sysdolphin archives: parse, typed graph, meshes, validator, owned model write and re-read.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hsd_dat::fuzz_hsd_dat(data));
