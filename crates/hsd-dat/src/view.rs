//! The zero-copy archive view: header, data block, relocation table, root and extern tables,
//! symbol strings, and the pointer queries everything typed is built on.

use gcio::zerocopy::byteorder::big_endian::U32;
use gcio::{Context, Error, ErrorKind, Limits, Reader, Result, Visited};

use crate::raw::{HEADER_SIZE, Header, SymbolEntry};
use crate::roots::RootKind;

/// Parses an archive with the default [`Limits`].
pub fn parse(data: &[u8]) -> Result<Archive<'_>> {
    Archive::parse_with(data, &Limits::default())
}

/// Parses an archive, bounding table counts and every later walk with `limits`.
pub fn parse_with<'a>(data: &'a [u8], limits: &Limits) -> Result<Archive<'a>> {
    Archive::parse_with(data, limits)
}

/// A parsed archive borrowing the file bytes.
///
/// Building it reads the header and borrows the four tables; the only allocation is one sorted copy
/// of the relocation slots, so [`Archive::pointer`] can tell a relocated slot (a pointer, even when
/// it holds 0) from an unlisted zero word (NULL).
#[derive(Debug, Clone)]
pub struct Archive<'a> {
    file: Reader<'a>,
    header: &'a Header,
    data: Reader<'a>,
    relocs: &'a [U32],
    roots: &'a [SymbolEntry],
    externs: &'a [SymbolEntry],
    symbols: Reader<'a>,
    sorted_slots: Vec<u32>,
    /// One bit per 4-aligned data word, set when relocated: the hot query of every typed read,
    /// built on first use so the archive layer alone does not pay for it.
    reloc_bits: std::sync::OnceLock<Vec<u64>>,
    limits: Limits,
    /// See [`Archive::reading_relocated_scalars_as_zero`].
    scalar_relocs_zero: bool,
}

/// A root or extern entry with its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbol<'a> {
    /// Index in its table.
    pub index: usize,
    /// Root: data offset of the struct. Extern: head of the slot chain.
    pub offset: u32,
    /// Offset of the name inside the symbol table.
    pub symbol_offset: u32,
    /// The name without its NUL (empty when it cannot be read; see [`Archive::symbol_name`]).
    pub name: &'a [u8],
}

impl Symbol<'_> {
    /// The root type its name implies (`scene_data`, `*_joint`, …).
    pub fn kind(&self) -> RootKind {
        RootKind::from_name(self.name)
    }
}

/// One struct extent of the usual reader heuristic: the data block split at the sorted pointer
/// targets, root offsets and extern slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    /// Data offset.
    pub offset: u32,
    /// Bytes up to the next boundary (padding included).
    pub size: u32,
}

fn size_err(at: u64, what: &'static str) -> Error {
    Error::new(ErrorKind::Overflow(what), at)
}

impl<'a> Archive<'a> {
    /// Parses an archive, bounding allocations with `limits`.
    pub(crate) fn parse_with(bytes: &'a [u8], limits: &Limits) -> Result<Self> {
        let limits = *limits;
        let file = Reader::new(bytes);
        let header: &Header = file.get(0).context("header")?;
        let data_size = header.data_size.get() as usize;
        let data = file.sub(HEADER_SIZE, data_size).context("data block")?;
        let count = |v: &U32, at: u64| limits.check_elements(u64::from(v.get()), at);
        let nb_reloc = count(&header.nb_reloc, 8)?;
        let nb_public = count(&header.nb_public, 0xC)?;
        let nb_extern = count(&header.nb_extern, 0x10)?;
        let reloc_at = HEADER_SIZE + data_size;
        let relocs = file
            .table::<U32>(reloc_at, nb_reloc)
            .context("relocation table")?;
        let roots_at = nb_reloc
            .checked_mul(4)
            .and_then(|n| n.checked_add(reloc_at))
            .ok_or_else(|| size_err(8, "root table offset"))?;
        let roots = file
            .table::<SymbolEntry>(roots_at, nb_public)
            .context("root table")?;
        let externs_at = roots_at + nb_public * 8;
        let externs = file
            .table::<SymbolEntry>(externs_at, nb_extern)
            .context("extern table")?;
        let symbols_at = externs_at + nb_extern * 8;
        let end = (header.file_size.get() as usize).clamp(symbols_at, bytes.len());
        let symbols = file.sub(symbols_at, end - symbols_at)?;
        limits.check_alloc(nb_reloc as u64, 4, 8)?;
        let mut sorted_slots: Vec<u32> = relocs.iter().map(|r| r.get()).collect();
        if !sorted_slots.is_sorted() {
            sorted_slots.sort_unstable();
        }
        // The bitmap needs one bit per data word: no larger than the data block itself.
        limits.check_alloc(data_size.div_ceil(256) as u64, 8, 4)?;
        Ok(Archive {
            file,
            header,
            data,
            relocs,
            roots,
            externs,
            symbols,
            sorted_slots,
            reloc_bits: std::sync::OnceLock::new(),
            scalar_relocs_zero: false,
            limits,
        })
    }

