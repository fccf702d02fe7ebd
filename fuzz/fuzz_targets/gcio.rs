#![no_main]
//! Every gcio reader at offsets and lengths chosen by the input.
libfuzzer_sys::fuzz_target!(|data: &[u8]| gcio::fuzz_reader(data));
