//! The golden table: small facial sections next to bytes worked out by hand from the packing
//! rule. It drives the read tests, the write tests and the bench.

use crate::model::{AttrFormat, Attribute, Descriptor, FacialObject, FacialSection, Run};

/// Big-endian i16 components as bytes.
pub fn be(v: &[i16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_be_bytes()).collect()
}

/// Bytes from hex digits (anything else is ignored, so tables can be laid out in columns).
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s
        .chars()
        .filter_map(|c| c.to_digit(16))
        .map(|d| d as u8)
        .collect();
    digits
        .chunks_exact(2)
        .map(|p| p.iter().fold(0, |a, d| a << 4 | d))
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

/// [`tiny`] serialized: header, descriptor at 0x14, object table at 0x24, record at 0x30, runs
/// at 0x44, pose 0 at 0x4C, pose 1 at 0x58, zero padding to 0x80.
pub fn tiny_bytes() -> Vec<u8> {
    let mut b = hex("0002 0001 0001 0000 00000024 00000014 00000000
         0001 01 32 000000000000000000000000
         0002 0001 00000014 00000030
         00000002 01010302 00000044 0000004C 00000058
         0003 0002 0000 0000
         000A 0014 001E 0028 0032 003C
         0001 0000 FFFF 0000 0000 0000");
    b.resize(0x80, 0);
    b
}

/// (name, model, bytes) rows.
pub fn table() -> Vec<(&'static str, FacialSection, Vec<u8>)> {
    let mut unterminated = tiny();
    for a in unterminated
        .objects
        .iter_mut()
        .flat_map(|o| o.attributes.iter_mut())
    {
        a.runs.pop();
    }
    // Without the (0, 0) pair the poses move up 4 bytes; 0x60 bytes need no padding.
    let ub = hex("0002 0001 0001 0000 00000024 00000014 00000000
         0001 01 32 000000000000000000000000
         0002 0001 00000014 00000030
         00000002 01010302 00000044 00000048 00000054
         0003 0002
         000A 0014 001E 0028 0032 003C
         0001 0000 FFFF 0000 0000 0000");
    let skinned = FacialSection {
        max_pose_count: 2,
        pad: 0,
        reserved: 0,
        descriptors: vec![
            Descriptor::for_format(AttrFormat::body(0)),
            Descriptor::for_format(AttrFormat::skacc(0)),
        ],
        objects: vec![FacialObject {
            pose_count: 2,
            attributes: vec![
                Attribute {
                    entries: 1,
                    format: AttrFormat::body(0),
                    runs: vec![Run { first: 5, len: 1 }, Run::TERMINATOR],
                    poses: vec![be(&[1, 2, 3, 4, 5, 6]), be(&[0; 6])],
                },
                Attribute {
                    entries: 1,
                    format: AttrFormat::skacc(0),
                    runs: vec![Run { first: 0, len: 1 }, Run::TERMINATOR],
                    poses: vec![vec![1, 2, 3, 4, 5, 0xFA], vec![0; 6]],
                },
            ],
        }],
    };
    // Descriptors 0x14/0x24, object at 0x34, records 0x40 and 0x54 (0x14 each), runs 0x68 and
    // 0x70, poses 0x78 (12), 0x84 (12), 0x90 (6), 0x96 (6); 0x9C padded to 0xA0.
    let sb = hex("0002 0001 0002 0000 00000034 00000014 00000000
         0000 01 62 000000000000000000000000
         0000 00 61 000000000000000000000000
         0002 0002 00000014 00000040
         00000001 00010602 00000068 00000078 00000084
         00000001 00000601 00000070 00000090 00000096
         0005 0001 0000 0000 0000 0001 0000 0000
         0001 0002 0003 0004 0005 0006
         0000 0000 0000 0000 0000 0000
         01 02 03 04 05 FA 00 00 00 00 00 00
         00000000");
    let empty = FacialSection {
        max_pose_count: 0,
        pad: 0,
        reserved: 0,
        descriptors: vec![],
        objects: vec![],
    };
    let mut eb = hex("0000 0000 0000 0000 00000014 00000014 00000000");
    eb.resize(0x20, 0);
    vec![
        ("rigid", tiny(), tiny_bytes()),
        ("unterminated", unterminated, ub),
        ("skinned", skinned, sb),
        ("empty", empty, eb),
    ]
}
