#![no_main]
//! GX texture decoding of arbitrary bytes (every format, palettes, mips), then re-encoding.
libfuzzer_sys::fuzz_target!(|data: &[u8]| gx::tex::fuzz_decode(data));
