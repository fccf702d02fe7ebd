//! Zero-copy, bounds-checked reads at absolute file offsets.

use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::{Error, ErrorKind, Result};

/// Byte order of a multi-byte value. GameCube/Wii files are big-endian; a few streams (HSD FObj
/// keys, the Switch port's BCSV, MSBF with a little-endian BOM) are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Endian {
    /// Most significant byte first (the GameCube/Wii default).
    #[default]
    Big,
    /// Least significant byte first.
    Little,
}

macro_rules! endian_codecs {
    ($($get:ident $put:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("Decodes a `", stringify!($t), "` stored in this byte order.")]
        pub fn $get(self, b: [u8; size_of::<$t>()]) -> $t {
            match self {
                Endian::Big => <$t>::from_be_bytes(b),
                Endian::Little => <$t>::from_le_bytes(b),
            }
        }
        #[doc = concat!("Encodes a `", stringify!($t), "` in this byte order.")]
        pub fn $put(self, v: $t) -> [u8; size_of::<$t>()] {
            match self {
                Endian::Big => v.to_be_bytes(),
                Endian::Little => v.to_le_bytes(),
            }
        }
    )*};
}

/// Conversions of stored fields for formats whose byte order is chosen per file (a BOM, a
/// platform), so crates do not each match on the order.
impl Endian {
    endian_codecs!(get_u16 put_u16: u16, get_u32 put_u32: u32, get_i16 put_i16: i16, get_i32 put_i32: i32, get_f32 put_f32: f32);
}

/// A view over a byte slice that knows where it sits in the file.
///
/// Offsets passed to its methods are relative to the view's start; errors report absolute file
/// offsets (`base + offset`) so messages point into the original file even for sub-views.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    data: &'a [u8],
    base: u64,
}

macro_rules! int_readers {
    ($($name:ident $le:ident $at:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("Reads a big-endian `", stringify!($t), "` at `offset`.")]
        pub fn $name(&self, offset: usize) -> Result<$t> {
            Ok(<$t>::from_be_bytes(self.array(offset)?))
        }
        #[doc = concat!("Reads a little-endian `", stringify!($t), "` at `offset`.")]
        pub fn $le(&self, offset: usize) -> Result<$t> {
            Ok(<$t>::from_le_bytes(self.array(offset)?))
        }
        #[doc = concat!("Reads a `", stringify!($t), "` at `offset` in the given byte order.")]
        pub fn $at(&self, offset: usize, endian: Endian) -> Result<$t> {
            match endian {
                Endian::Big => self.$name(offset),
                Endian::Little => self.$le(offset),
            }
        }
    )*};
}

