//! MIDI export: runs every track of the sequence like the game's sequencer would (notes, voices,
//! gate durations, waits, calls, loops, jump tables, registers and conditions) and writes a
//! standard MIDI file (format 1, one MIDI track per BMS track, tempo in the first).
//!
//! Everything is bounded: at most [`ExportOptions::max_tracks`] tracks, [`ExportOptions::max_steps`]
//! instructions per track, [`ExportOptions::max_ticks`] ticks, [`ExportOptions::max_events`] events
//! in memory, and every jump that goes back (or
//! to itself) is taken at most [`ExportOptions::loops`] times, so an infinite loop is unrolled that
//! many times and then ends.
//!
//! The writer is hand-written: a format-1 SMF is a header plus length-prefixed tracks of
//! delta-timed events, and keeping it here avoids a runtime dependency (tests read the result
//! back with the independent `midly` parser).

use std::collections::HashMap;

use gcio::{Reader, Result, Writer};

use crate::insn::{Body, Command, Instruction};
use crate::opcode::{Width, ops};

/// Limits and choices for [`export`] / [`render`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportOptions {
    /// How many times each backward jump (an infinite loop's `jmp`) is taken before the track ends.
    pub loops: u32,
    /// Ticks per quarter note written to the header when the root track does not set register
    /// 0x62 (timebase) before its first wait.
    pub timebase: u16,
    /// Most instructions one track may execute.
    pub max_steps: u32,
    /// Tracks end at this tick.
    pub max_ticks: u64,
    /// Most tracks (root included) rendered.
    pub max_tracks: usize,
    /// Most events (notes, program and tempo changes) kept over all tracks.
    pub max_events: usize,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            loops: 1,
            timebase: 120,
            max_steps: 1 << 20,
            max_ticks: 1 << 24,
            max_tracks: 64,
            max_events: 1 << 20,
        }
    }
}

/// One event of a rendered track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Key down.
    NoteOn {
        /// MIDI key.
        key: u8,
        /// Velocity (clamped to 1..=127).
        velocity: u8,
    },
    /// Key up.
    NoteOff {
        /// MIDI key.
        key: u8,
    },
    /// Bank (WSYS/IBNK id) and program (LIST entry) change.
    Program {
        /// Bank select value.
        bank: u8,
        /// Program number.
        program: u8,
    },
    /// Tempo in beats per minute (`tempo`, 0xE0).
    Tempo(u16),
}

/// One rendered BMS track.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedTrack {
    /// BMS track number (`None` for the root track).
    pub number: Option<u8>,
    /// Entry offset.
    pub entry: u32,
    /// Events with absolute ticks, in time order.
    pub events: Vec<(u64, Event)>,
}

impl RenderedTrack {
    /// Number of notes started.
    pub fn note_count(&self) -> usize {
        self.events
            .iter()
            .filter(|(_, e)| matches!(e, Event::NoteOn { .. }))
            .count()
    }
}

/// The whole rendered sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Song {
    /// Ticks per quarter note.
    pub timebase: u16,
    /// Root track first, then tracks in the order they were opened.
    pub tracks: Vec<RenderedTrack>,
}

/// Renders `data` and writes it as a standard MIDI file.
pub fn export(data: &[u8], opts: &ExportOptions) -> Result<Vec<u8>> {
    Ok(render(data, opts)?.to_smf())
}

#[derive(Clone, Copy)]
struct Spawn {
    number: Option<u8>,
    entry: u32,
    start: u64,
    parent: Option<usize>,
}

