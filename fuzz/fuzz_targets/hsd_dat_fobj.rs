#![no_main]
//! Sysdolphin FObj keyframe streams: decode, evaluate, re-encode byte for byte.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hsd_dat::fuzz_fobj(data));
