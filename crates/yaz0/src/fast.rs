//! The `fast` encoder: a hash-chain matcher over the 0x1000-byte window with bounded chain
//! depth and lazy matching (zlib's `deflate_slow` shape, tuned for Yaz0's token costs).
//!
//! - Candidates of [`KEY`] bytes or more come from chains keyed on the next [`KEY`] bytes,
//!   newest first, links in a 0x1000-entry ring (one per window position); at most [`CHAIN`]
//!   candidates are compared.
//! - Shorter matches: the newest position with the same 4 bytes, else the newest with the same
//!   3 (every 3-byte match costs the same).
//! - Lazy matching: after a match shorter than [`MAX_LAZY`], the next position is searched too
//!   and wins (a literal is emitted first) when it is longer; that match is then re-evaluated
//!   against the one after it.
//! - Insertion follows the tokens: a literal's position goes in straight, a match's in one
//!   loop; inside a match of [`SPARSE_MIN`] bytes or more only the first and last
//!   [`SPARSE_KEEP`] positions go into the chains, and every [`SHORT_STRIDE`]th of the others
//!   into the 3- and 4-byte tables.
//! - Literal runs: after a literal, the next position is a literal without a search when the
//!   newest position with its 3-byte hash is outside the window (the search's own first test).
//!
//! Every table holds positions as `u16` (the window is 0x1000 bytes, so a position's distance
//! is its difference modulo 2¹⁶; an entry 2¹⁶ bytes stale may alias a position in the window,
//! which the byte comparisons reject or turn into a valid, if unplanned, match).
//!
//! On the real Galaxy archives: +1.88 % size vs `nintendo` (BENCHMARKS.md, notes 5, 7 and 8).

use crate::token::{MAX_DIST, MAX_LEN, Sink, Token};

const HASH_BITS: u32 = 15;
const HASH_SIZE: usize = 1 << HASH_BITS;
/// Bits of the single-position 4-byte table.
const BITS4: u32 = 15;
const SIZE4: usize = 1 << BITS4;
/// Bits of the single-position 3-byte table. It decides most literals (a key whose newest
/// position is outside the window is a literal without a search), so a collision there costs
/// a search: on the real files 16 bits against 15 take 0.8 ms (2 %) less per 5.5 MB pass and
/// write 647 B less (BENCHMARKS.md, note 8); 17 bits gain 0.1 ms more for twice the memory;
/// the 4-byte table at 16 bits is slower.
const BITS3: u32 = 16;
const SIZE3: usize = 1 << BITS3;
const RING: usize = MAX_DIST;
/// Candidates compared per search.
const CHAIN: usize = 16;
/// Bytes of the chains' key: candidates sharing 5 bytes are likelier to be long than those
/// sharing 4 (floats and records of real files share many 4-byte prefixes); 4-byte matches come
/// from the 4-byte table ([`HEAD4`]).
const KEY: usize = 5;
/// No look-ahead after a match this long. On the real files against 32: 12 % fewer
/// instructions and branch misses, +0.2 % size (1,990,703 -> 1,994,568 B); 5 would give
/// +0.35 %, 8 two thirds of the gain.
const MAX_LAZY: usize = 6;
/// Inside a match this long, only its first and last [`SPARSE_KEEP`] positions go into the
/// chains (the others into the 3- and 4-byte tables, every [`SHORT_STRIDE`]th).
const SPARSE_MIN: usize = 32;
/// See [`SPARSE_MIN`].
const SPARSE_KEEP: usize = 4;
/// Between the kept ends of a match of [`SPARSE_MIN`] bytes or more, every this-many-th
/// position goes into the 3- and 4-byte tables. On the real files against every position:
/// +1,432 B (+0.07 %) for 1.5 ms less per 5.5 MB pass (BENCHMARKS.md, note 7); 2 gives
/// +959 B for 1.2 ms, none at all +0.2–0.3 %.
const SHORT_STRIDE: usize = 3;
const _: () = assert!(MAX_LAZY <= 8, "`find` assumes `beat < 8`");
/// A match this long ends the search.
const NICE: usize = MAX_LEN;

fn table<const N: usize>() -> Box<[u16; N]> {
    vec![0; N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| Box::new([0; N]))
}