/// Runs every track of `data` and returns the events.
pub fn render(data: &[u8], opts: &ExportOptions) -> Result<Song> {
    let r = Reader::new(data);
    let mut queue = vec![Spawn {
        number: None,
        entry: 0,
        start: 0,
        parent: None,
    }];
    let mut tracks = Vec::new();
    // (end tick, closes of children by number) per rendered track.
    let mut ends: Vec<(u64, Vec<(u64, u8)>)> = Vec::new();
    let mut timebase = opts.timebase;
    let mut i = 0;
    while let Some(&Spawn {
        number,
        entry,
        start,
        parent,
    }) = queue.get(i)
    {
        if i >= opts.max_tracks {
            break;
        }
        let used: usize = tracks.iter().map(|t: &RenderedTrack| t.events.len()).sum();
        let mut sim = Sim::new(r, opts, start, entry as usize);
        sim.budget = opts.max_events.saturating_sub(used);
        sim.run();
        if i == 0
            && let Some(tb) = sim.timebase
        {
            timebase = tb;
        }
        let mut end = sim.tick;
        if let Some(p) = parent.and_then(|p| ends.get(p)) {
            end = end.min(p.0);
            let closed = p.1.iter().find(|(t, n)| Some(*n) == number && *t >= start);
            if let Some((t, _)) = closed {
                end = end.min(*t);
            }
        }
        for (start, n, e) in sim.children.drain(..) {
            if queue.len() >= opts.max_tracks {
                break;
            }
            queue.push(Spawn {
                number: Some(n),
                entry: e,
                start,
                parent: Some(i),
            });
        }
        let events = sim.finish(end);
        ends.push((end, sim.closes));
        tracks.push(RenderedTrack {
            number,
            entry,
            events,
        });
        i += 1;
    }
    Ok(Song { timebase, tracks })
}

#[derive(Clone, Copy)]
struct Frame {
    ret: usize,
    count: u16,
}

struct Sim<'a, 'o> {
    r: Reader<'a>,
    opts: &'o ExportOptions,
    pc: usize,
    tick: u64,
    stack: Vec<Frame>,
    regs: HashMap<u32, u32>,
    flag: u32,
    voices: [Option<u8>; 8],
    held_gate: Option<u8>,
    bank: u8,
    events: Vec<(u64, Event)>,
    pending_offs: Vec<(u64, u8)>,
    jumps: HashMap<usize, u32>,
    children: Vec<(u64, u8, u32)>,
    closes: Vec<(u64, u8)>,
    timebase: Option<u16>,
    budget: usize,
}

impl<'a, 'o> Sim<'a, 'o> {
    fn new(r: Reader<'a>, opts: &'o ExportOptions, start: u64, pc: usize) -> Self {
        Sim {
            r,
            opts,
            pc,
            tick: start,
            stack: Vec::new(),
            regs: HashMap::new(),
            flag: 0,
            voices: [None; 8],
            held_gate: None,
            bank: 0,
            events: Vec::new(),
            pending_offs: Vec::new(),
            jumps: HashMap::new(),
            children: Vec::new(),
            closes: Vec::new(),
            timebase: None,
            budget: 0,
        }
    }

    fn read_reg(&self, r: u32) -> u32 {
        self.regs.get(&r).copied().unwrap_or(0)
    }

    fn write_reg(&mut self, r: u32, v: u32) {
        let v = v & 0xFFFF;
        self.flag = v;
        if r == 0x62 && self.tick == 0 && self.timebase.is_none() && v > 0 {
            self.timebase = Some(v as u16);
        }
        self.regs.insert(r, v);
    }

    fn cond(&self, c: u32) -> bool {
        match c {
            0 => true,
            1 => self.flag == 0,
            2 => self.flag != 0,
            3 => self.flag == 1,
            4 => self.flag >= 0x8000,
            5 => self.flag < 0x8000,
            _ => false,
        }
    }

    fn arg(&self, c: &Command, i: usize) -> u32 {
        let v = c.args().get(i).copied().unwrap_or(0);
        if c.width(i) == Width::Reg {
            self.read_reg(v)
        } else {
            v
        }
    }

    fn wait(&mut self, ticks: u64) {
        self.tick = self.tick.saturating_add(ticks);
    }

