#![no_main]
//! MSBF: view, model, byte-exact rewrite, JSON round trip, validator and DOT on arbitrary bytes.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| msbf::fuzz_msbf(data));
