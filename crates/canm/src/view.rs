//! The zero-copy view: header, track table and the value block borrowed from the input.

use gcio::{Context, Error, Limits, Reader, Result};

use crate::model::{Canm, HEADER_SIZE, Kind, MAGIC, Track};

/// A parsed camera animation over borrowed bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct View<'a> {
    /// Per-frame or keyed.
    pub kind: Kind,
    /// Header words at 0x08–0x17.
    pub header: [u32; 4],
    /// Length in frames.
    pub frames: u32,
    /// Value block offset from the end of the header.
    pub value_offset: u32,
    /// The eight tracks.
    pub tracks: [Track; 8],
    /// Bytes between the track table and the value block.
    pub gap: &'a [u8],
    /// The value table's bytes (big-endian floats).
    pub values: &'a [u8],
    /// Bytes after the value table.
    pub trailer: &'a [u8],
}

/// The kind when `data` starts with `ANDO` and a known type tag.
pub fn sniff(data: &[u8]) -> Option<Kind> {
    if data.get(..4)? != MAGIC {
        return None;
    }
    Kind::from_tag(data.get(4..8)?)
}

impl<'a> View<'a> {
    /// Parses the header, the track table and the value block's extent (borrowed: nothing
    /// sized from the file is allocated, so the limits only bound [`Canm::from_view`]).
    pub(crate) fn parse_with(data: &'a [u8], _limits: &Limits) -> Result<View<'a>> {
        let r = Reader::new(data);
        r.expect_magic(0, &MAGIC).context("CANM header")?;
        let kind = Kind::from_tag(r.bytes(4, 4).context("CANM header")?).ok_or_else(|| {
            Error::invalid(4, "type tag is neither CANM nor CKAN").context("CANM header")
        })?;
        let w = |at: usize| r.u32(at).context("CANM header");
        let header = [w(8)?, w(0x0C)?, w(0x10)?, w(0x14)?];
        let frames = w(0x18)?;
        let value_offset = w(0x1C)?;
        let es = kind.entry_size();
        let mut tracks = [Track {
            count: 0,
            offset: 0,
            layout: 0,
        }; 8];
        for (i, t) in tracks.iter_mut().enumerate() {
            let at = HEADER_SIZE + i * es;
            let ctx = || format!("track {i} ({})", crate::TRACK_NAMES.get(i).unwrap_or(&""));
            t.count = r.u32(at).with_context(ctx)?;
            t.offset = r.u32(at + 4).with_context(ctx)?;
            if kind == Kind::Ckan {
                t.layout = r.u32(at + 8).with_context(ctx)?;
            }
        }
        let table_end = HEADER_SIZE + 8 * es;
        let block = HEADER_SIZE
            .checked_add(value_offset as usize)
            .ok_or_else(|| Error::invalid(0x1C, "value offset overflows"))?;
        if block < table_end {
            return Err(Error::invalid(
                0x1C,
                format!(
                    "value block at {block:#x} overlaps the track table (ends at {table_end:#x})"
                ),
            )
            .context("CANM header"));
        }
        let gap = r.bytes(table_end, block - table_end).context("gap")?;
        let size = r.u32(block).context("value block")?;
        if size % 4 != 0 {
            return Err(Error::invalid(
                block as u64,
                format!("value block size {size} is not a whole number of floats"),
            )
            .context("value block"));
        }
        let values = r.bytes(block + 4, size as usize).context("value block")?;
        let trailer = r.rest(block + 4 + size as usize).context("trailer")?;
        Ok(View {
            kind,
            header,
            frames,
            value_offset,
            tracks,
            gap,
            values,
            trailer,
        })
    }

    /// File offset of value `i`.
    pub fn value_at(&self, i: usize) -> u64 {
        (HEADER_SIZE + self.value_offset as usize + 4 + 4 * i) as u64
    }

    /// The owned model ([`Canm::from_view`]).
    pub(crate) fn to_model(&self) -> Canm {
        Canm {
            kind: self.kind,
            header: self.header,
            frames: self.frames,
            tracks: self.tracks,
            gap: self.gap.to_vec(),
            values: self
                .values
                .chunks_exact(4)
                .filter_map(|c| c.try_into().ok().map(f32::from_be_bytes))
                .collect(),
            trailer: self.trailer.to_vec(),
        }
    }
}
