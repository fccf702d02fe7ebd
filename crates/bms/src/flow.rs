//! Control-flow discovery from offset 0: follows tracks, calls, jumps, conditional variants, jump /
//! call / interrupt tables and returns, and classifies every byte as code, table or data.
//!
//! The walk is a worklist (no recursion, so call depth cannot overflow anything), every entry point
//! goes through [`gcio::Visited`], and a per-byte class map stops walks that reach known code, so
//! loops and shared code end. Tables have no length in the file: entries are read one at a time, and
//! each entry's code is discovered before the next entry is considered; a table ends at the first
//! entry that overlaps code, another label or a table, points outside the file, or reaches the
//! bound ([`MAX_JUMP_TABLE`], [`INT_TABLE_SLOTS`]).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use gcio::{Diagnostic, Limits, Reader, Result, Visited};

use crate::insn::Instruction;
use crate::opcode::{Pointer, ops};

/// Most entries read from one jump / call table (its index is a register, so the file bounds
/// nothing; real tables are short).
pub const MAX_JUMP_TABLE: usize = 256;
/// Interrupt table slots the game reads (slots 0–6).
pub const INT_TABLE_SLOTS: usize = 7;

/// What one byte of the file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Not reached by the walk (kept as data).
    Data,
    /// First byte of an instruction.
    Code,
    /// A later byte of an instruction.
    CodeTail,
    /// First byte of a 3-byte table entry.
    Table,
    /// A later byte of a table entry.
    TableTail,
}

/// A track opened by `open_track` (or the root track).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Track {
    /// Track number (`None` for the root, or when it comes from a register).
    pub number: Option<u32>,
    /// Entry offset.
    pub entry: u32,
    /// Offset of the `open_track` instruction (`None` for the root).
    pub opened_at: Option<u32>,
}

/// The class of every byte: one per byte for a parse (the model reads them all), or only the
/// items found for detection, which walks at most [`DETECT_ITEMS`] of them and so needs no
/// buffer the size of its input.
#[derive(Debug, Clone)]
enum Classes {
    /// One class per byte.
    Dense(Vec<Class>),
    /// Start → (end, is a table entry) of every instruction and table entry found, in a file
    /// of `len` bytes.
    Sparse {
        len: usize,
        items: BTreeMap<usize, (usize, bool)>,
    },
}

/// Instructions and table entries [`Flow::detect`] walks at most: more than a real sequence's
/// opening needs to show it is code, few enough that detection's memory does not grow with the
/// input.
pub const DETECT_ITEMS: usize = 1 << 14;

impl Classes {
    fn len(&self) -> usize {
        match self {
            Classes::Dense(c) => c.len(),
            Classes::Sparse { len, .. } => *len,
        }
    }

    fn get(&self, offset: usize) -> Class {
        match self {
            Classes::Dense(c) => c.get(offset).copied().unwrap_or(Class::Data),
            Classes::Sparse { items, .. } => match items.range(..=offset).next_back() {
                Some((&start, &(end, table))) if offset < end => match (start == offset, table) {
                    (true, false) => Class::Code,
                    (false, false) => Class::CodeTail,
                    (true, true) => Class::Table,
                    (false, true) => Class::TableTail,
                },
                _ => Class::Data,
            },
        }
    }

    /// Whether `start..end` is all data; `None` when it does not fit in the file.
    fn is_free(&self, start: usize, end: usize) -> Option<bool> {
        if start > end || end > self.len() {
            return None;
        }
        Some(match self {
            Classes::Dense(c) => c
                .get(start..end)
                .is_some_and(|s| s.iter().all(|&c| c == Class::Data)),
            // Items do not overlap, so the last one starting before `end` ends last.
            Classes::Sparse { items, .. } => items
                .range(..end)
                .next_back()
                .is_none_or(|(_, &(e, _))| e <= start),
        })
    }

    /// Marks `start..end` (free, inside the file) as an instruction or a table entry.
    fn mark(&mut self, start: usize, end: usize, table: bool) {
        match self {
            Classes::Dense(c) => {
                let (head, tail) = if table {
                    (Class::Table, Class::TableTail)
                } else {
                    (Class::Code, Class::CodeTail)
                };
                if let Some(s) = c.get_mut(start..end) {
                    s.fill(tail);
                }
                if let Some(b) = c.get_mut(start) {
                    *b = head;
                }
            }
            Classes::Sparse { items, .. } => {
                items.insert(start, (end, table));
            }
        }
    }
}

