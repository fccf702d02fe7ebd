//! Golden tables: one table of (value, bytes) drives the read tests, the write tests and the
//! bench. Byte strings are big endian; the little-endian form swaps each u16.

use crate::model::Node;
use crate::names::{ConditionType, EventType, NodeType};

/// FLW2 nodes and their 12 stored bytes (big endian).
pub const NODES: &[(Node, [u8; 12])] = &[
    (
        Node::Entry {
            next: 1,
            arg0: 0,
            arg2: 0,
            arg3: 0,
            arg4: 0,
        },
        [0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
    ),
    (
        Node::Message {
            message_id: 0,
            next: 2,
            arg0: 0,
            arg1: 0x88,
            arg4: 0,
        },
        [0, 1, 0, 0, 0, 0x88, 0, 0, 0, 2, 0, 0],
    ),
    (
        Node::Message {
            message_id: 5,
            next: 0xFFFF,
            arg0: 0,
            arg1: 0x88,
            arg4: 0,
        },
        [0, 1, 0, 0, 0, 0x88, 0, 5, 0xFF, 0xFF, 0, 0],
    ),
    (
        Node::Condition {
            condition: ConditionType::YES_NO,
            param: 0x0D,
            branch: 2,
            arg0: 0,
            arg1: 2,
        },
        [0, 2, 0, 0, 0, 2, 0, 0, 0, 0x0D, 0, 2],
    ),
    (
        Node::Condition {
            condition: ConditionType::SW_B,
            param: 0,
            branch: 0,
            arg0: 0,
            arg1: 2,
        },
        [0, 2, 0, 0, 0, 2, 0, 4, 0, 0, 0, 0],
    ),
    (
        Node::Event {
            event: EventType::ANIME_FUNC,
            next: 10,
            param: 1,
            arg0: 0,
            arg3: 0,
        },
        [0, 3, 0, 0, 0, 4, 0, 0x0A, 0, 0, 0, 1],
    ),
    (
        Node::Event {
            event: EventType::EVENT_FUNC_END,
            next: 0xFFFF,
            param: 0,
            arg0: 0,
            arg3: 0,
        },
        [0, 3, 0, 0, 0, 1, 0xFF, 0xFF, 0, 0, 0, 0],
    ),
    (
        Node::Other {
            kind: NodeType(7),
            args: [1, 2, 3, 4, 0xBEEF],
        },
        [0, 7, 0, 1, 0, 2, 0, 3, 0, 4, 0xBE, 0xEF],
    ),
];

/// Labels, their LMS hash and their bucket among SMG2's 59 (the buckets are the corpus
/// expectations' `label_buckets`).
pub const LABELS: &[(&str, u32, usize)] = &[
    ("MarioFaceShipGalaxy_KinopioBank000", 0xBEB3_B4E8, 13),
    ("MarioFaceShipGalaxy_KinopioBank001", 0xBEB3_B4E9, 14),
    ("BigTree2Galaxy_Moc000", 0xDA1F_CF78, 41),
    ("BigTree2Galaxy_Moc001", 0xDA1F_CF79, 42),
    ("", 0, 0),
];

/// A whole little-endian file: one entry ("A") leading to message 7, a one-bucket FEN1.
pub const LITTLE_FILE: &[u8] = &[
    // header: magic, BOM FF FE, 00 00 00 03, 2 sections, pad, length 0x80, pad
    b'M', b's', b'g', b'F', b'l', b'w', b'B', b'n', 0xFF, 0xFE, 0, 0, 0, 3, 2, 0, //
    0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
    // FLW2: size 0x20, 2 nodes, 0 branches
    b'F', b'L', b'W', b'2', 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
    2, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, //
    0, 0, 0, 0, 1, 0, 0, 0, 0x88, 0, 7, 0, 0xFF, 0xFF, 0, 0, //
    // FEN1: size 0x12, 1 bucket {1 label at 0x0C}, "A" -> node 0, 0xAB padding
    b'F', b'E', b'N', b'1', 0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
    1, 0, 0, 0, 1, 0, 0, 0, 0x0C, 0, 0, 0, 1, b'A', 0, 0, //
    0, 0, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB,
];
