//! Property tests: arbitrary offsets and lengths never panic, and writer output reads back.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gcio::{Reader, Writer, fuzz_reader, padding_for};
use proptest::prelude::*;

proptest! {
    #[test]
    fn reads_never_panic(data in proptest::collection::vec(any::<u8>(), 0..256), off in any::<usize>(), len in any::<usize>()) {
        let r = Reader::new(&data);
        let _ = r.bytes(off, len);
        let _ = r.u32(off);
        let _ = r.cstr(off);
        let _ = r.sub(off, len);
        let _ = r.table::<gcio::zerocopy::byteorder::big_endian::U16>(off, len);
        fuzz_reader(&data);
    }

    #[test]
    fn written_values_read_back(a in any::<u32>(), b in any::<i16>(), c in any::<u8>(), align in 0usize..64) {
        let mut w = Writer::new();
        w.u8(c).align(align, 0).u32(a).i16_le(b);
        let start = 1 + padding_for(1, align);
        let bytes = w.into_vec();
        let r = Reader::new(&bytes);
        prop_assert_eq!(r.u8(0).unwrap(), c);
        prop_assert_eq!(r.u32(start).unwrap(), a);
        prop_assert_eq!(r.i16_le(start + 4).unwrap(), b);
        prop_assert_eq!(bytes.len(), start + 6);
    }
}

#[test]
fn fuzz_seeds_replay() {
    for seed in [
        &b""[..],
        b"\xff\xff\xff\xff",
        b"RARC\0\0\0\x10\0\x04\0\x02abcd",
        &[0u8; 64],
    ] {
        fuzz_reader(seed);
    }
}
