//! Lays the owned archive out and writes it: blocks in order (aligned), pointers and extern chain
//! links recomputed, relocation table in the kept order, symbol table kept or rebuilt.

use gcio::{Error, Result, Writer, padding_for};

use crate::model::{Dat, Loc, Slot, Target};
use crate::raw::HEADER_SIZE;

fn to_u32(v: usize, what: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::message(format!("{what} {v:#x} does not fit 32 bits")))
}

impl Dat {
    /// Data offset of every block after layout, and the data size.
    pub fn layout(&self) -> Result<(Vec<u32>, u32)> {
        let mut offsets = Vec::with_capacity(self.blocks.len());
        let mut pos = 0usize;
        for b in &self.blocks {
            pos += padding_for(pos, b.align as usize);
            offsets.push(to_u32(pos, "block offset")?);
            pos += b.bytes.len();
        }
        Ok((offsets, to_u32(pos, "data size")?))
    }

    /// Serialises the archive.
    pub fn write(&self) -> Result<Vec<u8>> {
        let (offsets, data_size) = self.layout()?;
        let resolve_loc = |l: Loc| -> Result<u32> {
            offsets
                .get(l.block)
                .map(|o| o.wrapping_add(l.offset))
                .ok_or_else(|| Error::message(format!("reference to missing block {}", l.block)))
        };
        let resolve = |t: Target| match t {
            Target::In(l) => resolve_loc(l),
            Target::End(d) => Ok(data_size.wrapping_add(d)),
        };
        // One output buffer: header (filled in last), data, tables, symbols.
        let pointers: usize = self.blocks.iter().map(|b| b.pointers.len()).sum();
        let estimate = HEADER_SIZE
            + data_size as usize
            + 4 * (self.relocations.len() + pointers)
            + 8 * (self.roots.len() + self.externs.len())
            + self.symbol_table.len()
            + self.trailing.len();
        let mut data = Vec::with_capacity(estimate);
        data.resize(HEADER_SIZE, 0);
        for (b, &off) in self.blocks.iter().zip(&offsets) {
            data.resize(HEADER_SIZE + off as usize, 0);
            data.extend_from_slice(&b.bytes);
        }
        let put = |data: &mut Vec<u8>, at: u32, v: u32| -> Result<()> {
            let a = HEADER_SIZE + at as usize;
            data.get_mut(a..a + 4)
                .map(|w| w.copy_from_slice(&v.to_be_bytes()))
                .ok_or_else(|| {
                    Error::message(format!(
                        "slot at data offset {at:#x} runs past the data block"
                    ))
                })
        };
        // Pointers, and which of them the kept relocation order lists.
        let mut listed: Vec<Vec<bool>> = self
            .blocks
            .iter()
            .map(|b| vec![false; b.pointers.len()])
            .collect();
        for (bi, (b, &off)) in self.blocks.iter().zip(&offsets).enumerate() {
            for p in &b.pointers {
                put(&mut data, off + p.at, resolve(p.target)?)
                    .map_err(|e| e.context(format!("block {bi}")))?;
            }
        }
        let mut relocs: Vec<u32> = Vec::with_capacity(self.relocations.len());
        for s in &self.relocations {
            match *s {
                Slot::Raw(v) => relocs.push(v),
                Slot::Pointer(l) => {
                    let Some(b) = self.blocks.get(l.block) else {
                        continue;
                    };
                    if let Ok(i) = b.pointers.binary_search_by_key(&l.offset, |p| p.at)
                        && let Some(flag) = listed.get_mut(l.block).and_then(|v| v.get_mut(i))
                    {
                        *flag = true;
                        relocs.push(resolve_loc(l)?);
                    }
                }
            }
        }
        for ((b, flags), &off) in self.blocks.iter().zip(&listed).zip(&offsets) {
            for (p, _) in b.pointers.iter().zip(flags).filter(|(_, f)| !**f) {
                relocs.push(off + p.at);
            }
        }
        // Extern chains: each slot holds the next slot's offset, the last one `end`.
        let mut extern_heads = Vec::with_capacity(self.externs.len());
        for e in &self.externs {
            let mut head = e.end;
            for l in e.chain.iter().rev() {
                let at = resolve_loc(*l)?;
                put(&mut data, at, head)?;
                head = at;
            }
            extern_heads.push(head);
        }
        // Symbol table: keep the stored one while every name still sits at its offset.
        let names = self
            .roots
            .iter()
            .map(|r| (&r.name, r.symbol_offset))
            .chain(self.externs.iter().map(|e| (&e.name, e.symbol_offset)));
        let keep = names.clone().all(|(n, off)| {
            let o = off as usize;
            self.symbol_table.get(o..o + n.len()) == Some(n.as_slice())
                && self.symbol_table.get(o + n.len()) == Some(&0)
        });
        let (symbols, sym_offsets): (std::borrow::Cow<'_, [u8]>, Vec<u32>) = if keep {
            (
                self.symbol_table.as_slice().into(),
                names.map(|(_, o)| o).collect(),
            )
        } else {
            let mut t = Vec::new();
            let mut offs = Vec::new();
            for (n, _) in names {
                offs.push(to_u32(t.len(), "symbol offset")?);
                t.extend_from_slice(n);
                t.push(0);
            }
            (t.into(), offs)
        };
        let tables = relocs.len() * 4 + (self.roots.len() + self.externs.len()) * 8;
        let total = data.len() + tables + symbols.len();
        let file_size = match self.file_size {
            Some(v) => v,
            None => to_u32(total, "file size")?,
        };
        let mut header = Writer::with_capacity(HEADER_SIZE);
        header
            .u32(file_size)
            .u32(data_size)
            .u32(to_u32(relocs.len(), "relocation count")?)
            .u32(to_u32(self.roots.len(), "root count")?)
            .u32(to_u32(self.externs.len(), "extern count")?)
            .bytes(&self.version)
            .bytes(&self.header_pad);
        if let Some(h) = data.get_mut(..HEADER_SIZE) {
            h.copy_from_slice(header.as_slice());
        }
        for r in &relocs {
            data.extend_from_slice(&r.to_be_bytes());
        }
        let mut sym = sym_offsets.iter();
        for r in &self.roots {
            data.extend_from_slice(&resolve(r.target)?.to_be_bytes());
            data.extend_from_slice(&sym.next().copied().unwrap_or(0).to_be_bytes());
        }
        for h in &extern_heads {
            data.extend_from_slice(&h.to_be_bytes());
            data.extend_from_slice(&sym.next().copied().unwrap_or(0).to_be_bytes());
        }
        data.extend_from_slice(&symbols);
        data.extend_from_slice(&self.trailing);
        Ok(data)
    }
}
