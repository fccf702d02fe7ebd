//! The owned, editable table: fields keep order, hash, offset, mask, shift and type; values are
//! typed; everything else a byte-exact rewrite needs (bits no field covers, a non-canonical string
//! pool, the tail after the pool) is kept on the side and is empty for ordinary files.

use std::collections::HashSet;

use crate::fasthash::{FastState, Key};

use gcio::{Context, Endian, Error, Limits, Result};

use crate::cellstr::Str;
use crate::hash::{FieldKey, parse_name};
use crate::names::display_name;
use crate::slot::Slot;
use crate::types::{Field, FieldType, auto_layout};
use crate::view::{Cell, View, nul_at};
use gcio::text::Encoding;

/// One typed value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Type 0 (decoded bits as `i32`).
    Long(i32),
    /// Type 1: the 32 raw bytes (NUL-padded text; bytes after the first NUL are kept, C-14).
    InlineString([u8; 32]),
    /// Type 2.
    Float(f32),
    /// Type 3.
    Long2(u32),
    /// Type 4 (decoded bits as `i16`).
    Short(i16),
    /// Type 5 (decoded bits as `i8`).
    Char(i8),
    /// Type 6: the string's bytes in the table's encoding, without terminator.
    StringOffset(Str),
}

impl Value {
    /// The field type this value belongs to.
    pub fn kind(&self) -> FieldType {
        match self {
            Value::Long(_) => FieldType::LONG,
            Value::InlineString(_) => FieldType::STRING,
            Value::Float(_) => FieldType::FLOAT,
            Value::Long2(_) => FieldType::LONG_2,
            Value::Short(_) => FieldType::SHORT,
            Value::Char(_) => FieldType::CHAR,
            Value::StringOffset(_) => FieldType::STRING_OFFSET,
        }
    }

    /// The zero value of a type (empty string for strings); `None` for unknown types.
    pub fn zero(kind: FieldType) -> Option<Value> {
        Some(match kind {
            FieldType::LONG => Value::Long(0),
            FieldType::STRING => Value::InlineString([0; 32]),
            FieldType::FLOAT => Value::Float(0.0),
            FieldType::LONG_2 => Value::Long2(0),
            FieldType::SHORT => Value::Short(0),
            FieldType::CHAR => Value::Char(0),
            FieldType::STRING_OFFSET => Value::StringOffset(Str::EMPTY),
            _ => return None,
        })
    }

    /// An inline string from text bytes (at most 32, NUL-padded).
    pub fn inline(bytes: &[u8]) -> Option<Value> {
        let mut b = [0u8; 32];
        b.get_mut(..bytes.len())?.copy_from_slice(bytes);
        Some(Value::InlineString(b))
    }

    /// The bits an integer or float value encodes into (decoded domain); `None` for strings.
    pub fn bits(&self) -> Option<u32> {
        Some(match *self {
            Value::Long(v) => v as u32,
            Value::Float(v) => v.to_bits(),
            Value::Long2(v) => v,
            Value::Short(v) => u32::from(v as u16),
            Value::Char(v) => u32::from(v as u8),
            _ => return None,
        })
    }

    /// Checks that the value fits `field`: its bits lie within [`Field::value_mask`], so that the
    /// writer stores it unchanged (a packed field would otherwise drop the bits outside its mask,
    /// 200 in a 7-bit field reading back as 72). Strings always fit (their pool offset is checked
    /// on write). The error gives the value and the allowed range; callers add row and column.
    pub fn check_fits(&self, field: &Field) -> std::result::Result<(), String> {
        match self.bits() {
            Some(b) if b & !field.value_mask() != 0 => {
                let shown = match *self {
                    Value::Long(v) => v.to_string(),
                    Value::Long2(v) => v.to_string(),
                    Value::Short(v) => v.to_string(),
                    Value::Char(v) => v.to_string(),
                    Value::Float(v) => format!("{v:?} (bits {b:#010X})"),
                    _ => b.to_string(),
                };
                Err(out_of_range(&shown, field))
            }
            _ => Ok(()),
        }
    }

    /// Equality that compares floats by bits (NaN payloads, -0.0).
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (a, b) => a == b,
        }
    }
}