    fn note_on(&mut self, key: u8, velocity: u8) {
        self.events.push((
            self.tick,
            Event::NoteOn {
                key: key & 0x7F,
                velocity: velocity.clamp(1, 0x7F),
            },
        ));
    }

    fn note_off(&mut self, key: u8) {
        self.events
            .push((self.tick, Event::NoteOff { key: key & 0x7F }));
    }

    fn voice_on(&mut self, voice: u8, key: u8, velocity: u8) {
        let v = usize::from(voice & 7);
        if let Some(old) = self.voices.get(v).copied().flatten() {
            self.note_off(old);
        }
        self.note_on(key, velocity);
        if let Some(slot) = self.voices.get_mut(v) {
            *slot = Some(key);
        }
    }

    fn voice_off(&mut self, voice: u8) {
        if let Some(k) = self
            .voices
            .get_mut(usize::from(voice & 7))
            .and_then(Option::take)
        {
            self.note_off(k);
        }
    }

    fn gate(&mut self, key: u8, velocity: u8, duration: u32) {
        if let Some(k) = self.held_gate.take() {
            self.note_off(k);
        }
        self.note_on(key, velocity);
        if duration == 0 {
            self.held_gate = Some(key);
        } else {
            let end = self.tick.saturating_add(u64::from(duration));
            self.pending_offs.push((end, key & 0x7F));
            self.wait(u64::from(duration));
        }
    }

    /// Jumps to `target`; false when a backward jump exhausted its unroll budget.
    fn jump(&mut self, from: usize, target: u32) -> bool {
        if (target as usize) <= from {
            let n = self.jumps.entry(from).or_insert(0);
            if *n >= self.opts.loops {
                return false;
            }
            *n += 1;
        }
        self.pc = target as usize;
        true
    }

    fn call(&mut self, ret: usize, target: u32) {
        if self.stack.len() < 8 {
            self.stack.push(Frame { ret, count: 0 });
            self.pc = target as usize;
        }
    }

    fn table(&self, base: u32, index: u32) -> Option<u32> {
        let at = (base as usize).checked_add((index as usize).checked_mul(3)?)?;
        self.r.u24(at).ok()
    }

    fn run(&mut self) {
        for _ in 0..self.opts.max_steps {
            if self.tick >= self.opts.max_ticks
                || self.events.len() + self.pending_offs.len() >= self.budget
            {
                return;
            }
            let Ok((insn, size)) = Instruction::decode(self.r, self.pc) else {
                return;
            };
            let at = self.pc;
            self.pc += size;
            if !self.step(&insn, at) {
                return;
            }
        }
    }

