#![no_main]
//! GPL model blocks and facial pose sections: parse, validate, write, re-parse.

libfuzzer_sys::fuzz_target!(|data: &[u8]| gpl_facial::fuzz_gpl_facial(data));
