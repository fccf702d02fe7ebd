//! Zero-copy access: the header, the version-1 chunk walk, and borrowed views of every object
//! kind, read through `gcio::Reader` at absolute file offsets.

use gcio::{Context, Error, Limits, Reader, Result};
use zerocopy::byteorder::big_endian::U32;
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::raw;

/// Size of the file header.
pub const HEADER_SIZE: usize = 0x20;
/// Offset of the first object after a version-0 bank block.
pub const BANK0_END: usize = HEADER_SIZE + size_of::<raw::BankBlock0>();

/// Parses the header with default [`Limits`]; everything else is read on demand.
pub fn parse(data: &[u8]) -> Result<View<'_>> {
    parse_with(data, &Limits::default())
}

/// Parses the header; everything else is read on demand (borrowed: the limits bound
/// [`crate::Bank::from_view`]'s walk).
pub fn parse_with<'a>(data: &'a [u8], _limits: &Limits) -> Result<View<'a>> {
    let r = Reader::new(data);
    r.expect_magic(0, b"IBNK").context("IBNK header")?;
    let header: &raw::Header = r.get(0).context("IBNK header")?;
    let version = header.version.get();
    if version > 1 {
        return Err(Error::invalid(
            0xC,
            format!("bank version {version} (IBNK-002: 0 or 1)"),
        ))
        .context("IBNK header");
    }
    Ok(View { r, header })
}

/// A parsed bank header over the file bytes.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    r: Reader<'a>,
    header: &'a raw::Header,
}

impl<'a> View<'a> {
    /// Reader over the whole file.
    pub fn reader(&self) -> Reader<'a> {
        self.r
    }

    /// The raw header.
    pub fn header(&self) -> &'a raw::Header {
        self.header
    }

    /// Bank number.
    pub fn id(&self) -> i32 {
        self.header.id.get()
    }

    /// Version word (0 or 1).
    pub fn version(&self) -> u32 {
        self.header.version.get()
    }

    /// Version-1 chunks in file order (empty for version 0).
    pub fn chunks(&self) -> Chunks<'a> {
        Chunks {
            r: self.r,
            pos: if self.version() == 1 {
                HEADER_SIZE
            } else {
                self.r.len()
            },
            failed: false,
        }
    }

    /// The first chunk with `id`, as the game's `findChunk` picks it.
    pub fn chunk(&self, id: &[u8; 4]) -> Result<Option<ChunkView<'a>>> {
        for c in self.chunks() {
            let c = c?;
            if &c.id == id {
                return Ok(Some(c));
            }
        }
        Ok(None)
    }

    /// The version-0 bank block at 0x20.
    pub fn bank_block(&self) -> Result<&'a raw::BankBlock0> {
        self.r.get(HEADER_SIZE).context("BANK")
    }

    /// File offset stored for `program` (0 = empty), or `None` past the program table.
    pub fn program_offset(&self, program: u32) -> Result<Option<u32>> {
        let i = program as usize;
        if self.version() == 0 {
            return Ok(self.bank_block()?.slots.get(i).map(|s| s.get()));
        }
        match self.chunk(b"LIST")? {
            None => Ok(None),
            Some(list) => Ok(list.counted::<U32>()?.0.get(i).map(|s| s.get())),
        }
    }
}

/// Iterator over version-1 chunks; stops at the first malformed chunk (yielding its error) or
/// when fewer than 8 bytes remain.
#[derive(Debug, Clone)]
pub struct Chunks<'a> {
    r: Reader<'a>,
    pos: usize,
    failed: bool,
}

impl<'a> Chunks<'a> {
    /// Offset where the walk stopped (start of the trailing bytes once exhausted).
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<ChunkView<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.r.len().saturating_sub(self.pos) < 8 {
            return None;
        }
        let at = self.pos;
        let item = (|| {
            let h: &raw::ChunkHeader = self.r.get(at)?;
            let size = h.size.get() as usize;
            let data = self.r.sub(at + 8, size)?;
            let end = at + 8 + size;
            let next = end.checked_add(3).map(|n| n & !3).unwrap_or(end);
            let pad = self.r.bytes(end, next.min(self.r.len()) - end)?;
            Ok(ChunkView {
                offset: at,
                id: h.id,
                data,
                pad,
            })
        })()
        .with_context(|| format!("chunk at {at:#x}"));
        match &item {
            Ok(c) => self.pos = c.offset + 8 + c.data.len() + c.pad.len(),
            Err(_) => self.failed = true,
        }
        Some(item)
    }
}

/// One version-1 chunk.
#[derive(Debug, Clone, Copy)]
pub struct ChunkView<'a> {
    /// File offset of the chunk header.
    pub offset: usize,
    /// Four-character id.
    pub id: [u8; 4],
    /// The `size` data bytes (absolute offsets preserved).
    pub data: Reader<'a>,
    /// Alignment padding after the data.
    pub pad: &'a [u8],
}

