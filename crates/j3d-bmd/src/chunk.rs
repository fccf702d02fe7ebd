//! Helpers every chunk module shares: header access, checked conversions, chunk framing.

use gcio::{Error, ErrorKind, Reader, Result, Writer};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::Pad;

/// Alignment of every chunk (J3D-077).
pub const CHUNK_ALIGN: usize = 32;

/// Checks the magic and borrows the chunk's header struct.
pub(crate) fn header<'a, T: FromBytes + KnownLayout + Immutable + Unaligned>(
    r: &Reader<'a>,
    magic: &[u8; 4],
) -> Result<&'a T> {
    r.expect_magic(0, magic)?;
    r.get::<T>(0)
}

/// A u32 offset as `usize`.
pub(crate) fn off(v: zerocopy::byteorder::big_endian::U32) -> usize {
    v.get() as usize
}

/// `n` as u16, or an error naming `what`.
pub(crate) fn u16_of(n: usize, what: &str) -> Result<u16> {
    u16::try_from(n)
        .map_err(|_| Error::without_offset(ErrorKind::Invalid(format!("{what} {n} exceeds 65535"))))
}

/// `n` as u32, or an error naming `what`.
pub(crate) fn u32_of(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n)
        .map_err(|_| Error::without_offset(ErrorKind::Invalid(format!("{what} {n} exceeds u32"))))
}

/// Writes a chunk: magic and size slot, the body, then padding to 32 with `pad`.
pub(crate) fn write_chunk(
    magic: [u8; 4],
    pad: Pad,
    body: impl FnOnce(&mut Writer) -> Result<()>,
) -> Result<Vec<u8>> {
    let mut w = Writer::new();
    let sec = w.begin_section(magic);
    body(&mut w)?;
    w.end_section(sec, CHUNK_ALIGN, pad.pattern())?;
    Ok(w.into_vec())
}

/// Fills a reserved offset slot with the current position.
pub(crate) fn here(w: &mut Writer, slot: gcio::Fixup) -> Result<()> {
    w.fix_here(slot)
}

/// Bytes from `pos` to the next multiple of 32.
pub(crate) fn pad_len(pos: usize) -> usize {
    gcio::padding_for(pos, 32)
}

/// Alignments a table may be padded to, smallest first.
const TABLE_ALIGNS: [u8; 6] = [1, 2, 4, 8, 16, 32];

/// The alignment whose padding takes a table ending at `end` to the next table at `start`:
/// `preferred` (the writer's default) when it does, else the smallest one at least the table's
/// `natural` alignment, else the smallest below it (Nintendo's tools sometimes pack a u16 table at
/// an odd offset); `None` when no alignment does (tables out of order, or a wider gap). Several
/// alignments can explain one gap and any of them rewrites it; preferring the default keeps
/// models built with it equal after a round trip.
pub(crate) fn gap_align(end: usize, start: usize, preferred: u8, natural: u8) -> Option<u8> {
    let fits = |a: &u8| end.checked_add(gcio::padding_for(end, usize::from(*a))) == Some(start);
    let (above, below): (Vec<u8>, Vec<u8>) = TABLE_ALIGNS.into_iter().partition(|a| *a >= natural);
    [preferred]
        .iter()
        .chain(&above)
        .chain(&below)
        .find(|a| fits(a))
        .copied()
}