/// The message of a value (`shown`) outside `field`'s range.
#[cold]
#[inline(never)]
pub(crate) fn out_of_range(shown: &str, field: &Field) -> String {
    let signed = if shown.starts_with('-') {
        "; packed fields read unsigned, so a negative value does not fit"
    } else {
        ""
    };
    format!(
        "{shown} is out of range: allowed {}{signed}",
        field.range_text()
    )
}

impl From<Cell<'_>> for Value {
    /// An owned copy of a view cell.
    fn from(cell: Cell<'_>) -> Value {
        match cell {
            Cell::Long(v) => Value::Long(v),
            Cell::InlineString(b) => Value::InlineString(*b),
            Cell::Float(v) => Value::Float(v),
            Cell::Long2(v) => Value::Long2(v),
            Cell::Short(v) => Value::Short(v),
            Cell::Char(v) => Value::Char(v),
            Cell::StringOffset(s) => Value::StringOffset(Str::new(s)),
        }
    }
}

/// What follows the string pool.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Tail {
    /// `@` up to the next multiple of 32, nothing when aligned (BCSV-007).
    #[default]
    Standard,
    /// Exactly these bytes (16-byte padding, zero padding, unreferenced strings, ...).
    Raw(Vec<u8>),
}

/// An owned, editable BCSV table. The rows' values are stored flat, row after row (one
/// allocation for the whole table): [`Table::row`] and [`Table::rows`] give each row as a slice
/// of one value per field, in field-table order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// Byte order (big = Wii, little = Switch).
    pub endian: Endian,
    /// Text encoding of strings.
    pub encoding: Encoding,
    /// Fields in field-table order.
    pub fields: Vec<Field>,
    /// Bytes per row.
    pub entry_size: u32,
    /// Every row's values, row after row, `width` per row.
    values: Vec<Value>,
    /// Number of rows (a table without fields still has rows).
    rows: usize,
    /// Values per row: the field count when the first row was added.
    width: usize,
    /// By row index (ascending), the row's bits outside every field's effective mask (gaps,
    /// unused bits of packed words) when they are not all zero; writing starts from these bytes.
    residue: Vec<(usize, Vec<u8>)>,
    /// By row index (ascending), the stored pool offsets of its STRING_OFFSET cells (in field
    /// order), kept only when the table's pool is not the canonical rebuild.
    string_offsets: Vec<(usize, Vec<u32>)>,
    /// Bytes between the field table and the first row (empty in valid files, BCSV-001).
    pub header_gap: Vec<u8>,
    /// The stored pool (without the tail), kept when it is not the first-use, deduplicated rebuild
    /// of the values (BCSV-006); `None` means the writer rebuilds it canonically.
    pub stored_pool: Option<Vec<u8>>,
    /// What follows the pool.
    pub tail: Tail,
    /// The parsed pool offsets of every string cell, kept while the rows are untouched.
    pristine: Pristine,
}

/// Tables with fewer string cells than this keep no [`Pristine`] offsets: for them the
/// allocation costs the parse more than the offsets save the writer.
const PRISTINE_MIN: usize = 32;

/// The stored pool offset of every STRING_OFFSET cell (rows in order, fields in order) of a
/// parsed table whose pool is the canonical rebuild (first use, deduplicated). While no value has
/// been touched (every `&mut` access to the rows drops them) the writer takes each cell's offset
/// from here instead of looking its string up: a cell whose offset is the pool's current end
/// places its string, any other points at a string placed before. Invisible to equality: a
/// parsed table equals the same table built value by value.
#[derive(Clone, Default)]
struct Pristine(Option<Vec<u32>>);

impl PartialEq for Pristine {
    fn eq(&self, _: &Pristine) -> bool {
        true
    }
}

impl std::fmt::Debug for Pristine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(v) => write!(f, "Pristine({} offsets)", v.len()),
            None => f.write_str("Pristine(none)"),
        }
    }
}

impl Table {
    /// The parts this model keeps as stored bytes rather than typed values: `string pool` when
    /// the stored pool is not the canonical rebuild of the values ([`Table::stored_pool`]), and
    /// `pool tail (N bytes)` when what follows it is not the standard `@` padding
    /// ([`Tail::Raw`]). Empty when the writer rebuilds both from the rows.
    pub fn raw_parts(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.stored_pool.is_some() {
            out.push("string pool".to_owned());
        }
        if let Tail::Raw(b) = &self.tail {
            out.push(format!("pool tail ({} bytes)", b.len()));
        }
        out
    }

