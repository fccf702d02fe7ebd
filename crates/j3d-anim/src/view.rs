//! Zero-copy view: the file header, the chunk header's fields and where each table lies. Typed
//! tables are read on demand; [`crate::Anim::from_view`] reads them all.

use std::collections::BTreeMap;

use gcio::{Context, Error, Reader, Result};

use crate::layout::{classify, classify_cut_end, classify_end};
use crate::model::{
    Anim, ChunkSize, Data, FileSize, Fill, FullTrack, Gap, KeyTrack, Layout, Name, Names, Pattern,
    Place, Strings, Table, TevColor,
};
use crate::schema::{Elem, Kind, Len, Role, Schema};

/// Size of the J3D file header (`J3D1`, type tag, file size, chunk count, 16 reserved bytes).
pub const FILE_HEADER: usize = 0x20;

/// Where a table lies in the chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// Chunk-relative offset.
    pub offset: usize,
    /// Elements.
    pub len: usize,
    /// Bytes.
    pub bytes: usize,
}

/// A parsed-in-place J3D animation.
#[derive(Debug, Clone)]
pub struct View<'a> {
    data: &'a [u8],
    schema: &'static Schema,
    chunk: Reader<'a>,
    fields: Vec<u32>,
    spans: Vec<Option<Span>>,
    size: usize,
    file_size: u32,
    count_extra: u32,
    chunks: u32,
}

/// Recognises a J3D animation by its tags: the kind, or `None`.
pub fn sniff(data: &[u8]) -> Option<Kind> {
    if data.get(..4)? != b"J3D1" {
        return None;
    }
    let kind = Kind::from_tag(data.get(4..8)?)?;
    (data.get(0x20..0x24)? == kind.schema().magic).then_some(kind)
}

impl<'a> View<'a> {
    /// Parses `data` (borrowed: the limits bound [`crate::Anim::from_view`]).
    pub(crate) fn parse_with(data: &'a [u8], _limits: &gcio::Limits) -> Result<Self> {
        let r = Reader::new(data);
        r.expect_magic(0, b"J3D1").context("J3D header")?;
        let tag = r.bytes(4, 4)?;
        let kind = Kind::from_tag(tag).ok_or_else(|| {
            Error::invalid(
                4,
                format!(
                    "unknown J3D animation tag {:?}",
                    String::from_utf8_lossy(tag)
                ),
            )
        })?;
        let schema = kind.schema();
        // The game never reads the file size (each table is read through its own offset): a size
        // that is not the length is a layout fact (`FileSize`); tables are checked against the
        // bytes present.
        let file_size = r.u32(8)?;
        // Animations have one chunk; another count is a layout fact (`Layout::chunk_count`).
        let chunks = r.u32(12)?;
        r.expect_magic(FILE_HEADER, &schema.magic)
            .context("chunk")?;
        let size = r.u32(FILE_HEADER + 4)? as usize;
        // The chunk's tables may run to the end of the file whatever the declared size says
        // (SMG2-era BTK files declare 4 bytes past their last table); see `ChunkSize`.
        let chunk = r.sub_from(FILE_HEADER)?;
        let name = String::from_utf8_lossy(&schema.magic).into_owned();
        let mut fields = Vec::with_capacity(schema.fields.len());
        for f in schema.fields {
            let v = match f.width {
                1 => u32::from(chunk.u8(f.at)?),
                2 => u32::from(chunk.u16(f.at)?),
                _ => chunk.u32(f.at)?,
            };
            fields.push(v);
        }
        let mut spans: Vec<Option<Span>> = vec![None; schema.tables.len()];
        let mut count_extra = 0;
        for (ti, def) in schema.tables.iter().enumerate() {
            let Some(off_field) = schema
                .fields
                .iter()
                .position(|f| f.role == Role::Offset(ti))
            else {
                continue;
            };
            let offset = fields.get(off_field).copied().unwrap_or(0) as usize;
            let len = match def.len {
                Len::Field { field, mul } => {
                    // The game uses count / mul entries (TTK1: `mTrackNum / 3`); the rest is a
                    // layout fact.
                    let n = fields.get(field).copied().unwrap_or(0);
                    count_extra += n % mul;
                    (n / mul) as usize
                }
                Len::Table(t) => spans.get(t).copied().flatten().map_or(0, |s| s.len),
                Len::Own if offset == 0 => 0,
                Len::Own => usize::from(
                    chunk
                        .u16(offset)
                        .with_context(|| format!("{name} > {}", def.name))?,
                ),
                Len::Until if offset == 0 => 0,
                Len::Until => until_len(&chunk, schema, &fields, ti, offset, def.elem.size()),
            };
            if offset == 0 {
                if len != 0 {
                    return Err(Error::invalid(
                        chunk.abs(0),
                        format!("{name} > {}: {len} entries at offset 0", def.name),
                    ));
                }
                continue;
            }
            let bytes = if def.elem == Elem::Names {
                names_size(&chunk, offset).with_context(|| format!("{name} > {}", def.name))?
            } else {
                len * def.elem.size()
            };
            chunk
                .bytes(offset, bytes)
                .with_context(|| format!("{name} > {}", def.name))?;
            if offset < schema.header && bytes > 0 {
                return Err(Error::invalid(
                    chunk.abs(offset),
                    format!("{name} > {}: inside the header", def.name),
                ));
            }
            if let Some(slot) = spans.get_mut(ti) {
                *slot = Some(Span { offset, len, bytes });
            }
        }
        Ok(View {
            data,
            schema,
            chunk,
            fields,
            spans,
            size,
            file_size,
            count_extra,
            chunks,
        })
    }

