//! The text form: one instruction per line, a label for every referenced block, tables and data
//! as directives, offsets in comments. [`to_text`] and [`from_text`] are inverse on unedited text,
//! so `bms → txt → bms` is byte-identical; edited text is re-laid out by [`Program::write`].
//!
//! ```text
//! L_000000:
//!     open_track 1, L_000010        ; 0x000000
//!     [91 40] reg_load 3, r0x21     ; explicit prefix (only when not the canonical one)
//!     jmp_table r3, L_000030
//!     note 60, 0x01, 100            ; 0x00000f C4
//!     note 62, 0x00, 100, {81 00}   ; gate note, non-minimal VLQ kept as raw bytes
//!     wait 96
//!     printf "x=%d\\n", 5
//! L_000030:
//!     .table L_000040, L_000050
//!     .data 00 01 02
//! ```
//!
//! Mnemonics are JAudio2's `JASSeqParser::cmd*` handler names in snake case (`cmdOpenTrack` →
//! `open_track`); `cmdReg` has two opcodes, D9 `reg_reg` (register operand) and DA `reg_imm`
//! (16-bit operand); 0x00–0x7F are `note`, 0x80–0x8F `voice_off N`, NULL entries `op_XX`.
//! Numbers are decimal or `0x` hex; `rN` is a register argument (the 0x9n prefix is derived from
//! them unless written as `[XX YY]`); offset arguments are label names or numbers. Label names
//! `L_<hex>` keep that id, so an unedited disassembly re-assembles to the same offsets.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use gcio::{Error, ErrorKind, Result};

use crate::insn::{Args, Body, Command, Instruction, Printf, RegPrefix, Vlq, name_of};
use crate::model::{Content, FRESH_LABEL, Program};
use crate::opcode::{self, EXT, PRINTF, WAIT, Width};

const UNTERMINATED: &str = "printf_unterminated";

/// Name of label `id` in the text form.
pub fn label_name(id: u32) -> String {
    format!("L_{id:06X}")
}

/// Renders a program as text.
pub fn to_text(p: &Program) -> String {
    let (_, size) = p.layout();
    let labels: HashSet<u32> = p.blocks.iter().filter_map(|b| b.label).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; BMS sequence: {size:#x} bytes, {} blocks",
        p.blocks.len()
    );
    for (n, entry) in p.tracks() {
        let n = n.map_or("r?".to_owned(), |n| n.to_string());
        let name = if labels.contains(&entry) {
            label_name(entry)
        } else {
            format!("{entry:#08x}")
        };
        let _ = writeln!(out, "; track {n} at {name}");
    }
    let mut pos = 0usize;
    for b in &p.blocks {
        if let Some(l) = b.label {
            let _ = writeln!(out, "{}:", label_name(l));
        }
        match &b.content {
            Content::Code(code) => {
                for insn in code {
                    let line = format_insn(insn, &labels);
                    let note = match insn {
                        Instruction::Note { key, .. } => format!(" {}", note_name(*key)),
                        _ => String::new(),
                    };
                    let _ = writeln!(out, "    {line:<40} ; {pos:#08x}{note}");
                    pos += insn.size();
                }
            }
            Content::Table(t) => {
                for chunk in t.chunks(4) {
                    let refs: Vec<String> = chunk.iter().map(|&v| reference(v, &labels)).collect();
                    let _ = writeln!(out, "    .table {:<33} ; {pos:#08x}", refs.join(", "));
                    pos += 3 * chunk.len();
                }
            }
            Content::Data(d) => {
                for chunk in d.chunks(16) {
                    let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
                    let _ = writeln!(out, "    .data {:<34} ; {pos:#08x}", hex.join(" "));
                    pos += chunk.len();
                }
            }
        }
    }
    out
}

fn reference(v: u32, labels: &HashSet<u32>) -> String {
    if labels.contains(&v) {
        label_name(v)
    } else {
        format!("{v:#08x}")
    }
}

fn vlq_text(v: &Vlq) -> String {
    if v.is_minimal() {
        v.value().to_string()
    } else {
        let b: Vec<String> = v.bytes().iter().map(|b| format!("{b:02x}")).collect();
        format!("{{{}}}", b.join(" "))
    }
}

/// Name of MIDI key `key` (0x3C = C4, 0x00 = C-1).
pub fn note_name(key: u8) -> String {
    const NAMES: [&str; 12] = [
        "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
    ];
    let name = NAMES.get(usize::from(key % 12)).copied().unwrap_or("?");
    format!("{name}{}", i32::from(key / 12) - 1)
}

