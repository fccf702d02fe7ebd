//! Builders that assemble realistic sequences for tests, benches and `samples/`: a small
//! assembler with symbolic labels ([`SeqBuilder`]) and the sample songs made with it.

use gcio::Result;

use crate::insn::{Body, Command, Instruction, Printf, RegPrefix, Vlq};
use crate::model::{Content, FRESH_LABEL, Program};
use crate::opcode::{WAIT, ops};

/// A label handed out by [`SeqBuilder::label`]; usable as an offset argument before it is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Label(pub u32);

/// Assembles a [`Program`] block by block; [`SeqBuilder::build`] lays it out and resolves labels.
#[derive(Debug, Clone, Default)]
pub struct SeqBuilder {
    program: Program,
    pending: Option<u32>,
    next: u32,
}

impl SeqBuilder {
    /// An empty sequence.
    pub fn new() -> Self {
        SeqBuilder::default()
    }

    /// A new, not yet placed label.
    pub fn label(&mut self) -> Label {
        self.next += 1;
        Label(FRESH_LABEL + self.next)
    }

    /// Places `l` here: the following content starts a new block.
    pub fn place(&mut self, l: Label) -> &mut Self {
        if let Some(prev) = self.pending.replace(l.0) {
            self.program.push(Some(prev), Content::Data(Vec::new()));
        }
        self
    }

    fn push(&mut self, item: Content) -> &mut Self {
        self.program.push(self.pending.take(), item);
        self
    }

    /// Appends one instruction.
    pub fn insn(&mut self, i: Instruction) -> &mut Self {
        self.push(Content::Code(vec![i]))
    }

    /// Appends a command with literal arguments (offset arguments may be `label.0`).
    pub fn cmd(&mut self, opcode: u8, args: &[u32]) -> &mut Self {
        match Instruction::cmd(opcode, args) {
            Some(i) => self.insn(i),
            None => self,
        }
    }

    /// Appends a command whose arguments flagged in `regs` (bit i = argument i) are register numbers.
    pub fn cmd_regs(&mut self, opcode: u8, args: &[u32], regs: u8) -> &mut Self {
        match Command::new(opcode, args) {
            Some(mut c) => {
                c.prefix = RegPrefix::for_args(regs);
                self.insn(Instruction::Command(c))
            }
            None => self,
        }
    }

    /// A note on `voice` (1–7), held until [`voice_off`](Self::voice_off).
    pub fn note(&mut self, key: u8, voice: u8, velocity: u8) -> &mut Self {
        self.insn(Instruction::Note {
            key,
            flags: voice & 7,
            velocity,
            gate: None,
        })
    }

    /// A gate note lasting `ticks` (the track also waits that long).
    pub fn gate(&mut self, key: u8, velocity: u8, ticks: u32) -> &mut Self {
        self.insn(Instruction::Note {
            key,
            flags: 0,
            velocity,
            gate: Vlq::new(ticks),
        })
    }

    /// Releases `voice`.
    pub fn voice_off(&mut self, voice: u8) -> &mut Self {
        self.insn(Instruction::VoiceOff(voice & 7))
    }

    /// Waits `ticks` (minimal VLQ form; nothing above [`Vlq::MAX`]).
    pub fn wait(&mut self, ticks: u32) -> &mut Self {
        match Vlq::new(ticks) {
            Some(v) => self.wait_vlq(v),
            None => self,
        }
    }

    /// Waits with an explicit VLQ encoding.
    pub fn wait_vlq(&mut self, v: Vlq) -> &mut Self {
        self.insn(Instruction::Command(Command {
            prefix: None,
            opcode: WAIT,
            body: Body::Wait(v),
        }))
    }

    /// A printf with one argument byte per conversion.
    pub fn printf(&mut self, format: &str, args: &[u8]) -> &mut Self {
        self.insn(Instruction::Command(Command {
            prefix: None,
            opcode: crate::opcode::PRINTF,
            body: Body::Printf(Printf {
                format: format.as_bytes().to_vec(),
                terminated: true,
                args: args.to_vec(),
            }),
        }))
    }

    /// A jump / call / interrupt table.
    pub fn table(&mut self, entries: &[Label]) -> &mut Self {
        self.push(Content::Table(entries.iter().map(|l| l.0).collect()))
    }

    /// Raw data bytes.
    pub fn data(&mut self, bytes: &[u8]) -> &mut Self {
        self.push(Content::Data(bytes.to_vec()))
    }

    /// The program built so far (a label placed last becomes an empty block at the end).
    pub fn program(&self) -> Program {
        let mut p = self.program.clone();
        if let Some(l) = self.pending {
            p.push(Some(l), Content::Data(Vec::new()));
        }
        p
    }

    /// Lays out and encodes the sequence.
    pub fn build(&self) -> Result<Vec<u8>> {
        self.program().write()
    }
}

/// A sample sequence with what its MIDI export must contain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// File name under `samples/bms/`.
    pub name: &'static str,
    /// The sequence.
    pub bytes: Vec<u8>,
    /// Notes per rendered track (root first) with default export options (one loop unroll).
    pub notes_per_track: Vec<usize>,
}