impl<'a> Reader<'a> {
    /// A reader over a whole file (offset 0 is the file start).
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, base: 0 }
    }

    /// A reader over `data` that starts at absolute file offset `base`.
    pub fn with_base(data: &'a [u8], base: u64) -> Self {
        Reader { data, base }
    }

    /// The bytes this reader covers.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Absolute file offset of this reader's first byte.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Number of bytes covered.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True when the reader covers no bytes.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Absolute file offset of a relative `offset`.
    pub fn abs(&self, offset: usize) -> u64 {
        self.base.saturating_add(offset as u64)
    }

    /// An out-of-bounds error for a read of `len` bytes at `offset`.
    pub fn oob(&self, offset: usize, len: usize) -> Error {
        let at = self.abs(offset);
        Error::new(
            ErrorKind::OutOfBounds {
                offset: at,
                len: len as u64,
                size: self.abs(self.len()),
            },
            at,
        )
    }

    /// `len` bytes at `offset`.
    pub fn bytes(&self, offset: usize, len: usize) -> Result<&'a [u8]> {
        offset
            .checked_add(len)
            .and_then(|end| self.data.get(offset..end))
            .ok_or_else(|| self.oob(offset, len))
    }

    /// Every byte from `offset` to the end.
    pub fn rest(&self, offset: usize) -> Result<&'a [u8]> {
        self.data.get(offset..).ok_or_else(|| self.oob(offset, 0))
    }

    /// A sub-reader over `len` bytes at `offset`, keeping absolute offsets.
    pub fn sub(&self, offset: usize, len: usize) -> Result<Reader<'a>> {
        Ok(Reader {
            data: self.bytes(offset, len)?,
            base: self.abs(offset),
        })
    }

    /// A sub-reader from `offset` to the end.
    pub fn sub_from(&self, offset: usize) -> Result<Reader<'a>> {
        Ok(Reader {
            data: self.rest(offset)?,
            base: self.abs(offset),
        })
    }

    /// A fixed-size array at `offset`.
    pub fn array<const N: usize>(&self, offset: usize) -> Result<[u8; N]> {
        let b = self.bytes(offset, N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// One byte at `offset`.
    pub fn u8(&self, offset: usize) -> Result<u8> {
        self.data
            .get(offset)
            .copied()
            .ok_or_else(|| self.oob(offset, 1))
    }

    /// One signed byte at `offset`.
    pub fn i8(&self, offset: usize) -> Result<i8> {
        Ok(self.u8(offset)? as i8)
    }

    int_readers! {
        u16 u16_le u16_at: u16,
        i16 i16_le i16_at: i16,
        u32 u32_le u32_at: u32,
        i32 i32_le i32_at: i32,
        u64 u64_le u64_at: u64,
        f32 f32_le f32_at: f32,
    }

    /// A big-endian 24-bit unsigned value at `offset` (BMS jump targets, some counts).
    pub fn u24(&self, offset: usize) -> Result<u32> {
        let [a, b, c] = self.array(offset)?;
        Ok(u32::from_be_bytes([0, a, b, c]))
    }

    /// Borrows a zero-copy struct at `offset`.
    pub fn get<T: FromBytes + KnownLayout + Immutable + Unaligned>(
        &self,
        offset: usize,
    ) -> Result<&'a T> {
        let b = self.bytes(offset, size_of::<T>())?;
        T::ref_from_bytes(b).map_err(|_| self.oob(offset, size_of::<T>()))
    }

    /// Borrows a table of `count` zero-copy structs at `offset`. The byte size is overflow-checked
    /// and must lie inside the reader, so a huge count fails without allocating.
    pub fn table<T: FromBytes + Immutable + Unaligned>(
        &self,
        offset: usize,
        count: usize,
    ) -> Result<&'a [T]> {
        let len = count
            .checked_mul(size_of::<T>())
            .ok_or_else(|| Error::new(ErrorKind::Overflow("table size"), self.abs(offset)))?;
        let b = self.bytes(offset, len)?;
        <[T]>::ref_from_bytes_with_elems(b, count).map_err(|_| self.oob(offset, len))
    }

    /// Checks that the bytes at `offset` equal `magic`.
    pub fn expect_magic(&self, offset: usize, magic: &[u8]) -> Result<()> {
        let found = self.bytes(offset, magic.len())?;
        if found == magic {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::BadMagic {
                    expected: magic.to_vec(),
                    found: found.to_vec(),
                },
                self.abs(offset),
            ))
        }
    }

    /// A NUL-terminated string at `offset`, without its terminator. The terminator must lie inside
    /// the reader.
    pub fn cstr(&self, offset: usize) -> Result<&'a [u8]> {
        let rest = self.rest(offset)?;
        let end = rest.iter().position(|&b| b == 0).ok_or_else(|| {
            Error::new(
                ErrorKind::Unterminated {
                    offset: self.abs(offset),
                },
                self.abs(offset),
            )
        })?;
        Ok(rest.get(..end).unwrap_or_default())
    }

    /// A string of at most `max` bytes at `offset`, ended by a NUL or by the field's end
    /// (fixed-width name fields).
    pub fn fixed_str(&self, offset: usize, max: usize) -> Result<&'a [u8]> {
        let field = self.bytes(offset, max)?;
        let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
        Ok(field.get(..end).unwrap_or_default())
    }

    /// A string whose length is given by a big-endian `u8` (`width` 1), `u16` (2) or `u32` (4) prefix.
    /// Returns the string and the offset just past it.
    pub fn pstr(&self, offset: usize, width: usize) -> Result<(&'a [u8], usize)> {
        let len = match width {
            1 => usize::from(self.u8(offset)?),
            2 => usize::from(self.u16(offset)?),
            4 => self.u32(offset)? as usize,
            _ => {
                return Err(Error::invalid(
                    self.abs(offset),
                    format!("length prefix width {width}"),
                ));
            }
        };
        let start = offset
            .checked_add(width)
            .ok_or_else(|| self.oob(offset, width))?;
        let s = self.bytes(start, len)?;
        Ok((s, start + len))
    }

    /// A sequential cursor starting at `offset`.
    pub fn cursor(&self, offset: usize) -> Cursor<'a> {
        Cursor {
            reader: *self,
            pos: offset,
        }
    }
}