    /// A new empty table with the given columns, laid out by type order (BCSV-011).
    pub fn new(columns: &[(&str, FieldType)]) -> Self {
        let mut fields: Vec<Field> = columns
            .iter()
            .map(|&(name, kind)| Field::new(parse_name(name), kind, 0))
            .collect();
        let entry_size = auto_layout(&mut fields);
        Table {
            fields,
            entry_size,
            ..Table::default()
        }
    }

    /// Parses and copies a file into an owned table.
    pub fn parse(data: &[u8]) -> Result<Table> {
        Self::parse_with(data, &Limits::default())
    }

    /// Parses and copies a file into an owned table; `limits` bound the cell count.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Table> {
        Self::from_view(&crate::view::parse_with(data, limits)?, limits)
    }

    /// Copies a view into an owned table; `limits` bound the cell count and the stored bytes kept.
    pub fn from_view(view: &View<'_>, limits: &Limits) -> Result<Table> {
        let fields: Vec<Field> = view.fields().collect();
        let n = view.len();
        let cells = (n as u64).saturating_mul(fields.len().max(1) as u64);
        limits.check_elements(cells, 0).context("BCSV rows")?;
        // The owned copy costs a Value per cell, whatever the entry size.
        limits
            .check_alloc(cells, size_of::<Value>() as u64, 0)
            .context("BCSV rows")?;
        // Each copy of stored bytes (pool, tail, header gap, a row's residue, the coverage
        // mask) is at most the file's length.
        limits
            .check_alloc(view.data().len() as u64, 1, 0)
            .context("BCSV stored bytes")?;
        let pool_bytes = view.pool().data();
        let mut values = Vec::with_capacity(n * fields.len());
        let mut residue = Vec::new();
        let strings = fields
            .iter()
            .filter(|f| f.kind == FieldType::STRING_OFFSET)
            .count();
        let string_cells = n.saturating_mul(strings);
        let mut pool = Canon::new(pool_bytes, string_cells);
        let keep = string_cells >= PRISTINE_MIN;
        let mut offsets = if keep {
            Vec::with_capacity(string_cells)
        } else {
            Vec::new()
        };
        // Without rows the entry size is unchecked by the file's length: nothing to read.
        if n > 0 {
            // The coverage mask on the stack for ordinary entry sizes (no allocation per table),
            // and none at all when whole fields tile the row (most game tables).
            let size = view.entry_size();
            let tiled = tiles(&fields, size);
            let mut small_cover;
            let heap_cover: Vec<u8>;
            let cover: &[u8] = if tiled {
                &[]
            } else if size <= 256 {
                small_cover = [0u8; 256];
                let c = small_cover.get_mut(..size).unwrap_or_default();
                coverage_into(&fields, view.endian(), c);
                c
            } else {
                heap_cover = coverage(&fields, size, view.endian());
                &heap_cover
            };
            // Only bytes some field does not fully own can hold residue bits.
            let full = tiled || cover.iter().all(|&c| c == 0xFF);
            let mut copy = Copy {
                fields: &fields,
                pool_bytes,
                pool: &mut pool,
                values: &mut values,
                offsets: &mut offsets,
                keep,
            };
            for row in view.rows() {
                let bytes = row.bytes();
                let read = match view.endian() {
                    Endian::Big => copy.row::<true>(bytes),
                    Endian::Little => copy.row::<false>(bytes),
                };
                if let Err(i) = read {
                    // `row.cell` only to report what went wrong.
                    let f = fields
                        .get(i)
                        .copied()
                        .unwrap_or(Field::new(0, FieldType::LONG, 0));
                    return Err(row
                        .cell(&f)
                        .err()
                        .unwrap_or_else(|| Error::message("unreadable cell")));
                }
                if !full && stray(bytes, cover) {
                    residue.push((
                        row.index(),
                        bytes.iter().zip(cover).map(|(b, c)| b & !c).collect(),
                    ));
                }
            }
        }
        let pool_end = pool.max_end.min(pool_bytes.len());
        let mut string_offsets = Vec::new();
        let canonical = !pool.noncanonical && pool.next == pool.max_end;
        let pristine = Pristine((canonical && keep).then_some(offsets));
        let stored_pool = if canonical {
            None
        } else {
            // The rare non-canonical pool: a second pass keeps each row's stored offsets.
            let slots: Vec<Slot> = fields.iter().map(Slot::new).collect();
            for stored in view.rows() {
                let offsets: Vec<u32> = fields
                    .iter()
                    .zip(&slots)
                    .filter(|(f, _)| f.kind == FieldType::STRING_OFFSET)
                    .filter_map(|(_, slot)| slot.get(stored.bytes(), view.endian()))
                    .collect();
                if !offsets.is_empty() {
                    string_offsets.push((stored.index(), offsets));
                }
            }
            Some(pool_bytes.get(..pool_end).unwrap_or_default().to_vec())
        };
        let rest = pool_bytes.get(pool_end..).unwrap_or_default();
        let header = view.header();
        let end = header.pool_offset() as usize + pool_end;
        let standard = rest.len() == gcio::padding_for(end, 32) && rest.iter().all(|&b| b == b'@');
        let gap_start = header.field_table_end() as usize;
        Ok(Table {
            endian: view.endian(),
            encoding: view.encoding(),
            entry_size: header.entry_size,
            width: fields.len(),
            fields,
            values,
            rows: n,
            residue,
            string_offsets,
            header_gap: view
                .data()
                .get(gap_start..header.data_offset as usize)
                .unwrap_or_default()
                .to_vec(),
            stored_pool,
            tail: if standard {
                Tail::Standard
            } else {
                Tail::Raw(rest.to_vec())
            },
            pristine,
        })
    }

    /// The parsed pool offsets of every string cell while no value has changed (see
    /// [`Pristine`]).
    pub(crate) fn pristine_offsets(&self) -> Option<&[u32]> {
        self.pristine.0.as_deref()
    }

    /// Forgets the parsed string offsets: called by every `&mut` access to the values.
    #[inline]
    fn touch(&mut self) {
        self.pristine.0 = None;
    }

    /// Index of the first field matching `key` (a name, `[XXXXXXXX]` or a hash).
    pub fn field_index(&self, key: impl Into<FieldKey>) -> Option<usize> {
        let key = key.into();
        self.fields.iter().position(|f| f.hash == key.0)
    }

    /// The value of `key` in row `row`.
    pub fn get(&self, row: usize, key: impl Into<FieldKey>) -> Option<&Value> {
        let i = self.field_index(key)?;
        self.row(row)?.get(i)
    }

    /// Sets the value of `key` in row `row`; the value's type must match the field's and the
    /// value must fit it ([`Value::check_fits`]): an error names the row, the column and the
    /// allowed range.
    pub fn set(&mut self, row: usize, key: impl Into<FieldKey>, value: Value) -> Result<()> {
        let key = key.into();
        let i = self
            .field_index(key)
            .ok_or_else(|| Error::message(format!("no field {}", display_name(key.0))))?;
        let field = self.fields.get(i).copied();
        let kind = field.map(|f| f.kind);
        if kind != Some(value.kind()) {
            return Err(Error::invalid(
                0,
                format!(
                    "{} is {:?}, not {}",
                    display_name(key.0),
                    kind,
                    value.kind()
                ),
            ));
        }
        if let Some(f) = &field {
            value.check_fits(f).map_err(|m| {
                Error::invalid(
                    0,
                    format!("row {row}, column {}: {m}", display_name(f.hash)),
                )
            })?;
        }
        let slot = self
            .row_mut(row)
            .and_then(|r| r.get_mut(i))
            .ok_or_else(|| Error::message(format!("no row {row}")))?;
        *slot = value;
        Ok(())
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// True when the table has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Row `i`: one value per field, in field-table order.
    #[inline]
    pub fn row(&self, i: usize) -> Option<&[Value]> {
        if i >= self.rows {
            return None;
        }
        let w = self.width;
        self.values.get(i * w..(i + 1) * w)
    }

    /// Row `i`, editable in place.
    #[inline]
    pub fn row_mut(&mut self, i: usize) -> Option<&mut [Value]> {
        if i >= self.rows {
            return None;
        }
        self.touch();
        let w = self.width;
        self.values.get_mut(i * w..(i + 1) * w)
    }

    /// Every row, in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = &[Value]> + '_ {
        let w = self.width;
        (0..self.rows).map(move |i| self.values.get(i * w..(i + 1) * w).unwrap_or_default())
    }

    /// Every row, in order, editable in place.
    pub fn rows_mut(&mut self) -> impl ExactSizeIterator<Item = &mut [Value]> + '_ {
        self.touch();
        let w = self.width;
        let mut rest = self.values.as_mut_slice();
        (0..self.rows).map(move |_| {
            let at = w.min(rest.len());
            let (row, tail) = std::mem::take(&mut rest).split_at_mut(at);
            rest = tail;
            row
        })
    }

    /// Every row's values, row after row (`fields.len()` per row).
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// Appends a row of one value per field (in field-table order) and returns its index. Fails,
    /// leaving the table as it was, on a wrong number of values or when the fields changed in
    /// number since the first row; value types are checked on [`Table::write`].
    pub fn push_row(&mut self, values: impl IntoIterator<Item = Value>) -> Result<usize> {
        self.touch();
        let width = self.fields.len();
        if self.rows > 0 && self.width != width {
            return Err(Error::message(format!(
                "rows have {} values, the table {width} fields",
                self.width
            )));
        }
        let start = self.values.len();
        self.values.extend(values);
        let n = self.values.len() - start;
        if n != width {
            self.values.truncate(start);
            return Err(Error::message(format!(
                "row {} has {n} values for {width} fields",
                self.rows
            )));
        }
        self.width = width;
        self.rows += 1;
        Ok(self.rows - 1)
    }

    /// Appends a row of zero values (empty strings) and returns its index.
    pub fn push_default_row(&mut self) -> usize {
        self.touch();
        let zero = |f: &Field| Value::zero(f.kind).unwrap_or(Value::Long(0));
        if self.rows > 0 && self.width != self.fields.len() {
            // The fields changed in number since the first row: keep the rows' width (the
            // writer reports the mismatch).
            let kinds: Vec<Value> = (0..self.width)
                .map(|i| self.fields.get(i).map_or(Value::Long(0), zero))
                .collect();
            self.values.extend(kinds);
        } else {
            self.width = self.fields.len();
            let fields = &self.fields;
            self.values.extend(fields.iter().map(zero));
        }
        self.rows += 1;
        self.rows - 1
    }

    /// Removes every row (fields and the rest stay).
    pub fn clear_rows(&mut self) {
        self.touch();
        self.values.clear();
        self.rows = 0;
        self.residue.clear();
        self.string_offsets.clear();
    }

    /// Values per stored row (the field count when the first row was added).
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// No row has residue or stored string offsets (the usual case).
    pub(crate) fn plain_rows(&self) -> bool {
        self.residue.is_empty() && self.string_offsets.is_empty()
    }

    /// Row `i`'s bits outside every field's effective mask, or empty when all are zero (the
    /// usual case). Writing starts from these bytes when they are one entry long.
    pub fn residue(&self, i: usize) -> &[u8] {
        side_get(&self.residue, i)
    }

    /// Sets row `i`'s residue (see [`Table::residue`]); empty clears it. Ignored past the rows.
    pub fn set_residue(&mut self, i: usize, bytes: Vec<u8>) {
        if i < self.rows {
            side_set(&mut self.residue, i, bytes);
        }
    }

    /// True when some row has residue bits.
    pub fn has_residue(&self) -> bool {
        !self.residue.is_empty()
    }

    /// Row `i`'s stored pool offsets of its STRING_OFFSET cells (in field order), kept only when
    /// the table's pool is not the canonical rebuild ([`Table::stored_pool`]); empty otherwise.
    pub fn string_offsets(&self, i: usize) -> &[u32] {
        side_get(&self.string_offsets, i)
    }

    /// Sets row `i`'s stored string offsets (see [`Table::string_offsets`]); empty clears them.
    /// Ignored past the rows.
    pub fn set_string_offsets(&mut self, i: usize, offsets: Vec<u32>) {
        if i < self.rows {
            side_set(&mut self.string_offsets, i, offsets);
        }
    }
}

