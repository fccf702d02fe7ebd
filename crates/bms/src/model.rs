//! The owned, editable program: labelled blocks of code, tables and data that cover every byte.
//!
//! Offsets inside the program are symbolic: a block's label is an id, and an offset argument (or
//! table entry) whose value equals a label id refers to that block. Writing lays the blocks out in
//! order and replaces every such value by the block's new offset, so code can grow or shrink. A
//! disassembled program uses the original offsets as ids, which makes an unedited write
//! byte-identical; the assembler gives named labels ids from [`FRESH_LABEL`] up, above every 24-bit
//! offset, so they never collide with literal numbers. Values that match no label (offsets past the
//! end or into the middle of an instruction) are written unchanged.

use std::collections::HashMap;

use gcio::{Context, Error, ErrorKind, Limits, Reader, Result, Writer};

use crate::flow::Class;
use crate::insn::Instruction;
use crate::opcode::Pointer;

/// First label id the assembler hands out for named labels (no 24-bit offset reaches it).
pub const FRESH_LABEL: u32 = 0x0100_0000;

/// What a block holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Content {
    /// Instructions in order.
    Code(Vec<Instruction>),
    /// 3-byte offsets of a jump, call or interrupt table (label ids like any offset argument).
    Table(Vec<u32>),
    /// Bytes no walk reached (or that commands point at as data).
    Data(Vec<u8>),
}

/// A run of one kind of content, optionally labelled.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Block {
    /// Label id, when something points here.
    pub label: Option<u32>,
    /// The content.
    pub content: Content,
}

/// A whole sequence as blocks in file order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Program {
    /// Blocks in output order.
    pub blocks: Vec<Block>,
}

impl Program {
    /// The parts this model keeps as stored bytes rather than typed values: one `unreached data
    /// block i (N bytes)` per unlabelled [`Content::Data`] block, bytes no walk reached and
    /// nothing points at. Data a command points at (an envelope table) is labelled and typed as
    /// data by design. Empty when every byte was reached as code, a table or pointed-at data.
    pub fn raw_parts(&self) -> Vec<String> {
        self.blocks
            .iter()
            .enumerate()
            .filter_map(|(i, b)| match (&b.content, b.label) {
                (Content::Data(d), None) => {
                    Some(format!("unreached data block {i} ({} bytes)", d.len()))
                }
                _ => None,
            })
            .collect()
    }

    /// Disassembles `data` with default limits: discovery from offset 0, then blocks.
    pub fn parse(data: &[u8]) -> Result<Program> {
        Program::parse_with(data, &Limits::default())
    }

    /// Disassembles `data`; `limits` bound the discovery walk and the blocks.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Program> {
        Program::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned program of a parsed view. The view may have been made under other limits, so
    /// `limits` bound again what the blocks copy: every byte of the file at most, one
    /// instruction per instruction the walk found, at most one block per byte.
    pub fn from_view(v: &crate::View<'_>, limits: &Limits) -> Result<Program> {
        let (data, flow) = (v.data(), v.flow());
        limits.check_alloc(data.len() as u64, 1, 0)?;
        limits.check_alloc(
            flow.instruction_count() as u64,
            size_of::<Instruction>() as u64,
            0,
        )?;
        let r = Reader::new(data);
        let mut blocks: Vec<Block> = Vec::new();
        let mut pos = 0;
        while pos < data.len() {
            let class = flow.class(pos);
            let labelled = flow.labels().contains(&(pos as u32));
            let (item, size) = match class {
                Class::Code => {
                    let (insn, size) = Instruction::decode(r, pos).context("BMS code")?;
                    (Item::Code(insn), size)
                }
                Class::Table => (Item::Entry(r.u24(pos)?), 3),
                _ => (Item::Byte(r.u8(pos)?), 1),
            };
            let rest = match blocks.last_mut() {
                Some(b) if !labelled => item.append_to(&mut b.content),
                _ => Some(item),
            };
            if let Some(item) = rest {
                limits.check_elements(blocks.len() as u64 + 1, pos as u64)?;
                blocks.push(Block {
                    label: labelled.then_some(pos as u32),
                    content: item.into_content(),
                });
            }
            pos += size;
        }
        Ok(Program { blocks })
    }