/// Result of control-flow discovery.
#[derive(Debug, Clone)]
pub struct Flow {
    class: Classes,
    labels: BTreeSet<u32>,
    tables: BTreeMap<u32, usize>,
    tracks: Vec<Track>,
    findings: Vec<Diagnostic>,
    instructions: usize,
}

struct Walker<'a> {
    r: Reader<'a>,
    flow: Flow,
    visited: Visited,
    code: Vec<(usize, bool)>,
    tables: VecDeque<(usize, usize, usize)>,
    /// Instructions and table entries left to classify (detection's bound).
    budget: usize,
}

impl Flow {
    /// Discovers the program in `data` starting at offset 0 (BMS-001).
    pub fn discover(data: &[u8], limits: &Limits) -> Result<Flow> {
        let size = limits.check_alloc(data.len() as u64, 1, 0)?;
        let mut class = Vec::new();
        class.try_reserve_exact(size).map_err(|e| {
            gcio::Error::invalid(
                0,
                format!("cannot allocate {size:#x} bytes for the BMS byte classes: {e}"),
            )
        })?;
        class.resize(size, Class::Data);
        Flow::walk(data, limits, Classes::Dense(class), usize::MAX)
    }

    /// The opening of [`Flow::discover`] for format detection: at most [`DETECT_ITEMS`]
    /// instructions and table entries are classified (the rest stays data) and memory follows
    /// what was walked, not the input's size.
    pub fn detect(data: &[u8], limits: &Limits) -> Result<Flow> {
        let items = BTreeMap::new();
        let class = Classes::Sparse {
            len: data.len(),
            items,
        };
        Flow::walk(data, limits, class, DETECT_ITEMS)
    }

    fn walk(data: &[u8], limits: &Limits, class: Classes, budget: usize) -> Result<Flow> {
        let mut w = Walker {
            r: Reader::new(data),
            budget,
            flow: Flow {
                class,
                labels: BTreeSet::new(),
                tables: BTreeMap::new(),
                tracks: Vec::new(),
                findings: Vec::new(),
                instructions: 0,
            },
            visited: Visited::new(*limits),
            code: Vec::new(),
            tables: VecDeque::new(),
        };
        if !data.is_empty() {
            w.flow.tracks.push(Track {
                number: None,
                entry: 0,
                opened_at: None,
            });
            w.target(Pointer::Track, 0, None)?;
        }
        loop {
            while let Some((pc, from_call)) = w.code.pop() {
                w.walk(pc, from_call)?;
            }
            if !w.table_entry()? {
                break;
            }
        }
        Ok(w.flow)
    }

    /// Class of the byte at `offset` (`Data` past the end).
    pub fn class(&self, offset: usize) -> Class {
        self.class.get(offset)
    }

    /// Bytes covered.
    pub fn len(&self) -> usize {
        self.class.len()
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.class.len() == 0
    }

    /// Every in-file offset something points at (code targets, track entries, tables, data).
    pub fn labels(&self) -> &BTreeSet<u32> {
        &self.labels
    }

    /// Start offset → entry count of every table found.
    pub fn tables(&self) -> &BTreeMap<u32, usize> {
        &self.tables
    }

    /// Root track first, then every `open_track` in discovery order.
    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }

    /// Problems the walk met (bad targets, overlaps, undecodable or unterminated code).
    pub fn findings(&self) -> &[Diagnostic] {
        &self.findings
    }

    /// Number of instructions classified as code.
    pub fn instruction_count(&self) -> usize {
        self.instructions
    }
}

