#![no_main]
//! PKX: detection, both layouts' views, model, byte-exact rewrite, validator (with the embedded
//! DAT), JSON metadata round trip and the conversion to the other game on arbitrary bytes.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pkx::fuzz_pkx(data));