    /// Executes one instruction; false when the track ends.
    fn step(&mut self, insn: &Instruction, at: usize) -> bool {
        let c = match insn {
            Instruction::Note {
                key,
                flags,
                velocity,
                gate,
            } => {
                match gate {
                    Some(g) => self.gate(*key, *velocity, g.value()),
                    None => self.voice_on(*flags, *key, *velocity),
                }
                return true;
            }
            Instruction::VoiceOff(n) => {
                self.voice_off(*n);
                return true;
            }
            Instruction::Command(c) => c,
        };
        let vals: [u32; crate::insn::MAX_ARGS] = std::array::from_fn(|i| self.arg(c, i));
        let a = |i: usize| vals.get(i).copied().unwrap_or(0);
        let byte = |i: usize| a(i) as u8;
        match c.opcode {
            ops::FINISH | ops::RET_I => return false,
            ops::NOTE_ON => self.voice_on(byte(1), byte(0), byte(2)),
            ops::NOTE_OFF => self.voice_off(byte(0)),
            ops::NOTE_GATE => self.gate(byte(1), byte(2), a(3)),
            ops::OPEN_TRACK => {
                // Only children that can still be rendered are kept, so the list stays bounded.
                if self.children.len() < self.opts.max_tracks {
                    self.children.push((self.tick, byte(0) & 0x0F, a(1)));
                }
            }
            ops::CLOSE_TRACK => {
                let n = byte(0) & 0x0F;
                let open = self.children.iter().filter(|c| c.1 == n).count();
                if self.closes.iter().filter(|c| c.1 == n).count() < open {
                    self.closes.push((self.tick, n));
                }
            }
            ops::CALL => self.call(self.pc, a(0)),
            ops::CALL_F => {
                if self.cond(a(0)) {
                    self.call(self.pc, a(1));
                }
            }
            ops::RET => {
                if let Some(f) = self.stack.pop() {
                    self.pc = f.ret;
                }
            }
            ops::RET_F => {
                if self.cond(a(0))
                    && let Some(f) = self.stack.pop()
                {
                    self.pc = f.ret;
                }
            }
            ops::JMP => return self.jump(at, a(0)),
            ops::JMP_F => {
                if self.cond(a(0)) {
                    return self.jump(at, a(1));
                }
            }
            ops::JMP_TABLE => match self.table(a(1), a(0)) {
                Some(t) => return self.jump(at, t),
                None => return false,
            },
            ops::CALL_TABLE => match self.table(a(1), a(0)) {
                Some(t) => self.call(self.pc, t),
                None => return false,
            },
            ops::LOOP_S => {
                if self.stack.len() < 8 {
                    self.stack.push(Frame {
                        ret: self.pc,
                        count: a(0) as u16,
                    });
                }
            }
            ops::LOOP_E => {
                if let Some(f) = self.stack.last_mut() {
                    let n = f.count.saturating_sub(1);
                    if n == 0 {
                        self.stack.pop();
                    } else {
                        f.count = n;
                        self.pc = f.ret;
                    }
                }
            }
            ops::REG_LOAD => self.write_reg(a(0), a(1)),
            ops::READ_PORT => self.write_reg(a(1), 0),
            ops::REG_REG | ops::REG_IMM => self.reg_op(a(0), a(1), a(2)),
            ops::REG_UNI => {
                if a(0) == 0xB {
                    let v = self.read_reg(a(1)).wrapping_neg();
                    self.write_reg(a(1), v);
                }
            }
            ops::TEMPO => self.events.push((self.tick, Event::Tempo(a(0) as u16))),
            ops::BANK_PRG => {
                self.bank = (a(0) >> 8) as u8;
                self.program(a(0) as u8);
            }
            ops::BANK => self.bank = byte(0),
            ops::PRG => self.program(byte(0)),
            ops::WAIT_BYTE => self.wait(u64::from(a(0))),
            _ => {
                if let Body::Wait(v) = &c.body {
                    self.wait(u64::from(v.value()));
                }
            }
        }
        true
    }

    fn program(&mut self, program: u8) {
        self.events.push((
            self.tick,
            Event::Program {
                bank: self.bank,
                program,
            },
        ));
    }

    /// `cmdReg` sub-operations.
    fn reg_op(&mut self, op: u32, reg: u32, v: u32) {
        let cur = self.read_reg(reg);
        let (reg, v) = match op {
            0 => (reg, v),
            1 => (reg, v.wrapping_add(cur)),
            2 => (reg, cur.wrapping_sub(v)),
            3 => (3, cur.wrapping_sub(v)),
            4 => (0x21, v.wrapping_mul(cur)),
            5 => (reg, v & cur),
            6 => (reg, v | cur),
            7 => (reg, v ^ cur),
            8 => (reg, 0),
            9 => (reg, cur.checked_shl(v).unwrap_or(0)),
            10 => (reg, cur.checked_shr(v).unwrap_or(0)),
            _ => return,
        };
        self.write_reg(reg, v);
    }

