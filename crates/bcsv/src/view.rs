//! Zero-copy view: header, field table, rows and string pool borrowed from the file, with typed
//! getters that decode exactly as the game does. Nothing is allocated per row or cell.

use std::borrow::Cow;

use gcio::{Context, Endian, Error, ErrorKind, Limits, Reader, Result};

use crate::hash::FieldKey;
use crate::names::display_name;
use crate::types::{Field, FieldType};
use gcio::text::Encoding;

/// Size of the fixed header.
pub const HEADER_SIZE: usize = 0x10;
/// Size of one field-table record.
pub const FIELD_SIZE: usize = 12;

/// The four header words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Number of rows.
    pub entries: u32,
    /// Number of fields (columns).
    pub fields: u32,
    /// Offset of the first row (BCSV-001: `0x10 + 12 × fields`).
    pub data_offset: u32,
    /// Bytes per row.
    pub entry_size: u32,
}

impl Header {
    /// Offset just past the field table.
    pub fn field_table_end(&self) -> u64 {
        HEADER_SIZE as u64 + u64::from(self.fields) * FIELD_SIZE as u64
    }

    /// Offset of the string pool (`data_offset + entries × entry_size`).
    pub fn pool_offset(&self) -> u64 {
        u64::from(self.data_offset) + u64::from(self.entries) * u64::from(self.entry_size)
    }
}

/// A parsed table borrowing the file bytes.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    reader: Reader<'a>,
    endian: Endian,
    header: Header,
    field_table: &'a [u8],
    rows: &'a [u8],
    pool: Reader<'a>,
}

/// Parses a table, trying big-endian (Wii) first, then little-endian (Switch).
pub fn parse(data: &[u8]) -> Result<View<'_>> {
    parse_with(data, &Limits::default())
}

/// [`parse`] under `limits`: the view allocates nothing, but parsing walks the field table and
/// every user walks the rows, so both counts are bounded by [`Limits::max_elements`]. When
/// neither byte order parses, the big-endian error is reported, unless the little-endian
/// header was sound but over the limits.
pub fn parse_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
    parse_endian_with(data, Endian::Big, limits).or_else(|big| {
        parse_endian_with(data, Endian::Little, limits).map_err(|little| {
            if matches!(little.kind(), ErrorKind::Limit { .. }) {
                little
            } else {
                big
            }
        })
    })
}

/// Parses a table of a known byte order. Every structural check of the header and field table
/// happens here (BCSV-001..004), so getters only fail on a bad string offset or a wrong type.
pub fn parse_endian(data: &[u8], endian: Endian) -> Result<View<'_>> {
    parse_endian_with(data, endian, &Limits::default())
}

/// [`parse_endian`] under `limits` (the field and row counts, checked once the header is
/// otherwise sound, so a file of the other byte order fails on its structure first).
fn parse_endian_with<'a>(data: &'a [u8], endian: Endian, limits: &Limits) -> Result<View<'a>> {
    let r = Reader::new(data);
    let word = |off: usize| r.u32_at(off, endian).context("BCSV header");
    let header = Header {
        entries: word(0)?,
        fields: word(4)?,
        data_offset: word(8)?,
        entry_size: word(12)?,
    };
    for (off, v, what) in [
        (0, header.entries, "entry count"),
        (4, header.fields, "field count"),
    ] {
        if v > i32::MAX as u32 {
            return Err(
                Error::invalid(off, format!("negative {what} {}", v as i32)).context("BCSV header")
            );
        }
    }
    let table_end = header.field_table_end();
    let field_table = r
        .bytes(
            HEADER_SIZE,
            usize::try_from(table_end)
                .unwrap_or(usize::MAX)
                .saturating_sub(HEADER_SIZE),
        )
        .context("BCSV field table")?;
    if u64::from(header.data_offset) < table_end {
        return Err(Error::invalid(
            8,
            format!(
                "data offset {:#x} overlaps the field table ending at {table_end:#x} (BCSV-001)",
                header.data_offset
            ),
        )
        .context("BCSV header"));
    }
    if header.entries > 0 && header.entry_size == 0 {
        return Err(Error::invalid(12, "entry size 0 with rows (BCSV-003)").context("BCSV header"));
    }
    let data_len = u64::from(header.entries)
        .checked_mul(u64::from(header.entry_size))
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| Error::new(ErrorKind::Overflow("entry count × entry size"), 0))?;
    let rows = r
        .bytes(header.data_offset as usize, data_len)
        .context("BCSV rows")?;
    limits
        .check_elements(u64::from(header.fields), 4)
        .context("BCSV field table")?;
    limits
        .check_elements(u64::from(header.entries), 0)
        .context("BCSV rows")?;
    let pool = r
        .sub_from(header.data_offset as usize + data_len)
        .context("BCSV string pool")?;
    let view = View {
        reader: r,
        endian,
        header,
        field_table,
        rows,
        pool,
    };
    // Type and extent of every field; the error (cold) names the first that fails.
    let entry = header.entry_size as usize;
    let bad = view.fields().any(|f| {
        f.kind
            .size()
            .is_none_or(|size| usize::from(f.offset) + size > entry)
    });
    if bad {
        return Err(bad_field(&view));
    }
    Ok(view)
}

