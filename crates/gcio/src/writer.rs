//! An appending writer with alignment, padding patterns, patched slots and framed sections.

use zerocopy::{Immutable, IntoBytes};

use crate::{Endian, Error, ErrorKind, Result};

/// A reserved slot in a [`Writer`], filled in later with [`Writer::patch_u32`] and friends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a reserved slot stays zero unless patched"]
pub struct Fixup {
    offset: usize,
    width: usize,
}

impl Fixup {
    /// Offset of the slot in the output.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// An open section started by [`Writer::begin_section`]: its start and its size slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a section's size is written by end_section"]
pub struct Section {
    start: usize,
    size: Fixup,
}

impl Section {
    /// Offset of the section's first byte (its magic).
    pub fn start(&self) -> usize {
        self.start
    }
}

/// Bytes needed to bring `pos` up to a multiple of `align` (0 when `align` is 0 or 1).
pub fn padding_for(pos: usize, align: usize) -> usize {
    if align <= 1 {
        return 0;
    }
    match pos % align {
        0 => 0,
        r => align - r,
    }
}

/// Appends big-endian (or explicitly little-endian) values to a `Vec<u8>`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Writer {
    buf: Vec<u8>,
}

macro_rules! int_writers {
    ($($name:ident $le:ident $at:ident $patch:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("Appends a big-endian `", stringify!($t), "`.")]
        pub fn $name(&mut self, v: $t) -> &mut Self {
            self.buf.extend_from_slice(&v.to_be_bytes());
            self
        }
        #[doc = concat!("Appends a little-endian `", stringify!($t), "`.")]
        pub fn $le(&mut self, v: $t) -> &mut Self {
            self.buf.extend_from_slice(&v.to_le_bytes());
            self
        }
        #[doc = concat!("Appends a `", stringify!($t), "` in the given byte order.")]
        pub fn $at(&mut self, v: $t, endian: Endian) -> &mut Self {
            match endian {
                Endian::Big => self.$name(v),
                Endian::Little => self.$le(v),
            }
        }
        #[doc = concat!("Overwrites the big-endian `", stringify!($t), "` at `offset`, which must already be written.")]
        pub fn $patch(&mut self, offset: usize, v: $t) -> Result<()> {
            self.overwrite(offset, &v.to_be_bytes())
        }
    )*};
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Writer { buf: Vec::new() }
    }

    /// An empty writer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(capacity),
        }
    }

    /// Current length = offset of the next byte.
    pub fn position(&self) -> usize {
        self.buf.len()
    }

    /// The bytes written so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Finishes and returns the bytes.
    pub fn into_vec(self) -> Vec<u8> {
        self.buf
    }

    /// Appends raw bytes.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    /// Appends `count` copies of `byte`.
    pub fn fill(&mut self, byte: u8, count: usize) -> &mut Self {
        self.buf.resize(self.buf.len() + count, byte);
        self
    }

    /// Appends one byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    /// Appends one signed byte.
    pub fn i8(&mut self, v: i8) -> &mut Self {
        self.buf.push(v as u8);
        self
    }

    int_writers! {
        u16 u16_le u16_at patch_u16: u16,
        i16 i16_le i16_at patch_i16: i16,
        u32 u32_le u32_at patch_u32: u32,
        i32 i32_le i32_at patch_i32: i32,
        u64 u64_le u64_at patch_u64: u64,
        f32 f32_le f32_at patch_f32: f32,
    }

    /// Appends the low 24 bits of `v`, big-endian.
    pub fn u24(&mut self, v: u32) -> &mut Self {
        let [_, a, b, c] = v.to_be_bytes();
        self.bytes(&[a, b, c])
    }

    /// Appends a zero-copy struct as its bytes.
    pub fn put<T: IntoBytes + Immutable + ?Sized>(&mut self, v: &T) -> &mut Self {
        self.bytes(v.as_bytes())
    }

    /// Appends a string and its NUL terminator.
    pub fn cstr(&mut self, s: &[u8]) -> &mut Self {
        self.bytes(s).u8(0)
    }

    /// Pads with `fill` up to a multiple of `align`.
    pub fn align(&mut self, align: usize, fill: u8) -> &mut Self {
        let n = padding_for(self.buf.len(), align);
        self.fill(fill, n)
    }

    /// Pads up to a multiple of `align` by repeating `pattern` from its start (e.g. J3D's
    /// `"This is padding data to align"`). An empty pattern pads with zeros.
    pub fn pad_with(&mut self, align: usize, pattern: &[u8]) -> &mut Self {
        let n = padding_for(self.buf.len(), align);
        if pattern.is_empty() {
            return self.fill(0, n);
        }
        self.buf.extend(pattern.iter().copied().cycle().take(n));
        self
    }

    /// Overwrites already written bytes at `offset`.
    pub fn overwrite(&mut self, offset: usize, b: &[u8]) -> Result<()> {
        let end = offset.checked_add(b.len());
        match end.and_then(|end| self.buf.get_mut(offset..end)) {
            Some(dst) => {
                dst.copy_from_slice(b);
                Ok(())
            }
            None => Err(Error::new(
                ErrorKind::OutOfBounds {
                    offset: offset as u64,
                    len: b.len() as u64,
                    size: self.buf.len() as u64,
                },
                offset as u64,
            )),
        }
    }

    /// Reserves a zeroed big-endian u32 slot to patch later.
    pub fn reserve_u32(&mut self) -> Fixup {
        let offset = self.buf.len();
        self.u32(0);
        Fixup { offset, width: 4 }
    }

    /// Reserves a zeroed big-endian u16 slot to patch later.
    pub fn reserve_u16(&mut self) -> Fixup {
        let offset = self.buf.len();
        self.u16(0);
        Fixup { offset, width: 2 }
    }

    /// Fills a reserved slot with `v`; fails if `v` does not fit the slot's width.
    pub fn fix(&mut self, slot: Fixup, v: u64) -> Result<()> {
        match slot.width {
            2 => {
                let v = u16::try_from(v).map_err(|_| too_big(slot, v))?;
                self.patch_u16(slot.offset, v)
            }
            _ => {
                let v = u32::try_from(v).map_err(|_| too_big(slot, v))?;
                self.patch_u32(slot.offset, v)
            }
        }
    }

    /// Fills a reserved slot with the current position (an offset to what is written next).
    pub fn fix_here(&mut self, slot: Fixup) -> Result<()> {
        self.fix(slot, self.buf.len() as u64)
    }

    /// Starts a section: writes its 4-byte magic and reserves its u32 size.
    pub fn begin_section(&mut self, magic: [u8; 4]) -> Section {
        let start = self.buf.len();
        self.bytes(&magic);
        Section {
            start,
            size: self.reserve_u32(),
        }
    }

    /// Closes a section: pads it to `align` with `pattern`, then writes its total size (magic
    /// included) into the size slot.
    pub fn end_section(&mut self, section: Section, align: usize, pattern: &[u8]) -> Result<()> {
        self.pad_with(align, pattern);
        let size = self.buf.len() - section.start;
        self.fix(section.size, size as u64)
    }
}