/// `t[i]` (callers index with masked hashes and ring slots, always inside).
#[inline(always)]
fn at<const N: usize>(t: &[u16; N], i: usize) -> u16 {
    t.get(i).copied().unwrap_or(0)
}

/// `t[i] = v`.
#[inline(always)]
fn set<const N: usize>(t: &mut [u16; N], i: usize, v: u16) {
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

/// The product every key's hash is taken from: its bits below `8 * k` depend only on the low
/// `k` bytes of `v`, so one multiply gives the hashes of the 3-, 4- and `KEY`-byte keys
/// (multiplicative hashing modulo 2^(8k): the top bits of that window).
#[inline(always)]
fn mix(v: u64) -> u64 {
    v.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Hash of the low `KEY` bytes of the value whose [`mix`] is `m`.
#[inline(always)]
fn hash_key(m: u64) -> usize {
    (m >> (8 * KEY as u32 - HASH_BITS)) as usize & (HASH_SIZE - 1)
}

/// Hash of the low 4 bytes of the value whose [`mix`] is `m`.
#[inline(always)]
fn hash4(m: u64) -> usize {
    (m >> (32 - BITS4)) as usize & (SIZE4 - 1)
}

/// Hash of the low 3 bytes of the value whose [`mix`] is `m`.
#[inline(always)]
fn hash3(m: u64) -> usize {
    (m >> (24 - BITS3)) as usize & (SIZE3 - 1)
}

/// Distance from `pos` back to the position stored as `c`, or `usize::MAX` when it is outside
/// the window (0, or more than [`MAX_DIST`], or before the input).
#[inline(always)]
fn dist_to(pos: usize, c: u16) -> usize {
    let d = usize::from((pos as u16).wrapping_sub(c));
    if d.wrapping_sub(1) < MAX_DIST.min(pos) {
        d
    } else {
        usize::MAX
    }
}

// The four tables share one allocation, `Finder::t`, at these offsets: one base register
// serves all four in the encoder's loops (four pointers were spilled to the stack).
/// Newest position per `KEY`-byte hash (chain heads).
const HEADK: usize = 0;
/// Newest position per 4-byte hash.
const HEAD4: usize = HEADK + HASH_SIZE;
/// Newest position per 3-byte hash.
const HEAD3: usize = HEAD4 + SIZE4;
/// Per ring slot: the next older position with the same `KEY`-byte hash.
const PREV: usize = HEAD3 + SIZE3;
/// Entries of all four tables.
const TABLES: usize = PREV + RING;

struct Finder<'a> {
    data: &'a [u8],
    /// The tables, at [`HEADK`], [`HEAD4`], [`HEAD3`] and [`PREV`].
    t: Box<[u16; TABLES]>,
    inserted: usize,
}

impl<'a> Finder<'a> {
    fn new(data: &'a [u8]) -> Self {
        Finder {
            data,
            t: table(),
            inserted: 0,
        }
    }

    /// Puts position `p`, with `v` its next 8 bytes, into every table.
    #[inline(always)]
    fn put(&mut self, p: usize, v: u64) {
        let m = mix(v);
        let h = hash_key(m);
        let head = at(&self.t, HEADK + h);
        set(&mut self.t, PREV + p % RING, head);
        set(&mut self.t, HEADK + h, p as u16);
        set(&mut self.t, HEAD4 + hash4(m), p as u16);
        set(&mut self.t, HEAD3 + hash3(m), p as u16);
    }

    /// Puts position `p`, fewer than 8 bytes before the end, into the tables it has the bytes
    /// for (no chain: a search needs 8 bytes).
    #[cold]
    #[inline(never)]
    fn put_tail(&mut self, p: usize) {
        if let Some(v) = load4(self.data, p) {
            let m = mix(u64::from(v));
            set(&mut self.t, HEAD4 + hash4(m), p as u16);
            set(&mut self.t, HEAD3 + hash3(m), p as u16);
        } else if let Some(&[a, b, c]) = self.data.get(p..p + 3) {
            set(
                &mut self.t,
                HEAD3 + hash3(mix(u64::from_le_bytes([a, b, c, 0, 0, 0, 0, 0]))),
                p as u16,
            );
        }
    }

    /// Inserts position `p`, the next one (`p == self.inserted`): a literal's, or the one
    /// before a look-ahead.
    #[inline(always)]
    fn insert_one(&mut self, p: usize) {
        match load8(self.data, p) {
            Some(v) => self.put(p, v),
            None => self.put_tail(p),
        }
        self.inserted = p + 1;
    }

    /// Inserts every position before `upto`.
    #[inline(always)]
    fn insert_upto(&mut self, upto: usize) {
        let full = upto.min(self.data.len().saturating_sub(7));
        if self.inserted < full {
            let from = self.inserted;
            let span = self.data.get(from..full + 7).unwrap_or_default();
            for (i, w) in span.windows(8).enumerate() {
                let v = u64::from_le_bytes(w.first_chunk().copied().unwrap_or_default());
                self.put(from + i, v);
            }
            self.inserted = full;
        }
        while self.inserted < upto {
            self.put_tail(self.inserted);
            self.inserted += 1;
        }
    }

    /// Inserts the positions of a match of `n` bytes at `pos` (the ones before are in): inside
    /// a match of [`SPARSE_MIN`] bytes or more, of all but the first and last [`SPARSE_KEEP`]
    /// only every [`SHORT_STRIDE`]th goes in, into the 3- and 4-byte tables only.
    #[inline(always)]
    fn insert_match(&mut self, pos: usize, n: usize) {
        if n >= SPARSE_MIN {
            self.insert_upto(pos + SPARSE_KEEP);
            let to = (pos + n - SPARSE_KEEP).min(self.data.len().saturating_sub(3));
            let from = self.inserted;
            if from < to {
                let span = self.data.get(from..to + 3).unwrap_or_default();
                for (i, w) in span.windows(4).enumerate().step_by(SHORT_STRIDE) {
                    let p = from + i;
                    let v = u32::from_le_bytes(w.first_chunk().copied().unwrap_or_default());
                    let m = mix(u64::from(v));
                    set(&mut self.t, HEAD4 + hash4(m), p as u16);
                    set(&mut self.t, HEAD3 + hash3(m), p as u16);
                }
                self.inserted = to;
            }
        }
        self.insert_upto(pos + n);
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
    /// only matches longer than `beat` (less than 8) count. `(0, 0)` when none.
    ///
    /// The 3- and 4-byte tables hold the newest position of every key, so when theirs is out
    /// of the window there is no match of 3 (or 4) bytes or more at all: most literals cost one
    /// look-up, and the chains are walked only when a 4-byte match exists. With 8 bytes left
    /// (every position but the last 7), one load gives every key.
    #[inline(always)]
    fn find(&mut self, pos: usize, chain: usize, beat: usize) -> (usize, usize) {
        let data = self.data;
        let Some(v) = load8(data, pos) else {
            return self.find_tail(pos, beat);
        };
        // In the window: `1 <= d <= limit`.
        let limit = MAX_DIST.min(pos);
        let m = mix(v);
        let d3 = usize::from((pos as u16).wrapping_sub(at(&self.t, HEAD3 + hash3(m))));
        if d3.wrapping_sub(1) >= limit {
            return (0, 0);
        }
        let d4 = usize::from((pos as u16).wrapping_sub(at(&self.t, HEAD4 + hash4(m))));
        if d4.wrapping_sub(1) >= limit {
            // Only 3-byte matches (`beat < 3`: the 3-byte table's position, if its bytes agree).
            if beat < 3 && load4(data, pos - d3).is_some_and(|w| (w ^ v as u32) & 0xFF_FFFF == 0) {
                return (3, d3);
            }
            return (0, 0);
        }
        let max = MAX_LEN.min(data.len() - pos);
        let head8 = Some(v);
        let (mut best, mut best_dist) = (beat.max(2), 0);
        let mut dist = usize::from((pos as u16).wrapping_sub(at(&self.t, HEADK + hash_key(m))));
        if dist.wrapping_sub(1) < limit {
            let t = &*self.t;
            let mut left = chain;
            // The byte a candidate must have to beat `best` (checked first; `pos + best` is
            // inside, `best < max`).
            let mut want = data.get(pos + best).copied().unwrap_or(0);
            loop {
                let cand = pos - dist;
                if data.get(cand + best) == Some(&want) {
                    let l = self.len_at(cand, pos, max, head8);
                    if l > best {
                        best = l;
                        best_dist = dist;
                        if l >= NICE.min(max) {
                            break;
                        }
                        want = data.get(pos + best).copied().unwrap_or(0);
                    }
                }
                left -= 1;
                if left == 0 {
                    break;
                }
                // Older and still in the window: `dist < next <= limit`, one compare.
                let next = usize::from((pos as u16).wrapping_sub(at(t, PREV + cand % RING)));
                if next.wrapping_sub(dist + 1) >= limit - dist {
                    break;
                }
                dist = next;
            }
        }
        if best < KEY {
            let l = self.len_at(pos - d4, pos, max, head8);
            if l > best {
                best = l;
                best_dist = d4;
            }
        }
        if best_dist != 0 {
            return (best, best_dist);
        }
        if beat < 3 && load4(data, pos - d3).is_some_and(|w| (w ^ v as u32) & 0xFF_FFFF == 0) {
            return (3, d3);
        }
        (0, 0)
    }

    /// [`Finder::find`] for a position fewer than 8 bytes before the end: no chain (a chain
    /// key needs 8 bytes), only the newest positions with the same 4 and 3 bytes.
    #[cold]
    #[inline(never)]
    fn find_tail(&mut self, pos: usize, beat: usize) -> (usize, usize) {
        let data = self.data;
        let max = MAX_LEN.min(data.len().saturating_sub(pos));
        if max < 3 || max <= beat {
            return (0, 0);
        }
        let key = data.get(pos..pos + 3);
        let v3 = match key {
            Some(&[a, b, c]) => u32::from_le_bytes([a, b, c, 0]),
            _ => return (0, 0),
        };
        let d3 = dist_to(pos, at(&self.t, HEAD3 + hash3(mix(u64::from(v3)))));
        if d3 > MAX_DIST {
            return (0, 0);
        }
        if let Some(v4) = load4(data, pos) {
            let d4 = dist_to(pos, at(&self.t, HEAD4 + hash4(mix(u64::from(v4)))));
            if d4 <= MAX_DIST {
                let l = crate::matcher::common_len(data, pos - d4, pos, max);
                if l > beat.max(2) {
                    return (l, d4);
                }
            }
        }
        if beat < 3 && data.get(pos - d3..pos - d3 + 3) == key {
            return (3, d3);
        }
        (0, 0)
    }
}

/// [`fast`] into a sink it owns for the run (a local: its fields can stay in registers).
pub(crate) fn fast_owned<S: Sink>(data: &[u8], mut sink: S) -> S {
    fast(data, &mut sink);
    sink
}

/// Hash chains with one step of lazy matching: see the module comment.
#[inline(always)]
pub(crate) fn fast(data: &[u8], sink: &mut impl Sink) {
    let mut f = Finder::new(data);
    let mut pos = 0;
    let mut cur = f.find(0, CHAIN, 0);
    while let Some(&byte) = data.get(pos) {
        if (3..MAX_LAZY).contains(&cur.0) {
            f.insert_one(pos);
            let next = f.find(pos + 1, CHAIN, cur.0);
            if next.0 > cur.0 {
                if !sink.token(Token::Literal(byte)) {
                    return;
                }
                pos += 1;
                cur = next;
                continue;
            }
        }
        if cur.0 >= 3 {
            let t = Token::Match {
                dist: cur.1 as u16,
                len: cur.0 as u16,
            };
            if !sink.token(t) {
                return;
            }
            f.insert_match(pos, cur.0);
            pos += cur.0;
        } else {
            // A literal run: while the next position's 3 bytes are not in the window, it is a
            // literal without a search (what `find` would answer from the same look-up).
            let mut b = byte;
            let mut v = load8(data, pos);
            loop {
                if !sink.token(Token::Literal(b)) {
                    return;
                }
                match v {
                    Some(v) => f.put(pos, v),
                    None => f.put_tail(pos),
                }
                pos += 1;
                f.inserted = pos;
                v = load8(data, pos);
                match (v, data.get(pos)) {
                    (Some(w), Some(&n))
                        if dist_to(pos, at(&f.t, HEAD3 + hash3(mix(w)))) > MAX_DIST =>
                    {
                        b = n
                    }
                    _ => break,
                }
            }
        }
        cur = f.find(pos, CHAIN, 0);
    }
}
