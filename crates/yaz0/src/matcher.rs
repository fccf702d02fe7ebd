//! Longest-match search over the 0x1000-byte window, shared by every encoder.
//!
//! The exact search ([`Matcher::longest`], used by the encoders that must reproduce a tool's
//! choices) finds the longest match and, among equally long ones, the earliest (farthest)
//! position, as Nintendo's and Whitehole's brute-force loops do. Searches must move forward.
//! - Every candidate matching 4 bytes or more is in a hash list keyed on 4 bytes and linked
//!   oldest-first; a position leaves its list when the one 0x1000 bytes later enters, so the
//!   lists hold exactly the window (entries are 16-bit ring slots, the tables stay in cache).
//!   That list alone decides when the longest match is ≥ 4: walks are farthest-first with a
//!   strict `>` and stop at the maximum possible length; a candidate is first checked at the one
//!   byte that would make it longer than the best so far.
//! - Otherwise every 3-byte match is exactly 3 long and the answer is the oldest one: a plain
//!   newest-first 3-byte chain (cheap to insert into, no expiry) is walked to the window's edge.
//!
//! Runs of one byte are compared in O(1) through a run-length table. The quick search (fast and
//! optimal encoders) walks a newest-first 3-byte chain with a bounded number of candidates.

use crate::token::{MAX_DIST, MAX_LEN};

const HASH_BITS: u32 = 15;
/// Buckets of the window lists: two per window position, so the tables stay in L1/L2.
const TIER_BITS: u32 = 13;

/// Ring size: one slot per window position.
const RING: usize = MAX_DIST;
/// An empty list or link.
const EMPTY: u16 = u16::MAX;

/// Oldest-first hash lists keyed on `W` bytes over the current window. Entries are ring slots
/// (position modulo 0x1000); every listed position is inside the window below the search
/// position, which makes the slot enough to recover it.
struct Tier<const W: usize> {
    /// Oldest and newest slot per hash.
    ends: Vec<[u16; 2]>,
    /// Link to the next newer slot of the same list, per slot.
    next: Vec<u16>,
}

impl<const W: usize> Tier<W> {
    fn new(exact: bool) -> Self {
        let (buckets, ring) = if exact {
            (1 << TIER_BITS, RING)
        } else {
            (0, 0)
        };
        Tier {
            ends: vec![[EMPTY; 2]; buckets],
            next: vec![EMPTY; ring],
        }
    }

    /// Adds the position in ring slot `slot` to list `hp`, first dropping the position that just
    /// left the window from the same slot: it is the oldest entry of its list `hq` (everything
    /// older left before it). An emptied list keeps a stale newest slot; `ends[0]` says it is
    /// empty.
    #[inline(always)]
    fn insert(&mut self, slot: usize, hq: Option<usize>, hp: Option<usize>) {
        if let Some(ends) = hq.and_then(|h| self.ends.get_mut(h))
            && ends[0] == slot as u16
        {
            ends[0] = self.next.get(slot).copied().unwrap_or(EMPTY);
        }
        let Some(ends) = hp.and_then(|h| self.ends.get_mut(h)) else {
            return;
        };
        if let Some(l) = self.next.get_mut(slot) {
            *l = EMPTY;
        }
        let newest = ends[1];
        ends[1] = slot as u16;
        if ends[0] == EMPTY {
            ends[0] = slot as u16;
        } else if let Some(l) = self.next.get_mut(usize::from(newest)) {
            *l = slot as u16;
        }
    }
}

