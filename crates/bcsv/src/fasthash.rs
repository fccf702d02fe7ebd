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
            let mut last = [0u8; 8];
            for (d, s) in last.iter_mut().zip(rest) {
                *d = *s;
            }
            self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
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
