//! The zero-copy view: header words and the entry table borrowed from the input.

use gcio::{Context, Error, Limits, Reader, Result};

use crate::model::{HEADER_SIZE, SOUND_SIZE, Sound};

/// A parsed sound animation table over borrowed bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct View<'a> {
    /// Number of sounds (the `u16` at 0).
    pub count: u16,
    /// The `u16` at 2.
    pub pad: u16,
    /// The control word at 4.
    pub control: u32,
    /// The entries' bytes (`count` × 32).
    pub table: &'a [u8],
    /// Bytes after the table.
    pub trailer: &'a [u8],
}

/// True when `data` has the shape of a table as the game's tools write it: a header whose
/// count of 32-byte entries fills the file exactly, and zero padding and control words. There
/// is no signature, so this is only ever a weak claim (the `.bas` name decides).
pub fn sniff(data: &[u8]) -> bool {
    let r = Reader::new(data);
    match (r.u16(0), r.u16(2), r.u32(4)) {
        (Ok(count), Ok(0), Ok(0)) => data.len() == HEADER_SIZE + usize::from(count) * SOUND_SIZE,
        _ => false,
    }
}

impl<'a> View<'a> {
    /// Parses the header and the table's extent (borrowed: nothing sized from the file is
    /// allocated, so the limits only bound [`crate::Bas::from_view`]).
    pub(crate) fn parse_with(data: &'a [u8], _limits: &Limits) -> Result<View<'a>> {
        let r = Reader::new(data);
        let count = r.u16(0).context("BAS header")?;
        let pad = r.u16(2).context("BAS header")?;
        let control = r.u32(4).context("BAS header")?;
        let len = usize::from(count) * SOUND_SIZE;
        let table = r.bytes(HEADER_SIZE, len).map_err(|_| {
            Error::invalid(
                0,
                format!(
                    "{count} sounds need {len} bytes of entries from 0x8; the file has {}",
                    data.len().saturating_sub(HEADER_SIZE)
                ),
            )
            .context("BAS sound table")
        })?;
        let trailer = r.rest(HEADER_SIZE + len).context("BAS trailer")?;
        Ok(View {
            count,
            pad,
            control,
            table,
            trailer,
        })
    }

    /// The sounds in file order.
    pub fn sounds(&self) -> impl Iterator<Item = Sound> + '_ {
        self.table
            .chunks_exact(SOUND_SIZE)
            .filter_map(|c| c.try_into().ok().map(Sound::from_bytes))
    }

    /// File offset of sound `i`.
    pub fn sound_at(i: usize) -> u64 {
        (HEADER_SIZE + i * SOUND_SIZE) as u64
    }

    /// File offset of the bytes after the table.
    pub fn trailer_offset(&self) -> usize {
        HEADER_SIZE + self.table.len()
    }
}
