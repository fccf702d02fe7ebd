//! One BMS instruction: decoding at any offset and encoding back to the same bytes.

use gcio::{Error, Reader, Result, Writer};

use crate::opcode::{self, EXT, OpInfo, PRINTF, Pointer, WAIT, Width};

/// Most table-driven arguments any command takes (`simple_adsr`).
pub const MAX_ARGS: usize = 5;

/// A MIDI-style variable-length quantity (waits, gate durations) kept as its raw bytes, so
/// non-minimal encodings (leading `0x80` bytes) round-trip (BMS-006).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Vlq {
    raw: [u8; 4],
    len: u8,
}

impl Vlq {
    /// Largest value a 4-byte VLQ holds.
    pub const MAX: u32 = 0x0FFF_FFFF;

    /// The one-byte encoding of 0.
    pub const ZERO: Vlq = Vlq {
        raw: [0; 4],
        len: 1,
    };

    /// The minimal encoding of `value`; `None` above [`Vlq::MAX`].
    pub fn new(value: u32) -> Option<Vlq> {
        if value > Self::MAX {
            return None;
        }
        let groups = (1..4).take_while(|&i| value >> (7 * i) != 0).count() + 1;
        let mut raw = [0u8; 4];
        for (i, slot) in raw.iter_mut().take(groups).enumerate() {
            let shift = 7 * (groups - 1 - i);
            let more = if i + 1 < groups { 0x80 } else { 0 };
            *slot = ((value >> shift) & 0x7F) as u8 | more;
        }
        Some(Vlq {
            raw,
            len: groups as u8,
        })
    }

    /// A VLQ from its raw bytes; `None` unless they form exactly one VLQ as the game reads it.
    pub fn from_bytes(bytes: &[u8]) -> Option<Vlq> {
        let (v, len) = Vlq::read(Reader::new(bytes), 0).ok()?;
        (len == bytes.len()).then_some(v)
    }

    /// Reads a VLQ at `offset` the way `JASSeqReader::readMidiValue` does: at most 4 bytes; when the
    /// fourth still has bit 7 set the value is 0 and no fifth byte is read. Returns it and its size.
    pub fn read(r: Reader<'_>, offset: usize) -> Result<(Vlq, usize)> {
        let mut raw = [0u8; 4];
        let mut len = 0;
        for slot in raw.iter_mut() {
            let b = r.u8(offset + len)?;
            *slot = b;
            len += 1;
            if b & 0x80 == 0 {
                break;
            }
        }
        Ok((
            Vlq {
                raw,
                len: len as u8,
            },
            len,
        ))
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &[u8] {
        self.raw.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// The tick count the game uses (0 for an over-long 4-byte run).
    pub fn value(&self) -> u32 {
        let b = self.bytes();
        if b.len() == 4 && b.last().is_some_and(|l| l & 0x80 != 0) {
            return 0;
        }
        b.iter().fold(0, |acc, x| (acc << 7) | u32::from(x & 0x7F))
    }

    /// True when the bytes are the shortest encoding of the value.
    pub fn is_minimal(&self) -> bool {
        Vlq::new(self.value()).is_some_and(|m| m == *self)
    }
}

/// Up to [`MAX_ARGS`] argument values, stored inline (decoding allocates nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Args {
    vals: [u32; MAX_ARGS],
    len: u8,
}

impl Args {
    /// Arguments from a slice; `None` when there are more than [`MAX_ARGS`].
    pub fn new(vals: &[u32]) -> Option<Args> {
        let mut a = Args::default();
        for &v in vals {
            *a.vals.get_mut(usize::from(a.len))? = v;
            a.len += 1;
        }
        Some(a)
    }

    /// The values.
    pub fn as_slice(&self) -> &[u32] {
        self.vals.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// Value `i`, if present.
    pub fn get(&self, i: usize) -> Option<u32> {
        self.as_slice().get(i).copied()
    }

    /// Replaces value `i` (ignored when absent).
    pub fn set(&mut self, i: usize, v: u32) {
        if let Some(s) = self.vals.get_mut(i).filter(|_| i < usize::from(self.len)) {
            *s = v;
        }
    }

    fn push(&mut self, v: u32) {
        if let Some(s) = self.vals.get_mut(usize::from(self.len)) {
            *s = v;
            self.len += 1;
        }
    }
}

/// The 0x90–0x9F register-argument prefix: the top `(opcode & 7) + 1` bits of `flags` (MSB first)
/// mark which of the next command's arguments are register numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegPrefix {
    /// The prefix byte itself (0x90–0x9F; bit 3 is ignored by the game but kept).
    pub opcode: u8,
    /// The flag byte (bits beyond the counted ones are kept as written).
    pub flags: u8,
}

impl RegPrefix {
    /// Number of arguments the flag byte covers.
    pub fn count(&self) -> usize {
        usize::from(self.opcode & 7) + 1
    }

