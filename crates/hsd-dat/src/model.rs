//! The owned archive: the data block as a graph of blocks joined by pointers, plus everything the
//! file stores around it (relocation order, symbol layout, header bytes, trailing bytes), so an
//! unedited model writes back byte for byte and an edited one (blocks resized, added, re-pointed)
//! is laid out again with every pointer, relocation and chain link recomputed.

use gcio::{Context, Error, Result};

use crate::view::Archive;

/// A place inside the data block: a block and a byte offset inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    /// Index into [`Dat::blocks`].
    pub block: usize,
    /// Byte offset inside the block.
    pub offset: u32,
}

impl Loc {
    /// The start of `block`.
    pub fn start(block: usize) -> Loc {
        Loc { block, offset: 0 }
    }
}

/// Where a pointer (or a root) leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Inside the data block.
    In(Loc),
    /// At or past the end of the data block: `data_size + delta` (homebrew files point one past
    /// the end; hostile ones anywhere). Kept relative to the end so it survives layout changes.
    End(u32),
}

impl Target {
    /// The start of `block`.
    pub fn block(block: usize) -> Target {
        Target::In(Loc::start(block))
    }
}

/// A pointer slot inside a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pointer {
    /// Offset of the 4-byte slot inside its block.
    pub at: u32,
    /// What the slot points at.
    pub target: Target,
}

/// One struct extent of the data block with its outgoing pointers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Block {
    /// The bytes, padding up to the next block included. Pointer slots hold the stored values;
    /// the writer overwrites them with the laid-out targets.
    pub bytes: Vec<u8>,
    /// Alignment the writer keeps for this block (1, 2, 4, …, 32). Parsed blocks get the largest
    /// power of two ≤ 32 dividing their offset, so an unedited file needs no new padding and an
    /// edited one keeps every alignment the original had (32 for image data).
    pub align: u32,
    /// Pointer slots, sorted by `at`, not overlapping, each wholly inside `bytes`.
    pub pointers: Vec<Pointer>,
}

impl Block {
    /// A block holding `bytes` with no pointers.
    pub fn new(bytes: Vec<u8>, align: u32) -> Block {
        Block {
            bytes,
            align,
            pointers: Vec::new(),
        }
    }

    /// The pointer slot at `at`, if any.
    pub fn pointer(&self, at: u32) -> Option<&Pointer> {
        self.pointers
            .binary_search_by_key(&at, |p| p.at)
            .ok()
            .and_then(|i| self.pointers.get(i))
    }

    /// Sets (or, with `None`, removes) the pointer at `at`. A removed pointer's bytes are zeroed
    /// (NULL).
    pub fn set_pointer(&mut self, at: u32, target: Option<Target>) {
        match (self.pointers.binary_search_by_key(&at, |p| p.at), target) {
            (Ok(i), Some(target)) => {
                if let Some(p) = self.pointers.get_mut(i) {
                    p.target = target;
                }
            }
            (Ok(i), None) => {
                self.pointers.remove(i);
                let a = at as usize;
                if let Some(w) = self.bytes.get_mut(a..a + 4) {
                    w.fill(0);
                }
            }
            (Err(i), Some(target)) => self.pointers.insert(i, Pointer { at, target }),
            (Err(_), None) => {}
        }
    }
}

/// A relocation-table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The pointer slot at this place (a [`Pointer`] of the block).
    Pointer(Loc),
    /// An entry that is not a usable slot (outside the data block, or overlapping an earlier
    /// slot): written back verbatim.
    Raw(u32),
}

/// A root symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// Name without its NUL.
    pub name: Vec<u8>,
    /// Offset of the name in the stored symbol table (used when the stored table still fits).
    pub symbol_offset: u32,
    /// The struct the root names.
    pub target: Target,
}

