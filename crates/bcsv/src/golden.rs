//! Golden table: one list of (field, value, row bytes) that drives the read tests, the write tests
//! and the bench, for every type, packed fields and both byte orders.

use gcio::Endian;

use crate::model::{Table, Tail, Value};
use crate::types::{Field, FieldType};

/// One golden case: a single-field table whose one row holds `value` as `row` bytes.
#[derive(Debug, Clone)]
pub struct Golden {
    /// What the case shows.
    pub what: &'static str,
    /// Byte order.
    pub endian: Endian,
    /// The field (hash of `l_id`, offset 0).
    pub field: Field,
    /// The decoded value.
    pub value: Value,
    /// The row as stored (its length is the entry size).
    pub row: &'static [u8],
    /// The string pool after the rows (empty unless the value is a pool string).
    pub pool: &'static [u8],
}

fn field(kind: FieldType, mask: u32, shift: u8) -> Field {
    Field {
        hash: 0x0032_89CE,
        mask,
        offset: 0,
        shift,
        kind,
    }
}

/// Every golden case.
pub fn cases() -> Vec<Golden> {
    use Endian::{Big, Little};
    use FieldType as T;
    let g = |what, endian, field, value, row, pool| Golden {
        what,
        endian,
        field,
        value,
        row,
        pool,
    };
    let mut abc = [0u8; 32];
    abc[..3].copy_from_slice(b"abc");
    vec![
        g(
            "LONG -1",
            Big,
            field(T::LONG, !0, 0),
            Value::Long(-1),
            &[0xFF; 4],
            &[],
        ),
        g(
            "LONG little-endian",
            Little,
            field(T::LONG, !0, 0),
            Value::Long(0x1234_5678),
            &[0x78, 0x56, 0x34, 0x12],
            &[],
        ),
        g(
            "FLOAT 1.0",
            Big,
            field(T::FLOAT, !0, 0),
            Value::Float(1.0),
            &[0x3F, 0x80, 0, 0],
            &[],
        ),
        g(
            "FLOAT -0.0",
            Big,
            field(T::FLOAT, !0, 0),
            Value::Float(-0.0),
            &[0x80, 0, 0, 0],
            &[],
        ),
        g(
            "LONG_2",
            Big,
            field(T::LONG_2, !0, 0),
            Value::Long2(0xDEAD_BEEF),
            &[0xDE, 0xAD, 0xBE, 0xEF],
            &[],
        ),
        g(
            "SHORT -2",
            Big,
            field(T::SHORT, 0xFFFF, 0),
            Value::Short(-2),
            &[0xFF, 0xFE, 0, 0],
            &[],
        ),
        g(
            "SHORT little-endian",
            Little,
            field(T::SHORT, 0xFFFF, 0),
            Value::Short(0x0102),
            &[0x02, 0x01, 0, 0],
            &[],
        ),
        g(
            "CHAR -128",
            Big,
            field(T::CHAR, 0xFF, 0),
            Value::Char(-128),
            &[0x80, 0, 0, 0],
            &[],
        ),
        g(
            "LONG packed 0x7F00 >> 8",
            Big,
            field(T::LONG, 0x7F00, 8),
            Value::Long(0x42),
            &[0, 0, 0x42, 0],
            &[],
        ),
        g(
            "SHORT packed 0xF0 >> 4",
            Big,
            field(T::SHORT, 0xF0, 4),
            Value::Short(0xA),
            &[0, 0xA0, 0, 0],
            &[],
        ),
        g(
            "SHORT packed little-endian",
            Little,
            field(T::SHORT, 0xF0, 4),
            Value::Short(0xA),
            &[0xA0, 0, 0, 0],
            &[],
        ),
        g(
            "CHAR packed 0x80 >> 7",
            Big,
            field(T::CHAR, 0x80, 7),
            Value::Char(1),
            &[0x80, 0, 0, 0],
            &[],
        ),
        g(
            "STRING inline",
            Big,
            field(T::STRING, 0, 0),
            Value::InlineString(abc),
            {
                const ROW: [u8; 32] = {
                    let mut r = [0u8; 32];
                    r[0] = b'a';
                    r[1] = b'b';
                    r[2] = b'c';
                    r
                };
                &ROW
            },
            &[],
        ),
        g(
            "STRING_OFFSET",
            Big,
            field(T::STRING_OFFSET, !0, 0),
            Value::StringOffset(b"ab".into()),
            &[0; 4],
            b"ab\0",
        ),
        g(
            "STRING_OFFSET Shift-JIS",
            Big,
            field(T::STRING_OFFSET, !0, 0),
            Value::StringOffset((&[0x83, 0x7D, 0x83, 0x8A, 0x83, 0x49]).into()),
            &[0; 4],
            &[0x83, 0x7D, 0x83, 0x8A, 0x83, 0x49, 0],
        ),
    ]
}

impl Golden {
    /// The case as a one-row table.
    pub fn table(&self) -> Table {
        let mut t = Table::default();
        t.endian = self.endian;
        t.encoding = crate::Encoding::for_endian(self.endian);
        t.fields = vec![self.field];
        t.entry_size = u32::try_from(self.row.len()).unwrap_or(0);
        t.tail = Tail::Standard;
        // One value for the one field: cannot fail.
        let _ = t.push_row([self.value.clone()]);
        t
    }

    /// The whole file the case writes: header, field record, row, pool, `@` padding.
    pub fn file(&self) -> Vec<u8> {
        let w = |v: u32| self.endian.put_u32(v);
        let f = &self.field;
        let mut out = Vec::new();
        for v in [
            1,
            1,
            0x1C,
            u32::try_from(self.row.len()).unwrap_or(0),
            f.hash,
            f.mask,
        ] {
            out.extend_from_slice(&w(v));
        }
        out.extend_from_slice(&match self.endian {
            Endian::Big => f.offset.to_be_bytes(),
            Endian::Little => f.offset.to_le_bytes(),
        });
        out.extend_from_slice(&[f.shift, f.kind.0]);
        out.extend_from_slice(self.row);
        out.extend_from_slice(self.pool);
        out.resize(out.len().next_multiple_of(32), b'@');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_write() {
        for c in cases() {
            assert_eq!(c.table().write().unwrap(), c.file(), "{}", c.what);
        }
    }

    #[test]
    fn golden_read() {
        for c in cases() {
            let file = c.file();
            let t = Table::parse(&file).unwrap();
            assert_eq!(t.endian, c.endian, "{}", c.what);
            assert_eq!(t.fields, vec![c.field], "{}", c.what);
            assert!(t.row(0).unwrap()[0].same(&c.value), "{}", c.what);
            let view = crate::parse(&file).unwrap();
            let row = view.row(0).unwrap();
            let cell = row.cell(&c.field).unwrap();
            let back = Value::from(cell);
            assert!(back.same(&c.value), "{}", c.what);
        }
    }
}
