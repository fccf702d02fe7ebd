//! Golden bytes of the sample's layout; arbitrary and mutated bytes never panic and what
//! parses writes back identically.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use jpc::{Part, Value};
use proptest::prelude::*;

/// Header, resource header and block sizes land where the JSystem layout puts them.
#[test]
fn sample_layout() {
    let j = jpc::build::sample();
    let b = j.write().unwrap();
    assert_eq!(&b[..8], b"JPAC2-10");
    assert_eq!(&b[8..12], &[0, 2, 0, 2]);
    let tex = u32::from_be_bytes(b[12..16].try_into().unwrap()) as usize;
    assert_eq!(tex % 32, 0);
    assert_eq!(&b[tex..tex + 4], b"TEX1");
    // Effect 0: id 0, 6 blocks, 1 field, 1 key block, 2 textures.
    assert_eq!(&b[0x10..0x18], &[0, 0, 0, 6, 1, 1, 2, 0]);
    assert_eq!(&b[0x18..0x20], b"BEM1\0\0\0\x7c");
    let bsp = 0x18 + 0x7C;
    assert_eq!(&b[bsp..bsp + 4], b"BSP1");
    // BSP1: 0x34 head, 2 texture indices, 2 pad, colour table at 0x38 (2 × 6), 4 pad: 0x48 bytes.
    assert_eq!(&b[bsp + 4..bsp + 8], &0x48u32.to_be_bytes());
    assert_eq!(&b[bsp + 0x38..bsp + 0x3E], &[0, 0, 0xFF, 0xFF, 0, 0xFF]);
    let back = jpc::Jpc::parse(&b).unwrap();
    assert_eq!(back, j);
    assert!(back.raw_parts().is_empty());
    assert_eq!(
        back.resources[0].blocks[0].field("rate"),
        Some(Value::F32(gcio::F32::new(4.0)))
    );
}

/// A block of an unknown tag is kept as bytes and named by raw_parts.
#[test]
fn unknown_blocks_are_kept() {
    let mut j = jpc::build::sample();
    j.resources[1].blocks.push(jpc::Block {
        tag: *b"XYZ1",
        fields: Vec::new(),
        parts: vec![Part::Bytes(vec![1, 2, 3, 4])],
    });
    let end = 0x10 + j.resources.iter().map(jpc::Resource::size).sum::<usize>();
    j.gap = vec![0; end.next_multiple_of(32) - end];
    let b = j.write().unwrap();
    let back = jpc::Jpc::parse(&b).unwrap();
    assert_eq!(back, j);
    assert_eq!(back.raw_parts(), ["resource 1 block XYZ1"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..400)) {
        jpc::fuzz_jpc(&data);
    }

    #[test]
    fn mutated_sample_never_panics(at in 0usize..1200, byte in any::<u8>()) {
        let mut b = jpc::build::sample().write().unwrap();
        let n = b.len();
        b[at % n] = byte;
        jpc::fuzz_jpc(&b);
    }
}
