//! A fast hasher for the string-pool sets (owned parse, writer): strings are hashed once per cell,
//! so SipHash dominated both. Word-at-a-time multiply-rotate mixing (FxHash's step) with a
//! per-process random seed, so a crafted file cannot pick colliding strings ahead of time.

use std::hash::{BuildHasher, Hasher};
use std::sync::LazyLock;

/// Seed drawn once per process from the standard library's random keys.
static SEED: LazyLock<u64> =
    LazyLock::new(|| std::hash::RandomState::new().hash_one(0x9E37_79B9u32));

const K: u64 = 0x517C_C1B7_2722_0A95;

/// Builds [`FastHasher`]s with the process seed.
#[derive(Clone, Copy)]
pub(crate) struct FastState(u64);

impl Default for FastState {
    fn default() -> Self {
        FastState(*SEED)
    }
}

impl BuildHasher for FastState {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(self.0)
    }
}

/// The hasher: `h = (rotl(h, 5) ^ word) * K` per 8-byte word, finished with a final mix.
pub(crate) struct FastHasher(u64);

impl FastHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let (words, rest) = bytes.as_chunks::<8>();
        for w in words {
            self.add(u64::from_le_bytes(*w));
        }
        if !rest.is_empty() {
            // The last eight bytes (overlapping the last word), or the short string itself.
            let last = bytes
                .last_chunk::<8>()
                .map_or_else(|| short(rest), |t| u64::from_le_bytes(*t));
            self.add(last ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // hashbrown takes the top 7 bits as a tag and the low bits as the bucket: mix both ways.
        let h = self.0;
        (h ^ (h >> 29)).wrapping_mul(K) ^ (h >> 32)
    }
}

/// A string key for the pool sets: hashed with one `write` and compared eight bytes at a time
/// inline (game strings are short: a library `memcmp` call per probe cost more than the hash).
#[derive(Clone, Copy, Eq)]
pub(crate) struct Key<'a>(pub(crate) &'a [u8]);

impl PartialEq for Key<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0, other.0);
        if a.len() != b.len() {
            return false;
        }
        match (a.last_chunk::<8>(), b.last_chunk::<8>()) {
            // Whole words, then the last eight bytes (overlapping the last word).
            (Some(at), Some(bt)) => {
                let (aw, _) = a.as_chunks::<8>();
                let (bw, _) = b.as_chunks::<8>();
                aw.iter()
                    .zip(bw)
                    .all(|(x, y)| u64::from_ne_bytes(*x) == u64::from_ne_bytes(*y))
                    && u64::from_ne_bytes(*at) == u64::from_ne_bytes(*bt)
            }
            _ => short(a) == short(b),
        }
    }
}

/// Up to eight bytes as one little-endian word (zero-padded), without a loop: two overlapping
/// four-byte reads, or the first, middle and last byte of a shorter string.
#[inline]
fn short(s: &[u8]) -> u64 {
    let n = s.len();
    match (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        (Some(a), Some(b)) if n <= 8 => {
            u64::from(u32::from_le_bytes(*a)) | u64::from(u32::from_le_bytes(*b)) << (8 * (n - 4))
        }
        (Some(_), Some(_)) => s.first_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w)),
        _ => {
            let byte = |i: usize| s.get(i).map_or(0, |&b| u64::from(b) << (8 * i));
            byte(0) | byte(n / 2) | byte(n.wrapping_sub(1))
        }
    }
}

impl std::hash::Hash for Key<'_> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write(self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_is_the_zero_padded_word() {
        let bytes = *b"\x01\x82\x03\xF4\x05\x06\x07\x08\x09";
        for n in 0..=9 {
            let s = &bytes[..n];
            let want = s
                .iter()
                .take(8)
                .enumerate()
                .fold(0, |w, (i, &b)| w | (u64::from(b) << (8 * i)));
            assert_eq!(short(s), want, "{n}");
        }
    }

    #[test]
    fn key_equality_is_byte_equality() {
        let words: [&[u8]; 9] = [
            b"",
            b"a",
            b"ab",
            b"b",
            b"abcdefgh",
            b"abcdefgi",
            b"abcdefghX",
            b"abcdefghY",
            b"Xbcdefghabcdefgh",
        ];
        for a in words {
            for b in words {
                assert_eq!(Key(a) == Key(b), a == b);
            }
        }
    }
}
