#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Property tests: any instruction list encodes and decodes back equal (binary and text), and
//! arbitrary bytes never panic, always round-trip and always end.

use bms::opcode::{self, EXT, PRINTF, WAIT};
use bms::{Args, Block, Body, Command, Content, Instruction, Printf, Program, RegPrefix, Vlq};
use gcio::Reader;
use proptest::prelude::*;

fn vlq() -> impl Strategy<Value = Vlq> {
    (1usize..=4, any::<[u8; 4]>()).prop_map(|(len, mut b)| {
        for (i, x) in b.iter_mut().enumerate().take(len) {
            if i + 1 < len {
                *x |= 0x80;
            } else if len < 4 {
                *x &= 0x7F;
            }
        }
        Vlq::from_bytes(&b[..len]).unwrap()
    })
}

fn conversions(format: &[u8]) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < format.len() {
        match format[i] {
            b'\\' => i += 2,
            b'%' if i + 1 < format.len() => {
                n += 1;
                i += 2
            }
            _ => i += 1,
        }
    }
    n
}

fn command() -> impl Strategy<Value = Instruction> {
    let prefix = prop::option::of(
        (0x90u8..=0x9F, any::<u8>()).prop_map(|(opcode, flags)| RegPrefix { opcode, flags }),
    );
    (
        0xA0u8..=0xFF,
        prefix,
        any::<[u32; 5]>(),
        vlq(),
        any::<u8>(),
        prop::collection::vec(1u8..=255, 0..40),
        any::<[u8; 40]>(),
    )
        .prop_map(|(op, prefix, raw, wait, ext, format, pargs)| {
            let body = match op {
                EXT => Body::Ext(ext),
                WAIT => Body::Wait(wait),
                PRINTF => {
                    let n = conversions(&format);
                    Body::Printf(Printf {
                        format,
                        terminated: true,
                        args: pargs[..n].to_vec(),
                    })
                }
                _ => {
                    let mut c = Command {
                        prefix,
                        opcode: op,
                        body: Body::Args(Args::default()),
                    };
                    let argc = usize::from(opcode::info(op).unwrap().argc);
                    let vals: Vec<u32> =
                        (0..argc).map(|i| raw[i] % (c.width(i).max() + 1)).collect();
                    c.body = Body::Args(Args::new(&vals).unwrap());
                    return Instruction::Command(c);
                }
            };
            Instruction::Command(Command {
                prefix,
                opcode: op,
                body,
            })
        })
}

fn instruction() -> impl Strategy<Value = Instruction> {
    prop_oneof![
        (0u8..0x80, any::<u8>(), any::<u8>(), vlq()).prop_map(|(key, flags, velocity, g)| {
            Instruction::Note {
                key,
                flags,
                velocity,
                gate: (flags & 7 == 0).then_some(g),
            }
        }),
        (0u8..16).prop_map(Instruction::VoiceOff),
        command(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn instruction_lists_round_trip(list in prop::collection::vec(instruction(), 0..40)) {
        let p = Program { blocks: vec![Block { label: None, content: Content::Code(list.clone()) }] };
        let bytes = p.write().unwrap();
        let r = Reader::new(&bytes);
        let mut pos = 0;
        let mut back = Vec::new();
        while pos < bytes.len() {
            let (i, n) = Instruction::decode(r, pos).unwrap();
            back.push(i);
            pos += n;
        }
        prop_assert_eq!(&back, &list);
        let text = bms::to_text(&p);
        let parsed = bms::from_text(&text).unwrap();
        prop_assert_eq!(parsed.write().unwrap(), bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..512)) {
        bms::fuzz_bms(&data);
    }

    #[test]
    fn opcode_soup_never_panics(data in prop::collection::vec(prop_oneof![
        Just(0xC1u8), Just(0xC3), Just(0xC5), Just(0xC7), Just(0xC8), Just(0xC9), Just(0xCA),
        Just(0xCB), Just(0xCC), Just(0xF0), Just(0xFD), Just(0xFF), Just(0x90), Just(0x00),
        Just(0x80), Just(0x25), Just(0xF3), 0u8..8
    ], 0..256)) {
        bms::fuzz_bms(&data);
    }
}
