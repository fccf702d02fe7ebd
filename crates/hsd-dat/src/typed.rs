//! Reading and writing typed structs: from the zero-copy archive (pointers as data offsets) and
//! in the owned graph (pointers as [`Target`]s).

use gcio::{Context, Error, ErrorKind, Result};

use crate::field::Struct;
use crate::model::{Dat, Loc, Target};
use crate::view::Archive;

impl<'a> Archive<'a> {
    /// Reads a `T` at data offset `off`; pointer fields resolve through the relocation table.
    pub fn read<T: Struct<u32>>(&self, off: u32) -> Result<T> {
        let r = self.data().sub(off as usize, T::SIZE).context(T::NAME)?;
        let mut ptr = |field: usize| -> Result<Option<u32>> {
            let slot = off as usize + field;
            if self.is_relocated(slot as u32) {
                self.data().u32(slot).map(Some)
            } else {
                Ok(None)
            }
        };
        if !self.relocated_scalars_read_zero() {
            return T::decode(&r, &mut ptr).context(T::NAME);
        }
        // Zero the bytes of every relocated word the struct reads other than as a pointer field
        // (see `Archive::reading_relocated_scalars_as_zero`).
        let mut fields = Vec::new();
        T::decode(&r, &mut |f| {
            fields.push(f);
            Ok(Some(0))
        })
        .context(T::NAME)?;
        let end = off as usize + T::SIZE;
        let mut bytes: Option<Vec<u8>> = None;
        for w in (off as usize & !3..end).step_by(4) {
            let pointer_field = w
                .checked_sub(off as usize)
                .is_some_and(|f| fields.contains(&f));
            if !pointer_field && self.is_relocated(w as u32) {
                let b = match &mut bytes {
                    Some(b) => b,
                    None => bytes.insert(r.bytes(0, T::SIZE)?.to_vec()),
                };
                let lo = w.saturating_sub(off as usize);
                let hi = (w + 4 - off as usize).min(T::SIZE);
                if let Some(x) = b.get_mut(lo..hi) {
                    x.fill(0);
                }
            }
        }
        match bytes {
            Some(b) => T::decode(&gcio::Reader::new(&b), &mut ptr).context(T::NAME),
            None => T::decode(&r, &mut ptr).context(T::NAME),
        }
    }
}

fn no_block(l: Loc) -> Error {
    Error::without_offset(ErrorKind::Invalid(format!("no block {}", l.block)))
}

impl Dat {
    /// Maps `loc + rel` to the block holding that byte (a struct may span blocks when a pointer
    /// targets its middle).
    pub fn advance(&self, loc: Loc, rel: u32) -> Option<Loc> {
        let mut block = loc.block;
        let mut off = u64::from(loc.offset) + u64::from(rel);
        loop {
            let len = self.blocks.get(block)?.bytes.len() as u64;
            if off < len {
                return Some(Loc {
                    block,
                    offset: off as u32,
                });
            }
            off -= len;
            block += 1;
        }
    }

    /// `len` bytes starting at `loc`, gathered across following blocks.
    pub fn bytes_at(&self, loc: Loc, len: usize) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(len);
        let mut at = loc;
        while out.len() < len {
            let b = self.blocks.get(at.block).ok_or_else(|| no_block(at))?;
            let chunk = b.bytes.get(at.offset as usize..).unwrap_or_default();
            let take = chunk.len().min(len - out.len());
            out.extend_from_slice(chunk.get(..take).unwrap_or_default());
            at = Loc::start(at.block + 1);
        }
        Ok(out)
    }

    /// Reads a `T` at `loc`.
    pub fn read<T: Struct<Target>>(&self, loc: Loc) -> Result<T> {
        let bytes = self.bytes_at(loc, T::SIZE).context(T::NAME)?;
        let r = gcio::Reader::new(&bytes);
        let mut ptr = |field: usize| -> Result<Option<Target>> {
            Ok(self
                .advance(loc, field as u32)
                .and_then(|l| self.pointer(l)))
        };
        T::decode(&r, &mut ptr).context(T::NAME)
    }

    /// Writes a `T` at `loc`: its fields into the bytes (padding kept) and its pointer fields
    /// into the blocks' pointer lists.
    pub fn write_struct<T: Struct<Target>>(&mut self, loc: Loc, value: &T) -> Result<()> {
        let mut bytes = self.bytes_at(loc, T::SIZE).context(T::NAME)?;
        let mut ptrs = Vec::new();
        value.encode(&mut bytes, &mut |field, p| ptrs.push((field, p)));
        // Scatter the bytes back.
        let mut at = loc;
        let mut rest = bytes.as_slice();
        while !rest.is_empty() {
            let b = self.blocks.get_mut(at.block).ok_or_else(|| no_block(at))?;
            let dst = b.bytes.get_mut(at.offset as usize..).unwrap_or_default();
            let n = dst.len().min(rest.len());
            if let (Some(d), Some(s)) = (dst.get_mut(..n), rest.get(..n)) {
                d.copy_from_slice(s);
            }
            rest = rest.get(n..).unwrap_or_default();
            at = Loc::start(at.block + 1);
        }
        for (field, p) in ptrs {
            let l = self
                .advance(loc, field as u32)
                .ok_or_else(|| no_block(loc))?;
            if let Some(b) = self.blocks.get_mut(l.block) {
                b.set_pointer(l.offset, p);
            }
        }
        Ok(())
    }
}
