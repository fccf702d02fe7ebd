//! The writer: every structure at its model offset, zeros between them, kept fill on top.

use gcio::{Error, ErrorKind, Limits, Result};

use crate::model::{FILE_HEADER_SIZE, MAGIC, TABLE_ENTRY_SIZE, Tpl};

/// The output buffer with a record of which bytes a structure has written, so two structures
/// that overlap with different contents are refused instead of silently clobbered.
struct Out {
    bytes: Vec<u8>,
    written: Vec<bool>,
}

impl Out {
    fn put(&mut self, at: u32, src: &[u8], what: &dyn Fn() -> String) -> Result<()> {
        let start = at as usize;
        let end = start.saturating_add(src.len());
        let (Some(dst), Some(seen)) = (
            self.bytes.get_mut(start..end),
            self.written.get_mut(start..end),
        ) else {
            return Err(Error::invalid(
                u64::from(at),
                format!(
                    "{}: {} bytes at offset {at:#x} past the file size {:#x}",
                    what(),
                    src.len(),
                    self.bytes.len()
                ),
            ));
        };
        for ((d, s), w) in dst.iter_mut().zip(src).zip(seen.iter_mut()) {
            if *w && *d != *s {
                return Err(Error::invalid(
                    u64::from(at),
                    format!("{}: overlaps another structure with other bytes", what()),
                ));
            }
            *d = *s;
            *w = true;
        }
        Ok(())
    }
}

impl Tpl {
    /// Writes the library: each structure at the offset the model records, zero bytes between
    /// them, then [`Tpl::fill`]. A parsed file comes back byte for byte. Fails when a structure
    /// lies past [`Tpl::size`], two structures overlap with different bytes, a texel or palette
    /// block has the wrong length for its header, or the size exceeds the default [`Limits`].
    pub fn write(&self) -> Result<Vec<u8>> {
        self.write_with(&Limits::default())
    }

    /// [`Tpl::write`] with the caller's limits bounding the output (its size is the model's
    /// [`Tpl::size`], a number an edited or JSON-made model can set to anything).
    pub fn write_with(&self, limits: &Limits) -> Result<Vec<u8>> {
        let size = limits.check_alloc(u64::from(self.size), 1, 0)?;
        let count = u32::try_from(self.images.len())
            .map_err(|_| Error::without_offset(ErrorKind::Overflow("image count")))?;
        let mut out = Out {
            bytes: vec![0; size],
            written: vec![false; size],
        };
        let mut head = [0u8; FILE_HEADER_SIZE];
        for (dst, w) in head
            .chunks_exact_mut(4)
            .zip([MAGIC, count, self.table_offset])
        {
            dst.copy_from_slice(&w.to_be_bytes());
        }
        out.put(0, &head, &|| "file header".to_owned())?;
        let mut table = Vec::with_capacity(self.images.len() * TABLE_ENTRY_SIZE);
        for e in &self.images {
            table.extend(e.header_offset.to_be_bytes());
            table.extend(
                e.palette
                    .as_ref()
                    .map_or(0, |p| p.header_offset)
                    .to_be_bytes(),
            );
        }
        out.put(self.table_offset, &table, &|| "image table".to_owned())?;
        for (i, e) in self.images.iter().enumerate() {
            let name = |what: &str| format!("image {i} > {what}");
            if let Some(want) = e.header.data_size()
                && want != e.data.len()
            {
                return Err(Error::invalid(
                    u64::from(e.header.data_offset),
                    format!(
                        "{}: {} bytes, the header's format, size and levels need {want}",
                        name("texels"),
                        e.data.len()
                    ),
                ));
            }
            out.put(e.header_offset, &e.header.to_bytes(), &|| name("header"))?;
            out.put(e.header.data_offset, &e.data, &|| name("texels"))?;
            if let Some(p) = &e.palette {
                if p.header.data_size() != p.data.len() {
                    return Err(Error::invalid(
                        u64::from(p.header.data_offset),
                        format!(
                            "{}: {} bytes for {} entries",
                            name("palette"),
                            p.data.len(),
                            p.header.entries
                        ),
                    ));
                }
                out.put(p.header_offset, &p.header.to_bytes(), &|| {
                    name("palette header")
                })?;
                out.put(p.header.data_offset, &p.data, &|| name("palette"))?;
            }
        }
        for f in &self.fill {
            out.put(f.offset, &f.bytes, &|| format!("fill at {:#x}", f.offset))?;
        }
        Ok(out.bytes)
    }
}
