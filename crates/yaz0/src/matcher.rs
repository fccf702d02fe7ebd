//! Longest-match search over the 0x1000-byte window, shared by every encoder.
//!
//! The exact search ([`Matcher::longest`], used by the encoders that must reproduce a tool's
//! choices) finds the longest match and, among equally long ones, the earliest (farthest)
//! position, as Nintendo's and Whitehole's brute-force loops do. It keeps three sets of hash lists
//! over the window, keyed on the next 8, 4 and 3 bytes, each linked oldest-first; a
//! position leaves its lists when the one 0x1000 bytes later enters, so the lists hold exactly
//! the window (entries are 16-bit ring slots in fixed-size tables that stay in cache) and
//! searches must move forward:
//! - every candidate matching 8 bytes or more is in the 8-byte list, so that list alone decides
//!   when the longest match is ≥ 8 (the 4-byte lists of real files are long: floats and
//!   records share 4-byte prefixes), walked as below;
//! - every candidate matching 4 bytes or more is in the 4-byte list, so that list alone decides
//!   when the longest match is ≥ 4: the walk is farthest-first with a strict `>` and stops at the
//!   maximum possible length; one 8-byte XOR settles each candidate that differs within 8 bytes,
//!   the others are first checked at the one byte that would make them longer than the best;
//! - otherwise every 3-byte match is exactly 3 long, and the first true match in the 3-byte list
//!   (the oldest) is the answer.
//!
//! Runs of one byte are compared in O(1) through a run-length table. The nearest-first search
//! (EveryFileExplorer's encoder) walks a newest-first 3-byte chain.

use std::cell::Cell;

use crate::token::{MAX_DIST, MAX_LEN};

const HASH_BITS: u32 = 15;
/// Buckets of the window lists: two per window position, so the tables stay in L1/L2.
const TIER_BITS: u32 = 13;

/// Ring size: one slot per window position.
const RING: usize = MAX_DIST;
/// An empty list or link.
const EMPTY: u16 = u16::MAX;

/// Buckets of the window lists.
const BUCKETS: usize = 1 << TIER_BITS;

/// A fixed-size table on the heap (fixed sizes let the compiler drop index checks).
fn table<T: Copy, const N: usize>(fill: T) -> Box<[T; N]> {
    vec![fill; N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| Box::new([fill; N]))
}

/// Oldest-first hash lists over the window. Entries are ring slots (position modulo 0x1000);
/// every listed position is inside the window below the search position, which makes the slot
/// enough to recover it.
struct Lists {
    /// Oldest and newest slot per hash (`ends[0] == EMPTY`: empty list).
    ends: Box<[[u16; 2]; BUCKETS]>,
    /// Link to the next newer slot of the same list, per slot.
    next: Box<[u16; RING]>,
}

impl Lists {
    fn new() -> Lists {
        Lists {
            ends: table([EMPTY; 2]),
            next: table(EMPTY),
        }
    }

    /// Adds the position in ring slot `slot` to list `hp`, first dropping from list `hq` the
    /// position that just left the window from the same slot: it is the oldest entry of that
    /// list (everything older left before it). An emptied list keeps a stale newest slot;
    /// `ends[0]` says it is empty.
    #[inline(always)]
    fn insert(&mut self, slot: usize, hq: Option<usize>, hp: Option<usize>) {
        if let Some(ends) = hq.and_then(|h| self.ends.get_mut(h % BUCKETS))
            && ends[0] == slot as u16
        {
            ends[0] = self.next.get(slot).copied().unwrap_or(EMPTY);
        }
        if let Some(ends) = hp.and_then(|h| self.ends.get_mut(h % BUCKETS)) {
            if let Some(l) = self.next.get_mut(slot) {
                *l = EMPTY;
            }
            let newest = ends[1];
            ends[1] = slot as u16;
            if ends[0] == EMPTY {
                ends[0] = slot as u16;
            } else if let Some(l) = self.next.get_mut(usize::from(newest) % RING) {
                *l = slot as u16;
            }
        }
    }

