//! Validator: the control-flow findings plus per-instruction checks, citing `BMS-*` rules.

use gcio::{Diagnostic, Limits};

use crate::insn::{Body, Command, Instruction};
use crate::opcode::{EXT, Width, ops};
use crate::view::parse_with;

/// Checks `data` and returns every finding. Never fails: a file that cannot be walked at all (a
/// limit) is reported as one error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a walk over them is the one error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    let view = match parse_with(data, limits) {
        Ok(v) => v,
        Err(e) => return vec![Diagnostic::error("BMS-001", e.offset(), e.to_string())],
    };
    let mut out = view.flow().findings().to_vec();
    crate::ticks::check(&view, &mut out);
    if data.is_empty() {
        out.push(Diagnostic::error(
            "BMS-001",
            None,
            "empty file: no root track",
        ));
    }
    for (at, insn) in view.instructions() {
        check(&insn, at as u64, &mut out);
    }
    out
}

/// Whether register `r` has a meaning (general registers, ports, the 0x60–0x74 track registers).
fn register_known(r: u32) -> bool {
    r < 0x50 || (0x60..=0x74).contains(&r)
}

fn check(insn: &Instruction, at: u64, out: &mut Vec<Diagnostic>) {
    let at = Some(at);
    match insn {
        Instruction::Note { velocity, gate, .. } => {
            if *velocity > 0x7F {
                out.push(Diagnostic::warning(
                    "BMS-002",
                    at,
                    format!("note velocity {velocity:#04x} > 0x7f"),
                ));
            }
            if let Some(g) = gate {
                check_vlq(g, at, out);
            }
        }
        Instruction::VoiceOff(n) if *n & 7 == 0 => out.push(Diagnostic::info(
            "BMS-003",
            at,
            format!("{:#04x} closes no voice (no-op)", 0x80 | n),
        )),
        Instruction::VoiceOff(n) if *n > 7 => out.push(Diagnostic::info(
            "BMS-003",
            at,
            format!(
                "{:#04x} acts as note-off for voice {} (undocumented)",
                0x80 | n,
                n & 7
            ),
        )),
        Instruction::VoiceOff(_) => {}
        Instruction::Command(c) => check_command(c, at, out),
    }
}

fn check_vlq(v: &crate::insn::Vlq, at: Option<u64>, out: &mut Vec<Diagnostic>) {
    if v.bytes().len() == 4 && v.bytes().last().is_some_and(|b| b & 0x80 != 0) {
        out.push(Diagnostic::warning(
            "BMS-006",
            at,
            "VLQ longer than 4 bytes: the game reads 0 and continues after the fourth byte",
        ));
    }
}

fn check_command(c: &Command, at: Option<u64>, out: &mut Vec<Diagnostic>) {
    let Some(info) = c.info() else { return };
    if !info.defined {
        out.push(Diagnostic::warning(
            "BMS-009",
            at,
            format!(
                "NULL opcode {:#04x} (a no-op the game never emits)",
                c.opcode
            ),
        ));
    }
    if let Some(p) = c.prefix {
        let argc = usize::from(info.argc);
        if (argc..8).any(|i| p.is_reg(i)) {
            out.push(Diagnostic::warning(
                "BMS-011",
                at,
                format!(
                    "prefix {:#04x} {:#04x} flags arguments {} does not have",
                    p.opcode, p.flags, info.name
                ),
            ));
        }
    }
    let args = c.args();
    for (i, &v) in args.iter().enumerate() {
        if c.width(i) == Width::Reg && !register_known(v) {
            out.push(Diagnostic::warning(
                "BMS-011",
                at,
                format!("argument {i} reads unknown register {v:#04x}"),
            ));
        }
    }
    let written = match c.opcode {
        ops::REG_LOAD => c.literal(0),
        ops::REG_REG | ops::REG_IMM | ops::REG_UNI => c.literal(1),
        ops::READ_PORT => c.literal(1),
        _ => None,
    };
    if let Some(r) = written.filter(|&r| !register_known(r)) {
        out.push(Diagnostic::warning(
            "BMS-011",
            at,
            format!("writes unknown register {r:#04x}"),
        ));
    }
    match c.opcode {
        ops::OPEN_TRACK => {
            if let Some(n) = c.literal(0).filter(|&n| n > 15) {
                out.push(Diagnostic::error(
                    "BMS-004",
                    at,
                    format!("track number {n} > 15"),
                ));
            }
        }
        ops::CALL_F | ops::RET_F | ops::JMP_F => {
            if let Some(cond) = c.literal(0).filter(|&v| v > 5) {
                out.push(Diagnostic::error(
                    "BMS-013",
                    at,
                    format!("condition {cond} is not 0..5"),
                ));
            }
        }
        EXT => {
            if let Body::Ext(x) = c.body
                && x != 1
            {
                out.push(Diagnostic::warning(
                    "BMS-015",
                    at,
                    format!("extended opcode {x:#04x} has no handler (only 0x01 dump)"),
                ));
            }
        }
        _ => {}
    }
    match &c.body {
        Body::Wait(v) => check_vlq(v, at, out),
        Body::Printf(p) => {
            if !p.terminated {
                out.push(Diagnostic::error(
                    "BMS-012",
                    at,
                    "printf string not NUL-terminated within 0x80 characters",
                ));
            }
            if p.args.len() > 4 {
                out.push(Diagnostic::error(
                    "BMS-012",
                    at,
                    format!("printf has {} conversions (the game holds 4)", p.args.len()),
                ));
            }
            let mut it = p.format.iter();
            while let Some(&b) = it.next() {
                match b {
                    b'\\' => {
                        it.next();
                    }
                    b'%' => {
                        if let Some(&l) = it.next().filter(|l| !b"dxsrR".contains(l)) {
                            out.push(Diagnostic::warning(
                                "BMS-012",
                                at,
                                format!(
                                    "printf conversion %{} is not one of %d %x %s %r %R (still takes a byte)",
                                    char::from(l)
                                ),
                            ));
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}
