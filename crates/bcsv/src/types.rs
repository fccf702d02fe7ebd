//! Field types and field descriptors: what a column is, where it sits in a row and how its bits decode.

use std::fmt;

/// A JMap field type id (open newtype: unknown ids survive until the parser refuses them, BCSV-004).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldType(pub u8);

impl FieldType {
    /// Type 0: 32-bit integer (read signed by the game's `s32` getter).
    pub const LONG: FieldType = FieldType(0);
    /// Type 1: 32-byte inline string, NUL-padded (legacy; raw bytes are kept, C-14).
    pub const STRING: FieldType = FieldType(1);
    /// Type 2: 32-bit float.
    pub const FLOAT: FieldType = FieldType(2);
    /// Type 3: second 32-bit integer type (pyjmap calls it UNSIGNED_LONG).
    pub const LONG_2: FieldType = FieldType(3);
    /// Type 4: 16-bit integer.
    pub const SHORT: FieldType = FieldType(4);
    /// Type 5: 8-bit integer.
    pub const CHAR: FieldType = FieldType(5);
    /// Type 6: u32 offset into the string pool.
    pub const STRING_OFFSET: FieldType = FieldType(6);

    /// Every type the game defines, in id order.
    pub const ALL: [FieldType; 7] = [
        Self::LONG,
        Self::STRING,
        Self::FLOAT,
        Self::LONG_2,
        Self::SHORT,
        Self::CHAR,
        Self::STRING_OFFSET,
    ];

    /// True for ids 0..=6 (7 is the game's "NULL" / not found).
    pub fn is_known(self) -> bool {
        self.0 <= 6
    }

    /// Bytes the field occupies in a row; `None` for unknown ids.
    pub fn size(self) -> Option<usize> {
        Some(match self.0 {
            0 | 2 | 3 | 6 => 4,
            1 => 32,
            4 => 2,
            5 => 1,
            _ => return None,
        })
    }

    /// The mask writers use for a new field of this type (0 for the inline string, which has no mask).
    pub fn default_mask(self) -> u32 {
        match self.0 {
            1 => 0,
            4 => 0xFFFF,
            5 => 0xFF,
            _ => u32::MAX,
        }
    }

    /// Position in the auto layout of new tables (BCSV-011): STRING, FLOAT, LONG, LONG_2, SHORT,
    /// CHAR, STRING_OFFSET.
    pub fn layout_order(self) -> u8 {
        match self.0 {
            1 => 0,
            2 => 1,
            0 => 2,
            3 => 3,
            4 => 4,
            5 => 5,
            6 => 6,
            n => n,
        }
    }

    /// The name used in CSV/JSON headers (pyjmap's names; unknown ids print as `TYPE<n>`).
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "LONG",
            1 => "STRING",
            2 => "FLOAT",
            3 => "LONG_2",
            4 => "SHORT",
            5 => "CHAR",
            6 => "STRING_OFFSET",
            _ => "NULL",
        }
    }

    /// Parses a header type name: this crate's names (`LONG`, `STRING`, `STRING_OFFSET`, ...), then
    /// the names of Nintendo's leftover CSV headers as pyjmap reads and writes them (`Int`,
    /// `UnsignedInt`, `Float`, `Short`, `Char`, `EmbeddedString`, and `String`, which there means the
    /// pool string, type 6), then a few case-insensitive aliases (`UNSIGNED_LONG`, `STRING_PTR`, ...).
    pub fn from_name(s: &str) -> Option<FieldType> {
        if let Some(t) = Self::ALL.into_iter().find(|t| t.name() == s) {
            return Some(t);
        }
        Some(match s {
            "Int" => return Some(Self::LONG),
            "UnsignedInt" => return Some(Self::LONG_2),
            "Float" => return Some(Self::FLOAT),
            "Short" => return Some(Self::SHORT),
            "Char" => return Some(Self::CHAR),
            "EmbeddedString" => return Some(Self::STRING),
            "String" => return Some(Self::STRING_OFFSET),
            _ => match s.to_ascii_uppercase().replace('_', "").as_str() {
                "LONG" | "INT" => Self::LONG,
                "FLOAT" | "F32" => Self::FLOAT,
                "LONG2" | "UNSIGNEDLONG" | "UNSIGNEDINT" => Self::LONG_2,
                "SHORT" => Self::SHORT,
                "CHAR" | "BYTE" => Self::CHAR,
                "EMBEDDEDSTRING" => Self::STRING,
                "STRINGOFFSET" | "STRINGPTR" => Self::STRING_OFFSET,
                _ => return None,
            },
        })
    }
}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_known() {
            f.write_str(self.name())
        } else {
            write!(f, "TYPE{}", self.0)
        }
    }
}

/// One column: its name hash, where it sits in a row and how its bits decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    /// JGadget hash of the name (old hash in Sunshine / Luigi's Mansion tables).
    pub hash: u32,
    /// Bits of the raw value that belong to this field.
    pub mask: u32,
    /// Byte offset inside a row.
    pub offset: u16,
    /// Right shift applied after masking.
    pub shift: u8,
    /// Field type.
    pub kind: FieldType,
}

impl Field {
    /// A field with the type's default mask and shift 0, at `offset`.
    pub fn new(hash: u32, kind: FieldType, offset: u16) -> Self {
        Field {
            hash,
            mask: kind.default_mask(),
            offset,
            shift: 0,
            kind,
        }
    }

    /// Bytes occupied in a row (0 for unknown types).
    pub fn size(&self) -> usize {
        self.kind.size().unwrap_or(0)
    }