    /// The kind.
    pub fn kind(&self) -> Kind {
        self.schema.kind
    }

    /// The layout description.
    pub fn schema(&self) -> &'static Schema {
        self.schema
    }

    /// Header field values in schema order.
    pub fn fields(&self) -> &[u32] {
        &self.fields
    }

    /// A header field by name.
    pub fn field(&self, name: &str) -> Option<u32> {
        let i = self.schema.fields.iter().position(|f| f.name == name)?;
        self.fields.get(i).copied()
    }

    /// Where table `i` lies (`None` when absent).
    pub fn span(&self, i: usize) -> Option<Span> {
        self.spans.get(i).copied().flatten()
    }

    /// The chunk's reader (offsets chunk-relative, errors absolute).
    pub fn chunk(&self) -> Reader<'a> {
        self.chunk
    }

    /// Reads table `i`.
    pub fn table(&self, i: usize) -> Result<Data> {
        let def = self
            .schema
            .tables
            .get(i)
            .ok_or_else(|| Error::message(format!("no table {i}")))?;
        let Some(s) = self.span(i) else {
            return Ok(empty(def.elem));
        };
        read_table(&self.chunk, def.elem, s).with_context(|| {
            format!(
                "{} > {}",
                String::from_utf8_lossy(&self.schema.magic),
                def.name
            )
        })
    }

    /// Reads everything into the owned model, with the layout facts ([`Anim::from_view`]);
    /// `limits` bound each table's element count.
    pub(crate) fn to_model(&self, limits: &gcio::Limits) -> Result<Anim> {
        for s in self.spans.iter().flatten() {
            limits.check_elements(s.len as u64, s.offset as u64)?;
        }
        let s = self.schema;
        let mut values = BTreeMap::new();
        for (f, &v) in s.fields.iter().zip(&self.fields) {
            if f.role == Role::Value {
                values.insert(f.name.to_owned(), v);
            }
        }
        let mut tables = Vec::with_capacity(s.tables.len());
        for (i, def) in s.tables.iter().enumerate() {
            tables.push(Table {
                name: def.name.to_owned(),
                data: self.table(i)?,
            });
        }
        let mut reserved = [0u8; 16];
        reserved.copy_from_slice(Reader::new(self.data).bytes(0x10, 16)?);
        Ok(Anim {
            kind: s.kind,
            reserved,
            values,
            tables,
            layout: self.layout()?,
        })
    }

    /// Table order and padding as found.
    fn layout(&self) -> Result<Layout> {
        let mut placed: Vec<(usize, Span)> = self
            .spans
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.map(|s| (i, s)))
            .collect();
        placed.sort_by_key(|&(i, s)| (s.offset, s.bytes > 0, i));
        let c = self.chunk.data();
        // Fill: the first gap byte decides (a gap never starts inside the sentence). A table that
        // starts before the end of the earlier ones shares their bytes (`Gap::Overlap`).
        let mut gaps: Vec<(usize, &[u8])> = Vec::new();
        let mut overlaps: Vec<Option<u32>> = Vec::new();
        let mut pos = self.schema.header;
        for &(_, s) in &placed {
            let back = pos.saturating_sub(s.offset);
            overlaps.push(if back > 0 {
                Some(
                    u32::try_from(back).map_err(|_| {
                        Error::invalid(self.chunk.abs(s.offset), "overlap past 4 GiB")
                    })?,
                )
            } else {
                None
            });
            gaps.push((pos, c.get(pos..s.offset).unwrap_or_default()));
            pos = pos.max(s.offset + s.bytes);
        }
        let tail = c.get(pos..).unwrap_or_default();
        let fill = gaps
            .iter()
            .chain([&(pos, tail)])
            .find_map(|g| g.1.first())
            .map_or(Fill::Nintendo, |&b| {
                if b == 0 { Fill::Zero } else { Fill::Nintendo }
            });
        let mut order = Vec::with_capacity(placed.len());
        for ((&(table, _), &(at, bytes)), back) in placed.iter().zip(&gaps).zip(overlaps) {
            order.push(Place {
                table,
                gap: back.map_or_else(|| classify(at, bytes, fill), Gap::Overlap),
            });
        }
        // A file shorter than its size word whose stored end is the start of the end padding was
        // stored without the rest of that padding: the chunk size counts it too.
        // Padding never runs past the largest alignment (32), so neither can a cut: a size word
        // further off is no cut padding (and is never materialised).
        let declared = self.file_size as usize;
        let cut = declared
            .checked_sub(self.data.len())
            .filter(|&n| n > 0 && n < 32)
            .and_then(|n| Some((classify_cut_end(pos, tail, n, fill)?, n)));
        let (end, file_size, chunk_len) = match cut {
            Some((end, n)) => (end, FileSize::Cut(n as u32), c.len() + n),
            None if declared == self.data.len() => {
                (classify_end(pos, tail, fill), FileSize::Actual, c.len())
            }
            None => (
                classify_end(pos, tail, fill),
                FileSize::Stored(self.file_size),
                c.len(),
            ),
        };
        let size = if self.size == chunk_len {
            ChunkSize::ToFileEnd
        } else if self.size >= pos {
            ChunkSize::AfterData((self.size - pos) as u32)
        } else {
            ChunkSize::InsideData((pos - self.size) as u32)
        };
        Ok(Layout {
            fill,
            order,
            end,
            size,
            file_size,
            count_extra: self.count_extra,
            chunk_count: (self.chunks != 1).then_some(self.chunks),
        })
    }
}