    /// The oldest slot of list `h`.
    #[inline(always)]
    fn oldest(&self, h: usize) -> u16 {
        self.ends.get(h % BUCKETS).map_or(EMPTY, |e| e[0])
    }

    /// The slot after `s` in its list.
    #[inline(always)]
    fn next(&self, s: u16) -> u16 {
        self.next
            .get(usize::from(s) % RING)
            .copied()
            .unwrap_or(EMPTY)
    }
}

/// The exact search's view of the window: lists keyed on the next 4 bytes and on the next 3.
struct Window {
    l8: Lists,
    l4: Lists,
    l3: Lists,
}

impl Window {
    fn new() -> Box<Window> {
        Box::new(Window {
            l8: Lists::new(),
            l4: Lists::new(),
            l3: Lists::new(),
        })
    }
}

/// The 4 bytes at `at` as a little-endian word.
#[inline(always)]
fn load4(data: &[u8], at: usize) -> Option<u32> {
    let b: [u8; 4] = data.get(at..at + 4)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

/// The window lists' hash of an 8-byte key.
#[inline(always)]
fn key8_hash(v: u64) -> usize {
    (v.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TIER_BITS)) as usize
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

/// The 8 bytes at `at` as a little-endian word.
#[inline(always)]
fn load8(data: &[u8], at: usize) -> Option<u64> {
    let b: [u8; 8] = data.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(b))
}

/// Length of the common prefix of `data[a..]` and `data[b..]`, at most `max` (a < b).
#[inline(always)]
pub(crate) fn common_len(data: &[u8], a: usize, b: usize, max: usize) -> usize {
    let x = data.get(a..).unwrap_or_default();
    let y = data.get(b..).unwrap_or_default();
    let max = max.min(x.len()).min(y.len());
    let (x, y) = (
        x.get(..max).unwrap_or_default(),
        y.get(..max).unwrap_or_default(),
    );
    let mut n = 0;
    for (cx, cy) in x.chunks_exact(8).zip(y.chunks_exact(8)) {
        let (Ok(cx), Ok(cy)) = (<[u8; 8]>::try_from(cx), <[u8; 8]>::try_from(cy)) else {
            break;
        };
        let diff = u64::from_le_bytes(cx) ^ u64::from_le_bytes(cy);
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    let tail = x.get(n..).unwrap_or_default().iter();
    n + tail
        .zip(y.get(n..).unwrap_or_default())
        .take_while(|(p, q)| p == q)
        .count()
}

/// Window search state over one input.
pub(crate) struct Matcher<'a> {
    data: &'a [u8],
    /// Exact search: the window lists (`None` in nearest-first mode).
    win: Option<Box<Window>>,
    /// Nearest-first search: newest position per 3-byte hash (+1) and links to older ones (empty in
    /// exact mode).
    head: Vec<u32>,
    prev: Vec<u32>,
    /// `run[i]`: how many bytes from `i` equal `data[i]` (saturating at `u16::MAX`).
    run: Vec<u16>,
    inserted: usize,
    /// The last long comparison, as `(dist, from, end)`: `data[from..end]` equals the bytes
    /// `dist` earlier and `end` is where they first differ (or the input ends). A comparison at
    /// the same distance starting in `from..end` reads its length off it, so unbounded compares
    /// (Whitehole) over periodic data cost O(1) per search instead of O(remaining input).
    memo: Cell<(usize, usize, usize)>,
}