/// Sequential reads over a [`Reader`]; every read advances the position.
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'a> {
    reader: Reader<'a>,
    pos: usize,
}

macro_rules! cursor_ints {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("Reads a big-endian `", stringify!($t), "` and advances.")]
        pub fn $name(&mut self) -> Result<$t> {
            let v = self.reader.$name(self.pos)?;
            self.pos += size_of::<$t>();
            Ok(v)
        }
    )*};
}

impl<'a> Cursor<'a> {
    /// Relative position of the next read.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Absolute file offset of the next read.
    pub fn abs(&self) -> u64 {
        self.reader.abs(self.pos)
    }

    /// Moves to relative position `pos` (checked on the next read).
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Bytes left before the end of the reader.
    pub fn remaining(&self) -> usize {
        self.reader.len().saturating_sub(self.pos)
    }

    /// The reader this cursor walks.
    pub fn reader(&self) -> Reader<'a> {
        self.reader
    }

    /// Takes `len` bytes.
    pub fn bytes(&mut self, len: usize) -> Result<&'a [u8]> {
        let b = self.reader.bytes(self.pos, len)?;
        self.pos += len;
        Ok(b)
    }

    /// Skips `len` bytes (they must exist).
    pub fn skip(&mut self, len: usize) -> Result<()> {
        self.bytes(len).map(|_| ())
    }

    /// Skips to the next multiple of `align` (relative to the reader start).
    pub fn align(&mut self, align: usize) -> Result<()> {
        let pad = crate::padding_for(self.pos, align);
        self.skip(pad)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8> {
        let v = self.reader.u8(self.pos)?;
        self.pos += 1;
        Ok(v)
    }

    cursor_ints! { u16: u16, i16: i16, u32: u32, i32: i32, f32: f32 }

    /// A big-endian 24-bit value.
    pub fn u24(&mut self) -> Result<u32> {
        let v = self.reader.u24(self.pos)?;
        self.pos += 3;
        Ok(v)
    }

    /// Borrows a zero-copy struct and advances past it.
    pub fn get<T: FromBytes + KnownLayout + Immutable + Unaligned>(&mut self) -> Result<&'a T> {
        let v = self.reader.get::<T>(self.pos)?;
        self.pos += size_of::<T>();
        Ok(v)
    }

    /// Borrows a table of `count` structs and advances past it.
    pub fn table<T: FromBytes + Immutable + Unaligned>(&mut self, count: usize) -> Result<&'a [T]> {
        let v = self.reader.table::<T>(self.pos, count)?;
        self.pos += size_of_val(v);
        Ok(v)
    }

    /// A NUL-terminated string; advances past the terminator.
    pub fn cstr(&mut self) -> Result<&'a [u8]> {
        let s = self.reader.cstr(self.pos)?;
        self.pos += s.len() + 1;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerocopy::byteorder::big_endian::{U16, U32};

    #[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
    #[repr(C)]
    struct Pair {
        a: U16,
        b: U32,
    }
    const _: () = assert!(size_of::<Pair>() == 6);

    const DATA: &[u8] = &[0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, b'h', b'i', 0, 0xFF];

    #[test]
    fn integers_both_orders() {
        let r = Reader::new(DATA);
        assert_eq!(r.u8(0).unwrap(), 0x12);
        assert_eq!(r.i8(4).unwrap(), -102);
        assert_eq!(r.u16(0).unwrap(), 0x1234);
        assert_eq!(r.u16_le(0).unwrap(), 0x3412);
        assert_eq!(r.u16_at(0, Endian::Little).unwrap(), 0x3412);
        assert_eq!(r.i16(4).unwrap(), 0x9ABCu16 as i16);
        assert_eq!(r.u24(1).unwrap(), 0x345678);
        assert_eq!(r.u32(0).unwrap(), 0x12345678);
        assert_eq!(r.u32_at(0, Endian::Big).unwrap(), 0x12345678);
        assert_eq!(Endian::Little.get_u16([0x12, 0x34]), 0x3412);
        assert_eq!(Endian::Big.get_u32([0x12, 0x34, 0x56, 0x78]), 0x12345678);
        assert_eq!(Endian::Little.put_u32(0x12345678), [0x78, 0x56, 0x34, 0x12]);
        assert_eq!(Endian::Big.put_f32(1.0), [0x3F, 0x80, 0, 0]);
        assert_eq!(r.i32_le(0).unwrap(), 0x78563412);
        assert_eq!(r.f32(0).unwrap(), f32::from_bits(0x12345678));
        assert_eq!(r.u64(0).unwrap(), 0x123456789ABC6869);
    }

    #[test]
    fn out_of_bounds_reports_absolute_offset() {
        let r = Reader::with_base(DATA, 0x100);
        let e = r.u32(8).unwrap_err();
        assert_eq!(e.offset(), Some(0x108));
        assert!(matches!(
            e.kind(),
            ErrorKind::OutOfBounds {
                offset: 0x108,
                len: 4,
                size: 0x10A
            }
        ));
        assert!(r.bytes(usize::MAX, 2).is_err());
        assert!(r.rest(11).is_err());
        assert_eq!(r.rest(10).unwrap(), &[] as &[u8]);
        let sub = r.sub(2, 4).unwrap();
        assert_eq!(sub.base(), 0x102);
        assert_eq!(sub.u8(4).unwrap_err().offset(), Some(0x106));
        assert_eq!(r.sub_from(8).unwrap().len(), 2);
        assert!(r.sub(8, 3).is_err());
    }

    #[test]
    fn structs_and_tables() {
        let r = Reader::new(DATA);
        let p: &Pair = r.get(1).unwrap();
        assert_eq!(p.a.get(), 0x3456);
        assert_eq!(p.b.get(), 0x789ABC68);
        assert!(r.get::<Pair>(5).is_err());
        let t: &[U16] = r.table(0, 3).unwrap();
        assert_eq!(t[2].get(), 0x9ABC);
        assert!(r.table::<U16>(0, 6).is_err());
        assert!(matches!(
            r.table::<U32>(0, usize::MAX).unwrap_err().kind(),
            ErrorKind::Overflow(_)
        ));
    }

    #[test]
    fn magic_and_strings() {
        let r = Reader::new(DATA);
        assert!(r.expect_magic(6, b"hi").is_ok());
        assert!(matches!(
            r.expect_magic(6, b"ho").unwrap_err().kind(),
            ErrorKind::BadMagic { .. }
        ));
        assert!(r.expect_magic(9, b"ho").is_err());
        assert_eq!(r.cstr(6).unwrap(), b"hi");
        assert_eq!(r.cstr(8).unwrap(), b"");
        assert!(matches!(
            r.cstr(9).unwrap_err().kind(),
            ErrorKind::Unterminated { offset: 9 }
        ));
        assert!(r.cstr(20).is_err());
        assert_eq!(r.fixed_str(6, 4).unwrap(), b"hi");
        assert_eq!(r.fixed_str(6, 2).unwrap(), b"hi");
        assert!(r.fixed_str(8, 3).is_err());
        let p = Reader::new(&[2, b'o', b'k', 0, 1, b'z', 0]);
        assert_eq!(p.pstr(0, 1).unwrap(), (&b"ok"[..], 3));
        assert_eq!(p.pstr(3, 2).unwrap(), (&b"z"[..], 6));
        assert!(p.pstr(0, 4).is_err());
        assert!(p.pstr(0, 3).is_err());
    }

    #[test]
    fn cursor_walks() {
        let r = Reader::new(DATA);
        let mut c = r.cursor(0);
        assert_eq!(c.u16().unwrap(), 0x1234);
        assert_eq!(c.u24().unwrap(), 0x56789A);
        assert_eq!(c.u8().unwrap(), 0xBC);
        assert_eq!(c.cstr().unwrap(), b"hi");
        assert_eq!(c.pos(), 9);
        assert_eq!(c.remaining(), 1);
        assert!(c.u16().is_err());
        assert_eq!(c.pos(), 9, "a failed read does not advance");
        c.seek(1);
        c.align(4).unwrap();
        assert_eq!(c.pos(), 4);
        assert_eq!(c.bytes(2).unwrap(), &[0x9A, 0xBC]);
        c.seek(0);
        assert_eq!(c.get::<Pair>().unwrap().a.get(), 0x1234);
        assert_eq!(c.table::<U16>(1).unwrap()[0].get(), 0x6869);
        assert_eq!(c.abs(), 8);
        c.seek(0);
        assert_eq!(
            (c.i16().unwrap(), c.i32().unwrap()),
            (0x1234, 0x56789ABCu32 as i32)
        );
        c.seek(0);
        assert_eq!(c.u32().unwrap(), 0x12345678);
        c.seek(0);
        assert_eq!(c.f32().unwrap(), f32::from_bits(0x12345678));
        c.skip(6).unwrap();
        assert!(c.skip(1).is_err());
        assert_eq!(c.reader().len(), 10);
    }
}