    /// Offset of every labelled block in the current layout, and the total size.
    pub fn layout(&self) -> (HashMap<u32, u32>, usize) {
        let mut at = HashMap::new();
        let mut pos = 0usize;
        for b in &self.blocks {
            if let Some(l) = b.label {
                at.entry(l).or_insert(pos as u32);
            }
            pos += b.size();
        }
        (at, pos)
    }

    /// Writes the program: lays out blocks in order and resolves every label reference.
    pub fn write(&self) -> Result<Vec<u8>> {
        let (at, size) = self.layout();
        let reloc = |v: u32| at.get(&v).copied().unwrap_or(v);
        let mut w = Writer::with_capacity(size);
        for (bi, b) in self.blocks.iter().enumerate() {
            match &b.content {
                Content::Code(code) => {
                    for (i, insn) in code.iter().enumerate() {
                        insn.encode(&mut w, reloc)
                            .with_context(|| format!("block {bi} instruction {i}"))?;
                    }
                }
                Content::Table(entries) => {
                    for &e in entries {
                        let v = reloc(e);
                        if v > 0xFF_FFFF {
                            return Err(Error::without_offset(ErrorKind::Invalid(format!(
                                "block {bi}: table entry {v:#x} is not a 24-bit offset (undefined label?)"
                            ))));
                        }
                        w.u24(v);
                    }
                }
                Content::Data(d) => {
                    w.bytes(d);
                }
            }
        }
        Ok(w.into_vec())
    }

    /// A label id no block uses yet (at least [`FRESH_LABEL`], so it never equals a literal offset).
    pub fn fresh_label(&self) -> u32 {
        self.blocks
            .iter()
            .filter_map(|b| b.label)
            .map(|l| l.saturating_add(1))
            .fold(FRESH_LABEL, u32::max)
    }

    /// The block labelled `label`.
    pub fn block_mut(&mut self, label: u32) -> Option<&mut Block> {
        self.blocks.iter_mut().find(|b| b.label == Some(label))
    }

    /// Appends content: a labelled item starts a new block, an unlabelled one joins the last block
    /// when it holds the same kind of content.
    pub fn push(&mut self, label: Option<u32>, content: Content) {
        let rest = match (label, self.blocks.last_mut()) {
            (None, Some(b)) => b.content.extend(content),
            _ => Some(content),
        };
        if let Some(content) = rest {
            self.blocks.push(Block { label, content });
        }
    }

    /// Every `open_track` in the program: (track number if literal, entry label or offset).
    pub fn tracks(&self) -> Vec<(Option<u32>, u32)> {
        self.instructions()
            .filter_map(|i| i.command())
            .filter_map(|c| match c.pointer() {
                Some((_, Pointer::Track, v)) => Some((c.literal(0), v)),
                _ => None,
            })
            .collect()
    }

    /// Every instruction, in order.
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction> {
        self.blocks.iter().flat_map(|b| match &b.content {
            Content::Code(c) => c.as_slice(),
            _ => &[],
        })
    }
}

impl Content {
    /// Appends `other` when it is the same kind; gives it back otherwise.
    pub fn extend(&mut self, other: Content) -> Option<Content> {
        match (self, other) {
            (Content::Code(a), Content::Code(b)) => a.extend(b),
            (Content::Table(a), Content::Table(b)) => a.extend(b),
            (Content::Data(a), Content::Data(b)) => a.extend(b),
            (_, other) => return Some(other),
        }
        None
    }
}

impl Block {
    /// Encoded size in bytes.
    pub fn size(&self) -> usize {
        match &self.content {
            Content::Code(c) => c.iter().map(Instruction::size).sum(),
            Content::Table(t) => 3 * t.len(),
            Content::Data(d) => d.len(),
        }
    }
}

enum Item {
    Code(Instruction),
    Entry(u32),
    Byte(u8),
}

impl Item {
    /// Appends to a block of the same kind; gives the item back otherwise.
    fn append_to(self, c: &mut Content) -> Option<Item> {
        match (self, c) {
            (Item::Code(i), Content::Code(v)) => v.push(i),
            (Item::Entry(e), Content::Table(v)) => v.push(e),
            (Item::Byte(b), Content::Data(v)) => v.push(b),
            (item, _) => return Some(item),
        }
        None
    }

    fn into_content(self) -> Content {
        match self {
            Item::Code(i) => Content::Code(vec![i]),
            Item::Entry(e) => Content::Table(vec![e]),
            Item::Byte(b) => Content::Data(vec![b]),
        }
    }
}