impl<'a> Matcher<'a> {
    /// A matcher for [`Matcher::longest`] (`exact`) or for [`Matcher::nearest`].
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
            win: exact.then(Window::new),
            head,
            prev,
            run,
            inserted: 0,
            memo: Cell::new((0, 0, 0)),
        }
    }

    /// Adds every position below `upto` to the lists.
    #[inline(always)]
    fn insert_upto(&mut self, upto: usize) {
        if let Some(win) = &mut self.win {
            while self.inserted < upto {
                let p = self.inserted;
                let slot = p % RING;
                // One load gives both keys (the 3-byte key is the low 3 bytes).
                let keys = |v: u32| (Some(key_hash(v)), Some(key_hash(v & 0x00FF_FFFF)));
                let (q4, q3) = p
                    .checked_sub(RING)
                    .and_then(|q| load4(self.data, q))
                    .map_or((None, None), keys);
                let (h4, h3) = match load4(self.data, p) {
                    Some(v) => keys(v),
                    None => (None, key3_hash(self.data, p)),
                };
                let q8 = p
                    .checked_sub(RING)
                    .and_then(|q| load8(self.data, q))
                    .map(key8_hash);
                win.l8.insert(slot, q8, load8(self.data, p).map(key8_hash));
                win.l4.insert(slot, q4, h4);
                win.l3.insert(slot, q3, h3);
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
            return self.compare(c, pos, max);
        }
        let rc = usize::from(self.run.get(c).copied().unwrap_or(0));
        if rc != rp && rc < usize::from(u16::MAX) && rp < usize::from(u16::MAX) {
            // Both start inside runs of the same byte; the shorter run ends the match.
            if self.data.get(c) == self.data.get(pos) {
                return rc.min(rp).min(max);
            }
            return 0;
        }
        self.compare(c, pos, max)
    }

    /// [`common_len`] through the memo of the last long comparison.
    #[inline(always)]
    fn compare(&self, c: usize, pos: usize, max: usize) -> usize {
        /// Shorter comparisons are cheaper than keeping the memo.
        const LONG: usize = MAX_LEN;
        let dist = pos - c;
        let (d, from, end) = self.memo.get();
        if d == dist && (from..end).contains(&pos) {
            return (end - pos).min(max);
        }
        let l = common_len(self.data, c, pos, max);
        // Only a comparison that stopped at a difference or at the input's end knows `end`.
        if l >= LONG && (l < max || pos + l == self.data.len()) {
            self.memo.set((dist, pos, pos + l));
        }
        l
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
        // Anything of 8 bytes or more is settled by the 8-byte list (much shorter than the
        // 4-byte one on real files: floats and records share 4-byte prefixes), anything of 4 or
        // more by the 4-byte list.
        let Some(win) = self.win.as_deref() else {
            return (0, 0);
        };
        if max >= 8
            && let Some(v) = load8(self.data, pos)
        {
            if let Some(found) = self.walk(&win.l8, key8_hash(v), pos, max, floor.max(8), rp) {
                return found;
            }
            if floor >= 8 {
                return (0, 0);
            }
        }
        if max >= 4
            && let Some(v) = load4(self.data, pos)
            && let Some(found) = self.walk(&win.l4, key_hash(v), pos, max, floor.max(4), rp)
        {
            return found;
        }
        if floor <= 3 {
            return self.oldest3(pos);
        }
        (0, 0)
    }

    /// When no match of 4 bytes exists, every 3-byte match is exactly 3 long: the answer is the
    /// oldest position in the window with the same 3 bytes, the first true match of its list.
    #[inline(always)]
    fn oldest3(&self, pos: usize) -> (usize, usize) {
        let (Some(win), Some(h), Some(key)) = (
            self.win.as_deref(),
            key3_hash(self.data, pos),
            self.data.get(pos..pos + 3),
        ) else {
            return (0, 0);
        };
        let last = pos.wrapping_sub(1);
        let mut s = win.l3.oldest(h);
        while s != EMPTY {
            let cand = last - (last.wrapping_sub(usize::from(s)) % RING);
            if self.data.get(cand..cand + 3) == Some(key) {
                return (3, pos - cand);
            }
            s = win.l3.next(s);
        }
        (0, 0)
    }

    /// Walks list `h` of `list` (the 8- or 4-byte lists, holding every candidate that matches
    /// `need` bytes or more) for `pos` oldest-first: the longest match of at least `need` and at
    /// most `max` bytes, the earliest on ties, as `(len, dist)`.
    #[inline(always)]
    fn walk(
        &self,
        list: &Lists,
        h: usize,
        pos: usize,
        max: usize,
        need: usize,
        rp: usize,
    ) -> Option<(usize, usize)> {
        let mut s = list.oldest(h);
        // The best so far as one word, length above distance: a longer match is a larger word,
        // and so is an equally long one farther back, but candidates come oldest-first, so only
        // a strictly longer one replaces the best. Nothing found yet: length `need - 1` with a
        // distance no candidate has.
        const NONE: u64 = u32::MAX as u64;
        let mut best = ((need - 1) as u64) << 32 | NONE;
        // Listed positions are in pos - 0x1000 .. pos, so a slot names exactly one of them.
        let last = pos.wrapping_sub(1);
        // With 8 bytes to compare, one 8-byte XOR settles every candidate that differs within
        // them (most do) and the best is kept without a branch.
        let head = (max >= 8).then(|| load8(self.data, pos)).flatten();
        while s != EMPTY {
            let cand = last - (last.wrapping_sub(usize::from(s)) % RING);
            s = list.next(s);
            let dist = (pos - cand) as u64;
            if let Some(head) = head
                && let Some(c) = load8(self.data, cand)
                && c != head
            {
                let l = u64::from((c ^ head).trailing_zeros() / 8);
                best = best.max(l << 32 | dist);
                continue;
            }
            // Only a candidate that also matches at index `best` can be strictly longer.
            let len = (best >> 32) as usize;
            if self.data.get(cand + len) != self.data.get(pos + len) {
                continue;
            }
            let l = self.match_len(cand, pos, max, rp);
            if l > len {
                best = (l as u64) << 32 | dist;
                if l == max {
                    break;
                }
            }
        }
        (best & NONE != NONE).then_some(((best >> 32) as usize, (best & NONE) as usize))
    }

    /// The longest match for `pos` within `window` bytes, the nearest on ties: the 3-byte chain
    /// walked to the window's end (exact, since the chain holds every earlier position).
    pub(crate) fn nearest(&mut self, pos: usize, window: usize) -> (usize, usize) {
        self.chain_walk(pos, usize::MAX, MAX_LEN, window.min(MAX_DIST))
    }

    /// The longest match for `pos` within `window` bytes, the **farthest** on ties: the whole
    /// 3-byte chain inside the window, an equally long candidate replacing the best.
    pub(crate) fn farthest(&mut self, pos: usize, window: usize) -> (usize, usize) {
        let max = MAX_LEN.min(self.data.len().saturating_sub(pos));
        if max < 3 {
            return (0, 0);
        }
        self.insert_upto(pos);
        let Some(h) = hash(self.data, pos, 3) else {
            return (0, 0);
        };
        let rp = usize::from(self.run.get(pos).copied().unwrap_or(0));
        let window = window.min(MAX_DIST);
        let (mut best, mut best_dist) = (0usize, 0usize);
        let mut c = self.head.get(h).copied().unwrap_or(0) as usize;
        while c != 0 {
            let cand = c - 1;
            let dist = pos - cand;
            if dist > window {
                break;
            }
            // Cheap reject: a candidate at least as long agrees on the best match's last byte.
            let k = best.saturating_sub(1);
            if self.data.get(cand + k) == self.data.get(pos + k) {
                let l = self.match_len(cand, pos, max, rp);
                if l >= best.max(3) {
                    best = l;
                    best_dist = dist;
                }
            }
            c = self.prev.get(cand).copied().unwrap_or(0) as usize;
        }
        if best < 3 { (0, 0) } else { (best, best_dist) }
    }

    /// Walks the 3-byte chain for `pos` nearest-first over at most `chain` candidates within
    /// `window` bytes; a candidate replaces the best only when strictly longer; stops at `nice`.
    #[inline(always)]
    fn chain_walk(
        &mut self,
        pos: usize,
        chain: usize,
        nice: usize,
        window: usize,
    ) -> (usize, usize) {
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
            if dist > window {
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