/// Row `i`'s entry of a per-row side list (ascending row indices), empty when absent.
fn side_get<T>(list: &[(usize, Vec<T>)], i: usize) -> &[T] {
    match list.binary_search_by_key(&i, |(r, _)| *r) {
        Ok(k) => list.get(k).map_or(&[], |(_, v)| v.as_slice()),
        Err(_) => &[],
    }
}

/// Sets (or, when empty, removes) row `i`'s entry of a per-row side list.
fn side_set<T>(list: &mut Vec<(usize, Vec<T>)>, i: usize, v: Vec<T>) {
    match (list.binary_search_by_key(&i, |(r, _)| *r), v.is_empty()) {
        (Ok(k), true) => {
            list.remove(k);
        }
        (Ok(k), false) => {
            if let Some(slot) = list.get_mut(k) {
                slot.1 = v;
            }
        }
        (Err(_), true) => {}
        (Err(k), false) => list.insert(k, (i, v)),
    }
}

/// True when fields that own their whole width (no partial mask, no shift; inline strings) cover
/// every byte of a row of at most 64 bytes: the [`coverage`] is then all ones, found with one
/// bit per byte.
fn tiles(fields: &[Field], entry_size: usize) -> bool {
    if entry_size == 0 || entry_size > 64 {
        return false;
    }
    let mut bits = 0u64;
    for f in fields {
        let Some(n) = f.kind.size() else {
            return false;
        };
        let off = usize::from(f.offset);
        let whole = f.kind == FieldType::STRING || f.effective_mask() == f.width_mask();
        if !whole || off + n > entry_size {
            return false;
        }
        bits |= (u64::MAX >> (64 - n)) << off;
    }
    bits == u64::MAX >> (64 - entry_size)
}

