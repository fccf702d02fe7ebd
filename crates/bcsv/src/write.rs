//! Writing a [`Table`]: header and field table from the model, each row read-modify-write over its
//! residue, the string pool in first-use order with dedup (or the stored pool), then the tail.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use gcio::{Endian, Error, Limits, Result};

use crate::fasthash::{FastState, Key};
use crate::model::{Table, Tail, Value, out_of_range};
use crate::names::display_name;
use crate::slot::Slot;
use crate::types::{Field, FieldType};
use crate::view::{FIELD_SIZE, HEADER_SIZE};

/// Appends a u32 in `endian`.
fn put_u32(out: &mut Vec<u8>, v: u32, endian: Endian) {
    out.extend_from_slice(&endian.put_u32(v));
}

/// The string pool being written: stored bytes first (if any), then new strings deduplicated.
struct PoolWriter<'a> {
    bytes: Vec<u8>,
    stored_len: usize,
    added: HashMap<Key<'a>, u32, FastState>,
}

impl<'a> PoolWriter<'a> {
    fn offset(&mut self, s: &'a [u8], hint: Option<u32>) -> u32 {
        if let Some(h) = hint {
            let at = h as usize;
            let fits = self.bytes.get(at..self.stored_len).is_some_and(|rest| {
                rest.get(..s.len()) == Some(s) && rest.get(s.len()) == Some(&0)
            });
            if fits {
                return h;
            }
        }
        let o = self.bytes.len() as u32;
        match self.added.entry(Key(s)) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                e.insert(o);
                self.bytes.extend_from_slice(s);
                self.bytes.push(0);
                o
            }
        }
    }
}

/// A value (or, for a pool string, its offset `bits`) outside its field's range.
#[cold]
#[inline(never)]
fn does_not_fit(r: usize, f: &Field, v: &Value, bits: u32) -> Error {
    let m = match v {
        Value::StringOffset(_) => out_of_range(&format!("string pool offset {bits}"), f),
        v => v.check_fits(f).err().unwrap_or_default(),
    };
    Error::invalid(0, format!("row {r}, column {}: {m}", display_name(f.hash)))
}

/// A value whose type is not its field's.
#[cold]
#[inline(never)]
fn wrong_type(r: usize, f: &Field, v: &Value) -> Error {
    Error::invalid(
        0,
        format!(
            "row {r} {}: {} value in a {} field",
            display_name(f.hash),
            v.kind(),
            f.kind
        ),
    )
}

impl Table {
    /// Writes the table. Fails when the model is inconsistent (a value of the wrong type, a field
    /// past the entry size, a wrong number of values, sizes past 32 bits). The row block is
    /// bounded by the default [`Limits`].
    pub fn write(&self) -> Result<Vec<u8>> {
        self.write_with(&Limits::default())
    }

    /// [`Table::write`] with the caller's limits bounding the row block (its size comes from
    /// declared numbers: a JSON/CSV `entry_size` times the rows).
    pub fn write_with(&self, limits: &Limits) -> Result<Vec<u8>> {
        // A parsed table whose rows are untouched takes its string offsets as parsed; should
        // they not fit the rows (never expected), the pool is rebuilt by lookup.
        if self.stored_pool.is_none()
            && let Some(offsets) = self.pristine_offsets()
            && let Some(out) = self.write_laid_out(Some(offsets), limits)?
        {
            return Ok(out);
        }
        self.write_laid_out(None, limits)
            .and_then(|out| out.ok_or_else(|| Error::message("string pool")))
    }