/// The error for the first field of unknown type or past the entry size.
#[cold]
#[inline(never)]
fn bad_field(view: &View<'_>) -> Error {
    let header = view.header;
    for (i, f) in view.fields().enumerate() {
        let at = (HEADER_SIZE + i * FIELD_SIZE) as u64;
        let Some(size) = f.kind.size() else {
            return Error::invalid(at + 11, format!("field type {} (BCSV-004)", f.kind.0))
                .context(format!("field {i} {}", display_name(f.hash)));
        };
        if usize::from(f.offset) + size > header.entry_size as usize {
            return Error::invalid(
                at + 8,
                format!(
                    "{} at offset {} + {size} bytes is past the entry size {} (BCSV-003)",
                    f.kind, f.offset, header.entry_size
                ),
            )
            .context(format!("field {i} {}", display_name(f.hash)));
        }
    }
    Error::message("bad field")
}

/// A view's string pool made ready for decoding many cells: the pool validated as text once (or,
/// when it is not valid UTF-8, a copy with every byte outside ASCII replaced by `?`), so that an
/// ASCII pool string (most game strings) decodes to a slice of it instead of being validated on
/// its own; any other string decodes with [`Encoding::decode`].
#[derive(Debug, Clone)]
pub struct Strings<'a> {
    pool: &'a [u8],
    /// `pool` as text, borrowed when it is valid UTF-8 (an all-ASCII pool), else with non-ASCII
    /// bytes replaced: the same length either way, so offsets carry over.
    text: Cow<'a, str>,
    /// The whole pool is ASCII: a pool string needs no test of its own.
    ascii: bool,
    encoding: Encoding,
}

impl Strings<'_> {
    /// Strict decode of a cell's string bytes (a pool string from [`Cell::StringOffset`], or an
    /// inline string up to its NUL) in the table's encoding; `Err(i)` gives the index of the first
    /// byte that does not decode.
    #[inline(always)]
    pub fn decode<'s>(&'s self, bytes: &'s [u8]) -> std::result::Result<Cow<'s, str>, usize> {
        // Where the bytes sit in the pool, if they are a part of it (live slices cannot overlap
        // unless they share memory); anything else gets a start past the copy.
        let at = (bytes.as_ptr() as usize).wrapping_sub(self.pool.as_ptr() as usize);
        if let Some(end) = at.checked_add(bytes.len())
            && end <= self.pool.len()
            && (self.ascii || is_ascii(bytes))
            && let Some(s) = self.text.get(at..end)
        {
            return Ok(Cow::Borrowed(s));
        }
        self.decode_other(bytes)
    }

    /// [`Strings::decode`] of a string that is not an ASCII part of the pool (kept out of line,
    /// so that the slice of the pool inlines into the caller's loop).
    #[inline(never)]
    fn decode_other<'s>(&'s self, bytes: &'s [u8]) -> std::result::Result<Cow<'s, str>, usize> {
        self.encoding.decode(bytes)
    }
}

/// True when every byte is ASCII: a string of up to 16 bytes (most game strings) in two
/// overlapping word loads, without the standard library's byte loop for short slices.
#[inline(always)]
fn is_ascii(b: &[u8]) -> bool {
    const HI: u64 = 0x8080_8080_8080_8080;
    const HI4: u32 = 0x8080_8080;
    let n = b.len();
    match (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(head), Some(tail)) if n <= 16 => {
            (u64::from_le_bytes(*head) | u64::from_le_bytes(*tail)) & HI == 0
        }
        (Some(_), Some(_)) => b.is_ascii(),
        _ => match (b.first_chunk::<4>(), b.last_chunk::<4>()) {
            (Some(head), Some(tail)) => {
                (u32::from_le_bytes(*head) | u32::from_le_bytes(*tail)) & HI4 == 0
            }
            _ => b.iter().all(u8::is_ascii),
        },
    }
}