/// Per-byte mask of the row bits that some field's value carries (inline strings cover all bytes).
pub(crate) fn coverage(fields: &[Field], entry_size: usize, endian: Endian) -> Vec<u8> {
    let mut cover = vec![0u8; entry_size];
    coverage_into(fields, endian, &mut cover);
    cover
}

/// [`coverage`] into a zeroed buffer of the entry size.
fn coverage_into(fields: &[Field], endian: Endian, cover: &mut [u8]) {
    for f in fields {
        let off = usize::from(f.offset);
        let m = f.effective_mask();
        // The effective mask's bytes in stored order (nothing for unknown types).
        let (bytes, size): ([u8; 4], usize) = match (f.kind.size(), endian) {
            (Some(32), _) => {
                let end = cover.len().min(off.saturating_add(32));
                if let Some(c) = cover.get_mut(off..end) {
                    c.fill(0xFF);
                }
                continue;
            }
            (Some(4), Endian::Big) => (m.to_be_bytes(), 4),
            (Some(4), Endian::Little) => (m.to_le_bytes(), 4),
            (Some(2), Endian::Big) => ([(m >> 8) as u8, m as u8, 0, 0], 2),
            (Some(2), Endian::Little) => ([m as u8, (m >> 8) as u8, 0, 0], 2),
            (Some(1), _) => ([m as u8, 0, 0, 0], 1),
            _ => continue,
        };
        match cover.get_mut(off..).and_then(<[u8]>::first_chunk_mut::<4>) {
            // One word OR when four bytes fit (the mask bytes past `size` are zero).
            Some(c) => *c = (u32::from_ne_bytes(*c) | u32::from_ne_bytes(bytes)).to_ne_bytes(),
            None => {
                for (c, b) in cover.iter_mut().skip(off).zip(bytes.iter().take(size)) {
                    *c |= b;
                }
            }
        }
    }
}

