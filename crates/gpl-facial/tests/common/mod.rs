//! Hand-written fixtures shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use gpl_facial::{AttrFormat, Attribute, Descriptor, FacialObject, FacialSection, Run};

/// Big-endian i16 components as bytes.
pub fn be(v: &[i16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_be_bytes()).collect()
}

/// Hex string (whitespace ignored) to bytes.
pub fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| c.is_ascii_hexdigit()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// One rigid object on submesh 1, two poses, one position attribute mapping vertices 3 and 4.
pub fn tiny() -> FacialSection {
    FacialSection {
        max_pose_count: 2,
        pad: 0,
        reserved: 0,
        descriptors: vec![Descriptor::for_format(AttrFormat::rigid_position(1))],
        objects: vec![FacialObject {
            pose_count: 2,
            attributes: vec![Attribute {
                entries: 2,
                format: AttrFormat::rigid_position(1),
                runs: vec![Run { first: 3, len: 2 }, Run::TERMINATOR],
                poses: vec![be(&[10, 20, 30, 40, 50, 60]), be(&[1, 0, -1, 0, 0, 0])],
            }],
        }],
    }
}

/// `tiny()` serialized, worked out by hand from the packing rule.
pub fn tiny_bytes() -> Vec<u8> {
    let mut b = hex("0002 0001 0001 0000 00000024 00000014 00000000
         0001 01 32 000000000000000000000000
         0002 0001 00000014 00000030
         00000002 01010302 00000044 0000004C 00000058
         0003 0002 0000 0000
         000A 0014 001E 0028 0032 003C
         0001 0000 FFFF 0000 0000 0000");
    assert_eq!(b.len(), 0x64);
    b.resize(0x80, 0);
    b
}

/// A minimal block around `facial`: a 0x20-byte GPL stand-in at 0x20, the facial section at
/// 0x40 and a 0x20-byte ptr8 section after it.
pub fn tiny_block(facial: &[u8]) -> Vec<u8> {
    let ptr8 = 0x40 + facial.len() as u32;
    let mut b = Vec::new();
    for w in [0u32, 0x20, 0, 0, 0, 0, 0x40, ptr8] {
        b.extend_from_slice(&w.to_be_bytes());
    }
    b.extend_from_slice(&0x00B7_49E0u32.to_be_bytes());
    b.resize(0x40, 0);
    b.extend_from_slice(facial);
    b.extend_from_slice(b"TRAILING ptr8 SECTION...........");
    b
}