impl<'a> ChunkView<'a> {
    /// A counted table of fixed-size entries: `u32 count`, entries. Returns the entries and the
    /// data offset just past them.
    pub fn counted<T: FromBytes + Immutable + Unaligned>(&self) -> Result<(&'a [T], usize)> {
        let count = self.data.u32(0)? as usize;
        let t = self.data.table::<T>(4, count)?;
        Ok((t, 4 + size_of_val(t)))
    }

    /// File offset of the data start (version-1 envelope offsets are relative to it).
    pub fn data_offset(&self) -> usize {
        self.offset + 8
    }
}

/// The envelope table starting at `offset` of `r`: points up to and including the first whose
/// signed mode is > 10.
pub fn envelope_at<'a>(r: Reader<'a>, offset: usize) -> Result<&'a [raw::EnvPoint]> {
    let rest = r.rest(offset)?;
    let all = <[raw::EnvPoint]>::ref_from_prefix_with_elems(rest, rest.len() / 6)
        .map(|(t, _)| t)
        .map_err(|_| r.oob(offset, 6))?;
    match all.iter().position(|p| (p.mode.get() as i16) > 10) {
        Some(end) => all.get(..=end).ok_or_else(|| r.oob(offset, 6)),
        None => Err(Error::new(
            gcio::ErrorKind::Unterminated {
                offset: r.abs(offset),
            },
            r.abs(offset),
        )),
    }
}

fn head<'a, T: FromBytes + KnownLayout + Immutable + Unaligned>(
    r: Reader<'a>,
    offset: usize,
) -> Result<(&'a T, usize)> {
    Ok((r.get::<T>(offset)?, offset + size_of::<T>()))
}

/// A counted list of `u32` offsets at `offset`; returns it and the position after it.
fn offsets(r: Reader<'_>, offset: usize) -> Result<(&[U32], usize)> {
    let n = r.u32(offset)? as usize;
    let t = r.table::<U32>(offset + 4, n)?;
    Ok((t, offset + 4 + 4 * t.len()))
}

/// A version-1 `Inst`.
#[derive(Debug, Clone, Copy)]
pub struct InstView<'a> {
    r: Reader<'a>,
    /// Oscillator indices into `OSCT`.
    pub oscillators: &'a [U32],
    /// Effect offsets.
    pub effects: &'a [U32],
    keys_at: usize,
    key_count: usize,
    /// Volume factor bits.
    pub volume: u32,
    /// Pitch factor bits.
    pub pitch: u32,
    /// Byte size of the object.
    pub size: usize,
}

/// A version-1 key region.
#[derive(Debug, Clone, Copy)]
pub struct KeyRegionView<'a> {
    /// The region word (high key in the top byte).
    pub word: u32,
    /// Its velocity regions.
    pub velocities: &'a [raw::VeloRegion],
}

impl<'a> InstView<'a> {
    /// Reads the `Inst` at file offset `offset`.
    pub fn at(r: Reader<'a>, offset: usize) -> Result<Self> {
        r.expect_magic(offset, b"Inst")?;
        let (oscillators, p) = offsets(r, offset + 4)?;
        let (effects, p) = offsets(r, p)?;
        let key_count = r.u32(p)? as usize;
        let keys_at = p + 4;
        let mut v = InstView {
            r,
            oscillators,
            effects,
            keys_at,
            key_count,
            volume: 0,
            pitch: 0,
            size: 0,
        };
        let mut end = keys_at;
        for k in v.keys() {
            end += 8 + 16 * k?.velocities.len();
        }
        v.volume = r.u32(end)?;
        v.pitch = r.u32(end + 4)?;
        v.size = end + 8 - offset;
        Ok(v)
    }

    /// Key regions in file order; ends after the first error.
    pub fn keys(&self) -> impl Iterator<Item = Result<KeyRegionView<'a>>> + 'a {
        let r = self.r;
        let mut pos = Some(self.keys_at);
        (0..self.key_count).map_while(move |_| {
            let at = pos?;
            let item = (|| {
                let word = r.u32(at)?;
                let n = r.u32(at + 4)? as usize;
                let velocities = r.table::<raw::VeloRegion>(at + 8, n)?;
                Ok(KeyRegionView { word, velocities })
            })();
            pos = item.as_ref().ok().map(|k| at + 8 + 16 * k.velocities.len());
            Some(item)
        })
    }
}

/// A version-1 `Pmap`.
#[derive(Debug, Clone, Copy)]
pub struct PmapView<'a> {
    /// Magic, volume, pitch, pan, release.
    pub head: &'a raw::PmapHead1,
    /// Effect offsets.
    pub effects: &'a [U32],
    /// Velocity regions.
    pub velocities: &'a [raw::VeloRegion],
    /// Byte size of the object.
    pub size: usize,
}