    /// [`Table::write`], the string pool rebuilt by lookup or (`pristine`) from each string
    /// cell's parsed offset; `None` when those offsets do not fit the rows.
    fn write_laid_out(&self, pristine: Option<&[u32]>, limits: &Limits) -> Result<Option<Vec<u8>>> {
        let endian = self.endian;
        let entry = self.entry_size as usize;
        for (i, f) in self.fields.iter().enumerate() {
            let size = f.kind.size().ok_or_else(|| {
                Error::message(format!("field {i} has type {} (BCSV-004)", f.kind.0))
            })?;
            if usize::from(f.offset) + size > entry {
                return Err(Error::invalid(
                    0,
                    format!(
                        "field {} at {} + {size} is past the entry size {entry} (BCSV-003)",
                        display_name(f.hash),
                        f.offset
                    ),
                ));
            }
        }
        let count = |n: usize, what: &str| {
            u32::try_from(n).map_err(|_| Error::message(format!("{what} {n} exceeds 32 bits")))
        };
        let data_offset = HEADER_SIZE + self.fields.len() * FIELD_SIZE + self.header_gap.len();
        // The row block is sized by declared numbers (a JSON/CSV `entry_size` times the rows), so
        // it is bounded like any other allocation sized by input; the pool grows as needed.
        let rows_len = limits.check_alloc(self.len() as u64, u64::from(self.entry_size), 0)?;
        let mut out = Vec::with_capacity(data_offset + rows_len + 32);
        put_u32(&mut out, count(self.len(), "row count")?, endian);
        put_u32(&mut out, count(self.fields.len(), "field count")?, endian);
        put_u32(&mut out, count(data_offset, "data offset")?, endian);
        put_u32(&mut out, self.entry_size, endian);
        for f in &self.fields {
            put_u32(&mut out, f.hash, endian);
            put_u32(&mut out, f.mask, endian);
            out.extend_from_slice(&endian.put_u16(f.offset));
            out.push(f.shift);
            out.push(f.kind.0);
        }
        out.extend_from_slice(&self.header_gap);

        let plans: Vec<Slot> = self.fields.iter().map(Slot::new).collect();
        // A string offset that fits its field (checked per cell) reads back as written unless
        // another field (possible in a hand-edited layout) overlaps it: only then is each row
        // re-read.
        let recheck = self.fields.iter().enumerate().any(|(i, f)| {
            f.kind == FieldType::STRING_OFFSET
                && self.fields.iter().enumerate().any(|(j, g)| {
                    let (a, b) = (usize::from(f.offset), usize::from(g.offset));
                    j != i && a < b + g.size() && b < a + f.size()
                })
        });
        let stored = self.stored_pool.as_deref().unwrap_or_default();
        // Sized once for most tables (distinct strings are bounded by the string cells; a
        // capped guess keeps the set and the pool off the allocator's slow paths).
        let string_fields = self
            .fields
            .iter()
            .filter(|f| f.kind == FieldType::STRING_OFFSET)
            .count();
        let cells = self.len().saturating_mul(string_fields);
        let mut bytes = Vec::with_capacity(stored.len() + cells.min(8192) * 16);
        bytes.extend_from_slice(stored);
        let mut pool = PoolWriter {
            bytes,
            stored_len: stored.len(),
            // No lookups with the parsed offsets.
            added: HashMap::with_capacity_and_hasher(
                if pristine.is_some() {
                    0
                } else {
                    cells.min(8192)
                },
                FastState::default(),
            ),
        };
        let mut offsets = Vec::new();
        let rows_start = out.len();
        out.resize(rows_start + rows_len, 0);
        let mut rows_out = out.get_mut(rows_start..).unwrap_or_default();
        if self.width() != self.fields.len() && !self.is_empty() {
            return Err(Error::invalid(
                0,
                format!(
                    "rows have {} values for {} fields",
                    self.width(),
                    self.fields.len()
                ),
            ));
        }
        let plain = self.plain_rows();
        let mut pristine = pristine.map(<[u32]>::iter);
        for (r, row) in self.rows().enumerate() {
            let (cells, rest) = rows_out.split_at_mut(entry.min(rows_out.len()));
            rows_out = rest;
            let row_offsets = if plain {
                &[]
            } else {
                let residue = self.residue(r);
                if residue.len() == entry {
                    cells.copy_from_slice(residue);
                }
                self.string_offsets(r)
            };
            let mut k = 0;
            offsets.clear();
            for ((f, plan), v) in self.fields.iter().zip(&plans).zip(row) {
                // One match on the field type and the value: a value of another type is an error.
                let bits = match (f.kind, v) {
                    (FieldType::STRING_OFFSET, Value::StringOffset(s)) => {
                        let o = match &mut pristine {
                            // The pool's end places the string, an earlier offset points at
                            // one placed before (the canonical layout the parse checked).
                            Some(it) => match it.next() {
                                Some(&o) if o as usize == pool.bytes.len() => {
                                    pool.bytes.extend_from_slice(s);
                                    pool.bytes.push(0);
                                    o
                                }
                                Some(&o) if (o as usize) < pool.bytes.len() => o,
                                _ => return Ok(None),
                            },
                            None => {
                                let hint = row_offsets.get(k).copied();
                                k += 1;
                                pool.offset(s, hint)
                            }
                        };
                        if recheck {
                            offsets.push((f, plan, o));
                        }
                        o
                    }
                    (FieldType::STRING, Value::InlineString(b)) => {
                        if let Some(dst) = cells.get_mut(plan.offset..plan.offset + 32) {
                            dst.copy_from_slice(b);
                        }
                        continue;
                    }
                    (FieldType::LONG, Value::Long(x)) => *x as u32,
                    (FieldType::FLOAT, Value::Float(x)) => x.to_bits(),
                    (FieldType::LONG_2, Value::Long2(x)) => *x,
                    (FieldType::SHORT, Value::Short(x)) => u32::from(*x as u16),
                    (FieldType::CHAR, Value::Char(x)) => u32::from(*x as u8),
                    _ => return Err(wrong_type(r, f, v)),
                };
                // A value with bits outside the field's would lose them (BCSV-013 reads back
                // `(word & mask) >> shift`): refused, not truncated.
                if bits & !plan.limit != 0 {
                    return Err(does_not_fit(r, f, v, bits));
                }
                match endian {
                    Endian::Big => plan.put_in::<true>(cells, bits),
                    Endian::Little => plan.put_in::<false>(cells, bits),
                }
            }
            // A field overlapping a string offset (possible in a hand-edited layout) must not
            // change it: the file would point into the wrong string or past the pool.
            for &(f, plan, o) in &offsets {
                if plan.get(cells, endian) != Some(o) {
                    return Err(Error::invalid(
                        0,
                        format!(
                            "row {r} {}: another field overwrites this string offset (BCSV-008)",
                            display_name(f.hash)
                        ),
                    ));
                }
            }
        }
        if pristine.is_some_and(|mut it| it.next().is_some()) {
            return Ok(None);
        }
        out.extend_from_slice(&pool.bytes);
        match &self.tail {
            Tail::Standard => {
                let pad = gcio::padding_for(out.len(), 32);
                out.resize(out.len() + pad, b'@');
            }
            Tail::Raw(bytes) => out.extend_from_slice(bytes),
        }
        Ok(Some(out))
    }
}
