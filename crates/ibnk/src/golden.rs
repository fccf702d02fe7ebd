//! The golden table: hand-assembled banks of both versions with the model each decodes to. One
//! table drives the read tests, the write tests and the bench.

use crate::F32;
use crate::model::*;

/// One golden row.
#[derive(Debug, Clone)]
pub struct Row {
    /// What the row covers.
    pub name: &'static str,
    /// The file bytes.
    pub bytes: Vec<u8>,
    /// The bank they decode to.
    pub bank: Bank,
}

/// Decodes hex digits, ignoring spaces.
fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s
        .bytes()
        .filter(u8::is_ascii_hexdigit)
        .map(|c| (c as char).to_digit(16).unwrap_or(0) as u8)
        .collect();
    digits
        .chunks(2)
        .map(|p| p.iter().fold(0, |a, d| a * 16 + d))
        .collect()
}

fn bank(id: i32, body: Body) -> Bank {
    Bank {
        id,
        reserved: [0; 16],
        size_delta: 8,
        body,
    }
}

fn v1(chunks: Vec<ChunkData>) -> Body {
    Body::V1(Bank1 {
        chunks: chunks.into_iter().map(Chunk::new).collect(),
        tail: Vec::new(),
    })
}

fn region(velocity: u8, wave: u16) -> VelocityRegion {
    VelocityRegion {
        velocity,
        wave,
        volume: F32::ONE,
        pitch: F32::ONE,
        ..VelocityRegion::default()
    }
}

const HEADER: &str = "49424E4B";

/// The golden rows.
pub fn table() -> Vec<Row> {
    let zero16 = "00".repeat(16);
    vec![
        Row {
            name: "v1 empty LIST",
            bytes: hex(&format!(
                "{HEADER} 00000024 00000005 00000001 {zero16} 4C495354 00000004 00000000"
            )),
            bank: bank(5, v1(vec![ChunkData::List(Table::default())])),
        },
        Row {
            name: "v1 instrument with envelope and oscillator",
            bytes: hex(&format!(
                "{HEADER} 000000A4 00000007 00000001 {zero16}
                 454E5654 0000000C 0000 000A 7FFF 000F 0000 0000
                 4F534354 00000020 00000001
                   4F736369 00 000000 3F800000 00000000 00000000 3F800000 00000000
                 494E5354 00000038 00000001
                   496E7374 00000001 00000000 00000000 00000001
                   7F000000 00000001 7F 000000 0000 0011 3F800000 3F800000
                   3F800000 3F800000
                 4C495354 00000008 00000001 00000068"
            )),
            bank: bank(
                7,
                v1(vec![
                    ChunkData::Envt(Envt {
                        tables: vec![Envelope {
                            points: vec![
                                EnvPoint {
                                    mode: 0,
                                    time: 10,
                                    value: 0x7FFF,
                                },
                                EnvPoint {
                                    mode: 0xF,
                                    time: 0,
                                    value: 0,
                                },
                            ],
                        }],
                        tail: Vec::new(),
                    }),
                    ChunkData::Osct(Table::new(vec![Oscillator {
                        rate: F32::ONE,
                        attack: Link::Env(0),
                        release: Link::Env(0),
                        width: F32::ONE,
                        ..Oscillator::default()
                    }])),
                    ChunkData::Inst(Table::new(vec![Inst {
                        oscillators: vec![0],
                        effects: Vec::new(),
                        keys: vec![KeyRegion {
                            high_key: 0x7F,
                            pad: [0; 3],
                            velocities: vec![region(0x7F, 0x11)],
                        }],
                        volume: F32::ONE,
                        pitch: F32::ONE,
                    }])),
                    ChunkData::List(Table::new(vec![Link::Inst(0)])),
                ]),
            ),
        },
        Row {
            name: "v1 drum kit after an unknown, padded chunk",
            bytes: hex(&format!(
                "{HEADER} 00000084 00000002 00000001 {zero16}
                 58545241 00000003 010203 00
                 504D4150 0000002C 00000001
                   506D6170 3F800000 3F800000 40 00 03E8 00000000 00000001
                   7F 000000 0000 0050 3F800000 3F800000
                 50455243 00000014 00000001 50657263 00000002 00000000 00000038
                 4C495354 00000008 00000001 0000006C"
            )),
            bank: bank(
                2,
                v1(vec![
                    ChunkData::Unknown {
                        id: *b"XTRA",
                        data: vec![1, 2, 3],
                    },
                    ChunkData::Pmap(Table::new(vec![Pmap {
                        volume: F32::ONE,
                        pitch: F32::ONE,
                        pan: 0x40,
                        unused: 0,
                        release: 1000,
                        effects: Vec::new(),
                        velocities: vec![region(0x7F, 0x50)],
                    }])),
                    ChunkData::Perc(Table::new(vec![Perc {
                        keys: vec![Link::Empty, Link::Pmap(0)],
                    }])),
                    ChunkData::List(Table::new(vec![Link::Perc(0)])),
                ]),
            ),
        },
        Row {
            name: "v0 instrument, key map and velocity map",
            bytes: hex(&format!(
                "{HEADER} 00000428 00000003 00000000 {zero16}
                 42414E4B 000003E4 {}
                 494E5354 00000000 3F800000 3F800000 {} 00000001 00000414
                 7F000000 00000001 00000420
                 7F 000000 0000 0011 3F800000 3F800000",
                "00".repeat(4 * 239),
                "00".repeat(24),
            )),
            bank: bank(
                3,
                Body::V0(Bank0 {
                    magic: *b"BANK",
                    slots: std::iter::once(Link::Object(0))
                        .chain(std::iter::repeat_n(Link::Empty, SLOTS0 - 1))
                        .collect(),
                    objects: vec![
                        Placed {
                            gap: Vec::new(),
                            object: Object::Inst(Inst0 {
                                magic: *b"INST",
                                volume: F32::ONE,
                                pitch: F32::ONE,
                                keys: vec![Link::Object(1)],
                                ..Inst0::default()
                            }),
                        },
                        Placed {
                            gap: Vec::new(),
                            object: Object::Keymap(Keymap0 {
                                high_key: 0x7F,
                                pad: [0; 3],
                                velocities: vec![Link::Object(2)],
                            }),
                        },
                        Placed {
                            gap: Vec::new(),
                            object: Object::Vmap(region(0x7F, 0x11)),
                        },
                    ],
                    tail: Vec::new(),
                }),
            ),
        },
    ]
}
