#![no_main]
//! BMS: instruction decoder at every offset, control-flow discovery, byte-exact and text round
//! trips, validator and bounded MIDI rendering.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bms::fuzz_bms(data));
