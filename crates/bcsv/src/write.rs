//! Writing a [`Table`]: header and field table from the model, each row read-modify-write over its
//! residue, the string pool in first-use order with dedup (or the stored pool), then the tail.

use std::collections::HashMap;

use gcio::{Endian, Error, Result};

use crate::hash::display_name;
use crate::model::{Table, Tail, Value};
use crate::types::FieldType;
use crate::view::{FIELD_SIZE, HEADER_SIZE};

/// Appends a u32 in `endian`.
fn put_u32(out: &mut Vec<u8>, v: u32, endian: Endian) {
    out.extend_from_slice(&match endian {
        Endian::Big => v.to_be_bytes(),
        Endian::Little => v.to_le_bytes(),
    });
}

/// The string pool being written: stored bytes first (if any), then new strings deduplicated.
struct PoolWriter<'a> {
    bytes: Vec<u8>,
    stored_len: usize,
    added: HashMap<&'a [u8], u32>,
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
        if let Some(&o) = self.added.get(s) {
            return o;
        }
        let o = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s);
        self.bytes.push(0);
        self.added.insert(s, o);
        o
    }
}

impl Table {
    /// Writes the table. Fails when the model is inconsistent (a value of the wrong type, a field
    /// past the entry size, a wrong number of values, sizes past 32 bits).
    pub fn write(&self) -> Result<Vec<u8>> {
        let endian = self.endian;
        let entry = self.entry_size as usize;
        for (i, f) in self.fields.iter().enumerate() {
            let size = f.kind.size().ok_or_else(|| {
                Error::invalid(0, format!("field {i} has type {} (BCSV-004)", f.kind.0))
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
            u32::try_from(n).map_err(|_| Error::invalid(0, format!("{what} {n} exceeds 32 bits")))
        };
        let data_offset = HEADER_SIZE + self.fields.len() * FIELD_SIZE + self.header_gap.len();
        let rows_len = self.rows.len().saturating_mul(entry);
        let mut out = Vec::with_capacity(data_offset + rows_len + rows_len / 2 + 32);
        put_u32(&mut out, count(self.rows.len(), "row count")?, endian);
        put_u32(&mut out, count(self.fields.len(), "field count")?, endian);
        put_u32(&mut out, count(data_offset, "data offset")?, endian);
        put_u32(&mut out, self.entry_size, endian);
        for f in &self.fields {
            put_u32(&mut out, f.hash, endian);
            put_u32(&mut out, f.mask, endian);
            out.extend_from_slice(&match endian {
                Endian::Big => f.offset.to_be_bytes(),
                Endian::Little => f.offset.to_le_bytes(),
            });
            out.push(f.shift);
            out.push(f.kind.0);
        }
        out.extend_from_slice(&self.header_gap);

        let plans: Vec<Plan> = self.fields.iter().map(Plan::new).collect();
        let stored = self.stored_pool.as_deref().unwrap_or_default();
        let mut pool = PoolWriter {
            bytes: stored.to_vec(),
            stored_len: stored.len(),
            added: HashMap::new(),
        };
        for (r, row) in self.rows.iter().enumerate() {
            if row.values.len() != self.fields.len() {
                return Err(Error::invalid(
                    0,
                    format!(
                        "row {r} has {} values for {} fields",
                        row.values.len(),
                        self.fields.len()
                    ),
                ));
            }
            let start = out.len();
            if row.residue.len() == entry {
                out.extend_from_slice(&row.residue);
            } else {
                out.resize(start + entry, 0);
            }
            let cells = out.get_mut(start..).unwrap_or_default();
            let mut k = 0;
            for ((f, plan), v) in self.fields.iter().zip(&plans).zip(&row.values) {
                let bits = match v {
                    Value::StringOffset(s) => {
                        let hint = row.string_offsets.get(k).copied();
                        k += 1;
                        pool.offset(s, hint)
                    }
                    Value::InlineString(b) if f.kind == FieldType::STRING => {
                        if let Some(dst) = cells.get_mut(plan.offset..plan.offset + 32) {
                            dst.copy_from_slice(b);
                        }
                        continue;
                    }
                    v => v.bits().unwrap_or(0),
                };
                if v.kind() != f.kind {
                    return Err(Error::invalid(
                        0,
                        format!(
                            "row {r} {}: {} value in a {} field",
                            display_name(f.hash),
                            v.kind(),
                            f.kind
                        ),
                    ));
                }
                plan.put(cells, bits, endian);
            }
        }
        out.extend_from_slice(&pool.bytes);
        match &self.tail {
            Tail::Standard => {
                let pad = gcio::padding_for(out.len(), 32);
                out.resize(out.len() + pad, b'@');
            }
            Tail::Raw(bytes) => out.extend_from_slice(bytes),
        }
        Ok(out)
    }
}

/// Where and how one field's value goes into a row, computed once per table.
struct Plan {
    offset: usize,
    size: usize,
    /// Bits the value owns (BCSV-009: the rest of the word is kept).
    mask: u32,
    shift: u32,
    /// The mask covers the whole width: no need to read the old word.
    whole: bool,
}

impl Plan {
    fn new(f: &crate::types::Field) -> Plan {
        let mask = f.effective_mask();
        Plan {
            offset: usize::from(f.offset),
            size: f.size(),
            mask,
            shift: u32::from(f.shift),
            whole: mask == f.width_mask(),
        }
    }

    /// Read-modify-write of the field's word: `(word & !mask) | ((value << shift) & mask)`.
    #[inline]
    fn put(&self, cells: &mut [u8], value: u32, endian: Endian) {
        let v = value.checked_shl(self.shift).unwrap_or(0) & self.mask;
        let big = endian == Endian::Big;
        let Some(dst) = cells.get_mut(self.offset..self.offset + self.size) else {
            return;
        };
        match dst {
            [a, b, c, d] => {
                let old = if big {
                    u32::from_be_bytes([*a, *b, *c, *d])
                } else {
                    u32::from_le_bytes([*a, *b, *c, *d])
                };
                let new = if self.whole {
                    v
                } else {
                    (old & !self.mask) | v
                };
                [*a, *b, *c, *d] = if big {
                    new.to_be_bytes()
                } else {
                    new.to_le_bytes()
                };
            }
            [a, b] => {
                let old = u32::from(if big {
                    u16::from_be_bytes([*a, *b])
                } else {
                    u16::from_le_bytes([*a, *b])
                });
                let new = if self.whole {
                    v
                } else {
                    (old & !self.mask) | v
                } as u16;
                [*a, *b] = if big {
                    new.to_be_bytes()
                } else {
                    new.to_le_bytes()
                };
            }
            [a] => {
                let new = if self.whole {
                    v
                } else {
                    (u32::from(*a) & !self.mask) | v
                };
                *a = new as u8;
            }
            _ => {}
        }
    }
}
