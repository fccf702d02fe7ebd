//! The owned, editable table: fields keep order, hash, offset, mask, shift and type; values are
//! typed; everything else a byte-exact rewrite needs (bits no field covers, a non-canonical string
//! pool, the tail after the pool) is kept on the side and is empty for ordinary files.

use std::collections::HashSet;

use crate::fasthash::{FastState, Key};

use gcio::{Context, Endian, Error, Limits, Result};

use crate::cellstr::Str;
use crate::hash::{FieldKey, display_name, parse_name};
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

    /// Equality that compares floats by bits (NaN payloads, -0.0).
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (a, b) => a == b,
        }
    }
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

/// One row: a value per field, plus bits no field covers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Row {
    /// One value per field, in field-table order.
    pub values: Vec<Value>,
    /// The row's bits outside every field's effective mask (gaps, unused bits of packed words),
    /// or empty when all are zero (the usual case). Writing starts from these bytes.
    pub residue: Vec<u8>,
    /// Stored pool offsets of this row's STRING_OFFSET cells (in field order), kept only when the
    /// table's pool is not the canonical rebuild; empty otherwise.
    pub string_offsets: Vec<u32>,
}

impl Row {
    /// A row of values.
    pub fn new(values: Vec<Value>) -> Self {
        Row {
            values,
            ..Row::default()
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

/// An owned, editable BCSV table.
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
    /// Rows.
    pub rows: Vec<Row>,
    /// Bytes between the field table and the first row (empty in valid files, BCSV-001).
    pub header_gap: Vec<u8>,
    /// The stored pool (without the tail), kept when it is not the first-use, deduplicated rebuild
    /// of the values (BCSV-006); `None` means the writer rebuilds it canonically.
    pub stored_pool: Option<Vec<u8>>,
    /// What follows the pool.
    pub tail: Tail,
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

    /// Copies a view into an owned table; `limits` bounds the cell count.
    pub fn from_view(view: &View<'_>, limits: &Limits) -> Result<Table> {
        let fields: Vec<Field> = view.fields().collect();
        let cells = (view.len() as u64).saturating_mul(fields.len().max(1) as u64);
        limits.check_elements(cells, 0).context("BCSV rows")?;
        // The owned copy costs a Row per row and a Value per cell, whatever the entry size.
        let per_row = (size_of::<Row>() + fields.len() * size_of::<Value>()) as u64;
        limits
            .check_alloc(view.len() as u64, per_row, 0)
            .context("BCSV rows")?;
        // Without rows the entry size is unchecked by the file's length: allocate nothing for it.
        let size = if view.is_empty() {
            0
        } else {
            view.entry_size()
        };
        // The coverage mask on the stack for ordinary entry sizes (no allocation per table).
        let mut small_cover = [0u8; 256];
        let heap_cover: Vec<u8>;
        let cover: &[u8] = match small_cover.get_mut(..size) {
            Some(c) => {
                coverage_into(&fields, view.endian(), c);
                c
            }
            None => {
                heap_cover = coverage(&fields, size, view.endian());
                &heap_cover
            }
        };
        // Only bytes some field does not fully own can hold residue bits.
        let full = cover.iter().all(|&c| c == 0xFF);
        let pool_bytes = view.pool().data();
        let strings = fields
            .iter()
            .filter(|f| f.kind == FieldType::STRING_OFFSET)
            .count();
        let mut pool = Canon::new(pool_bytes, view.len().saturating_mul(strings));
        let mut rows = Vec::with_capacity(view.len());
        // Field slots on the stack for ordinary field counts.
        let mut small_slots = [Slot::NONE; 64];
        let heap_slots: Vec<Slot>;
        let slots: &[Slot] = match small_slots.get_mut(..fields.len()) {
            Some(s) => {
                for (d, f) in s.iter_mut().zip(&fields) {
                    *d = Slot::new(f);
                }
                s
            }
            None => {
                heap_slots = fields.iter().map(Slot::new).collect();
                &heap_slots
            }
        };
        let endian = view.endian();
        for row in view.rows() {
            let mut values = Vec::with_capacity(fields.len());
            let bytes = row.bytes();
            for (f, slot) in fields.iter().zip(slots) {
                // Fast path straight from the row; `row.cell` only to report what went wrong.
                let inline = || bytes.get(slot.offset..slot.offset + 32)?.try_into().ok();
                let value = match (f.kind, slot.get(bytes, endian)) {
                    (FieldType::STRING, _) => inline().map(Value::InlineString),
                    (FieldType::LONG, Some(v)) => Some(Value::Long(v as i32)),
                    (FieldType::FLOAT, Some(v)) => Some(Value::Float(f32::from_bits(v))),
                    (FieldType::LONG_2, Some(v)) => Some(Value::Long2(v)),
                    (FieldType::SHORT, Some(v)) => Some(Value::Short(v as u16 as i16)),
                    (FieldType::CHAR, Some(v)) => Some(Value::Char(v as u8 as i8)),
                    (FieldType::STRING_OFFSET, Some(off)) => {
                        let rest = pool_bytes.get(off as usize..).unwrap_or_default();
                        nul_at(rest).map(|n| {
                            pool.see(rest.get(..n).unwrap_or_default(), off);
                            Value::StringOffset(Str::from_window(rest, n))
                        })
                    }
                    _ => None,
                };
                match value {
                    Some(v) => values.push(v),
                    None => {
                        return Err(row
                            .cell(f)
                            .err()
                            .unwrap_or_else(|| Error::message("unreadable cell")));
                    }
                }
            }
            let stray = !full
                && bytes
                    .iter()
                    .zip(cover)
                    .fold(0, |acc, (b, c)| acc | (b & !c))
                    != 0;
            let residue = if stray {
                bytes.iter().zip(cover).map(|(b, c)| b & !c).collect()
            } else {
                Vec::new()
            };
            rows.push(Row {
                values,
                residue,
                string_offsets: Vec::new(),
            });
        }
        let pool_end = pool.max_end.min(pool_bytes.len());
        let stored_pool = if !pool.noncanonical && pool.next == pool.max_end {
            None
        } else {
            // The rare non-canonical pool: a second pass keeps each row's stored offsets.
            for (row, stored) in rows.iter_mut().zip(view.rows()) {
                row.string_offsets = fields
                    .iter()
                    .zip(slots)
                    .filter(|(f, _)| f.kind == FieldType::STRING_OFFSET)
                    .filter_map(|(_, slot)| slot.get(stored.bytes(), endian))
                    .collect();
            }
            Some(pool_bytes.get(..pool_end).unwrap_or_default().to_vec())
        };
        let rest = pool_bytes.get(pool_end..).unwrap_or_default();
        let end = view.header().pool_offset() as usize + pool_end;
        let standard = rest.len() == gcio::padding_for(end, 32) && rest.iter().all(|&b| b == b'@');
        let header = view.header();
        let gap_start = header.field_table_end() as usize;
        Ok(Table {
            endian: view.endian(),
            encoding: view.encoding(),
            fields,
            entry_size: header.entry_size,
            rows,
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
        })
    }

    /// Index of the first field matching `key` (a name, `[XXXXXXXX]` or a hash).
    pub fn field_index(&self, key: impl Into<FieldKey>) -> Option<usize> {
        let key = key.into();
        self.fields.iter().position(|f| f.hash == key.0)
    }

    /// The value of `key` in row `row`.
    pub fn get(&self, row: usize, key: impl Into<FieldKey>) -> Option<&Value> {
        let i = self.field_index(key)?;
        self.rows.get(row)?.values.get(i)
    }

    /// Sets the value of `key` in row `row`; the value's type must match the field's.
    pub fn set(&mut self, row: usize, key: impl Into<FieldKey>, value: Value) -> Result<()> {
        let key = key.into();
        let i = self
            .field_index(key)
            .ok_or_else(|| Error::message(format!("no field {}", display_name(key.0))))?;
        let kind = self.fields.get(i).map(|f| f.kind);
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
        let slot = self
            .rows
            .get_mut(row)
            .and_then(|r| r.values.get_mut(i))
            .ok_or_else(|| Error::message(format!("no row {row}")))?;
        *slot = value;
        Ok(())
    }

    /// Appends a row of zero values (empty strings) and returns its index.
    pub fn push_default_row(&mut self) -> usize {
        let values = self
            .fields
            .iter()
            .map(|f| Value::zero(f.kind).unwrap_or(Value::Long(0)))
            .collect();
        self.rows.push(Row::new(values));
        self.rows.len() - 1
    }
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
        if f.kind == FieldType::STRING {
            for c in cover.iter_mut().skip(off).take(32) {
                *c = 0xFF;
            }
            continue;
        }
        // The effective mask's bytes in stored order (nothing for unknown types).
        let m = f.effective_mask();
        let size = f.size().min(4);
        for (k, c) in cover.iter_mut().skip(off).take(size).enumerate() {
            let shift = match endian {
                Endian::Big => 8 * (size - 1 - k),
                Endian::Little => 8 * k,
            };
            *c |= (m >> shift) as u8;
        }
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
