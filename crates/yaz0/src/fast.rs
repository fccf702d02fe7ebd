//! The `fast` encoder: a hash-chain matcher over the 0x1000-byte window with bounded chain
//! depth and lazy matching (zlib's `deflate_slow` shape, tuned for Yaz0's token costs).
//!
//! - Candidates of [`KEY`] bytes or more come from chains keyed on the next [`KEY`] bytes,
//!   newest first, links in a 0x1000-entry ring (one per window position); at most [`CHAIN`]
//!   candidates are compared, a quarter of them for a look-ahead once a match of [`GOOD`] bytes
//!   is in hand.
//! - Shorter matches: the newest position with the same 4 bytes, else the newest with the same
//!   3 (every 3-byte match costs the same).
//! - Lazy matching: after a match shorter than [`MAX_LAZY`], the next position is searched too
//!   and wins (a literal is emitted first) when it is longer; that match is then re-evaluated
//!   against the one after it.
//!
//! On the real Galaxy archives: +1.7 % size vs `nintendo`.

use crate::encode::emit;
use crate::token::{MAX_DIST, MAX_LEN, Token};

const HASH_BITS: u32 = 15;
const HASH_SIZE: usize = 1 << HASH_BITS;
const RING: usize = MAX_DIST;
/// Candidates compared per search.
const CHAIN: usize = 16;
/// Bytes of the chains' key: candidates sharing 5 bytes are likelier to be long than those
/// sharing 4 (floats and records of real files share many 4-byte prefixes); 4-byte matches come
/// from [`Finder::head4`].
const KEY: usize = 5;
/// No look-ahead after a match this long (saves searches; costs 0.01 % on the real files).
const MAX_LAZY: usize = 32;
/// A match this long ends the search.
const NICE: usize = MAX_LEN;
/// Once the current match is this long, the look-ahead search compares a quarter of the chain.
const GOOD: usize = 18;

fn table<T: Copy, const N: usize>(fill: T) -> Box<[T; N]> {
    vec![fill; N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| Box::new([fill; N]))
}

/// `t[i]` (0 outside the table; callers index with hashes and ring slots, always inside).
#[inline(always)]
fn at<const N: usize>(t: &[u32; N], i: usize) -> u32 {
    t.get(i).copied().unwrap_or(0)
}

/// `t[i] = v`.
#[inline(always)]
fn set<const N: usize>(t: &mut [u32; N], i: usize, v: u32) {
    if let Some(x) = t.get_mut(i) {
        *x = v;
    }
}

#[inline(always)]
fn load4(data: &[u8], at: usize) -> Option<u32> {
    let b: [u8; 4] = data.get(at..at + 4)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

#[inline(always)]
fn load8(data: &[u8], at: usize) -> Option<u64> {
    let b: [u8; 8] = data.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(b))
}

#[inline(always)]
fn hash64(v: u64) -> usize {
    (v.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - HASH_BITS)) as usize
}

#[inline(always)]
fn hash(v: u32) -> usize {
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

struct Finder<'a> {
    data: &'a [u8],
    /// Newest position + 1 per `KEY`-byte hash (chain heads).
    headk: Box<[u32; HASH_SIZE]>,
    /// The low `KEY` bytes of a little-endian word.
    mask: u64,
    /// Newest position + 1 per 4-byte hash.
    head4: Box<[u32; HASH_SIZE]>,
    /// Newest position + 1 per 3-byte hash.
    head3: Box<[u32; HASH_SIZE]>,
    /// Per ring slot: the next older position + 1 with the same 4-byte hash.
    prev: Box<[u32; RING]>,
    inserted: usize,
}

impl<'a> Finder<'a> {
    fn new(data: &'a [u8]) -> Self {
        Finder {
            data,
            headk: table(0),
            mask: u64::MAX >> (64 - 8 * KEY),
            head4: table(0),
            head3: table(0),
            prev: table(0),
            inserted: 0,
        }
    }