/// Decodes one field-table record.
#[inline]
fn field_record(b: &[u8; FIELD_SIZE], endian: Endian) -> Field {
    let [h0, h1, h2, h3, m0, m1, m2, m3, o0, o1, shift, kind] = *b;
    let (hash, mask, offset) = match endian {
        Endian::Big => (
            u32::from_be_bytes([h0, h1, h2, h3]),
            u32::from_be_bytes([m0, m1, m2, m3]),
            u16::from_be_bytes([o0, o1]),
        ),
        Endian::Little => (
            u32::from_le_bytes([h0, h1, h2, h3]),
            u32::from_le_bytes([m0, m1, m2, m3]),
            u16::from_le_bytes([o0, o1]),
        ),
    };
    Field {
        hash,
        mask,
        offset,
        shift,
        kind: FieldType(kind),
    }
}

/// One cell as stored, decoded with the field's mask and shift. Integers hold the decoded bits of
/// the field's width; use [`RowView::get`] for the game's signed/unsigned reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    /// Type 0.
    Long(i32),
    /// Type 1: the raw 32 bytes.
    InlineString(&'a [u8; 32]),
    /// Type 2.
    Float(f32),
    /// Type 3.
    Long2(u32),
    /// Type 4.
    Short(i16),
    /// Type 5.
    Char(i8),
    /// Type 6: the pool string, without its terminator.
    StringOffset(&'a [u8]),
}

impl<'a> View<'a> {
    /// Byte order of the file.
    pub fn endian(&self) -> Endian {
        self.endian
    }

    /// The default text encoding for this byte order.
    pub fn encoding(&self) -> Encoding {
        Encoding::for_endian(self.endian)
    }

    /// The header words.
    pub fn header(&self) -> Header {
        self.header
    }

    /// The whole file.
    pub fn data(&self) -> &'a [u8] {
        self.reader.data()
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.header.entries as usize
    }

    /// True when the table has no rows.
    pub fn is_empty(&self) -> bool {
        self.header.entries == 0
    }

    /// Bytes per row.
    pub fn entry_size(&self) -> usize {
        self.header.entry_size as usize
    }

    /// Bytes from the pool start to the end of the file (strings, then padding).
    pub fn pool(&self) -> Reader<'a> {
        self.pool
    }

    /// Field `i` of the field table.
    #[inline]
    pub fn field(&self, i: usize) -> Option<Field> {
        let b: &[u8; FIELD_SIZE] = self.field_table.get(i * FIELD_SIZE..)?.first_chunk()?;
        Some(field_record(b, self.endian))
    }

    /// Every field, in field-table order.
    #[inline]
    pub fn fields(&self) -> impl ExactSizeIterator<Item = Field> + '_ {
        // The field table holds exactly `fields` records (checked by the parse).
        let endian = self.endian;
        self.field_table
            .as_chunks::<FIELD_SIZE>()
            .0
            .iter()
            .map(move |b| field_record(b, endian))
    }

    /// The first field whose hash matches `key` (a name, `[XXXXXXXX]`, or a hash), with its index.
    pub fn find(&self, key: impl Into<FieldKey>) -> Option<(usize, Field)> {
        let key = key.into();
        self.fields().enumerate().find(|(_, f)| f.hash == key.0)
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> Option<RowView<'a>> {
        let size = self.entry_size();
        let bytes = self
            .rows
            .get(i.checked_mul(size)?..(i + 1).checked_mul(size)?)?;
        Some(RowView {
            view: *self,
            bytes,
            index: i,
        })
    }

    /// Every row, in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = RowView<'a>> + '_ {
        let view = *self;
        (0..self.len()).map(move |i| RowView {
            view,
            bytes: self
                .rows
                .get(i * view.entry_size()..(i + 1) * view.entry_size())
                .unwrap_or_default(),
            index: i,
        })
    }

    /// The pool string at `offset` (relative to the pool), without its terminator.
    #[inline]
    pub fn string_at(&self, offset: u32) -> Result<&'a [u8]> {
        match self.find_string(offset) {
            Some(s) => Ok(s),
            None => Err(self.unterminated(offset)),
        }
    }

    /// [`View::string_at`] without the error: a word-at-a-time NUL search.
    #[inline(always)]
    fn find_string(&self, offset: u32) -> Option<&'a [u8]> {
        self.pool
            .data()
            .get(offset as usize..)
            .and_then(|rest| rest.get(..nul_at(rest)?))
    }

    /// The string pool made ready for decoding many cells (see [`Strings`]).
    pub fn strings(&self) -> Strings<'a> {
        let pool = self.pool.data();
        let ascii = pool.is_ascii();
        let text = match std::str::from_utf8(pool) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => {
                let ascii: Vec<u8> = pool
                    .iter()
                    .map(|&b| if b.is_ascii() { b } else { b'?' })
                    .collect();
                Cow::Owned(String::from_utf8(ascii).unwrap_or_default())
            }
        };
        Strings {
            pool,
            text,
            ascii,
            encoding: self.encoding(),
        }
    }

    /// The rows, one entry each (none when the entry size is 0, which the parse allows only
    /// without rows).
    fn chunks(&self) -> std::slice::ChunksExact<'a, u8> {
        let size = self.entry_size();
        if size == 0 {
            return [].chunks_exact(1);
        }
        self.rows.chunks_exact(size)
    }

    /// Where `field` sits in every row, checked once: `None` for a field of another type than
    /// `kinds` or past the entry size (when the table has rows).
    fn place(&self, field: &Field, kinds: &[FieldType]) -> Option<(usize, usize)> {
        let size = field.kind.size()?;
        let offset = usize::from(field.offset);
        let fits = self.is_empty() || offset + size <= self.entry_size();
        (kinds.contains(&field.kind) && fits).then_some((offset, size))
    }

    /// A number field (LONG, FLOAT, LONG_2, SHORT or CHAR) down every row, in row order: each
    /// cell's decoded bits `(raw & mask) >> shift` (BCSV-013), as [`Field::decode`] gives them;
    /// the field's offset, width, mask and shift are resolved once, so a bulk read is one load
    /// per cell. `None` for a string field or a field past the entry size.
    pub fn numbers(&self, field: &Field) -> Option<Numbers<'a>> {
        let (offset, size) = self.place(
            field,
            &[
                FieldType::LONG,
                FieldType::FLOAT,
                FieldType::LONG_2,
                FieldType::SHORT,
                FieldType::CHAR,
            ],
        )?;
        let (mask, shift) = mask_shift(field);
        Some(Numbers {
            rows: self.chunks(),
            offset,
            size,
            mask,
            shift,
            big: self.endian == Endian::Big,
        })
    }

    /// A STRING_OFFSET field down every row, in row order: each cell's pool string without its
    /// terminator (as [`Cell::StringOffset`]), or the error of an offset past the pool or an
    /// unterminated string. `None` for another field type or a field past the entry size.
    pub fn pool_strings(&self, field: &Field) -> Option<PoolStrings<'a>> {
        let (offset, _) = self.place(field, &[FieldType::STRING_OFFSET])?;
        let (mask, shift) = mask_shift(field);
        Some(PoolStrings {
            view: *self,
            field: *field,
            rows: self.chunks(),
            offset,
            mask,
            shift,
        })
    }

    /// A STRING (inline) field down every row, in row order: each cell's 32 raw bytes (as
    /// [`Cell::InlineString`]). `None` for another field type or a field past the entry size.
    pub fn inline_strings(
        &self,
        field: &Field,
    ) -> Option<impl ExactSizeIterator<Item = &'a [u8; 32]> + use<'a>> {
        let (offset, _) = self.place(field, &[FieldType::STRING])?;
        Some(self.chunks().map(move |row| {
            row.get(offset..)
                .and_then(<[u8]>::first_chunk::<32>)
                .unwrap_or(&[0; 32])
        }))
    }

    fn row_offset(&self, index: usize) -> u64 {
        u64::from(self.header.data_offset) + (index as u64) * u64::from(self.header.entry_size)
    }
}