/// An extern (reference) symbol: a chain of in-data slots the runtime fills with the address of
/// a symbol from another file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extern {
    /// Name without its NUL.
    pub name: Vec<u8>,
    /// Offset of the name in the stored symbol table.
    pub symbol_offset: u32,
    /// The chain's slots in walk order; each holds the data offset of the next.
    pub chain: Vec<Loc>,
    /// The value ending the chain (in the last slot, or the head when the chain is empty):
    /// usually 0xFFFFFFFF.
    pub end: u32,
}

/// An owned, editable archive.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Dat {
    /// Header bytes 0x14..0x18 (opaque version).
    pub version: [u8; 4],
    /// Header bytes 0x18..0x20.
    pub header_pad: [u8; 8],
    /// The data block, in file order.
    pub blocks: Vec<Block>,
    /// Relocation table order. Pointers missing here are appended in block order on write;
    /// entries whose pointer was removed are dropped.
    pub relocations: Vec<Slot>,
    /// Root table.
    pub roots: Vec<Root>,
    /// Extern table.
    pub externs: Vec<Extern>,
    /// The stored symbol table; written back unchanged while every name still sits at its
    /// `symbol_offset`, otherwise rebuilt (roots then externs, in table order, no dedup).
    pub symbol_table: Vec<u8>,
    /// Bytes after `file_size` (a padded raw `.dat` fails to load: HSD-001).
    pub trailing: Vec<u8>,
    /// The stored `file_size` when it differs from the length the writer derives.
    pub file_size: Option<u32>,
}

/// Largest power of two ≤ 32 dividing `offset` (32 for 0).
fn inferred_align(offset: u32) -> u32 {
    1 << offset.trailing_zeros().min(5)
}

impl Dat {
    /// The parts this model keeps as stored bytes rather than typed values: one `relocation
    /// entry 0x…` per [`Slot::Raw`] (an entry that is no usable pointer slot, written back
    /// verbatim). The data block is bytes by design (the typed structs read through it).
    pub fn raw_parts(&self) -> Vec<String> {
        self.relocations
            .iter()
            .filter_map(|s| match s {
                Slot::Raw(v) => Some(format!("relocation entry {v:#x}")),
                Slot::Pointer(_) => None,
            })
            .collect()
    }

    /// Parses `bytes` into an owned model.
    pub fn parse(bytes: &[u8]) -> Result<Dat> {
        Dat::parse_with(bytes, &gcio::Limits::default())
    }

    /// Parses `bytes` into an owned model; `limits` bound the tables and the slot map.
    pub fn parse_with(bytes: &[u8], limits: &gcio::Limits) -> Result<Dat> {
        Dat::from_view(&crate::parse_with(bytes, limits)?, limits)
    }