    /// Whether argument `i` is replaced by a register read.
    pub fn is_reg(&self, i: usize) -> bool {
        i < self.count()
            && self
                .flags
                .checked_shl(i as u32)
                .is_some_and(|f| f & 0x80 != 0)
    }

    /// The shortest prefix flagging exactly the arguments in `regs` (bit i = argument i); `None`
    /// when no argument is flagged.
    pub fn for_args(regs: u8) -> Option<RegPrefix> {
        if regs == 0 {
            return None;
        }
        let last = 7 - regs.leading_zeros() as u8;
        Some(RegPrefix {
            opcode: 0x90 | last,
            flags: regs.reverse_bits(),
        })
    }
}

/// The inline string and argument bytes of `printf` (0xFD), as `JASSeqParser::cmdPrintf` reads them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Printf {
    /// The format bytes as stored (escapes such as `\n` are kept as two bytes), without the NUL.
    pub format: Vec<u8>,
    /// False when the game's 0x80-slot limit ended the string before a NUL (BMS-012).
    pub terminated: bool,
    /// One byte per conversion (`%` followed by any non-NUL byte).
    pub args: Vec<u8>,
}

/// Character slots the game's printf buffer holds.
const PRINTF_SLOTS: usize = 0x80;

/// Scans a printf string at `offset` like the game: returns (format length, terminated,
/// conversion count). Escapes `\c` take one slot, conversions `%c` two, other bytes one.
fn scan_printf(r: Reader<'_>, offset: usize) -> Result<(usize, bool, usize)> {
    let (mut pos, mut slots, mut conv) = (offset, 0, 0);
    let next = |pos: &mut usize| {
        let b = r.u8(*pos);
        *pos += 1;
        b
    };
    while slots < PRINTF_SLOTS {
        let at = pos;
        match next(&mut pos)? {
            0 => return Ok((at - offset, true, conv)),
            b'\\' => {
                if next(&mut pos)? == 0 {
                    return Ok((pos - 1 - offset, true, conv));
                }
                slots += 1;
            }
            b'%' => {
                slots += 1;
                if next(&mut pos)? == 0 {
                    return Ok((pos - 1 - offset, true, conv));
                }
                slots += 1;
                conv += 1;
            }
            _ => slots += 1,
        }
    }
    Ok((pos - offset, false, conv))
}

/// What follows a command's opcode besides table-driven arguments.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Body {
    /// Table-driven arguments (every command except the three below).
    Args(Args),
    /// `B0 xx`: the extended-command index.
    Ext(u8),
    /// `F0`: the wait in ticks.
    Wait(Vlq),
    /// `FD`: the inline printf.
    Printf(Printf),
}

/// A command 0xA0–0xFF, possibly behind a register prefix.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Command {
    /// The 0x9n prefix, when present.
    pub prefix: Option<RegPrefix>,
    /// The command byte (0xA0–0xFF).
    pub opcode: u8,
    /// Arguments or inline payload.
    pub body: Body,
}

impl Command {
    /// A plain command with table-driven arguments; `None` for too many values.
    pub fn new(opcode: u8, args: &[u32]) -> Option<Command> {
        Some(Command {
            prefix: None,
            opcode,
            body: Body::Args(Args::new(args)?),
        })
    }

    /// The table entry (`None` only for opcodes below 0xA0, which a valid command never has).
    pub fn info(&self) -> Option<&'static OpInfo> {
        opcode::info(self.opcode)
    }

    /// Effective width of argument `i`, with the prefix's register override applied.
    pub fn width(&self, i: usize) -> Width {
        match (self.prefix, self.info()) {
            (Some(p), _) if p.is_reg(i) => Width::Reg,
            (_, Some(info)) => info.width(i),
            _ => Width::U8,
        }
    }

    /// The table-driven argument values (empty for ext / wait / printf).
    pub fn args(&self) -> &[u32] {
        match &self.body {
            Body::Args(a) => a.as_slice(),
            _ => &[],
        }
    }

    /// The argument holding an offset into the sequence, when it is a literal (not a register):
    /// (argument index, pointer kind, value).
    pub fn pointer(&self) -> Option<(usize, Pointer, u32)> {
        let (i, kind) = self.info()?.pointer?;
        let i = usize::from(i);
        if self.width(i) == Width::Reg {
            return None;
        }
        Some((i, kind, self.args().get(i).copied()?))
    }

    /// A literal argument `i` (`None` when absent or read from a register).
    pub fn literal(&self, i: usize) -> Option<u32> {
        (self.width(i) != Width::Reg)
            .then(|| self.args().get(i).copied())
            .flatten()
    }
}