impl View<'_> {
    #[cold]
    #[inline(never)]
    fn unterminated(&self, offset: u32) -> Error {
        match self.pool.cstr(offset as usize) {
            Err(e) => e.context("BCSV string pool (BCSV-005)"),
            Ok(_) => Error::message("string pool"),
        }
    }
}

/// Index of the first NUL in `bytes`: the first sixteen bytes in one step (game strings are
/// short: most end there, so the one branch is predictable), then eight at a time (the standard
/// library's search starts word-wise only past 16 bytes).
#[inline]
pub(crate) fn nul_at(bytes: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    if let Some(head) = bytes.first_chunk::<16>() {
        // A true 128-bit subtraction: the lowest flagged byte is exactly the first zero.
        let lo = u128::from(LO) << 64 | u128::from(LO);
        let hi = u128::from(HI) << 64 | u128::from(HI);
        let v = u128::from_le_bytes(*head);
        let zero = v.wrapping_sub(lo) & !v & hi;
        if zero != 0 {
            return Some((zero.trailing_zeros() / 8) as usize);
        }
        return nul_words(bytes.get(16..).unwrap_or_default()).map(|i| i + 16);
    }
    nul_words(bytes)
}

/// [`nul_at`] eight bytes at a time.
#[inline]
fn nul_words(bytes: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let (words, rest) = bytes.as_chunks::<8>();
    for (i, w) in words.iter().enumerate() {
        let v = u64::from_le_bytes(*w);
        let zero = v.wrapping_sub(LO) & !v & HI;
        if zero != 0 {
            return Some(i * 8 + (zero.trailing_zeros() / 8) as usize);
        }
    }
    let base = words.len() * 8;
    rest.iter().position(|&b| b == 0).map(|i| base + i)
}