/// True when `bytes` has a bit outside `cover` (eight bytes at a time).
#[inline]
fn stray(bytes: &[u8], cover: &[u8]) -> bool {
    let (words, rest) = bytes.as_chunks::<8>();
    let (cwords, crest) = cover.as_chunks::<8>();
    let mut acc = 0u64;
    for (b, c) in words.iter().zip(cwords) {
        acc |= u64::from_le_bytes(*b) & !u64::from_le_bytes(*c);
    }
    for (b, c) in rest.iter().zip(crest) {
        acc |= u64::from(b & !c);
    }
    acc != 0
}

/// The owned parse's per-row copy: each field's value read straight from the row bytes (the
/// field type picks the width, so a cell is one match), strings copied from the pool.
struct Copy<'a, 'p> {
    fields: &'a [Field],
    pool_bytes: &'p [u8],
    pool: &'a mut Canon<'p>,
    values: &'a mut Vec<Value>,
    /// Each string cell's stored offset, when `keep` (see [`Pristine`]).
    offsets: &'a mut Vec<u32>,
    keep: bool,
}

impl Copy<'_, '_> {
    /// Appends one value per field; `Err(i)` names the field that does not read.
    #[inline]
    fn row<const BIG: bool>(&mut self, bytes: &[u8]) -> std::result::Result<(), usize> {
        let word = |off: usize| -> Option<u32> {
            let b: [u8; 4] = *bytes.get(off..)?.first_chunk()?;
            Some(if BIG {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            })
        };
        for (i, f) in self.fields.iter().enumerate() {
            let off = usize::from(f.offset);
            let value = match f.kind {
                FieldType::LONG => word(off).map(|w| Value::Long(f.decode(w) as i32)),
                FieldType::FLOAT => word(off).map(|w| Value::Float(f32::from_bits(f.decode(w)))),
                FieldType::LONG_2 => word(off).map(|w| Value::Long2(f.decode(w))),
                FieldType::STRING_OFFSET => {
                    let found = word(off).and_then(|w| {
                        let at = f.decode(w);
                        let rest = self.pool_bytes.get(at as usize..)?;
                        Some((at, rest, nul_at(rest)?))
                    });
                    let Some((at, rest, n)) = found else {
                        return Err(i);
                    };
                    self.pool.see(rest.get(..n).unwrap_or_default(), at);
                    if self.keep {
                        self.offsets.push(at);
                    }
                    // The string is written in place: a `Str` built on the stack and moved in
                    // was re-read at other widths than it was written (a store-forwarding stall).
                    self.values.push(Value::StringOffset(Str::EMPTY));
                    if let Some(Value::StringOffset(s)) = self.values.last_mut() {
                        s.set_from_window(rest, n);
                    }
                    continue;
                }
                FieldType::SHORT => bytes.get(off..).and_then(|b| {
                    let b: [u8; 2] = *b.first_chunk()?;
                    let raw = if BIG {
                        u16::from_be_bytes(b)
                    } else {
                        u16::from_le_bytes(b)
                    };
                    Some(Value::Short(f.decode(u32::from(raw)) as u16 as i16))
                }),
                FieldType::CHAR => bytes
                    .get(off)
                    .map(|&b| Value::Char(f.decode(u32::from(b)) as u8 as i8)),
                FieldType::STRING => bytes
                    .get(off..)
                    .and_then(|b| b.first_chunk::<32>())
                    .map(|b| Value::InlineString(*b)),
                _ => None,
            };
            match value {
                Some(v) => self.values.push(v),
                None => return Err(i),
            }
        }
        Ok(())
    }
}