fn format_insn(insn: &Instruction, labels: &HashSet<u32>) -> String {
    match insn {
        Instruction::Note {
            key,
            flags,
            velocity,
            gate,
        } => match gate {
            Some(g) => format!("note {key}, {flags:#04x}, {velocity}, {}", vlq_text(g)),
            None => format!("note {key}, {flags:#04x}, {velocity}"),
        },
        Instruction::VoiceOff(n) => format!("voice_off {n}"),
        Instruction::Command(c) => {
            let mut s = String::new();
            if let Some(p) = c.prefix {
                let argc = c.info().map_or(0, |i| usize::from(i.argc));
                let is_args = matches!(c.body, Body::Args(_));
                if !is_args || RegPrefix::for_args(reg_mask(c, argc)) != Some(p) {
                    let _ = write!(s, "[{:02x} {:02x}] ", p.opcode, p.flags);
                }
            }
            let ptr = c.pointer().map(|(i, _, _)| i);
            match &c.body {
                Body::Ext(x) => {
                    let _ = write!(s, "ext {x}");
                }
                Body::Wait(v) => {
                    let _ = write!(s, "wait {}", vlq_text(v));
                }
                Body::Printf(p) => {
                    s.push_str(if p.terminated { "printf" } else { UNTERMINATED });
                    s.push_str(" \"");
                    for &b in &p.format {
                        match b {
                            b'"' => s.push_str("\\\""),
                            b'\\' => s.push_str("\\\\"),
                            0x20..=0x7E => s.push(char::from(b)),
                            _ => {
                                let _ = write!(s, "\\x{b:02x}");
                            }
                        }
                    }
                    s.push('"');
                    for a in &p.args {
                        let _ = write!(s, ", {a}");
                    }
                }
                Body::Args(a) => {
                    s.push_str(&name_of(c.opcode));
                    for (i, &v) in a.as_slice().iter().enumerate() {
                        s.push_str(if i == 0 { " " } else { ", " });
                        if c.width(i) == Width::Reg {
                            let _ = write!(s, "r{v:#04x}");
                        } else if Some(i) == ptr {
                            s.push_str(&reference(v, labels));
                        } else {
                            let _ = write!(s, "{v}");
                        }
                    }
                }
            }
            s
        }
    }
}

/// Arguments the prefix turns into registers (those the table already reads from a register
/// need no flag, so they do not count).
fn reg_mask(c: &Command, argc: usize) -> u8 {
    let table_reg = |i| c.info().is_some_and(|info| info.width(i) == Width::Reg);
    (0..argc.min(8))
        .filter(|&i| !table_reg(i) && c.prefix.is_some_and(|p| p.is_reg(i)))
        .fold(0, |m, i| m | 1 << i)
}

fn err(line: usize, msg: impl std::fmt::Display) -> Error {
    Error::without_offset(ErrorKind::Invalid(format!("line {line}: {msg}")))
}

/// Parses the text form back into a program (labels resolved when writing).
pub fn from_text(text: &str) -> Result<Program> {
    // Pass 1: label ids. `L_<hex>` keeps its id; other names get fresh ids above every offset.
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut fresh = FRESH_LABEL;
    let mut named = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = strip_comment(raw).trim();
        let Some(name) = line.strip_suffix(':') else {
            continue;
        };
        if !is_ident(name) || parse_reg(name).is_some() {
            return Err(err(n + 1, format!("bad label name {name:?}")));
        }
        match name
            .strip_prefix("L_")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
        {
            Some(id) => {
                fresh = fresh.max(id.saturating_add(1));
                if ids.insert(name, id).is_some() {
                    return Err(err(n + 1, format!("label {name} defined twice")));
                }
            }
            None => named.push((n, name)),
        }
    }
    for (n, name) in named {
        if ids.insert(name, fresh).is_some() {
            return Err(err(n + 1, format!("label {name} defined twice")));
        }
        fresh = fresh.saturating_add(1);
    }
    // Pass 2: blocks.
    let mut p = Program::default();
    let mut pending: Option<u32> = None;
    for (n, raw) in text.lines().enumerate() {
        let n = n + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_suffix(':') {
            if let Some(prev) = pending.replace(ids.get(name).copied().unwrap_or(0)) {
                p.push(Some(prev), Content::Data(Vec::new()));
            }
            continue;
        }
        let resolve = |tok: &str| -> Result<u32> {
            if let Some(v) = parse_num(tok) {
                return Ok(v);
            }
            ids.get(tok)
                .copied()
                .ok_or_else(|| err(n, format!("undefined label {tok:?}")))
        };
        let item = if let Some(rest) = line.strip_prefix(".data") {
            let bytes = rest
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).map_err(|_| err(n, format!("bad byte {t:?}"))))
                .collect::<Result<Vec<u8>>>()?;
            Content::Data(bytes)
        } else if let Some(rest) = line.strip_prefix(".table") {
            let entries = split_args(rest)
                .iter()
                .map(|t| resolve(t))
                .collect::<Result<Vec<u32>>>()?;
            Content::Table(entries)
        } else {
            Content::Code(vec![parse_insn(line, n, &resolve)?])
        };
        p.push(pending.take(), item);
    }
    if let Some(l) = pending {
        p.push(Some(l), Content::Data(Vec::new()));
    }
    Ok(p)
}

