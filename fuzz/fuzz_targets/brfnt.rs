#![no_main]
//! NW4R fonts: view, model, writer (must reproduce the input), JSON, glyph lookup, sheets, validator.
libfuzzer_sys::fuzz_target!(|data: &[u8]| brfnt::fuzz_brfnt(data));