/// The 4 bytes at `at` as a little-endian word.
#[inline(always)]
fn load4(data: &[u8], at: usize) -> Option<u32> {
    let b: [u8; 4] = data.get(at..at + 4)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

/// The window lists' hash of a key of up to 4 bytes.
#[inline(always)]
fn key_hash(v: u32) -> usize {
    (v.wrapping_mul(0x9E37_79B1) >> (32 - TIER_BITS)) as usize
}

#[inline(always)]
fn hash_bits(data: &[u8], pos: usize, width: usize, bits: u32) -> Option<usize> {
    let v = match width {
        4 => {
            let b: [u8; 4] = data.get(pos..pos + 4)?.try_into().ok()?;
            u32::from_le_bytes(b)
        }
        _ => match data.get(pos..pos + 3)? {
            [a, b, c] => u32::from(*a) << 16 | u32::from(*b) << 8 | u32::from(*c),
            _ => return None,
        },
    };
    Some((v.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize)
}

/// The window lists' hash of the 3 bytes at `pos`.
#[inline(always)]
fn key3_hash(data: &[u8], pos: usize) -> Option<usize> {
    let v = match data.get(pos..pos + 4) {
        // One load where 4 bytes remain: the low 3 bytes (little-endian) are the key.
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]) & 0x00FF_FFFF,
        _ => match data.get(pos..pos + 3)? {
            &[a, b, c] => u32::from_le_bytes([a, b, c, 0]),
            _ => return None,
        },
    };
    Some(key_hash(v))
}

#[inline(always)]
fn hash(data: &[u8], pos: usize, width: usize) -> Option<usize> {
    hash_bits(data, pos, width, HASH_BITS)
}

#[inline(always)]
fn tier_hash(data: &[u8], pos: usize, width: usize) -> Option<usize> {
    hash_bits(data, pos, width, TIER_BITS)
}

/// The 8 bytes at `at` as a little-endian word.
#[inline(always)]
fn load8(data: &[u8], at: usize) -> Option<u64> {
    let b: [u8; 8] = data.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(b))
}

/// Length of the common prefix of `data[a..]` and `data[b..]`, at most `max` (a < b).
#[inline(always)]
pub(crate) fn common_len(data: &[u8], a: usize, b: usize, max: usize) -> usize {
    let mut n = 0;
    while n + 8 <= max {
        let (Some(x), Some(y)) = (data.get(a + n..a + n + 8), data.get(b + n..b + n + 8)) else {
            break;
        };
        let (Ok(x), Ok(y)) = (<[u8; 8]>::try_from(x), <[u8; 8]>::try_from(y)) else {
            break;
        };
        let diff = u64::from_le_bytes(x) ^ u64::from_le_bytes(y);
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < max {
        match (data.get(a + n), data.get(b + n)) {
            (Some(x), Some(y)) if x == y => n += 1,
            _ => break,
        }
    }
    n
}

/// Window search state over one input.
pub(crate) struct Matcher<'a> {
    data: &'a [u8],
    /// Exact search: lists keyed on 4 and 3 bytes (empty in quick mode).
    exact: bool,
    t4: Tier<4>,
    /// Exact search, 3-byte matches: newest position per 3-byte hash (+1) and, per ring slot, the
    /// next older one (no expiry: walks stop at the window's edge).
    head3: Vec<u32>,
    prev3: Vec<u32>,
    /// Quick search: newest position per 3-byte hash (+1) and links to older ones (empty in
    /// exact mode).
    head: Vec<u32>,
    prev: Vec<u32>,
    /// `run[i]`: how many bytes from `i` equal `data[i]` (saturating at `u16::MAX`).
    run: Vec<u16>,
    inserted: usize,
}

impl<'a> Matcher<'a> {
    /// A matcher for [`Matcher::longest`] (`exact`) or for [`Matcher::quick`].
    pub(crate) fn new(data: &'a [u8], exact: bool) -> Self {
        let mut run = vec![0u16; data.len()];
        let mut count = 0u16;
        let mut last = None;
        for (r, &b) in run.iter_mut().zip(data).rev() {
            count = if last == Some(b) {
                count.saturating_add(1)
            } else {
                1
            };
            last = Some(b);
            *r = count;
        }
        let (head, prev) = if exact {
            (Vec::new(), Vec::new())
        } else {
            (vec![0; 1 << HASH_BITS], vec![0; data.len()])
        };
        Matcher {
            data,
            exact,
            t4: Tier::new(exact),
            head3: vec![0; if exact { 1 << TIER_BITS } else { 0 }],
            prev3: vec![0; if exact { RING } else { 0 }],
            head,
            prev,
            run,
            inserted: 0,
        }
    }