fn parse_insn(line: &str, n: usize, resolve: &dyn Fn(&str) -> Result<u32>) -> Result<Instruction> {
    let (prefix, line) = match line.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest
                .split_once(']')
                .ok_or_else(|| err(n, "unclosed prefix"))?;
            let b: Vec<u8> = inside
                .split_whitespace()
                .filter_map(|t| u8::from_str_radix(t, 16).ok())
                .collect();
            match b.as_slice() {
                [op @ 0x90..=0x9F, flags] => (
                    Some(RegPrefix {
                        opcode: *op,
                        flags: *flags,
                    }),
                    after.trim(),
                ),
                _ => return Err(err(n, format!("bad prefix [{inside}]"))),
            }
        }
        None => (None, line),
    };
    let (mnem, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let args = split_args(rest);
    let num = |t: &str| parse_num(t).ok_or_else(|| err(n, format!("bad number {t:?}")));
    let byte = |t: &str| {
        num(t).and_then(|v| u8::try_from(v).map_err(|_| err(n, format!("{t} is not a byte"))))
    };
    let vlq = |t: &str| -> Result<Vlq> {
        let v = match t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            Some(raw) => {
                let bytes: Vec<u8> = raw
                    .split_whitespace()
                    .map(|x| u8::from_str_radix(x, 16).map_err(|_| err(n, "bad VLQ byte")))
                    .collect::<Result<_>>()?;
                Vlq::from_bytes(&bytes)
            }
            None => Vlq::new(num(t)?),
        };
        v.ok_or_else(|| err(n, format!("bad VLQ {t:?}")))
    };
    if prefix.is_some() && matches!(mnem, "note" | "voice_off") {
        return Err(err(n, "a register prefix applies to commands only"));
    }
    let command = |opcode: u8, body: Body| {
        Instruction::Command(Command {
            prefix,
            opcode,
            body,
        })
    };
    match (mnem, args.as_slice()) {
        ("note", [k, f, v, rest @ ..]) => {
            let gate = match rest {
                [] => None,
                [g] => Some(vlq(g)?),
                _ => return Err(err(n, "note takes 3 or 4 arguments")),
            };
            Ok(Instruction::Note {
                key: byte(k)?,
                flags: byte(f)?,
                velocity: byte(v)?,
                gate,
            })
        }
        ("voice_off", [v]) => Ok(Instruction::VoiceOff(byte(v)?)),
        ("ext", [x]) => Ok(command(EXT, Body::Ext(byte(x)?))),
        ("wait", [v]) => Ok(command(WAIT, Body::Wait(vlq(v)?))),
        ("printf" | UNTERMINATED, [s, rest @ ..]) => {
            let format = unquote(s).ok_or_else(|| err(n, "printf needs a quoted string"))?;
            let args = rest.iter().map(|t| byte(t)).collect::<Result<Vec<u8>>>()?;
            Ok(command(
                PRINTF,
                Body::Printf(Printf {
                    format,
                    terminated: mnem == "printf",
                    args,
                }),
            ))
        }
        _ => {
            let opcode = opcode::by_name(mnem)
                .ok_or_else(|| err(n, format!("unknown mnemonic {mnem:?}")))?;
            let info = opcode::info(opcode).ok_or_else(|| err(n, "not a command"))?;
            if matches!(opcode, EXT | WAIT | PRINTF) || args.len() != usize::from(info.argc) {
                return Err(err(
                    n,
                    format!("{mnem} takes {} arguments, got {}", info.argc, args.len()),
                ));
            }
            let mut vals = Vec::with_capacity(args.len());
            let mut mask = 0u8;
            let table_reg = |i: usize| info.width(i) == Width::Reg;
            for (i, t) in args.iter().enumerate() {
                match parse_reg(t) {
                    Some(r) => {
                        if !table_reg(i) {
                            mask |= 1 << i;
                        }
                        vals.push(r);
                    }
                    None => vals.push(resolve(t)?),
                }
            }
            let prefix = match prefix {
                Some(p) => {
                    let differs = |i: usize| !table_reg(i) && p.is_reg(i) != (mask & 1 << i != 0);
                    if (0..args.len()).any(differs) {
                        return Err(err(n, "register arguments do not match the prefix flags"));
                    }
                    Some(p)
                }
                None => RegPrefix::for_args(mask),
            };
            let args = Args::new(&vals).ok_or_else(|| err(n, "too many arguments"))?;
            Ok(Instruction::Command(Command {
                prefix,
                opcode,
                body: Body::Args(args),
            }))
        }
    }
}

fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ';' if !quoted => return line.get(..i).unwrap_or(line),
            _ => {}
        }
    }
    line
}

fn split_args(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut quoted, mut escaped, mut start) = (false, false, 0);
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push(s.get(start..i).unwrap_or("").trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s.get(start..).unwrap_or("").trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    out
}

fn parse_num(t: &str) -> Option<u32> {
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

fn parse_reg(t: &str) -> Option<u32> {
    parse_num(t.strip_prefix('r')?)
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

fn unquote(s: &str) -> Option<Vec<u8>> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match it.next()? {
            'x' => {
                let h: String = it.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&h, 16).ok()?);
            }
            c @ ('"' | '\\') => out.push(c as u8),
            _ => return None,
        }
    }
    Some(out)
}
