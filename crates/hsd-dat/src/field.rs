//! Field codecs shared by every typed struct: scalars read big-endian through `gcio::Reader` and
//! written into a byte buffer, and the [`Struct`] trait the `desc!` macro implements.

use gcio::{Reader, Result};

/// A fixed-size scalar field of a struct.
pub trait Field: Sized + Copy {
    /// Bytes on disk.
    const SIZE: usize;
    /// Reads the field at `off`.
    fn get(r: &Reader<'_>, off: usize) -> Result<Self>;
    /// Writes the field at `off` (silently skipped when `out` is too short: callers size it).
    fn put(&self, out: &mut [u8], off: usize);
}

fn put_bytes(out: &mut [u8], off: usize, b: &[u8]) {
    if let Some(dst) = out.get_mut(off..off + b.len()) {
        dst.copy_from_slice(b);
    }
}

macro_rules! int_field {
    ($($t:ty => $get:ident),*) => {$(
        impl Field for $t {
            const SIZE: usize = size_of::<$t>();
            fn get(r: &Reader<'_>, off: usize) -> Result<Self> {
                r.$get(off)
            }
            fn put(&self, out: &mut [u8], off: usize) {
                put_bytes(out, off, &self.to_be_bytes());
            }
        }
    )*};
}
int_field!(u8 => u8, i8 => i8, u16 => u16, i16 => i16, u32 => u32, i32 => i32, f32 => f32);

impl<T: Field + Default, const N: usize> Field for [T; N] {
    const SIZE: usize = T::SIZE * N;
    fn get(r: &Reader<'_>, off: usize) -> Result<Self> {
        let mut out = [T::default(); N];
        for (i, v) in out.iter_mut().enumerate() {
            *v = T::get(r, off + i * T::SIZE)?;
        }
        Ok(out)
    }
    fn put(&self, out: &mut [u8], off: usize) {
        for (i, v) in self.iter().enumerate() {
            v.put(out, off + i * T::SIZE);
        }
    }
}

/// An RGBA8 colour as stored (gamma space, not linearised).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Rgba(pub [u8; 4]);

impl Field for Rgba {
    const SIZE: usize = 4;
    fn get(r: &Reader<'_>, off: usize) -> Result<Self> {
        r.array(off).map(Rgba)
    }
    fn put(&self, out: &mut [u8], off: usize) {
        put_bytes(out, off, &self.0);
    }
}

/// A word that is a pointer when the relocation table lists it and a plain value otherwise
/// (RObj's union, AObj `obj_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Word<P> {
    /// Unrelocated value.
    Value(u32),
    /// Relocated pointer.
    Ptr(P),
}

impl<P: Copy> Word<P> {
    /// The pointer, `None` for a plain value.
    pub fn ptr(self) -> Option<P> {
        match self {
            Word::Ptr(p) => Some(p),
            Word::Value(_) => None,
        }
    }
}

/// A typed sysdolphin struct, generic over how pointers are named: `u32` data offsets in the
/// zero-copy view, [`crate::Target`]s in the owned graph.
pub trait Struct<P>: Sized {
    /// Type name used in messages and counts.
    const NAME: &'static str;
    /// On-disk size.
    const SIZE: usize;
    /// Reads the struct from `r` (offset 0 = struct start). `ptr(field_offset)` returns the
    /// pointer of a relocated slot and `None` for an unlisted one.
    fn decode(r: &Reader<'_>, ptr: &mut dyn FnMut(usize) -> Result<Option<P>>) -> Result<Self>;
    /// Writes the non-pointer fields into `out` (at least `SIZE` bytes; bytes of no field, such
    /// as padding, are left alone) and reports every pointer field through `ptr`.
    fn encode(&self, out: &mut [u8], ptr: &mut dyn FnMut(usize, Option<P>));
}

/// A struct member: a scalar [`Field`], a pointer (`Option<P>`, NULL when unlisted and zero) or
/// a [`Word`].
pub trait Member<P>: Sized {
    /// Reads the member at `off`.
    fn get(
        r: &Reader<'_>,
        off: usize,
        ptr: &mut dyn FnMut(usize) -> Result<Option<P>>,
    ) -> Result<Self>;
    /// Writes the member at `off`; pointers go to `ptr`.
    fn put(&self, out: &mut [u8], off: usize, ptr: &mut dyn FnMut(usize, Option<P>));
}

impl<P, T: Field> Member<P> for T {
    fn get(
        r: &Reader<'_>,
        off: usize,
        _: &mut dyn FnMut(usize) -> Result<Option<P>>,
    ) -> Result<Self> {
        T::get(r, off)
    }
    fn put(&self, out: &mut [u8], off: usize, _: &mut dyn FnMut(usize, Option<P>)) {
        Field::put(self, out, off)
    }
}

impl<P: Copy> Member<P> for Option<P> {
    fn get(
        r: &Reader<'_>,
        off: usize,
        ptr: &mut dyn FnMut(usize) -> Result<Option<P>>,
    ) -> Result<Self> {
        match ptr(off)? {
            Some(p) => Ok(Some(p)),
            None => match r.u32(off)? {
                0 => Ok(None),
                v => Err(gcio::Error::invalid(
                    r.abs(off),
                    format!("non-zero word {v:#x} in a pointer field is not relocated"),
                )),
            },
        }
    }
    fn put(&self, out: &mut [u8], off: usize, ptr: &mut dyn FnMut(usize, Option<P>)) {
        // NULL is an unlisted zero word; a pointer's bytes are filled in at layout.
        if self.is_none() {
            put_bytes(out, off, &[0; 4]);
        }
        ptr(off, *self)
    }
}

impl<P: Copy> Member<P> for Word<P> {
    fn get(
        r: &Reader<'_>,
        off: usize,
        ptr: &mut dyn FnMut(usize) -> Result<Option<P>>,
    ) -> Result<Self> {
        match ptr(off)? {
            Some(p) => Ok(Word::Ptr(p)),
            None => r.u32(off).map(Word::Value),
        }
    }
    fn put(&self, out: &mut [u8], off: usize, ptr: &mut dyn FnMut(usize, Option<P>)) {
        match *self {
            Word::Ptr(p) => ptr(off, Some(p)),
            Word::Value(v) => {
                ptr(off, None);
                Field::put(&v, out, off)
            }
        }
    }
}