    /// The header as stored.
    pub fn header(&self) -> &'a Header {
        self.header
    }

    /// The whole file.
    pub fn file(&self) -> Reader<'a> {
        self.file
    }

    /// The data block (offsets are data-relative, errors absolute).
    pub fn data(&self) -> Reader<'a> {
        self.data
    }

    /// Size of the data block.
    pub fn data_size(&self) -> u32 {
        self.data.len() as u32
    }

    /// The limits this archive was parsed with.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Relocation entries (data offsets of pointer slots) in table order.
    pub fn relocations(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.relocs.iter().map(|r| r.get())
    }

    /// Relocation slots in ascending order (duplicates kept).
    pub fn sorted_slots(&self) -> &[u32] {
        &self.sorted_slots
    }

    /// The symbol table (names), from after the extern table to `file_size` (clamped to the file).
    pub fn symbol_table(&self) -> Reader<'a> {
        self.symbols
    }

    /// File offset of the symbol table.
    pub fn symbol_table_offset(&self) -> usize {
        self.symbols.base() as usize
    }

    /// Bytes after `file_size` (e.g. the 0x20 padding of an embedded archive; HSD-001 for a raw file).
    pub fn trailing(&self) -> &'a [u8] {
        self.file
            .rest(self.symbols.base() as usize + self.symbols.len())
            .unwrap_or_default()
    }

    /// The name at `offset` of the symbol table.
    pub fn symbol_name(&self, offset: u32) -> Result<&'a [u8]> {
        self.symbols.cstr(offset as usize).context("symbol name")
    }

    fn symbol(&self, index: usize, e: &SymbolEntry) -> Symbol<'a> {
        let symbol_offset = e.symbol.get();
        Symbol {
            index,
            offset: e.offset.get(),
            symbol_offset,
            name: self.symbol_name(symbol_offset).unwrap_or_default(),
        }
    }

    /// Root entries in table order.
    pub fn roots(&self) -> impl ExactSizeIterator<Item = Symbol<'a>> + '_ {
        self.roots
            .iter()
            .enumerate()
            .map(|(i, e)| self.symbol(i, e))
    }

    /// Extern entries in table order.
    pub fn externs(&self) -> impl ExactSizeIterator<Item = Symbol<'a>> + '_ {
        self.externs
            .iter()
            .enumerate()
            .map(|(i, e)| self.symbol(i, e))
    }

    /// The first root called `name`.
    pub fn root(&self, name: &str) -> Option<Symbol<'a>> {
        self.roots().find(|r| r.name == name.as_bytes())
    }

    /// Makes typed reads ([`Archive::read`]) see zero in every relocated word a struct reads
    /// other than as a pointer field (a flag, count or size that holds a pointer). Such a value
    /// is an address, which only the layout decides; `compile` types the graph this way, so the
    /// order it computes does not depend on the layout it is replacing.
    pub(crate) fn reading_relocated_scalars_as_zero(mut self) -> Self {
        self.scalar_relocs_zero = true;
        self
    }

    /// See [`Archive::reading_relocated_scalars_as_zero`].
    pub(crate) fn relocated_scalars_read_zero(&self) -> bool {
        self.scalar_relocs_zero
    }

    /// A stage's GObjs: each entry of the table the [`crate::MapHead`] at `head` lists, with its
    /// data offset. An error when the count exceeds the limits or runs past the data block.
    pub fn map_gobjs(&self, head: u32) -> Result<Vec<(u32, crate::MapGObj)>> {
        use crate::field::Struct;
        let h: crate::MapHead = self.read(head)?;
        let Some(table) = h.gobjs else {
            return Ok(Vec::new());
        };
        let here = self.data.abs(head as usize);
        let n = u64::from(h.gobj_count);
        if n > self.limits.max_elements {
            return Err(Error::invalid(here, format!("map_head lists {n} GObjs")));
        }
        let size = crate::MapGObj::<u32>::SIZE as u64;
        (0..n)
            .map(|k| {
                let at = u32::try_from(u64::from(table) + k * size)
                    .map_err(|_| Error::invalid(here, "GObj table past 4 GiB"))?;
                Ok((at, self.read(at).context("map GObj")?))
            })
            .collect()
    }

    /// Whether the word at data offset `slot` is listed in the relocation table.
    pub fn is_relocated(&self, slot: u32) -> bool {
        let bits = self.reloc_bits.get_or_init(|| {
            let mut bits = vec![0u64; (self.data.len().div_ceil(4)).div_ceil(64)];
            for &s in &self.sorted_slots {
                let w = s as usize / 4;
                if s.is_multiple_of(4)
                    && let Some(b) = bits.get_mut(w / 64)
                {
                    *b |= 1 << (w % 64);
                }
            }
            bits
        });
        let w = slot as usize / 4;
        match bits.get(w / 64) {
            Some(b) if slot.is_multiple_of(4) => b & (1 << (w % 64)) != 0,
            _ => self.sorted_slots.binary_search(&slot).is_ok(),
        }
    }

    /// The pointer stored at data offset `slot`: `Some(target)` when the slot is relocated (a
    /// relocated 0 is a pointer to data offset 0), `None` for an unlisted zero word (NULL). An
    /// unlisted non-zero word is an error: the game would use it as a raw address.
    pub fn pointer(&self, slot: u32) -> Result<Option<u32>> {
        let v = self.data.u32(slot as usize)?;
        if self.is_relocated(slot) {
            Ok(Some(v))
        } else if v == 0 {
            Ok(None)
        } else {
            Err(Error::invalid(
                self.data.abs(slot as usize),
                format!("non-zero word {v:#x} in a pointer field is not relocated"),
            ))
        }
    }

    /// Slots of the extern chain starting at `head`, walked like the runtime (until 0xFFFFFFFF or an offset
    /// that does not leave a whole word in the data block), bounded by the limits; a loop is an
    /// error (HSD-006).
    pub fn extern_chain(&self, head: u32) -> Result<Vec<u32>> {
        let mut seen = Visited::new(self.limits);
        let mut out = Vec::new();
        let mut at = head;
        while at != u32::MAX && (at as u64) + 4 <= u64::from(self.data_size()) {
            seen.visit_once(u64::from(at))
                .map_err(|_| {
                    Error::new(
                        ErrorKind::Cycle {
                            offset: self.data.abs(at as usize),
                        },
                        self.data.abs(at as usize),
                    )
                })
                .context("extern chain")?;
            out.push(at);
            at = self.data.u32(at as usize)?;
        }
        Ok(out)
    }

    /// Struct boundaries: 0, every relocated target inside the data block, every root offset and
    /// every extern slot, sorted and deduplicated. Targets falling strictly inside a relocated slot
    /// are dropped (a slot is never split).
    pub fn boundaries(&self) -> Result<Vec<u32>> {
        let size = self.data_size();
        let n = self.relocs.len() + self.roots.len() + 1;
        self.limits.check_alloc(n as u64, 4, 8)?;
        let mut b = Vec::with_capacity(n);
        if size > 0 {
            b.push(0);
        }
        for &slot in &self.sorted_slots {
            if let Ok(t) = self.data.u32(slot as usize)
                && t < size
            {
                b.push(t);
            }
        }
        b.extend(
            self.roots
                .iter()
                .map(|r| r.offset.get())
                .filter(|&o| o < size),
        );
        for e in self.externs {
            if let Ok(chain) = self.extern_chain(e.offset.get()) {
                b.extend(chain);
            }
        }
        crate::sort::radix_sort_by(&mut b, |&x| u64::from(x), 4);
        b.dedup();
        // Drop boundaries strictly inside a relocated slot (both lists are sorted).
        let slots = &self.sorted_slots;
        let mut si = 0;
        b.retain(|&x| {
            while slots
                .get(si)
                .is_some_and(|&s| u64::from(s) + 4 <= u64::from(x))
            {
                si += 1;
            }
            !slots
                .get(si)
                .is_some_and(|&s| s < x && u64::from(x) < u64::from(s) + 4)
        });
        Ok(b)
    }

    /// Struct extents from [`Archive::boundaries`]: each runs to the next boundary or the data end.
    pub fn extents(&self) -> Result<Vec<Extent>> {
        let b = self.boundaries()?;
        let size = self.data_size();
        let ends = b.iter().skip(1).copied().chain(std::iter::once(size));
        Ok(b.iter()
            .zip(ends)
            .map(|(&offset, end)| Extent {
                offset,
                size: end - offset,
            })
            .collect())
    }
}

/// Whether `data` looks like a sysdolphin archive by the header's arithmetic alone (archives have
/// no magic): the tables fit before `file_size`, `file_size` is the file length (up to 0x20 bytes of
/// padding, as when embedded), at least one root, every relocation a 4-aligned slot inside the data
/// block, every root inside the data block with a printable NUL-terminated name.
pub fn sniff(data: &[u8]) -> bool {
    let Ok(a) = parse(data) else { return false };
    let h = a.header();
    let file_size = u64::from(h.file_size.get());
    let len = data.len() as u64;
    let tables = 0x20
        + u64::from(h.data_size.get())
        + 4 * u64::from(h.nb_reloc.get())
        + 8 * (u64::from(h.nb_public.get()) + u64::from(h.nb_extern.get()));
    let size = a.data_size();
    tables < file_size
        && file_size <= len
        && len - file_size <= 0x20
        && h.nb_public.get() > 0
        && a.relocations()
            .all(|s| s.is_multiple_of(4) && u64::from(s) + 4 <= u64::from(size))
        && a.roots().all(|r| {
            r.offset < size
                && a.symbol_name(r.symbol_offset)
                    .is_ok_and(|n| !n.is_empty() && n.iter().all(|b| b.is_ascii_graphic()))
        })
}