impl<'a> PmapView<'a> {
    /// Reads the `Pmap` at file offset `offset`.
    pub fn at(r: Reader<'a>, offset: usize) -> Result<Self> {
        r.expect_magic(offset, b"Pmap")?;
        let (head, p) = head::<raw::PmapHead1>(r, offset)?;
        let (effects, p) = offsets(r, p)?;
        let n = r.u32(p)? as usize;
        let velocities = r.table::<raw::VeloRegion>(p + 4, n)?;
        Ok(PmapView {
            head,
            effects,
            velocities,
            size: p + 4 + 16 * n - offset,
        })
    }
}

/// A version-1 `Perc`: per-key `Pmap` offsets.
#[derive(Debug, Clone, Copy)]
pub struct PercView<'a> {
    /// `Pmap` offset per key (0 = silent).
    pub keys: &'a [U32],
    /// Byte size of the object.
    pub size: usize,
}

impl<'a> PercView<'a> {
    /// Reads the `Perc` at file offset `offset`.
    pub fn at(r: Reader<'a>, offset: usize) -> Result<Self> {
        r.expect_magic(offset, b"Perc")?;
        let (keys, end) = offsets(r, offset + 4)?;
        Ok(PercView {
            keys,
            size: end - offset,
        })
    }
}

/// A version-0 `TInst`.
#[derive(Debug, Clone, Copy)]
pub struct Inst0View<'a> {
    /// Fixed part.
    pub head: &'a raw::InstHead0,
    /// Key-map offsets.
    pub keys: &'a [U32],
}

impl<'a> Inst0View<'a> {
    /// Reads the `TInst` at `offset`.
    pub fn at(r: Reader<'a>, offset: usize) -> Result<Self> {
        let (head, p) = head::<raw::InstHead0>(r, offset)?;
        let keys = r.table::<U32>(p, head.count.get() as usize)?;
        Ok(Inst0View { head, keys })
    }

    /// Byte size.
    pub fn size(&self) -> usize {
        size_of::<raw::InstHead0>() + 4 * self.keys.len()
    }
}

/// A version-0 `TKeymap`.
#[derive(Debug, Clone, Copy)]
pub struct Keymap0View<'a> {
    /// High key and count.
    pub head: &'a raw::KeymapHead0,
    /// Velocity-region offsets.
    pub velocities: &'a [U32],
}

impl<'a> Keymap0View<'a> {
    /// Reads the `TKeymap` at `offset`.
    pub fn at(r: Reader<'a>, offset: usize) -> Result<Self> {
        let (head, p) = head::<raw::KeymapHead0>(r, offset)?;
        let velocities = r.table::<U32>(p, head.count.get() as usize)?;
        Ok(Keymap0View { head, velocities })
    }

    /// Byte size.
    pub fn size(&self) -> usize {
        size_of::<raw::KeymapHead0>() + 4 * self.velocities.len()
    }
}

/// A version-0 `TPmap`.
#[derive(Debug, Clone, Copy)]
pub struct Pmap0View<'a> {
    /// Volume, pitch, random effects, count.
    pub head: &'a raw::PmapHead0,
    /// Velocity-region offsets.
    pub velocities: &'a [U32],
}

impl<'a> Pmap0View<'a> {
    /// Reads the `TPmap` at `offset`.
    pub fn at(r: Reader<'a>, offset: usize) -> Result<Self> {
        let (head, p) = head::<raw::PmapHead0>(r, offset)?;
        let velocities = r.table::<U32>(p, head.count.get() as usize)?;
        Ok(Pmap0View { head, velocities })
    }

    /// Byte size.
    pub fn size(&self) -> usize {
        size_of::<raw::PmapHead0>() + 4 * self.velocities.len()
    }
}

/// A version-0 `TPerc`.
#[derive(Debug, Clone, Copy)]
pub struct Perc0View<'a> {
    /// Magic, unknown bytes, per-key offsets.
    pub head: &'a raw::PercHead0,
    /// Pan and release tables (`PER2` only).
    pub ext: Option<&'a raw::PercExt0>,
}

impl<'a> Perc0View<'a> {
    /// Reads the `TPerc` at `offset`.
    pub fn at(r: Reader<'a>, offset: usize) -> Result<Self> {
        let (head, p) = head::<raw::PercHead0>(r, offset)?;
        let ext = if &head.magic == b"PER2" {
            Some(r.get::<raw::PercExt0>(p)?)
        } else {
            None
        };
        Ok(Perc0View { head, ext })
    }

    /// Byte size.
    pub fn size(&self) -> usize {
        size_of::<raw::PercHead0>() + self.ext.map_or(0, |_| size_of::<raw::PercExt0>())
    }
}