/// An empty table of element type `elem`.
fn empty(elem: Elem) -> Data {
    match elem {
        Elem::KeySrt => Data::KeySrt(Vec::new()),
        Elem::FullSrt => Data::FullSrt(Vec::new()),
        Elem::TevColor => Data::TevColor(Vec::new()),
        Elem::KeyColor => Data::KeyColor(Vec::new()),
        Elem::Pattern => Data::Pattern(Vec::new()),
        Elem::Key => Data::Key(Vec::new()),
        Elem::Full => Data::Full(Vec::new()),
        Elem::F32 => Data::F32(Vec::new()),
        Elem::I16 => Data::I16(Vec::new()),
        Elem::U16 => Data::U16(Vec::new()),
        Elem::U8 => Data::U8(Vec::new()),
        Elem::Vec3 => Data::Vec3(Vec::new()),
        Elem::Names => Data::Names(Names {
            marker: 0xFFFF,
            entries: Vec::new(),
            strings: None,
        }),
    }
}

/// Element count of table `own`, whose count is not stored: the fewest whole elements from
/// `offset` after which only padding (the sentence restarted at alignments, or zeros) runs up to
/// the next table or the chunk end. A real entry never reads as padding: its first u16 (a key or frame
/// count) is at least 1, and no valid count spells the sentence's `Th`.
fn until_len(
    chunk: &Reader<'_>,
    schema: &Schema,
    fields: &[u32],
    own: usize,
    offset: usize,
    size: usize,
) -> usize {
    let c = chunk.data();
    let next = schema
        .fields
        .iter()
        .zip(fields)
        .filter(|(f, v)| {
            matches!(f.role, Role::Offset(t) if t != own) && **v as usize >= offset && **v != 0
        })
        .map(|(_, &v)| v as usize)
        .min()
        .unwrap_or(c.len())
        .min(c.len());
    let span = next.saturating_sub(offset);
    (0..=span / size.max(1))
        .find(|&n| {
            let at = offset + n * size;
            let rest = c.get(at..next).unwrap_or_default();
            rest.iter().all(|&b| b == 0)
                || matches!(classify(at, rest, Fill::Nintendo), Gap::Align(_))
        })
        .unwrap_or(span / size.max(1))
}

/// Byte size of the name table at `offset`: entries, then the strings (through the end of the
/// last one).
fn names_size(r: &Reader<'_>, offset: usize) -> Result<usize> {
    let t = j3d_bmd::NameTable::parse(*r, offset)?;
    let (_, offsets) = name_offsets(r, offset, &t)?;
    let base = 4 + 4 * t.entries.len();
    Ok(t.entries
        .iter()
        .zip(offsets)
        .map(|(e, off)| usize::from(off) + e.name.len() + 1)
        .fold(base, usize::max))
}