    #[inline(always)]
    fn insert_upto(&mut self, upto: usize) {
        while self.inserted < upto {
            let p = self.inserted;
            if let Some(v) = load8(self.data, p) {
                let h = hash64(v & self.mask);
                set(&mut self.prev, p % RING, at(&self.headk, h));
                set(&mut self.headk, h, p as u32 + 1);
                set(&mut self.head4, hash(v as u32), p as u32 + 1);
                set(&mut self.head3, hash(v as u32 & 0x00FF_FFFF), p as u32 + 1);
            } else if let Some(v) = load4(self.data, p) {
                set(&mut self.head4, hash(v), p as u32 + 1);
                set(&mut self.head3, hash(v & 0x00FF_FFFF), p as u32 + 1);
            } else if let Some(&[a, b, c]) = self.data.get(p..p + 3) {
                set(
                    &mut self.head3,
                    hash(u32::from_le_bytes([a, b, c, 0])),
                    p as u32 + 1,
                );
            }
            self.inserted += 1;
        }
    }

    #[inline(always)]
    fn len_at(&self, cand: usize, pos: usize, max: usize, head8: Option<u64>) -> usize {
        let data = self.data;
        match (head8, load8(data, cand)) {
            (Some(h), Some(b)) => {
                let x = h ^ b;
                if x != 0 {
                    ((x.trailing_zeros() / 8) as usize).min(max)
                } else {
                    crate::matcher::common_len(data, cand, pos, max)
                }
            }
            _ => crate::matcher::common_len(data, cand, pos, max),
        }
    }

    /// The longest match found for `pos` over at most `chain` candidates, as `(len, dist)`;
    /// only matches longer than `beat` count. `(0, 0)` when none.
    #[inline(always)]
    fn find(&mut self, pos: usize, chain: usize, beat: usize) -> (usize, usize) {
        let data = self.data;
        let max = MAX_LEN.min(data.len().saturating_sub(pos));
        if max < 3 || max <= beat {
            return (0, 0);
        }
        self.insert_upto(pos);
        let (mut best, mut best_dist) = (beat.max(2), 0);
        let head8 = load8(data, pos);
        if let Some(v) = head8 {
            let mut c = at(&self.headk, hash64(v & self.mask)) as usize;
            let mut left = chain;
            while c != 0 {
                let cand = c - 1;
                let dist = pos - cand;
                if dist > MAX_DIST {
                    break;
                }
                if data.get(cand + best) == data.get(pos + best) {
                    let l = self.len_at(cand, pos, max, head8);
                    if l > best {
                        best = l;
                        best_dist = dist;
                        if l >= NICE.min(max) {
                            break;
                        }
                    }
                }
                left -= 1;
                if left == 0 {
                    break;
                }
                c = at(&self.prev, cand % RING) as usize;
            }
        }
        if best < KEY
            && let Some(v) = load4(data, pos)
        {
            let c = at(&self.head4, hash(v)) as usize;
            if c != 0 && pos - (c - 1) <= MAX_DIST {
                let l = self.len_at(c - 1, pos, max, head8);
                if l > best {
                    best = l;
                    best_dist = pos - (c - 1);
                }
            }
        }
        if best_dist != 0 {
            return (best, best_dist);
        }
        if beat < 3 {
            let key = data.get(pos..pos + 3);
            let v = match key {
                Some(&[a, b, c]) => u32::from_le_bytes([a, b, c, 0]),
                _ => return (0, 0),
            };
            let c = at(&self.head3, hash(v)) as usize;
            if c != 0 && pos - (c - 1) <= MAX_DIST && data.get(c - 1..c + 2) == key {
                return (3, pos - (c - 1));
            }
        }
        (0, 0)
    }
}

/// Hash chains with one step of lazy matching: see the module comment.
pub(crate) fn fast(data: &[u8], sink: &mut impl FnMut(Token) -> bool) {
    let mut f = Finder::new(data);
    let mut pos = 0;
    let mut cur = f.find(0, CHAIN, 0);
    while pos < data.len() {
        if (3..MAX_LAZY).contains(&cur.0) {
            let chain = if cur.0 >= GOOD { CHAIN / 4 } else { CHAIN };
            let next = f.find(pos + 1, chain, cur.0);
            if next.0 > cur.0 {
                if emit(sink, data, pos, 0, 0).is_none() {
                    return;
                }
                pos += 1;
                cur = next;
                continue;
            }
        }
        match emit(sink, data, pos, cur.0, cur.1) {
            Some(n) => pos += n,
            None => return,
        }
        cur = f.find(pos, CHAIN, 0);
    }
}