/// One instruction of the byte stream.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Instruction {
    /// 0x00–0x7F: note on. `flags & 7` = voice 1–7; 0 makes it a gate note with a duration
    /// (BMS-002, C-17: Petari's rule).
    Note {
        /// MIDI key (the opcode byte, ≤ 0x7F).
        key: u8,
        /// Voice in the low 3 bits, gate-note flags in bits 6–7, other bits kept.
        flags: u8,
        /// Velocity byte.
        velocity: u8,
        /// Gate duration; present exactly when `flags & 7 == 0`.
        gate: Option<Vlq>,
    },
    /// 0x80–0x8F: note off for voice `n & 7` (0 = no-op); `n` is the low nibble.
    VoiceOff(u8),
    /// 0xA0–0xFF, optionally behind a 0x90–0x9F prefix.
    Command(Command),
}

impl Instruction {
    /// A plain command with table-driven arguments; `None` for more than [`MAX_ARGS`] values.
    pub fn cmd(opcode: u8, args: &[u32]) -> Option<Instruction> {
        Command::new(opcode, args).map(Instruction::Command)
    }

    /// The command, when this is one.
    pub fn command(&self) -> Option<&Command> {
        match self {
            Instruction::Command(c) => Some(c),
            _ => None,
        }
    }

    /// Decodes the instruction at `offset`; returns it and its size in bytes.
    pub fn decode(r: Reader<'_>, offset: usize) -> Result<(Instruction, usize)> {
        let op = r.u8(offset)?;
        match op {
            0x00..=0x7F => {
                let flags = r.u8(offset + 1)?;
                let velocity = r.u8(offset + 2)?;
                let (gate, len) = if flags & 7 == 0 {
                    let (v, n) = Vlq::read(r, offset + 3)?;
                    (Some(v), 3 + n)
                } else {
                    (None, 3)
                };
                Ok((
                    Instruction::Note {
                        key: op,
                        flags,
                        velocity,
                        gate,
                    },
                    len,
                ))
            }
            0x80..=0x8F => Ok((Instruction::VoiceOff(op & 0x0F), 1)),
            0x90..=0x9F => {
                let prefix = RegPrefix {
                    opcode: op,
                    flags: r.u8(offset + 1)?,
                };
                let (cmd, len) = decode_command(r, offset + 2, Some(prefix))?;
                Ok((Instruction::Command(cmd), len + 2))
            }
            _ => {
                let (cmd, len) = decode_command(r, offset, None)?;
                Ok((Instruction::Command(cmd), len))
            }
        }
    }

    /// Encoded size in bytes.
    pub fn size(&self) -> usize {
        match self {
            Instruction::Note { gate, .. } => 3 + gate.map_or(0, |g| g.bytes().len()),
            Instruction::VoiceOff(_) => 1,
            Instruction::Command(c) => {
                let body = match &c.body {
                    Body::Args(a) => (0..a.as_slice().len()).map(|i| c.width(i).size()).sum(),
                    Body::Ext(_) => 1,
                    Body::Wait(v) => v.bytes().len(),
                    Body::Printf(p) => p.format.len() + usize::from(p.terminated) + p.args.len(),
                };
                1 + 2 * usize::from(c.prefix.is_some()) + body
            }
        }
    }

    /// Appends the encoding. `reloc` maps the literal offset argument (if any) to the value to
    /// write; identity for a plain re-encode. Fails when a field cannot be encoded as the opcode
    /// requires (wrong argument count, value too wide, gate/voice mismatch, inconsistent printf).
    pub fn encode(&self, w: &mut Writer, reloc: impl Fn(u32) -> u32) -> Result<()> {
        match self {
            Instruction::Note {
                key,
                flags,
                velocity,
                gate,
            } => {
                if *key > 0x7F || (flags & 7 == 0) != gate.is_some() {
                    return Err(bad(format!(
                        "note {key:#04x} flags {flags:#04x}: key must be <= 0x7f and gate present exactly when flags & 7 == 0"
                    )));
                }
                w.u8(*key).u8(*flags).u8(*velocity);
                if let Some(g) = gate {
                    w.bytes(g.bytes());
                }
            }
            Instruction::VoiceOff(n) => {
                if *n > 0x0F {
                    return Err(bad(format!("voice off {n} > 15")));
                }
                w.u8(0x80 | n);
            }
            Instruction::Command(c) => encode_command(c, w, reloc)?,
        }
        Ok(())
    }

    /// The encoding as a new vector, without relocation.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut w = Writer::with_capacity(self.size());
        self.encode(&mut w, |v| v)?;
        Ok(w.into_vec())
    }
}

fn bad(msg: String) -> Error {
    Error::without_offset(gcio::ErrorKind::Invalid(msg))
}