/// Whether the strings of table `t` (at `offset`) are packed after its entries in entry order,
/// as every tool writes them, and each entry's string offset. The game reads each string through
/// its offset, so any order is accepted ([`Strings`]); a string that starts inside the entries is
/// refused (it could not be written back apart from them).
fn name_offsets(r: &Reader<'_>, offset: usize, t: &j3d_bmd::NameTable) -> Result<(bool, Vec<u16>)> {
    let base = 4 + 4 * t.entries.len();
    let mut packed_end = base;
    let mut packed = true;
    let mut offsets = Vec::with_capacity(t.entries.len());
    for (i, e) in t.entries.iter().enumerate() {
        let off = r.u16(offset + 6 + i * 4)?;
        if usize::from(off) < base {
            return Err(Error::invalid(
                r.abs(offset + 6 + i * 4),
                format!("name {i} at {off:#x}, inside the entries (they end at {base:#x})"),
            ));
        }
        packed &= usize::from(off) == packed_end;
        packed_end += e.name.len() + 1;
        offsets.push(off);
    }
    Ok((packed, offsets))
}

fn key(c: &mut gcio::Cursor<'_>) -> Result<KeyTrack> {
    Ok(KeyTrack {
        count: c.u16()?,
        index: c.u16()?,
        tangent: c.u16()?,
    })
}

fn full(c: &mut gcio::Cursor<'_>) -> Result<FullTrack> {
    Ok(FullTrack {
        count: c.u16()?,
        index: c.u16()?,
    })
}

fn fill3(c: &mut gcio::Cursor<'_>) -> Result<[u8; 3]> {
    Ok([c.u8()?, c.u8()?, c.u8()?])
}

fn read_table(r: &Reader<'_>, elem: Elem, s: Span) -> Result<Data> {
    let mut c = r.cursor(s.offset);
    let n = s.len;
    macro_rules! many {
        ($f:expr) => {{
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push($f(&mut c)?);
            }
            v
        }};
    }
    Ok(match elem {
        Elem::KeySrt => Data::KeySrt(many!(|c: &mut gcio::Cursor<'_>| -> Result<[KeyTrack; 9]> {
            let mut a = [KeyTrack::default(); 9];
            for t in &mut a {
                *t = key(c)?;
            }
            Ok(a)
        })),
        Elem::FullSrt => Data::FullSrt(many!(
            |c: &mut gcio::Cursor<'_>| -> Result<[FullTrack; 9]> {
                let mut a = [FullTrack::default(); 9];
                for t in &mut a {
                    *t = full(c)?;
                }
                Ok(a)
            }
        )),
        Elem::TevColor => Data::TevColor(many!(|c: &mut gcio::Cursor<'_>| -> Result<TevColor> {
            let tracks = [key(c)?, key(c)?, key(c)?, key(c)?];
            Ok(TevColor {
                tracks,
                id: c.u8()?,
                fill: fill3(c)?,
            })
        })),
        Elem::KeyColor => {
            Data::KeyColor(many!(|c: &mut gcio::Cursor<'_>| -> Result<[KeyTrack; 4]> {
                Ok([key(c)?, key(c)?, key(c)?, key(c)?])
            }))
        }
        Elem::Pattern => Data::Pattern(many!(|c: &mut gcio::Cursor<'_>| -> Result<Pattern> {
            Ok(Pattern {
                track: full(c)?,
                tex_map: c.u8()?,
                fill: fill3(c)?,
            })
        })),
        Elem::Key => Data::Key(many!(key)),
        Elem::Full => Data::Full(many!(full)),
        Elem::F32 => Data::F32(many!(|c: &mut gcio::Cursor<'_>| c.f32())),
        Elem::I16 => Data::I16(many!(|c: &mut gcio::Cursor<'_>| c.i16())),
        Elem::U16 => Data::U16(many!(|c: &mut gcio::Cursor<'_>| c.u16())),
        Elem::U8 => Data::U8(many!(|c: &mut gcio::Cursor<'_>| c.u8())),
        Elem::Vec3 => Data::Vec3(many!(|c: &mut gcio::Cursor<'_>| -> Result<[f32; 3]> {
            Ok([c.f32()?, c.f32()?, c.f32()?])
        })),
        Elem::Names => {
            let t = j3d_bmd::NameTable::parse(*r, s.offset)?;
            let (packed, offsets) = name_offsets(r, s.offset, &t)?;
            let base = 4 + 4 * t.entries.len();
            let strings = if packed {
                None
            } else {
                Some(Strings {
                    offsets,
                    bytes: r
                        .bytes(s.offset + base, s.bytes.saturating_sub(base))?
                        .to_vec(),
                })
            };
            Data::Names(Names {
                strings,
                marker: t.marker,
                entries: t
                    .entries
                    .into_iter()
                    .map(|e| Name {
                        key: e.key,
                        name: e.name,
                    })
                    .collect(),
            })
        }
    })
}
