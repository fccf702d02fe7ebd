#![no_main]
//! IBNK banks and WSYS wave systems: view, model read/write, what-plays, validation.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ibnk::fuzz_ibnk(data));