    /// Adds every position below `upto` to the lists.
    #[inline(always)]
    fn insert_upto(&mut self, upto: usize) {
        if self.exact {
            while self.inserted < upto {
                let p = self.inserted;
                let slot = p % RING;
                let hq = p
                    .checked_sub(RING)
                    .and_then(|q| load4(self.data, q))
                    .map(key_hash);
                // One load gives both keys (the 3-byte key is the low 3 bytes).
                let (h4, h3) = match load4(self.data, p) {
                    Some(v) => (Some(key_hash(v)), Some(key_hash(v & 0x00FF_FFFF))),
                    None => (None, key3_hash(self.data, p)),
                };
                self.t4.insert(slot, hq, h4);
                if let Some(h) = h3
                    && let (Some(head), Some(prev)) =
                        (self.head3.get_mut(h), self.prev3.get_mut(slot))
                {
                    *prev = *head;
                    *head = p as u32 + 1;
                }
                self.inserted += 1;
            }
            return;
        }
        while self.inserted < upto {
            let p = self.inserted;
            if let Some(h) = hash(self.data, p, 3)
                && let (Some(slot), Some(prev)) = (self.head.get_mut(h), self.prev.get_mut(p))
            {
                *prev = *slot;
                *slot = p as u32 + 1;
            }
            self.inserted += 1;
        }
    }

    /// Match length of candidate `c` against `pos`, at most `max`; `rp` is `run[pos]`. Inside runs
    /// of one byte the run table gives the length without comparing.
    #[inline(always)]
    fn match_len(&self, c: usize, pos: usize, max: usize, rp: usize) -> usize {
        if rp < 16 {
            return common_len(self.data, c, pos, max);
        }
        let rc = usize::from(self.run.get(c).copied().unwrap_or(0));
        if rc != rp && rc < usize::from(u16::MAX) && rp < usize::from(u16::MAX) {
            // Both start inside runs of the same byte; the shorter run ends the match.
            if self.data.get(c) == self.data.get(pos) {
                return rc.min(rp).min(max);
            }
            return 0;
        }
        common_len(self.data, c, pos, max)
    }

    /// Longest match for `pos` within the window, comparing at most `cap` bytes (and never past the
    /// input). Ties go to the earliest (farthest) position. Returns `(len, dist)`, `(0, 0)` when no
    /// match of 3 bytes exists.
    pub(crate) fn longest(&mut self, pos: usize, cap: usize) -> (usize, usize) {
        self.longest_from(pos, cap, 3)
    }

    /// [`Matcher::longest`] when only matches of at least `min` bytes matter (a look-ahead that
    /// must beat the current match). Returns `(0, 0)` when there is none.
    pub(crate) fn longest_from(&mut self, pos: usize, cap: usize, min: usize) -> (usize, usize) {
        let max = cap.min(self.data.len().saturating_sub(pos));
        let floor = min.max(3);
        if max < floor {
            return (0, 0);
        }
        self.insert_upto(pos);
        let rp = usize::from(self.run.get(pos).copied().unwrap_or(0));
        // Anything of 4 bytes or more is settled by the 4-byte list.
        if max >= 4
            && let Some(found) = self.walk(&self.t4, pos, max, floor.max(4), rp)
        {
            return found;
        }
        if floor <= 3 {
            return self.oldest3(pos);
        }
        (0, 0)
    }