    /// Builds the owned model of a parsed archive.
    pub fn from_view(a: &Archive<'_>, limits: &gcio::Limits) -> Result<Dat> {
        let size = a.data_size();
        let data = a.data();
        // Accept a relocation entry as a pointer slot when it is a whole word inside the data
        // block that does not overlap an earlier-listed slot.
        let n = a.relocations().len();
        limits.check_alloc(n as u64, 16, 8)?;
        let mut order: Vec<(u32, usize)> = a.relocations().zip(0..).collect();
        order.sort_unstable();
        let mut accepted = vec![false; n];
        let mut next_free = 0u64;
        for &(slot, i) in &order {
            if u64::from(slot) >= next_free && u64::from(slot) + 4 <= u64::from(size) {
                if let Some(x) = accepted.get_mut(i) {
                    *x = true;
                }
                next_free = u64::from(slot) + 4;
            }
        }
        let mut chains = Vec::with_capacity(a.externs().len());
        for e in a.externs() {
            let chain = a
                .extern_chain(e.offset)
                .with_context(|| format!("extern {}", e.index))?;
            let end = match chain.last() {
                Some(&l) => data.u32(l as usize)?,
                None => e.offset,
            };
            chains.push((chain, end));
        }
        // Blocks follow the archive's boundaries (no boundary falls inside a relocated slot).
        let bounds = a.boundaries()?;
        let locate = |off: u32| -> Loc {
            let i = bounds.partition_point(|&b| b <= off).saturating_sub(1);
            let start = bounds.get(i).copied().unwrap_or(0);
            Loc {
                block: i,
                offset: off - start,
            }
        };
        let target = |v: u32| {
            if v < size {
                Target::In(locate(v))
            } else {
                Target::End(v - size)
            }
        };
        let mut blocks = Vec::with_capacity(bounds.len());
        let ends = bounds.iter().skip(1).copied().chain(std::iter::once(size));
        for (&start, end) in bounds.iter().zip(ends) {
            // Each copy is sized by the file, so it is bounded like any other allocation.
            limits.check_alloc(u64::from(end - start), 1, 0x20 + u64::from(start))?;
            blocks.push(Block {
                bytes: data.bytes(start as usize, (end - start) as usize)?.to_vec(),
                align: inferred_align(start),
                pointers: Vec::new(),
            });
        }
        let mut relocations = Vec::with_capacity(n);
        for (slot, ok) in a.relocations().zip(&accepted) {
            if *ok {
                let loc = locate(slot);
                let t = target(data.u32(slot as usize)?);
                if let Some(b) = blocks.get_mut(loc.block) {
                    // Sorted-slot order is not table order: insert in place.
                    b.set_pointer(loc.offset, Some(t));
                }
                relocations.push(Slot::Pointer(loc));
            } else {
                relocations.push(Slot::Raw(slot));
            }
        }
        let name = |off: u32, what: &str, i: usize| {
            a.symbol_name(off)
                .map(<[u8]>::to_vec)
                .with_context(|| format!("{what} {i}"))
        };
        let mut roots = Vec::with_capacity(a.roots().len());
        for r in a.roots() {
            roots.push(Root {
                name: name(r.symbol_offset, "root", r.index)?,
                symbol_offset: r.symbol_offset,
                target: target(r.offset),
            });
        }
        let mut externs = Vec::with_capacity(chains.len());
        for (e, (chain, end)) in a.externs().zip(chains) {
            externs.push(Extern {
                name: name(e.symbol_offset, "extern", e.index)?,
                symbol_offset: e.symbol_offset,
                chain: chain.into_iter().map(locate).collect(),
                end,
            });
        }
        let symbol_table = a.symbol_table().data();
        let derived = a.symbol_table_offset() + symbol_table.len();
        limits.check_alloc(symbol_table.len() as u64, 1, a.symbol_table_offset() as u64)?;
        limits.check_alloc(a.trailing().len() as u64, 1, derived as u64)?;
        let symbol_table = symbol_table.to_vec();
        let stored = a.header().file_size.get();
        Ok(Dat {
            version: a.header().version,
            header_pad: a.header().pad,
            blocks,
            relocations,
            roots,
            externs,
            symbol_table,
            trailing: a.trailing().to_vec(),
            file_size: (stored as usize != derived).then_some(stored),
        })
    }

    /// Appends a block and returns its index.
    pub fn push_block(&mut self, block: Block) -> usize {
        self.blocks.push(block);
        self.blocks.len() - 1
    }

    /// The block at `index`.
    pub fn block(&self, index: usize) -> Result<&Block> {
        self.blocks.get(index).ok_or_else(|| {
            Error::without_offset(gcio::ErrorKind::Invalid(format!("no block {index}")))
        })
    }

    /// The pointer slot at `loc`, if any.
    pub fn pointer(&self, loc: Loc) -> Option<Target> {
        self.blocks
            .get(loc.block)
            .and_then(|b| b.pointer(loc.offset))
            .map(|p| p.target)
    }

    /// Adds a root.
    pub fn add_root(&mut self, name: &str, target: Target) {
        self.roots.push(Root {
            name: name.as_bytes().to_vec(),
            symbol_offset: 0,
            target,
        });
    }
}
