//! [`Str`]: the bytes of one STRING_OFFSET cell in the owned model. Game tables hold short
//! strings (object, joint and sound names), so up to 30 bytes are kept inline and the owned parse
//! allocates nothing per string cell; longer strings take one boxed slice. It dereferences to
//! `[u8]` and compares, hashes and prints (`{:?}`) as that slice, like the `Vec<u8>` it replaces.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Bytes kept inline (the enum stays 32 bytes, so [`crate::Value`] keeps its size).
const INLINE: usize = 30;

/// A string cell's bytes in the table's encoding, without terminator.
#[derive(Clone)]
pub struct Str(Repr);

#[derive(Clone)]
enum Repr {
    Inline(u8, [u8; INLINE]),
    Heap(Box<[u8]>),
}

impl Str {
    /// The empty string.
    pub const EMPTY: Str = Str(Repr::Inline(0, [0; INLINE]));

    /// A copy of `bytes`.
    #[inline(always)]
    pub fn new(bytes: &[u8]) -> Str {
        let n = bytes.len();
        if n > INLINE {
            return Str::boxed(bytes);
        }
        let mut buf = [0u8; INLINE];
        fill_inline(&mut buf, bytes);
        Str(Repr::Inline(n as u8, buf))
    }

    /// A string too long to keep inline.
    #[inline(never)]
    fn boxed(bytes: &[u8]) -> Str {
        Str(Repr::Heap(bytes.into()))
    }

    /// The first `len` bytes of `window` (a string inside a larger buffer). When the window
    /// holds at least the inline capacity, a fixed-size copy: the bytes past `len` are carried
    /// along but never read.
    #[inline(always)]
    pub(crate) fn from_window(window: &[u8], len: usize) -> Str {
        match window.first_chunk::<INLINE>() {
            Some(b) if len <= INLINE => Str(Repr::Inline(len as u8, *b)),
            _ => Str::new(window.get(..len).unwrap_or_default()),
        }
    }

    /// Sets the string to [`Str::from_window`] in place.
    /// The inline bytes are written straight into place (not through a temporary the caller
    /// then copies).
    #[inline(always)]
    pub(crate) fn set_from_window(&mut self, window: &[u8], len: usize) {
        match (&mut self.0, window.first_chunk::<INLINE>()) {
            (Repr::Inline(n, buf), Some(b)) if len <= INLINE => {
                *n = len as u8;
                *buf = *b;
            }
            (Repr::Inline(n, buf), None) if len <= INLINE => {
                *n = len as u8;
                fill_inline(buf, window.get(..len).unwrap_or_default());
            }
            _ => *self = Str::from_window(window, len),
        }
    }

    /// The bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(n, b) => b.get(..usize::from(*n)).unwrap_or_default(),
            Repr::Heap(b) => b,
        }
    }

    /// The bytes as a vector.
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Inline(..) => self.as_bytes().to_vec(),
            Repr::Heap(b) => b.into_vec(),
        }
    }
}

/// Up to [`INLINE`] bytes, zero-padded, assembled as words in registers from fixed-size loads
/// (no library call, and no narrow stores that a wider read of the value right after would
/// stall on).
#[inline(always)]
fn fill_inline(buf: &mut [u8; INLINE], bytes: &[u8]) {
    let n = bytes.len();
    let word = |at: usize| {
        bytes
            .get(at..)
            .and_then(<[u8]>::first_chunk::<8>)
            .map_or(0, |w| u64::from_le_bytes(*w))
    };
    // The bytes from `8 * k` to the end (fewer than 8), zero-padded: the last eight bytes
    // shifted down; shorter strings from overlapping four-byte loads or single bytes.
    let tail = |k: usize| -> u64 {
        let rest = n - 8 * k;
        if rest == 0 {
            return 0;
        }
        match bytes.last_chunk::<8>() {
            Some(last) => u64::from_le_bytes(*last) >> (8 * (8 - rest)),
            None => match (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
                (Some(a), Some(b)) => {
                    u64::from(u32::from_le_bytes(*a))
                        | u64::from(u32::from_le_bytes(*b)) << (8 * (n - 4))
                }
                _ => {
                    let byte = |i: usize| bytes.get(i).map_or(0, |&b| u64::from(b) << (8 * i));
                    byte(0) | byte(n / 2) | byte(n.wrapping_sub(1))
                }
            },
        }
    };
    let w = match n {
        0..8 => [tail(0), 0, 0, 0],
        8..16 => [word(0), tail(1), 0, 0],
        16..24 => [word(0), word(8), tail(2), 0],
        _ => [word(0), word(8), word(16), tail(3)],
    };
    for (chunk, w) in buf.chunks_mut(8).zip(w) {
        let b = w.to_le_bytes();
        chunk.copy_from_slice(b.get(..chunk.len()).unwrap_or_default());
    }
}