fn decode_command(
    r: Reader<'_>,
    offset: usize,
    prefix: Option<RegPrefix>,
) -> Result<(Command, usize)> {
    let op = r.u8(offset)?;
    let info = opcode::info(op).ok_or_else(|| {
        Error::invalid(
            r.abs(offset),
            format!("register prefix followed by {op:#04x}, not a command 0xa0-0xff (BMS-011)"),
        )
    })?;
    let mut cmd = Command {
        prefix,
        opcode: op,
        body: Body::Args(Args::default()),
    };
    let mut pos = offset + 1;
    cmd.body = match op {
        EXT => {
            pos += 1;
            Body::Ext(r.u8(offset + 1)?)
        }
        WAIT => {
            let (v, n) = Vlq::read(r, pos)?;
            pos += n;
            Body::Wait(v)
        }
        PRINTF => {
            let (len, terminated, conv) = scan_printf(r, pos)?;
            let format = r.bytes(pos, len)?.to_vec();
            pos += len + usize::from(terminated);
            let args = r.bytes(pos, conv)?.to_vec();
            pos += conv;
            Body::Printf(Printf {
                format,
                terminated,
                args,
            })
        }
        _ => {
            let mut args = Args::default();
            for i in 0..usize::from(info.argc) {
                let v = match cmd.width(i) {
                    Width::U8 | Width::Reg => u32::from(r.u8(pos)?),
                    Width::U16 => u32::from(r.u16(pos)?),
                    Width::U24 => r.u24(pos)?,
                };
                pos += cmd.width(i).size();
                args.push(v);
            }
            Body::Args(args)
        }
    };
    Ok((cmd, pos - offset))
}

fn encode_command(c: &Command, w: &mut Writer, reloc: impl Fn(u32) -> u32) -> Result<()> {
    let info = c
        .info()
        .ok_or_else(|| bad(format!("command opcode {:#04x} < 0xa0", c.opcode)))?;
    if let Some(p) = c.prefix {
        if !(0x90..=0x9F).contains(&p.opcode) {
            return Err(bad(format!("register prefix {:#04x}", p.opcode)));
        }
        w.u8(p.opcode).u8(p.flags);
    }
    let kind_ok = matches!(
        (c.opcode, &c.body),
        (EXT, Body::Ext(_)) | (WAIT, Body::Wait(_)) | (PRINTF, Body::Printf(_))
    ) || (!matches!(c.opcode, EXT | WAIT | PRINTF)
        && matches!(c.body, Body::Args(_)));
    if !kind_ok {
        return Err(bad(format!("{}: wrong operand kind", name_of(c.opcode))));
    }
    w.u8(c.opcode);
    match &c.body {
        Body::Ext(x) => {
            w.u8(*x);
        }
        Body::Wait(v) => {
            w.bytes(v.bytes());
        }
        Body::Printf(p) => encode_printf(p, w)?,
        Body::Args(a) => {
            if a.as_slice().len() != usize::from(info.argc) {
                return Err(bad(format!(
                    "{} takes {} arguments, got {}",
                    name_of(c.opcode),
                    info.argc,
                    a.as_slice().len()
                )));
            }
            let ptr = c.pointer().map(|(i, _, _)| i);
            for (i, &v) in a.as_slice().iter().enumerate() {
                let v = if Some(i) == ptr { reloc(v) } else { v };
                let width = c.width(i);
                if v > width.max() {
                    return Err(bad(format!(
                        "{} argument {i} = {v:#x} does not fit {width:?}",
                        name_of(c.opcode)
                    )));
                }
                match width {
                    Width::U8 | Width::Reg => w.u8(v as u8),
                    Width::U16 => w.u16(v as u16),
                    Width::U24 => w.u24(v),
                };
            }
        }
    }
    Ok(())
}

fn encode_printf(p: &Printf, w: &mut Writer) -> Result<()> {
    let start = w.position();
    w.bytes(&p.format);
    if p.terminated {
        w.u8(0);
    }
    // The game decides where the string ends; the stored form must scan back the same way.
    let tail = w.as_slice().get(start..).unwrap_or_default();
    let (len, terminated, conv) = scan_printf(Reader::new(tail), 0)
        .map_err(|_| bad("printf: string is not NUL-terminated".into()))?;
    if len != p.format.len() || terminated != p.terminated || conv != p.args.len() {
        return Err(bad(format!(
            "printf: format scans as {len} bytes with {conv} conversions, stored {} bytes with {} argument bytes",
            p.format.len(),
            p.args.len()
        )));
    }
    w.bytes(&p.args);
    Ok(())
}

/// Text mnemonic of a command opcode (`op_XX` for NULL entries).
pub fn name_of(op: u8) -> String {
    match opcode::info(op) {
        Some(i) if i.defined => i.name.to_owned(),
        _ => format!("op_{op:02x}"),
    }
}
