#![no_main]
//! RARC parse -> model -> write -> parse on arbitrary bytes.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rarc::fuzz_parse(data));