    /// All-ones for the field's own width (0xFF, 0xFFFF or 0xFFFFFFFF).
    pub fn width_mask(&self) -> u32 {
        match self.size() {
            1 => 0xFF,
            2 => 0xFFFF,
            _ => u32::MAX,
        }
    }

    /// True when the mask and shift leave the value untouched, i.e. the game's signed getter
    /// accepts the field (BCSV-012).
    pub fn is_plain(&self) -> bool {
        self.shift == 0 && self.mask & self.width_mask() == self.width_mask()
    }

    /// The bits a decoded value can carry back on write: the mask within the field's width, minus
    /// the bits below `shift` that decoding drops. Bits outside it are kept from the stored row.
    pub fn effective_mask(&self) -> u32 {
        if self.kind == FieldType::STRING {
            return 0;
        }
        let keep = u32::MAX.checked_shl(u32::from(self.shift)).unwrap_or(0);
        self.mask & self.width_mask() & keep
    }

    /// The bits a value of this field can hold: [`Field::effective_mask`] shifted down, i.e.
    /// `0..=mask >> shift` for a contiguous mask. The game reads packed fields unsigned
    /// (`(raw & mask) >> shift`, BCSV-013) and refuses signed reads of them (BCSV-012), so a value
    /// with a bit outside this (a negative one included) cannot be stored; plain fields hold every
    /// value of their width.
    pub fn value_mask(&self) -> u32 {
        self.effective_mask()
            .checked_shr(u32::from(self.shift))
            .unwrap_or(0)
    }

    /// The values [`Field::value_mask`] allows, for messages: `0..=127 (7-bit field, mask
    /// 0x00007F00, shift 8)`, or the allowed bits when the mask has holes.
    pub fn range_text(&self) -> String {
        let m = self.value_mask();
        let values = if m & m.wrapping_add(1) == 0 {
            format!("0..={m} ({}-bit field", m.count_ones())
        } else {
            format!("values within the bits {m:#X} (field")
        };
        format!("{values}, mask {:#010X}, shift {})", self.mask, self.shift)
    }

    /// Decodes a raw value of the field's width: `(raw & mask) >> shift` (BCSV-013, C-13).
    #[inline]
    pub fn decode(&self, raw: u32) -> u32 {
        (raw & self.mask)
            .checked_shr(u32::from(self.shift))
            .unwrap_or(0)
    }

    /// Encodes `value` into `word` read-modify-write, keeping every bit outside the effective mask
    /// (BCSV-009).
    #[inline]
    pub fn encode(&self, word: u32, value: u32) -> u32 {
        let m = self.effective_mask();
        let v = value.checked_shl(u32::from(self.shift)).unwrap_or(0);
        (word & !m) | (v & m)
    }
}

/// Lays out fields for a new table (BCSV-011): offsets follow the type order, the list keeps its
/// order, the entry size is the sum rounded up to 4. Returns the entry size.
pub fn auto_layout(fields: &mut [Field]) -> u32 {
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_by_key(|&i| fields.get(i).map_or(0, |f| f.kind.layout_order()));
    let mut offset = 0usize;
    for i in order {
        if let Some(f) = fields.get_mut(i) {
            f.offset = u16::try_from(offset).unwrap_or(u16::MAX);
            offset += f.size();
        }
    }
    u32::try_from(offset.next_multiple_of(4)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_is_mask_then_shift() {
        // A non-contiguous mask separates Petari's (raw & mask) >> shift from noclip's
        // (raw >> shift) & mask (C-13): the test pins Petari's order.
        let f = Field {
            hash: 0,
            mask: 0x0000_0F00,
            offset: 0,
            shift: 4,
            kind: FieldType::LONG,
        };
        assert_eq!(f.decode(0x0000_0FF0), 0xF0);
        assert_ne!(f.decode(0x0000_0FF0), (0x0FF0u32 >> 4) & 0x0F00);
        assert_eq!(f.effective_mask(), 0x0F00);
        assert_eq!(f.encode(0xFFFF_F0FF, 0xA0), 0xFFFF_FAFF);
        let below = Field { mask: 0xFF, ..f };
        assert_eq!(
            below.effective_mask(),
            0xF0,
            "bits under the shift are not encodable"
        );
        let huge = Field { shift: 40, ..f };
        assert_eq!((huge.decode(u32::MAX), huge.effective_mask()), (0, 0));
    }

    #[test]
    fn type_table() {
        let sizes: Vec<_> = FieldType::ALL.iter().map(|t| t.size()).collect();
        assert_eq!(sizes, [4, 32, 4, 4, 2, 1, 4].map(Some));
        let orders: Vec<_> = FieldType::ALL.iter().map(|t| t.layout_order()).collect();
        assert_eq!(orders, [2, 0, 1, 3, 4, 5, 6]);
        assert_eq!(FieldType(7).size(), None);
        for t in FieldType::ALL {
            assert_eq!(FieldType::from_name(t.name()), Some(t));
        }
        assert_eq!(
            FieldType::from_name("UNSIGNED_LONG"),
            Some(FieldType::LONG_2)
        );
        assert_eq!(FieldType(9).to_string(), "TYPE9");
    }

    #[test]
    fn auto_layout_matches_pyjmap() {
        // Field-table order of the corpus file all_types.bcsv; offsets follow the type order and
        // no padding goes in between (name lands at 47, entry size 52).
        let kinds = [6, 0, 2, 1, 3, 4, 5].map(FieldType);
        let mut fields: Vec<Field> = kinds.iter().map(|&k| Field::new(0, k, 0)).collect();
        let size = auto_layout(&mut fields);
        let offsets: Vec<u16> = fields.iter().map(|f| f.offset).collect();
        assert_eq!(offsets, [47, 36, 32, 0, 40, 44, 46]);
        assert_eq!(size, 52);
    }
}