/// A field's mask and shift for `(raw & mask) >> shift` without a checked shift per cell: a
/// shift of 32 or more decodes to 0 (as [`Field::decode`]).
fn mask_shift(field: &Field) -> (u32, u32) {
    match u32::from(field.shift) {
        s @ 0..32 => (field.mask, s),
        _ => (0, 0),
    }
}

/// The decoded bits of one number field down every row (see [`View::numbers`]).
#[derive(Debug, Clone)]
pub struct Numbers<'a> {
    rows: std::slice::ChunksExact<'a, u8>,
    offset: usize,
    size: usize,
    mask: u32,
    shift: u32,
    big: bool,
}

impl Numbers<'_> {
    /// The raw value of the field's width in `row` (which the field fits, checked on creation).
    #[inline(always)]
    fn raw<const SIZE: usize, const BIG: bool>(&self, row: &[u8]) -> u32 {
        let at = row.get(self.offset..).unwrap_or_default();
        match SIZE {
            4 => at.first_chunk::<4>().map_or(0, |b| {
                if BIG {
                    u32::from_be_bytes(*b)
                } else {
                    u32::from_le_bytes(*b)
                }
            }),
            2 => at.first_chunk::<2>().map_or(0, |b| {
                u32::from(if BIG {
                    u16::from_be_bytes(*b)
                } else {
                    u16::from_le_bytes(*b)
                })
            }),
            _ => at.first().map_or(0, |&b| u32::from(b)),
        }
    }

    #[inline(always)]
    fn decode<const SIZE: usize, const BIG: bool>(&self, row: &[u8]) -> u32 {
        (self.raw::<SIZE, BIG>(row) & self.mask) >> self.shift
    }

    /// The rest folded with the width and byte order resolved once (one loop per case).
    #[inline(always)]
    fn fold_with<const SIZE: usize, const BIG: bool, B>(
        self,
        init: B,
        mut f: impl FnMut(B, u32) -> B,
    ) -> B {
        let rows = self.rows.clone();
        rows.fold(init, |acc, row| f(acc, self.decode::<SIZE, BIG>(row)))
    }
}

impl Iterator for Numbers<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        let row = self.rows.next()?;
        Some(match (self.size, self.big) {
            (4, true) => self.decode::<4, true>(row),
            (4, false) => self.decode::<4, false>(row),
            (2, true) => self.decode::<2, true>(row),
            (2, false) => self.decode::<2, false>(row),
            (_, true) => self.decode::<1, true>(row),
            (_, false) => self.decode::<1, false>(row),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.rows.size_hint()
    }

    #[inline]
    fn fold<B, F: FnMut(B, u32) -> B>(self, init: B, f: F) -> B {
        match (self.size, self.big) {
            (4, true) => self.fold_with::<4, true, B>(init, f),
            (4, false) => self.fold_with::<4, false, B>(init, f),
            (2, true) => self.fold_with::<2, true, B>(init, f),
            (2, false) => self.fold_with::<2, false, B>(init, f),
            (_, true) => self.fold_with::<1, true, B>(init, f),
            (_, false) => self.fold_with::<1, false, B>(init, f),
        }
    }
}

impl ExactSizeIterator for Numbers<'_> {}

/// The pool strings of one STRING_OFFSET field down every row (see [`View::pool_strings`]).
#[derive(Debug, Clone)]
pub struct PoolStrings<'a> {
    view: View<'a>,
    field: Field,
    rows: std::slice::ChunksExact<'a, u8>,
    offset: usize,
    mask: u32,
    shift: u32,
}