impl Default for Str {
    fn default() -> Self {
        Str::EMPTY
    }
}

impl Deref for Str {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for Str {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<[u8]> for Str {
    fn borrow(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl PartialEq for Str {
    #[inline]
    fn eq(&self, other: &Str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Str {}

impl PartialEq<[u8]> for Str {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_bytes() == other
    }
}

impl PartialEq<&[u8]> for Str {
    fn eq(&self, other: &&[u8]) -> bool {
        self.as_bytes() == *other
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Str {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.as_bytes() == other
    }
}

impl PartialEq<Vec<u8>> for Str {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_bytes() == other.as_slice()
    }
}

impl Hash for Str {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_bytes(), f)
    }
}

impl From<&[u8]> for Str {
    fn from(b: &[u8]) -> Str {
        Str::new(b)
    }
}

impl<const N: usize> From<&[u8; N]> for Str {
    fn from(b: &[u8; N]) -> Str {
        Str::new(b)
    }
}

impl From<Vec<u8>> for Str {
    /// Takes the vector's buffer when the string is too long to keep inline.
    fn from(v: Vec<u8>) -> Str {
        if v.len() <= INLINE {
            Str::new(&v)
        } else {
            Str(Repr::Heap(v.into_boxed_slice()))
        }
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str::new(s.as_bytes())
    }
}

impl From<Str> for Vec<u8> {
    fn from(s: Str) -> Vec<u8> {
        s.into_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_heap_behave_as_slices() {
        for n in 0..=64 {
            let bytes: Vec<u8> = (0..n).map(|i| i as u8 ^ 0x5A).collect();
            let s = Str::new(&bytes);
            assert_eq!(&*s, bytes.as_slice());
            assert_eq!(s, bytes);
            assert_eq!(Str::from(bytes.clone()), s);
            assert_eq!(format!("{s:?}"), format!("{bytes:?}"));
            assert_eq!(s.clone().into_vec(), bytes);
            let h = |x: &dyn Fn(&mut std::collections::hash_map::DefaultHasher)| {
                let mut st = std::collections::hash_map::DefaultHasher::new();
                x(&mut st);
                st.finish()
            };
            assert_eq!(h(&|st| s.hash(st)), h(&|st| bytes.as_slice().hash(st)));
        }
        assert_eq!(size_of::<Str>(), 32);
        let pool = b"Kuribo\0Kuribo with a name longer than thirty bytes\0";
        for (at, len) in [(0, 6), (7, 44), (7, 3)] {
            let s = Str::from_window(&pool[at..], len);
            assert_eq!(s, &pool[at..at + len]);
            assert_eq!(s, Str::new(&pool[at..at + len]));
        }
        // In place, over an inline or a boxed string, from long and short windows.
        for start in [Str::EMPTY, Str::new(&[7; 40])] {
            for (at, len) in [(0, 6), (7, 44), (7, 3), (40, 5), (46, 4), (50, 0)] {
                let mut s = start.clone();
                s.set_from_window(&pool[at..], len);
                assert_eq!(s, &pool[at..at + len]);
            }
        }
        assert_eq!(Str::default(), Str::EMPTY);
        assert!(Str::EMPTY.is_empty());
    }
}