impl Walker<'_> {
    fn len(&self) -> usize {
        self.r.len()
    }

    fn note(&mut self, d: Diagnostic) {
        self.flow.findings.push(d);
    }

    /// Records a pointer found in an instruction or table at `at`.
    fn target(&mut self, kind: Pointer, value: u32, at: Option<usize>) -> Result<()> {
        let at64 = at.map(|a| a as u64);
        if value as usize >= self.len() {
            let rule = if kind == Pointer::Data {
                "BMS-014"
            } else {
                "BMS-005"
            };
            self.note(Diagnostic::error(
                rule,
                at64,
                format!(
                    "{kind:?} offset {value:#08x} is outside the file (size {:#x})",
                    self.len()
                ),
            ));
            return Ok(());
        }
        self.flow.labels.insert(value);
        match kind {
            Pointer::Code | Pointer::Track => {
                if self.visited.visit(u64::from(value))? {
                    self.code.push((value as usize, kind == Pointer::Code));
                }
            }
            Pointer::JumpTable | Pointer::IntTable => {
                if self.visited.visit(u64::from(value) | 1 << 32)? {
                    let max = if kind == Pointer::IntTable {
                        INT_TABLE_SLOTS
                    } else {
                        MAX_JUMP_TABLE
                    };
                    self.tables.push_back((value as usize, 0, max));
                }
            }
            Pointer::Data => {}
        }
        Ok(())
    }

    fn walk(&mut self, mut pc: usize, from_call: bool) -> Result<()> {
        loop {
            match self.flow.class(pc) {
                Class::Code => return Ok(()),
                Class::Data => {}
                other => {
                    let what = if other == Class::CodeTail {
                        "the middle of an instruction"
                    } else {
                        "a jump table"
                    };
                    self.note(Diagnostic::error(
                        "BMS-005",
                        Some(pc as u64),
                        format!("control reaches {what}"),
                    ));
                    return Ok(());
                }
            }
            if self.budget == 0 {
                return Ok(());
            }
            if pc >= self.len() {
                self.note(Diagnostic::warning(
                    "BMS-007",
                    Some(pc as u64),
                    "code runs to the end of the file without finish, return or jump",
                ));
                return Ok(());
            }
            let (insn, size) = match Instruction::decode(self.r, pc) {
                Ok(x) => x,
                Err(e) => {
                    let bad_prefix = matches!(self.r.u8(pc), Ok(0x90..=0x9F))
                        && self.r.u8(pc + 2).is_ok_and(|b| b < 0xA0);
                    let rule = if bad_prefix { "BMS-011" } else { "BMS-007" };
                    self.note(Diagnostic::error(
                        rule,
                        Some(pc as u64),
                        format!("undecodable instruction: {e}"),
                    ));
                    return Ok(());
                }
            };
            let end = pc + size;
            if self.flow.class.is_free(pc, end) == Some(false) {
                self.note(Diagnostic::error(
                    "BMS-005",
                    Some(pc as u64),
                    "instruction overlaps code or a table reached another way",
                ));
                return Ok(());
            }
            self.flow.class.mark(pc, end, false);
            self.flow.instructions += 1;
            self.budget -= 1;
            let Instruction::Command(cmd) = &insn else {
                pc = end;
                continue;
            };
            if let Some((_, kind, value)) = cmd.pointer() {
                if kind == Pointer::Track {
                    self.flow.tracks.push(Track {
                        number: cmd.literal(0),
                        entry: value,
                        opened_at: Some(pc as u32),
                    });
                }
                self.target(kind, value, Some(pc))?;
            }
            let always = |i| cmd.literal(i) == Some(0);
            let stop = match cmd.opcode {
                ops::FINISH | ops::JMP | ops::JMP_TABLE | ops::RET_I => true,
                ops::RET => {
                    if !from_call {
                        self.note(Diagnostic::warning(
                            "BMS-008",
                            Some(pc as u64),
                            "ret reached from a track entry, not from a call",
                        ));
                    }
                    true
                }
                ops::RET_F => always(0),
                ops::JMP_F => always(0),
                _ => false,
            };
            if stop {
                return Ok(());
            }
            pc = end;
        }
    }

    /// Reads the next entry of the oldest unfinished table; false when none is left.
    fn table_entry(&mut self) -> Result<bool> {
        while let Some((start, index, max)) = self.tables.pop_front() {
            if self.budget == 0 {
                return Ok(false);
            }
            let at = start + 3 * index;
            let end = at + 3;
            let free = self.flow.class.is_free(at, end) == Some(true);
            let starts_other = index > 0 && self.flow.labels.contains(&(at as u32));
            let value = self.r.u24(at).ok();
            let plausible = value.is_some_and(|v| {
                (v as usize) < self.len()
                    && matches!(self.flow.class(v as usize), Class::Data | Class::Code)
            });
            if index >= max || !free || starts_other || !plausible {
                if index == 0 {
                    self.note(Diagnostic::error(
                        "BMS-005",
                        Some(start as u64),
                        "table has no valid entry",
                    ));
                }
                continue;
            }
            let Some(value) = value else { continue };
            self.flow.class.mark(at, end, true);
            self.budget -= 1;
            *self.flow.tables.entry(start as u32).or_insert(0) += 1;
            self.target(Pointer::Code, value, Some(at))?;
            self.tables.push_front((start, index + 1, max));
            return Ok(true);
        }
        Ok(false)
    }
}
