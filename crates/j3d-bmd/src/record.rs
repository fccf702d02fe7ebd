//! Fixed-size big-endian records: a [`Record`] reads and writes itself field by field, so the
//! material and texture tables are typed structs whose every byte (padding included) round-trips.

use gcio::{Reader, Result, Writer};

/// A fixed-size big-endian value.
pub trait Record: Sized {
    /// Byte size on disk.
    const SIZE: usize;
    /// Reads the value at `at`.
    fn read(r: &Reader<'_>, at: usize) -> Result<Self>;
    /// Appends the value.
    fn write(&self, w: &mut Writer);
}

macro_rules! prim {
    ($($t:ty, $n:expr, $read:ident, $write:ident;)*) => {$(
        impl Record for $t {
            const SIZE: usize = $n;
            fn read(r: &Reader<'_>, at: usize) -> Result<Self> {
                r.$read(at)
            }
            fn write(&self, w: &mut Writer) {
                w.$write(*self);
            }
        }
    )*};
}

prim! {
    u8, 1, u8, u8;
    i8, 1, i8, i8;
    u16, 2, u16, u16;
    i16, 2, i16, i16;
    u32, 4, u32, u32;
    f32, 4, f32, f32;
}

impl<T: Record + Copy + Default, const N: usize> Record for [T; N] {
    const SIZE: usize = T::SIZE * N;
    fn read(r: &Reader<'_>, at: usize) -> Result<Self> {
        let mut a = [T::default(); N];
        for (i, x) in a.iter_mut().enumerate() {
            *x = T::read(r, at + i * T::SIZE)?;
        }
        Ok(a)
    }
    fn write(&self, w: &mut Writer) {
        for x in self {
            x.write(w);
        }
    }
}

/// Defines a documented struct of named [`Record`] fields and implements [`Record`] for it.
macro_rules! record {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* pub $f:ident: $t:ty,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        #[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
        pub struct $name { $($(#[$fm])* pub $f: $t,)* }
        impl $crate::record::Record for $name {
            const SIZE: usize = 0 $(+ <$t as $crate::record::Record>::SIZE)*;
            #[allow(unused_assignments)]
            fn read(r: &gcio::Reader<'_>, at: usize) -> gcio::Result<Self> {
                let mut o = at;
                $(
                    let $f = <$t as $crate::record::Record>::read(r, o)?;
                    o += <$t as $crate::record::Record>::SIZE;
                )*
                Ok($name { $($f,)* })
            }
            fn write(&self, w: &mut gcio::Writer) {
                $($crate::record::Record::write(&self.$f, w);)*
            }
        }
    };
}
pub(crate) use record;

/// Reads `n` records from `at`.
pub(crate) fn read_vec<T: Record>(
    r: &Reader<'_>,
    at: usize,
    n: usize,
    limits: &gcio::Limits,
) -> Result<Vec<T>> {
    let bytes = limits.check_alloc(n as u64, T::SIZE as u64, r.abs(at))?;
    // The bytes must exist before anything is allocated for them.
    r.bytes(at, bytes)?;
    (0..n).map(|i| T::read(r, at + i * T::SIZE)).collect()
}
