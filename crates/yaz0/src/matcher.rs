//! Longest-match search over the 0x1000-byte window, shared by every encoder.
//!
//! Hash chains index every position whose three bytes are available. The exact search
//! ([`Matcher::longest`]) walks the chain farthest-first with a strict `>` so the earliest position
//! wins ties (what Nintendo's and Whitehole's brute-force loops do) and stops as soon as the maximum
//! possible length is reached. Runs of one byte are compared in O(1) through a run-length table, so
//! zero padding does not make the search quadratic.

use crate::token::MAX_DIST;

const HASH_BITS: u32 = 15;

/// Window search state over one input.
pub(crate) struct Matcher<'a> {
    data: &'a [u8],
    head: Vec<u32>,
    prev: Vec<u32>,
    /// `run[i]`: how many bytes from `i` equal `data[i]` (saturating at `u16::MAX`).
    run: Vec<u16>,
    inserted: usize,
    scratch: Vec<u32>,
}

#[inline(always)]
fn hash3(data: &[u8], pos: usize) -> Option<usize> {
    match data.get(pos..pos + 3) {
        Some([a, b, c]) => {
            let v = u32::from(*a) << 16 | u32::from(*b) << 8 | u32::from(*c);
            Some((v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize)
        }
        _ => None,
    }
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

impl<'a> Matcher<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
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
        Matcher {
            data,
            head: vec![0; 1 << HASH_BITS],
            prev: vec![0; data.len()],
            run,
            inserted: 0,
            scratch: Vec::with_capacity(MAX_DIST),
        }
    }

    /// Adds every position below `upto` to the chains.
    #[inline(always)]
    fn insert_upto(&mut self, upto: usize) {
        while self.inserted < upto {
            let p = self.inserted;
            if let Some(h) = hash3(self.data, p)
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
            // Both start inside runs of the same byte (the hash matched and the first byte is
            // checked below); the shorter run ends the match.
            if self.data.get(c) == self.data.get(pos) {
                return rc.min(rp).min(max);
            }
            return 0;
        }
        common_len(self.data, c, pos, max)
    }

    /// Longest match for `pos` within the window, comparing at most `cap` bytes (and never past the
    /// input). Ties go to the earliest (farthest) position. Returns `(len, dist)`; `len < 3` means
    /// no match worth using.
    pub(crate) fn longest(&mut self, pos: usize, cap: usize) -> (usize, usize) {
        let max = cap.min(self.data.len().saturating_sub(pos));
        if max < 3 {
            return (0, 0);
        }
        self.insert_upto(pos);
        let Some(h) = hash3(self.data, pos) else {
            return (0, 0);
        };
        let rp = usize::from(self.run.get(pos).copied().unwrap_or(0));
        self.scratch.clear();
        let mut c = self.head.get(h).copied().unwrap_or(0) as usize;
        while c != 0 {
            let cand = c - 1;
            if pos - cand > MAX_DIST {
                break;
            }
            self.scratch.push(cand as u32);
            c = self.prev.get(cand).copied().unwrap_or(0) as usize;
        }
        let (mut best, mut best_pos) = (0usize, 0usize);
        for &cand in self.scratch.iter().rev() {
            let cand = cand as usize;
            // Only a candidate that also matches at index `best` can be strictly longer.
            if best > 0 && self.data.get(cand + best) != self.data.get(pos + best) {
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
        if best < 3 {
            (0, 0)
        } else {
            (best, pos - best_pos)
        }
    }

    /// A quick match for `pos`: nearest-first, at most `chain` candidates, stops at `nice` bytes.
    pub(crate) fn quick(&mut self, pos: usize, chain: usize, nice: usize) -> (usize, usize) {
        let max = crate::token::MAX_LEN.min(self.data.len().saturating_sub(pos));
        if max < 3 {
            return (0, 0);
        }
        self.insert_upto(pos);
        let Some(h) = hash3(self.data, pos) else {
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
