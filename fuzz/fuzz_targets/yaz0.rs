#![no_main]
//! Yaz0/Yay0 decoding of arbitrary bytes; streams that parse must write back exactly.
libfuzzer_sys::fuzz_target!(|data: &[u8]| yaz0::fuzz_decode(data));
