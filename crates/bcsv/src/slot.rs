//! A field's place in a row, computed once per table: where its word is, which bits it owns, and
//! how to read (`(raw & mask) >> shift`) and write (read-modify-write) it.

use gcio::Endian;

use crate::types::Field;

/// Where and how one field's value goes into a row, computed once per table.
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    /// Byte offset in the row.
    pub(crate) offset: usize,
    size: usize,
    /// Bits the value owns on write (BCSV-009: the rest of the word is kept).
    mask: u32,
    /// The field's mask as stored, applied on read (BCSV-013).
    read_mask: u32,
    shift: u32,
    /// The mask covers the whole width: no need to read the old word.
    whole: bool,
    /// The bits a value may carry ([`Field::value_mask`]): the writer refuses others.
    pub(crate) limit: u32,
}

impl Slot {
    pub(crate) fn new(f: &Field) -> Slot {
        let mask = f.effective_mask();
        Slot {
            offset: usize::from(f.offset),
            size: f.size(),
            mask,
            read_mask: f.mask,
            shift: u32::from(f.shift),
            whole: mask == f.width_mask(),
            limit: f.value_mask(),
        }
    }

    /// The decoded value `(raw & mask) >> shift` of the field's word; `None` past the row.
    #[inline]
    pub(crate) fn get(&self, cells: &[u8], endian: Endian) -> Option<u32> {
        let big = endian == Endian::Big;
        let raw = match *cells.get(self.offset..self.offset + self.size)? {
            [a, b, c, d] => {
                if big {
                    u32::from_be_bytes([a, b, c, d])
                } else {
                    u32::from_le_bytes([a, b, c, d])
                }
            }
            [a, b] => u32::from(if big {
                u16::from_be_bytes([a, b])
            } else {
                u16::from_le_bytes([a, b])
            }),
            [a] => u32::from(a),
            _ => return None,
        };
        Some((raw & self.read_mask).checked_shr(self.shift).unwrap_or(0))
    }

    /// Read-modify-write of the field's word: `(word & !mask) | ((value << shift) & mask)`, for a
    /// byte order known at compile time (big-endian when `BIG`).
    #[inline]
    pub(crate) fn put_in<const BIG: bool>(&self, cells: &mut [u8], value: u32) {
        let v = value.checked_shl(self.shift).unwrap_or(0) & self.mask;
        let big = BIG;
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
