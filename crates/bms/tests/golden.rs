#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The golden table drives decoding and encoding of every opcode.

use bms::{Instruction, golden, opcode};
use gcio::Reader;

#[test]
fn decode_every_row() {
    for (bytes, want) in golden::table() {
        let (got, size) = Instruction::decode(Reader::new(&bytes), 0).unwrap();
        assert_eq!(got, want, "{bytes:02x?}");
        assert_eq!(size, bytes.len(), "{bytes:02x?}");
        assert_eq!(want.size(), bytes.len(), "{bytes:02x?}");
    }
}

#[test]
fn encode_every_row() {
    for (bytes, insn) in golden::table() {
        assert_eq!(insn.to_bytes().unwrap(), bytes, "{insn:?}");
    }
}

#[test]
fn table_covers_every_opcode() {
    let rows = golden::table();
    let first: std::collections::HashSet<u8> = rows.iter().map(|(b, _)| b[0]).collect();
    for op in 0x80..=0xFFu8 {
        if (0x90..=0x9F).contains(&op) {
            continue;
        }
        assert!(first.contains(&op), "opcode {op:#04x} has no golden row");
    }
    // Notes, the register prefix and the three special bodies are covered as well.
    assert!(rows.iter().any(|(b, _)| b[0] < 0x80));
    assert!(rows.iter().any(|(b, _)| (0x90..=0x9F).contains(&b[0])));
    // Every table-driven row has the table's argument count.
    for (b, i) in &rows {
        if let Some(c) = i.command()
            && let bms::Body::Args(a) = &c.body
        {
            assert_eq!(
                a.as_slice().len(),
                usize::from(opcode::info(c.opcode).unwrap().argc),
                "{b:02x?}"
            );
        }
    }
}

#[test]
fn vlq_seed_examples_and_limits() {
    use bms::Vlq;
    assert_eq!(Vlq::from_bytes(&[0x60]).unwrap().value(), 96);
    assert_eq!(Vlq::from_bytes(&[0x81, 0x56]).unwrap().value(), 214);
    assert_eq!(Vlq::from_bytes(&[0x83, 0x81, 0x30]).unwrap().value(), 49328);
    let over = Vlq::from_bytes(&[0xFF, 0xFF, 0xFF, 0xFF]).unwrap();
    assert_eq!((over.value(), over.bytes().len()), (0, 4));
    assert!(Vlq::from_bytes(&[0x80, 0x60]).is_some_and(|v| !v.is_minimal() && v.value() == 96));
    assert!(Vlq::from_bytes(&[0x81]).is_none());
    assert!(Vlq::from_bytes(&[0x01, 0x02]).is_none());
    for v in [0, 1, 127, 128, 16383, 16384, Vlq::MAX] {
        let q = Vlq::new(v).unwrap();
        assert_eq!(q.value(), v);
        assert!(q.is_minimal());
    }
    assert!(Vlq::new(Vlq::MAX + 1).is_none());
}

#[test]
fn bad_encodings_are_errors() {
    let bad = [
        Instruction::Note {
            key: 0x80,
            flags: 1,
            velocity: 0,
            gate: None,
        },
        Instruction::Note {
            key: 1,
            flags: 0,
            velocity: 0,
            gate: None,
        },
        Instruction::VoiceOff(16),
        Instruction::cmd(0xC7, &[0x0100_0000]).unwrap(),
        Instruction::cmd(0xC7, &[]).unwrap(),
        Instruction::cmd(0x10, &[]).unwrap(),
        Instruction::cmd(0xF0, &[]).unwrap(),
    ];
    for i in bad {
        assert!(i.to_bytes().is_err(), "{i:?}");
    }
}

#[test]
fn prefix_must_precede_a_command() {
    let e = Instruction::decode(Reader::new(&[0x90, 0x80, 0x3C, 1, 1]), 0).unwrap_err();
    assert!(e.to_string().contains("BMS-011"), "{e}");
    assert!(Instruction::decode(Reader::new(&[0xC7, 0x00]), 0).is_err());
}

/// C-17: a voice byte with non-zero low bits is a voice note (Petari), even above 0x07 (the other
/// reading calls every voice outside 1-7 a gate note); only `flags & 7 == 0` reads a VLQ.
#[test]
fn conflict_c17_voice_flags() {
    let (i, n) = Instruction::decode(Reader::new(&[0x3C, 0x41, 0x64, 0x60]), 0).unwrap();
    assert_eq!(n, 3);
    assert!(matches!(
        i,
        Instruction::Note {
            flags: 0x41,
            gate: None,
            ..
        }
    ));
    let (i, n) = Instruction::decode(Reader::new(&[0x3C, 0x40, 0x64, 0x60]), 0).unwrap();
    assert_eq!(n, 4);
    assert!(matches!(i, Instruction::Note { gate: Some(_), .. }));
}

/// C-18: the names the game's handlers agree with: F6 = ret_i (ends the handler), F7 = clr_i.
#[test]
fn conflict_c18_interrupt_names() {
    assert_eq!(opcode::by_name("ret_i"), Some(0xF6));
    assert_eq!(opcode::by_name("clr_i"), Some(0xF7));
}

/// The 0x9n prefix: n = (op & 7) + 1 flag bits, MSB first; bit 3 of the prefix byte is ignored.
#[test]
fn prefix_flag_bits() {
    use bms::RegPrefix;
    let p = RegPrefix {
        opcode: 0x98,
        flags: 0xC0,
    };
    assert_eq!(p.count(), 1);
    assert!(p.is_reg(0) && !p.is_reg(1));
    let p = RegPrefix {
        opcode: 0x91,
        flags: 0x40,
    };
    assert!(!p.is_reg(0) && p.is_reg(1));
    assert_eq!(RegPrefix::for_args(0b10), Some(p));
    assert_eq!(RegPrefix::for_args(0), None);
    // A flagged u16 argument becomes a one-byte register number.
    let (i, n) = Instruction::decode(Reader::new(&[0x91, 0x40, 0xD8, 0x05, 0x07]), 0).unwrap();
    assert_eq!((n, i.command().unwrap().args()), (5, &[5, 7][..]));
}