fn too_big(slot: Fixup, v: u64) -> Error {
    Error::invalid(
        slot.offset as u64,
        format!("value {v:#x} does not fit a {}-byte slot", slot.width),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_strings() {
        let mut w = Writer::new();
        w.u8(1)
            .i8(-1)
            .u16(0x0203)
            .u16_le(0x0203)
            .u24(0xAABBCC)
            .u32(0x04050607);
        w.i16(-2)
            .i32_le(-2)
            .f32(1.0)
            .u16_at(1, Endian::Little)
            .u64(1)
            .cstr(b"ab");
        assert_eq!(
            w.as_slice(),
            &[
                1, 0xFF, 2, 3, 3, 2, 0xAA, 0xBB, 0xCC, 4, 5, 6, 7, 0xFF, 0xFE, 0xFE, 0xFF, 0xFF,
                0xFF, 0x3F, 0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, b'a', b'b', 0
            ]
        );
    }

    #[test]
    fn alignment_and_patterns() {
        assert_eq!(padding_for(0, 32), 0);
        assert_eq!(padding_for(33, 32), 31);
        assert_eq!(padding_for(5, 0), 0);
        let mut w = Writer::new();
        w.u8(1).align(4, 0x40);
        assert_eq!(w.as_slice(), &[1, 0x40, 0x40, 0x40]);
        w.align(4, 0xFF);
        assert_eq!(w.position(), 4);
        w.u8(2).pad_with(8, b"Pad");
        assert_eq!(w.as_slice(), &[1, 0x40, 0x40, 0x40, 2, b'P', b'a', b'd']);
        w.u8(3).pad_with(4, b"");
        assert_eq!(&w.as_slice()[8..], &[3, 0, 0, 0]);
    }

    #[test]
    fn fixups_and_sections() {
        let mut w = Writer::new();
        let s = w.begin_section(*b"TEST");
        let slot = w.reserve_u32();
        let short = w.reserve_u16();
        w.u8(9);
        w.fix_here(slot).unwrap();
        w.fix(short, 0xBEEF).unwrap();
        assert!(w.fix(short, 0x10000).is_err());
        w.end_section(s, 16, &[0xAB]).unwrap();
        assert_eq!(
            w.as_slice(),
            &[
                b'T', b'E', b'S', b'T', 0, 0, 0, 16, 0, 0, 0, 15, 0xBE, 0xEF, 9, 0xAB
            ]
        );
        assert_eq!(s.start(), 0);
        assert_eq!(slot.offset(), 8);
        assert!(w.patch_u32(14, 0).is_err());
        assert!(w.overwrite(usize::MAX, &[1]).is_err());
        w.patch_f32(0, 2.0).unwrap();
        w.patch_i16(4, -1).unwrap();
        w.patch_i32(8, 1).unwrap();
        w.patch_u64(0, 0).unwrap();
        assert_eq!(w.clone().into_vec().len(), 16);
    }

    #[test]
    fn put_struct() {
        use zerocopy::byteorder::big_endian::U16;
        let mut w = Writer::with_capacity(4);
        w.put(&U16::new(0x1234))
            .put(&[U16::new(1), U16::new(2)][..]);
        assert_eq!(w.as_slice(), &[0x12, 0x34, 0, 1, 0, 2]);
    }
}