/// Placed strings compared one by one before the first hash set is built: most tables place
/// only a few distinct strings.
const SMALL: usize = 8;

/// Tracks whether stored string offsets are exactly the first-use, deduplicated layout: every
/// string is either placed at the next free offset (and must differ from all placed so far) or
/// points at the start of an earlier placement. The placed strings are contiguous and free of
/// NULs, so an offset below the next free one is a start exactly when it is 0 or follows a NUL:
/// per cell this is one byte test; the set of placed strings sees each distinct string once.
struct Canon<'a> {
    pool: &'a [u8],
    cells: usize,
    small: [&'a [u8]; SMALL],
    nsmall: usize,
    placed: HashSet<Key<'a>, FastState>,
    next: usize,
    max_end: usize,
    noncanonical: bool,
}

impl<'a> Canon<'a> {
    /// `cells`: the table's string cells, a bound on the distinct strings.
    fn new(pool: &'a [u8], cells: usize) -> Self {
        Canon {
            pool,
            cells,
            small: [&[]; SMALL],
            nsmall: 0,
            placed: HashSet::default(),
            next: 0,
            max_end: 0,
            noncanonical: false,
        }
    }

    /// Adds a placed string; false when an equal one was placed before.
    fn insert(&mut self, s: &'a [u8]) -> bool {
        if self.nsmall < SMALL {
            if self
                .small
                .get(..self.nsmall)
                .unwrap_or_default()
                .contains(&s)
            {
                return false;
            }
            if let Some(slot) = self.small.get_mut(self.nsmall) {
                *slot = s;
            }
            self.nsmall += 1;
            return true;
        }
        if self.placed.is_empty() {
            // Sized once: distinct strings are bounded by the string cells and, at a dozen
            // bytes each on average in game tables, roughly by the pool's length.
            let guess = (self.pool.len() / 12).min(self.cells).max(4 * SMALL);
            self.placed.reserve(guess);
            self.placed.extend(self.small.map(Key));
        }
        self.placed.insert(Key(s))
    }

