//! Longest-match search over the 0x1000-byte window, shared by every encoder.
//!
//! The exact search ([`Matcher::longest`], used by the encoders that must reproduce a tool's
//! choices) finds the longest match and, among equally long ones, the earliest (farthest)
//! position, as Nintendo's and Whitehole's brute-force loops do. It keeps two hash lists over the
//! window, keyed on the next 4 and 3 bytes, each linked oldest-first; a position leaves its list
//! when the one 0x1000 bytes later enters, so the lists hold exactly the window (the links live
//! in a 0x1000-entry ring) and searches must move forward:
//! - every candidate matching 4 bytes or more is in the 4-byte list, so that list alone decides
//!   when the longest match is ≥ 4;
//! - otherwise the first 3-byte candidate that really matches is the answer.
//!
//! Walks are farthest-first with a strict `>` and stop at the maximum possible length; a candidate
//! is first checked at the one byte that would make it longer than the best so far. Runs of one
//! byte are compared in O(1) through a run-length table. The quick search (fast and optimal
//! encoders) walks a newest-first 3-byte chain with a bounded number of candidates.

use crate::token::{MAX_DIST, MAX_LEN};

const HASH_BITS: u32 = 15;
/// Buckets of the window lists: about one per window position, so the tables stay in cache.
const TIER_BITS: u32 = 15;

/// Oldest-first hash lists keyed on `width` bytes over the current window.
struct Tier {
    width: usize,
    /// Newest and oldest position per hash (+1; 0 = empty list).
    newest: Vec<u32>,
    oldest: Vec<u32>,
    /// Link to the next newer position of the same list, indexed by position modulo 0x1000.
    next: Vec<u32>,
    /// The list each ring slot's position was put in (+1; 0 = none), so expiry needs no rehash.
    bucket: Vec<u16>,
}

const RING: usize = MAX_DIST;

impl Tier {
    fn new(width: usize) -> Tier {
        Tier {
            width,
            newest: vec![0; 1 << TIER_BITS],
            oldest: vec![0; 1 << TIER_BITS],
            next: vec![0; RING],
            bucket: vec![0; RING],
        }
    }

    /// Adds `p`, first dropping `p - 0x1000`, which just left the window (it is the oldest entry of
    /// its list: everything older left before it).
    fn insert(&mut self, data: &[u8], p: usize) {
        let slot = p % RING;
        if let Some(q) = p.checked_sub(RING)
            && let Some(h) = self
                .bucket
                .get(slot)
                .and_then(|&b| usize::from(b).checked_sub(1))
            && self.oldest.get(h).copied() == Some(q as u32 + 1)
        {
            let after = self.next.get(slot).copied().unwrap_or(0);
            if let Some(o) = self.oldest.get_mut(h) {
                *o = after;
            }
            if after == 0
                && let Some(n) = self.newest.get_mut(h)
            {
                *n = 0;
            }
        }
        let h = tier_hash(data, p, self.width);
        if let Some(b) = self.bucket.get_mut(slot) {
            *b = h.map_or(0, |h| h as u16 + 1);
        }
        let Some(h) = h else {
            return;
        };
        if let Some(l) = self.next.get_mut(slot) {
            *l = 0;
        }
        let Some(slot) = self.newest.get_mut(h) else {
            return;
        };
        let newest = *slot;
        *slot = p as u32 + 1;
        let link = if newest == 0 {
            self.oldest.get_mut(h)
        } else {
            self.next.get_mut((newest as usize - 1) % RING)
        };
        if let Some(l) = link {
            *l = p as u32 + 1;
        }
    }
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

#[inline(always)]
fn hash(data: &[u8], pos: usize, width: usize) -> Option<usize> {
    hash_bits(data, pos, width, HASH_BITS)
}

#[inline(always)]
fn tier_hash(data: &[u8], pos: usize, width: usize) -> Option<usize> {
    hash_bits(data, pos, width, TIER_BITS)
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
    tiers: Vec<Tier>,
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
        let (tiers, head, prev) = if exact {
            let t = [4, 3].map(Tier::new);
            (t.into_iter().collect(), Vec::new(), Vec::new())
        } else {
            (Vec::new(), vec![0; 1 << HASH_BITS], vec![0; data.len()])
        };
        Matcher {
            data,
            tiers,
            head,
            prev,
            run,
            inserted: 0,
        }
    }

    /// Adds every position below `upto` to the lists.
    #[inline(always)]
    fn insert_upto(&mut self, upto: usize) {
        while self.inserted < upto {
            let p = self.inserted;
            for t in &mut self.tiers {
                t.insert(self.data, p);
            }
            if let Some(h) = (!self.head.is_empty())
                .then(|| hash(self.data, p, 3))
                .flatten()
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
        let mut tiers = std::mem::take(&mut self.tiers);
        let mut found = (0, 0);
        for t in &mut tiers {
            let width = t.width;
            // Anything of 4 bytes or more was settled by the 4-byte list.
            let tier_max = if width == 3 { max.min(3) } else { max };
            let need = floor.max(width);
            if tier_max < need {
                continue;
            }
            let Some(h) = tier_hash(self.data, pos, width) else {
                continue;
            };
            let mut c = t.oldest.get(h).copied().unwrap_or(0) as usize;
            let (mut best, mut best_pos) = (need - 1, usize::MAX);
            while c != 0 {
                let cand = c - 1;
                c = t.next.get(cand % RING).copied().unwrap_or(0) as usize;
                // Only a candidate that also matches at index `best` can be strictly longer.
                if self.data.get(cand + best) != self.data.get(pos + best) {
                    continue;
                }
                let l = self.match_len(cand, pos, tier_max, rp);
                if l > best {
                    best = l;
                    best_pos = cand;
                    if l == tier_max {
                        break;
                    }
                }
            }
            if best_pos != usize::MAX {
                found = (best, pos - best_pos);
                break;
            }
        }
        self.tiers = tiers;
        found
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