impl PoolStrings<'_> {
    /// The error of the cell just read (pool offset `at`), with its row and field.
    #[cold]
    #[inline(never)]
    fn bad_string(&self, at: u32) -> Error {
        let row = self.view.len().saturating_sub(self.rows.len() + 1);
        self.view
            .unterminated(at)
            .context(format!("row {row} {}", display_name(self.field.hash)))
    }
}

impl<'a> Iterator for PoolStrings<'a> {
    type Item = Result<&'a [u8]>;

    #[inline(always)]
    fn next(&mut self) -> Option<Result<&'a [u8]>> {
        let row = self.rows.next()?;
        let raw = row
            .get(self.offset..)
            .and_then(<[u8]>::first_chunk::<4>)
            .map_or(0, |b| match self.view.endian {
                Endian::Big => u32::from_be_bytes(*b),
                Endian::Little => u32::from_le_bytes(*b),
            });
        let at = (raw & self.mask) >> self.shift;
        // The search inline, the error (built cold) out of the loop.
        Some(match self.view.find_string(at) {
            Some(s) => Ok(s),
            None => Err(self.bad_string(at)),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.rows.size_hint()
    }
}

impl ExactSizeIterator for PoolStrings<'_> {}

/// Types a cell can be read as with [`RowView::get`].
pub trait FromCell<'a>: Sized {
    /// Converts a cell of `field` (checked by the caller to exist in the row).
    fn from_cell(field: &Field, cell: Cell<'a>) -> std::result::Result<Self, &'static str>;
}

impl<'a> FromCell<'a> for Cell<'a> {
    fn from_cell(_: &Field, cell: Cell<'a>) -> std::result::Result<Self, &'static str> {
        Ok(cell)
    }
}

impl FromCell<'_> for u32 {
    /// The decoded value, zero-extended (the game's unsigned getter; always allowed for integers).
    fn from_cell(_: &Field, cell: Cell<'_>) -> std::result::Result<Self, &'static str> {
        match cell {
            Cell::Long(v) => Ok(v as u32),
            Cell::Long2(v) => Ok(v),
            Cell::Short(v) => Ok(u32::from(v as u16)),
            Cell::Char(v) => Ok(u32::from(v as u8)),
            _ => Err("not an integer field"),
        }
    }
}

impl FromCell<'_> for i32 {
    /// The value sign-extended from the field's width; refused, as by the game's `s32` getter, when
    /// the field is packed (shift ≠ 0 or a partial mask, BCSV-012).
    fn from_cell(field: &Field, cell: Cell<'_>) -> std::result::Result<Self, &'static str> {
        if !field.is_plain() {
            return Err("signed read of a packed field (BCSV-012); read it as u32");
        }
        match cell {
            Cell::Long(v) => Ok(v),
            Cell::Long2(v) => Ok(v as i32),
            Cell::Short(v) => Ok(i32::from(v)),
            Cell::Char(v) => Ok(i32::from(v)),
            _ => Err("not an integer field"),
        }
    }
}

impl FromCell<'_> for f32 {
    fn from_cell(_: &Field, cell: Cell<'_>) -> std::result::Result<Self, &'static str> {
        match cell {
            Cell::Float(v) => Ok(v),
            _ => Err("not a FLOAT field"),
        }
    }
}

impl<'a> FromCell<'a> for &'a [u8] {
    /// String bytes: the pool string, or an inline string up to its first NUL.
    fn from_cell(_: &Field, cell: Cell<'a>) -> std::result::Result<Self, &'static str> {
        match cell {
            Cell::StringOffset(s) => Ok(s),
            Cell::InlineString(b) => {
                let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                Ok(b.get(..end).unwrap_or_default())
            }
            _ => Err("not a string field"),
        }
    }
}

/// One row of a [`View`].
#[derive(Debug, Clone, Copy)]
pub struct RowView<'a> {
    view: View<'a>,
    bytes: &'a [u8],
    index: usize,
}

impl<'a> RowView<'a> {
    /// Row number.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The row's raw bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The raw value of the field's own width (u32, u16 or u8), before mask and shift.
    #[inline]
    pub fn raw(&self, field: &Field) -> Option<u32> {
        let off = usize::from(field.offset);
        let big = self.view.endian == Endian::Big;
        Some(match field.size() {
            4 => {
                let b: [u8; 4] = self.bytes.get(off..off + 4)?.try_into().ok()?;
                if big {
                    u32::from_be_bytes(b)
                } else {
                    u32::from_le_bytes(b)
                }
            }
            2 => {
                let b: [u8; 2] = self.bytes.get(off..off + 2)?.try_into().ok()?;
                u32::from(if big {
                    u16::from_be_bytes(b)
                } else {
                    u16::from_le_bytes(b)
                })
            }
            1 => u32::from(*self.bytes.get(off)?),
            _ => return None,
        })
    }