    #[inline]
    fn see(&mut self, s: &'a [u8], off: u32) {
        let off = off as usize;
        self.max_end = self.max_end.max(off + s.len() + 1);
        if self.noncanonical {
            return;
        }
        if off == self.next {
            if !self.insert(s) {
                self.noncanonical = true;
                return;
            }
            self.next += s.len() + 1;
        } else if off > self.next || (off != 0 && self.pool.get(off - 1) != Some(&0)) {
            self.noncanonical = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_is_a_full_coverage() {
        let kinds = [
            FieldType::LONG,
            FieldType::SHORT,
            FieldType::CHAR,
            FieldType::STRING,
            FieldType::STRING_OFFSET,
        ];
        // Every pair of fields at every offset, whole or packed, in rows of 1 to 40 bytes.
        for size in 1..=40usize {
            for (a, b) in kinds
                .iter()
                .flat_map(|&a| kinds.iter().map(move |&b| (a, b)))
            {
                for (oa, ob) in [(0, 0), (0, 1), (0, 4), (1, 0), (2, 6), (0, 32), (4, 0)] {
                    for packed in [false, true] {
                        let mut f = vec![Field::new(1, a, oa), Field::new(2, b, ob)];
                        if packed {
                            f[1].shift = 1;
                        }
                        let fits = f.iter().all(|f| usize::from(f.offset) + f.size() <= size);
                        if fits {
                            let full = coverage(&f, size, Endian::Big).iter().all(|&c| c == 0xFF);
                            assert!(!tiles(&f, size) || full, "{size} {f:?}");
                            if !packed {
                                assert_eq!(tiles(&f, size), full, "{size} {f:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn flat_rows() {
        let mut t = Table::new(&[("a", FieldType::LONG), ("b", FieldType::SHORT)]);
        assert!(t.is_empty());
        assert_eq!(t.push_row([Value::Long(1), Value::Short(2)]).unwrap(), 0);
        assert_eq!(t.push_default_row(), 1);
        // A wrong number of values leaves the table as it was.
        assert!(t.push_row([Value::Long(3)]).is_err());
        assert_eq!((t.len(), t.values().len()), (2, 4));
        assert_eq!(t.row(0).unwrap(), &[Value::Long(1), Value::Short(2)]);
        assert_eq!(t.row(1).unwrap(), &[Value::Long(0), Value::Short(0)]);
        assert!(t.row(2).is_none());
        for row in t.rows_mut() {
            row[0] = Value::Long(7);
        }
        t.row_mut(1).unwrap()[1] = Value::Short(-1);
        let rows: Vec<&[Value]> = t.rows().collect();
        assert_eq!(rows[0], &[Value::Long(7), Value::Short(2)]);
        assert_eq!(rows[1], &[Value::Long(7), Value::Short(-1)]);
        assert_eq!(t.get(1, "b"), Some(&Value::Short(-1)));
        // Fields changed in number after the first row: pushes fail, the writer refuses.
        t.fields.push(Field::new(9, FieldType::CHAR, 6));
        assert!(
            t.push_row([Value::Long(0), Value::Short(0), Value::Char(0)])
                .is_err()
        );
        assert!(t.write().is_err());
        t.fields.pop();
        assert!(t.write().is_ok());
        // Side lists: set, replace, clear, ignored past the rows.
        t.set_residue(1, vec![0, 0, 0, 0, 0, 0, 0, 1]);
        t.set_residue(0, vec![1]);
        t.set_residue(5, vec![1]);
        assert_eq!(t.residue(0), &[1]);
        assert_eq!(t.residue(1), &[0, 0, 0, 0, 0, 0, 0, 1]);
        assert!(t.residue(5).is_empty());
        t.set_residue(0, Vec::new());
        assert!(t.residue(0).is_empty() && t.has_residue());
        t.set_string_offsets(1, vec![4]);
        t.set_string_offsets(1, vec![8]);
        assert_eq!(t.string_offsets(1), &[8]);
        assert!(t.string_offsets(0).is_empty());
        t.clear_rows();
        assert!(t.is_empty() && !t.has_residue() && t.string_offsets(1).is_empty());
        // A table without fields still counts its rows.
        let mut none = Table::new(&[]);
        none.entry_size = 4;
        none.push_row([]).unwrap();
        none.push_default_row();
        assert_eq!(
            (none.len(), none.rows().count(), none.rows_mut().count()),
            (2, 2, 2)
        );
        assert_eq!(Table::parse(&none.write().unwrap()).unwrap().len(), 2);
    }
}