    /// When no match of 4 bytes exists, every 3-byte match is exactly 3 long: the answer is the
    /// oldest position in the window with the same 3 bytes.
    #[inline(always)]
    fn oldest3(&self, pos: usize) -> (usize, usize) {
        let (Some(h), Some(key)) = (key3_hash(self.data, pos), self.data.get(pos..pos + 3)) else {
            return (0, 0);
        };
        let mut c = self.head3.get(h).copied().unwrap_or(0) as usize;
        let mut found = (0, 0);
        while c != 0 {
            let cand = c - 1;
            if pos - cand > MAX_DIST {
                break;
            }
            if self.data.get(cand..cand + 3) == Some(key) {
                found = (3, pos - cand);
            }
            c = self.prev3.get(cand % RING).copied().unwrap_or(0) as usize;
        }
        found
    }

    /// Walks `tier`'s list for `pos` oldest-first: the longest match of at least `need` and at
    /// most `max` bytes, the earliest on ties, as `(len, dist)`.
    #[inline(always)]
    fn walk<const W: usize>(
        &self,
        tier: &Tier<W>,
        pos: usize,
        max: usize,
        need: usize,
        rp: usize,
    ) -> Option<(usize, usize)> {
        let h = tier_hash(self.data, pos, W)?;
        let mut s = tier.ends.get(h)?[0];
        let (mut best, mut best_pos) = (need - 1, usize::MAX);
        // Listed positions are in pos - 0x1000 .. pos, so a slot names exactly one of them.
        let last = pos.wrapping_sub(1);
        // With 8 bytes to compare, one 8-byte XOR settles every candidate that differs within
        // them (most do) and the best is kept without a branch.
        let head = (max >= 8).then(|| load8(self.data, pos)).flatten();
        while s != EMPTY {
            let cand = last - (last.wrapping_sub(usize::from(s)) % RING);
            s = tier.next.get(usize::from(s)).copied().unwrap_or(EMPTY);
            if let Some(head) = head
                && let Some(c) = load8(self.data, cand)
                && c != head
            {
                let l = ((c ^ head).trailing_zeros() / 8) as usize;
                let better = l > best;
                best = if better { l } else { best };
                best_pos = if better { cand } else { best_pos };
                continue;
            }
            // Only a candidate that also matches at index `best` can be strictly longer.
            if self.data.get(cand + best) != self.data.get(pos + best) {
                continue;
            }
            let l = self.match_len(cand, pos, max, rp);
            if l > best {
                best = l;
                best_pos = cand;
                if l == max {
                    break;
                }
            }
        }
        (best_pos != usize::MAX).then(|| (best, pos - best_pos))
    }

    /// A quick match for `pos`: nearest-first, at most `chain` candidates, stops at `nice` bytes.
    pub(crate) fn quick(&mut self, pos: usize, chain: usize, nice: usize) -> (usize, usize) {
        let max = MAX_LEN.min(self.data.len().saturating_sub(pos));
        if max < 3 {
            return (0, 0);
        }
        self.insert_upto(pos);
        let Some(h) = hash(self.data, pos, 3) else {
            return (0, 0);
        };
        let rp = usize::from(self.run.get(pos).copied().unwrap_or(0));
        let (mut best, mut best_dist) = (0usize, 0usize);
        let mut c = self.head.get(h).copied().unwrap_or(0) as usize;
        let mut left = chain;
        while c != 0 && left > 0 {
            let cand = c - 1;
            let dist = pos - cand;
            if dist > MAX_DIST {
                break;
            }
            // Cheap reject: the byte that would extend the best match must agree.
            if self.data.get(cand + best) == self.data.get(pos + best) {
                let l = self.match_len(cand, pos, max, rp);
                if l > best {
                    best = l;
                    best_dist = dist;
                    if l >= nice.min(max) {
                        break;
                    }
                }
            }
            left -= 1;
            c = self.prev.get(cand).copied().unwrap_or(0) as usize;
        }
        if best < 3 { (0, 0) } else { (best, best_dist) }
    }
}