    /// The cell of `field`, decoded as `(raw & mask) >> shift` (BCSV-013).
    #[inline(always)]
    pub fn cell(&self, field: &Field) -> Result<Cell<'a>> {
        let off = usize::from(field.offset);
        let big = self.view.endian == Endian::Big;
        let word = || -> Option<u32> {
            let b: [u8; 4] = *self.bytes.get(off..)?.first_chunk()?;
            Some(if big {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            })
        };
        let cell = match field.kind {
            FieldType::LONG => word().map(|w| Cell::Long(field.decode(w) as i32)),
            FieldType::FLOAT => word().map(|w| Cell::Float(f32::from_bits(field.decode(w)))),
            FieldType::LONG_2 => word().map(|w| Cell::Long2(field.decode(w))),
            FieldType::STRING_OFFSET => match word() {
                Some(w) => {
                    return match self.view.string_at(field.decode(w)) {
                        Ok(s) => Ok(Cell::StringOffset(s)),
                        Err(e) => Err(self.bad_string(field, e)),
                    };
                }
                None => None,
            },
            FieldType::SHORT => self.bytes.get(off..).and_then(|b| {
                let b: [u8; 2] = *b.first_chunk()?;
                let raw = if big {
                    u16::from_be_bytes(b)
                } else {
                    u16::from_le_bytes(b)
                };
                Some(Cell::Short(field.decode(u32::from(raw)) as u16 as i16))
            }),
            FieldType::CHAR => self
                .bytes
                .get(off)
                .map(|&b| Cell::Char(field.decode(u32::from(b)) as u8 as i8)),
            FieldType::STRING => self
                .bytes
                .get(off..)
                .and_then(|b| b.first_chunk::<32>())
                .map(Cell::InlineString),
            // Unknown types have no size: reported as a field past the row, as before.
            _ => None,
        };
        match cell {
            Some(c) => Ok(c),
            None => Err(self.past_the_row(field)),
        }
    }

    #[cold]
    #[inline(never)]
    fn past_the_row(&self, field: &Field) -> Error {
        let what = if field.kind == FieldType::STRING {
            "inline string past the row".to_owned()
        } else {
            format!("{} field past the row", field.kind)
        };
        Error::invalid(
            self.view.row_offset(self.index) + u64::from(field.offset),
            what,
        )
    }

    #[cold]
    #[inline(never)]
    fn bad_string(&self, field: &Field, e: Error) -> Error {
        e.context(format!("row {} {}", self.index, display_name(field.hash)))
    }

    /// Reads the field named `key` as `T`: `u32` (any integer, unsigned), `i32` (only plain fields,
    /// as the game), `f32`, `&[u8]` (string bytes) or [`Cell`].
    pub fn get<T: FromCell<'a>>(&self, key: impl Into<FieldKey>) -> Result<T> {
        let key = key.into();
        let (_, field) = self.view.find(key).ok_or_else(|| {
            Error::invalid(
                self.view.row_offset(self.index),
                format!("no field {}", display_name(key.0)),
            )
        })?;
        let cell = self.cell(&field)?;
        T::from_cell(&field, cell).map_err(|why| {
            Error::invalid(
                self.view.row_offset(self.index) + u64::from(field.offset),
                format!("{} ({}): {why}", display_name(field.hash), field.kind),
            )
        })
    }

    /// Signed integer read (see [`FromCell`] for `i32`).
    pub fn get_i32(&self, key: impl Into<FieldKey>) -> Result<i32> {
        self.get(key)
    }

    /// Unsigned integer read.
    pub fn get_u32(&self, key: impl Into<FieldKey>) -> Result<u32> {
        self.get(key)
    }

    /// Float read.
    pub fn get_f32(&self, key: impl Into<FieldKey>) -> Result<f32> {
        self.get(key)
    }

    /// String bytes (undecoded).
    pub fn get_bytes(&self, key: impl Into<FieldKey>) -> Result<&'a [u8]> {
        self.get(key)
    }

    /// String decoded with the table's encoding; invalid text is an error at its file offset.
    pub fn get_str(&self, key: impl Into<FieldKey>) -> Result<Cow<'a, str>> {
        let key = key.into();
        let bytes: &'a [u8] = self.get(key)?;
        self.view.encoding().decode(bytes).map_err(|i| {
            let base = (bytes.as_ptr() as usize).saturating_sub(self.view.data().as_ptr() as usize);
            Error::invalid(
                base.saturating_add(i) as u64,
                format!("invalid {} text", self.view.encoding().name()),
            )
            .context(format!("row {} {}", self.index, display_name(key.0)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Table, Value};

    #[test]
    fn is_ascii_is_the_standard_test() {
        for len in 0..40 {
            for at in (0..len).map(Some).chain([None]) {
                let mut b: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                if let Some(at) = at {
                    b[at] = 0x80 | at as u8;
                }
                assert_eq!(is_ascii(&b), b.is_ascii(), "{len} {at:?}");
            }
        }
    }

    #[test]
    fn nul_at_finds_the_first_zero() {
        for len in 0..48 {
            for at in (0..len).map(Some).chain([None]) {
                // Bytes that trip naive zero tests: 0x01 after 0x00, 0x80, 0xFF.
                let mut b: Vec<u8> = (0..len).map(|i| [0x01, 0x80, 0xFF, b'a'][i % 4]).collect();
                if let Some(at) = at {
                    b[at] = 0;
                    if at + 1 < len {
                        b[at + 1] = 0;
                    }
                }
                assert_eq!(nul_at(&b), b.iter().position(|&c| c == 0), "{len} {at:?}");
            }
        }
    }

    #[test]
    fn columns_read_as_cells() {
        for t in [
            crate::build::every_type(40),
            crate::build::every_type_le(40),
        ] {
            let bytes = t.write().unwrap();
            let view = parse(&bytes).unwrap();
            for f in view.fields() {
                let n = view.numbers(&f).map_or(0, |c| c.len());
                let s = view.pool_strings(&f).map_or(0, |c| c.len());
                let i = view.inline_strings(&f).map_or(0, |c| c.len());
                assert_eq!(n + s + i, 40, "{f:?}");
            }
            crate::fuzz_bcsv(&bytes);
        }
        // A bad string offset is the cell's error; a field of another type has no column.
        let mut t = Table::new(&[("a", FieldType::STRING_OFFSET), ("b", FieldType::LONG)]);
        t.push_row([Value::StringOffset(b"x".into()), Value::Long(-2)])
            .unwrap();
        let mut bytes = t.write().unwrap();
        let f = parse(&bytes).unwrap().field(0).unwrap();
        let at = 0x10 + 24 + usize::from(f.offset);
        bytes[at..at + 4].copy_from_slice(&0x100u32.to_be_bytes());
        let view = parse(&bytes).unwrap();
        let err = view.pool_strings(&f).unwrap().next().unwrap().unwrap_err();
        assert!(err.to_string().contains("row 0"), "{err}");
        assert!(view.numbers(&f).is_none() && view.inline_strings(&f).is_none());
        let g = view.field(1).unwrap();
        assert_eq!(
            view.numbers(&g).unwrap().collect::<Vec<_>>(),
            [-2i32 as u32]
        );
        assert!(view.pool_strings(&g).is_none());
    }

    #[test]
    fn strings_decode_as_the_encoding() {
        let mut t = Table::new(&[
            ("a", FieldType::STRING_OFFSET),
            ("b", FieldType::STRING_OFFSET),
            ("c", FieldType::STRING),
        ]);
        let sjis: &[u8] = &[0x83, 0x7D, 0x83, 0x8A, 0x83, 0x49];
        let cells: [&[u8]; 6] = [b"Kuribo", sjis, b"", &[0x81], b"x\\y", &[b'a', 0x87, 0x40]];
        for pair in cells.windows(2) {
            let inline = Value::inline(pair[0]).unwrap();
            t.push_row([
                Value::StringOffset(pair[0].into()),
                Value::StringOffset(pair[1].into()),
                inline,
            ])
            .unwrap();
        }
        let bytes = t.write().unwrap();
        let view = parse(&bytes).unwrap();
        let strings = view.strings();
        let enc = view.encoding();
        let fields: Vec<Field> = view.fields().collect();
        for row in view.rows() {
            for f in &fields {
                let s: &[u8] = row.get(f.hash).unwrap();
                assert_eq!(strings.decode(s), enc.decode(s), "{s:?}");
            }
        }
        // Bytes from elsewhere (and an empty slice) decode as well.
        for s in cells {
            assert_eq!(strings.decode(s), enc.decode(s));
        }
        assert_eq!(strings.decode(&bytes), enc.decode(&bytes));
    }
}
