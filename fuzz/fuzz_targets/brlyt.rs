#![no_main]
//! Layouts: frame, typed sections, writer (must reproduce the input), JSON round trip,
//! validator, pane tree.
libfuzzer_sys::fuzz_target!(|data: &[u8]| brlyt::fuzz_brlyt(data));