    /// Closes every sounding note at `end` and returns the events up to `end` in time order.
    fn finish(&mut self, end: u64) -> Vec<(u64, Event)> {
        let mut ev = std::mem::take(&mut self.events);
        ev.extend(
            self.pending_offs
                .drain(..)
                .map(|(t, key)| (t, Event::NoteOff { key })),
        );
        ev.retain(|(t, e)| *t < end || (*t == end && matches!(e, Event::NoteOff { .. })));
        ev.sort_by_key(|(t, e)| (*t, !matches!(e, Event::NoteOff { .. })));
        // Balance on/off per key: notes still sounding at `end` are released there.
        let mut sounding: HashMap<u8, usize> = HashMap::new();
        let mut out = Vec::with_capacity(ev.len());
        for (t, e) in ev {
            match e {
                Event::NoteOn { key, .. } => *sounding.entry(key).or_insert(0) += 1,
                Event::NoteOff { key } => match sounding.get_mut(&key) {
                    Some(n) if *n > 0 => *n -= 1,
                    _ => continue,
                },
                _ => {}
            }
            out.push((t, e));
        }
        let mut left: Vec<(u8, usize)> = sounding.into_iter().filter(|(_, n)| *n > 0).collect();
        left.sort_unstable();
        for (key, n) in left {
            out.extend(std::iter::repeat_n((end, Event::NoteOff { key }), n));
        }
        out
    }
}

impl Song {
    /// A format-1 standard MIDI file: one MIDI track per BMS track, channel = track number & 15
    /// (the root uses channel 0), tempo changes from any track moved to the first.
    pub fn to_smf(&self) -> Vec<u8> {
        let mut w = Writer::new();
        w.bytes(b"MThd")
            .u32(6)
            .u16(1)
            .u16(self.tracks.len().min(0xFFFF) as u16)
            .u16(self.timebase.clamp(1, 0x7FFF));
        let tempos: Vec<(u64, Event)> = self
            .tracks
            .iter()
            .flat_map(|t| {
                t.events
                    .iter()
                    .filter(|(_, e)| matches!(e, Event::Tempo(_)))
            })
            .copied()
            .collect();
        for (i, t) in self.tracks.iter().enumerate().take(0xFFFF) {
            let ch = t.number.unwrap_or(0) & 0x0F;
            let mut events: Vec<(u64, Event)> = t
                .events
                .iter()
                .filter(|(_, e)| !matches!(e, Event::Tempo(_)))
                .copied()
                .collect();
            if i == 0 {
                events.extend(tempos.iter().copied());
                events.sort_by_key(|(t, e)| (*t, !matches!(e, Event::Tempo(_))));
            }
            let mut body = Writer::new();
            let mut last = 0u64;
            for (tick, e) in events {
                let delta = tick.saturating_sub(last).min(0x0FFF_FFFF) as u32;
                last = tick;
                let status = |body: &mut Writer, bytes: &[u8]| {
                    write_vlq(body, delta);
                    body.bytes(bytes);
                };
                match e {
                    Event::NoteOn { key, velocity } => {
                        status(&mut body, &[0x90 | ch, key, velocity])
                    }
                    Event::NoteOff { key } => status(&mut body, &[0x80 | ch, key, 0x40]),
                    Event::Program { bank, program } => {
                        status(&mut body, &[0xB0 | ch, 0, bank & 0x7F]);
                        write_vlq(&mut body, 0);
                        body.bytes(&[0xC0 | ch, program & 0x7F]);
                    }
                    Event::Tempo(bpm) => {
                        let us = 60_000_000 / u32::from(bpm.max(1));
                        let [_, a, b, c] = us.min(0xFF_FFFF).to_be_bytes();
                        status(&mut body, &[0xFF, 0x51, 3, a, b, c]);
                    }
                }
            }
            write_vlq(&mut body, 0);
            body.bytes(&[0xFF, 0x2F, 0]);
            let body = body.into_vec();
            w.bytes(b"MTrk").u32(body.len() as u32).bytes(&body);
        }
        w.into_vec()
    }
}

fn write_vlq(w: &mut Writer, v: u32) {
    if let Some(q) = crate::insn::Vlq::new(v) {
        w.bytes(q.bytes());
    }
}