/// A three-track song: the root sets tempo, opens the tracks, prints, and picks its ending
/// through a jump table indexed by a register; track 0 calls a phrase inside a counted loop; track 1
/// is an infinite bass loop; track 2 uses register arguments, a conditional jump, `note_gate`
/// and an envelope table in data.
pub fn song() -> Result<Sample> {
    let mut b = SeqBuilder::new();
    let [t0, t1, t2, tbl, e0, e1, e2] = [(); 7].map(|_| b.label());
    let [phrase, bass, skip, env] = [(); 4].map(|_| b.label());
    // Root track.
    b.cmd(ops::TEMPO, &[120])
        .cmd(ops::OPEN_TRACK, &[0, t0.0])
        .cmd(ops::OPEN_TRACK, &[1, t1.0])
        .cmd(ops::OPEN_TRACK, &[2, t2.0])
        .printf("song start %d\\n", &[3])
        .cmd(ops::REG_LOAD, &[0, 2])
        .cmd(ops::JMP_TABLE, &[0, tbl.0]);
    b.place(tbl).table(&[e0, e1, e2]);
    b.place(e0).wait(10).cmd(ops::FINISH, &[]);
    b.place(e1).wait(20).cmd(ops::FINISH, &[]);
    b.place(e2).wait(2000).cmd(ops::FINISH, &[]);
    // Track 0: melody, a phrase called three times in a loop, then a final note.
    b.place(t0)
        .cmd(ops::BANK_PRG, &[0x0100])
        .cmd(ops::LOOP_S, &[3])
        .cmd(ops::CALL, &[phrase.0])
        .cmd(ops::LOOP_E, &[])
        .note(72, 1, 100)
        .wait(48)
        .voice_off(1)
        .cmd(ops::FINISH, &[]);
    b.place(phrase)
        .note(60, 1, 100)
        .wait(24)
        .voice_off(1)
        .gate(64, 90, 24)
        .cmd(ops::RET, &[]);
    // Track 1: bass, loops forever.
    b.place(t1).cmd(ops::BANK, &[2]).cmd(ops::PRG, &[5]);
    b.place(bass)
        .gate(36, 80, 48)
        .wait(48)
        .cmd(ops::JMP, &[bass.0]);
    // Track 2: register arguments and a conditional jump over a note that never plays.
    b.place(t2)
        .cmd(0xE8, &[0, env.0])
        .cmd(ops::REG_LOAD, &[4, 24])
        .cmd(ops::NOTE_ON, &[67, 2, 100])
        .cmd_regs(ops::WAIT_BYTE, &[4], 0b1)
        .cmd(ops::NOTE_OFF, &[2])
        .cmd(ops::REG_IMM, &[2, 4, 24])
        .cmd(ops::JMP_F, &[1, skip.0])
        .gate(50, 100, 10);
    b.place(skip)
        .cmd(ops::NOTE_GATE, &[0, 69, 90, 48])
        .printf("t2 r4=%r", &[4])
        .cmd(ops::FINISH, &[]);
    b.place(env).data(&[
        0, 0, 0, 0, 0x7F, 0xFF, 0, 0, 0, 0x10, 0, 0, 0, 0x0F, 0, 0, 0, 0,
    ]);
    Ok(Sample {
        name: "song.bms",
        bytes: b.build()?,
        notes_per_track: vec![0, 3 * 2 + 1, 2, 2],
    })
}

/// A sound effect: bank/program selection, a rising run of gate notes with a non-minimal wait,
/// an interrupt table whose handler returns, and a call table.
pub fn sfx() -> Result<Sample> {
    let mut b = SeqBuilder::new();
    let [ints, handler, calls, up, down] = [(); 5].map(|_| b.label());
    b.cmd(ops::BANK, &[0x53])
        .cmd(ops::PRG, &[0x0B])
        .cmd(0xF3, &[ints.0])
        .cmd(0xF4, &[1])
        .cmd(ops::REG_LOAD, &[1, 1])
        .cmd(ops::CALL_TABLE, &[1, calls.0]);
    for k in 0..4u8 {
        b.gate(48 + 4 * k, 100 - 10 * k, 12);
    }
    if let Some(v) = Vlq::from_bytes(&[0x80, 0x30]) {
        b.wait_vlq(v);
    }
    b.cmd(ops::FINISH, &[]);
    b.place(ints).table(&[handler]);
    b.place(handler).cmd(ops::RET_I, &[]);
    b.place(calls).table(&[up, down]);
    b.place(up).gate(72, 100, 6).cmd(ops::RET, &[]);
    b.place(down).gate(36, 100, 6).cmd(ops::RET, &[]);
    Ok(Sample {
        name: "sfx.bms",
        bytes: b.build()?,
        notes_per_track: vec![5],
    })
}

/// Every sample sequence.
pub fn samples() -> Result<Vec<Sample>> {
    Ok(vec![song()?, sfx()?])
}

/// The bytes of [`song`] (empty if it could not be built, which tests rule out).
pub fn demo_song() -> Vec<u8> {
    song().map(|s| s.bytes).unwrap_or_default()
}
