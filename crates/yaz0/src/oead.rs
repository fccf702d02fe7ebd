//! oead's Yaz0 compressor (`oead.yaz0.compress`, oead 1.3.0): the token decisions of zlib-ng's
//! deflate match finder (a 2020 zlib-ng fork) run with a 4 KiB window, whose literals and matches
//! oead writes out as Yaz0 tokens. Levels below 6 are raised to 6 by oead.
//!
//! What the model has to follow, because each of these changes which token comes out:
//! - the window: `w_size` 0x1000, so distances stop at `MAX_DIST` = 0x1000 − 262 (zlib keeps
//!   `MAX_MATCH + MIN_MATCH + 1` bytes of look-ahead); matches stop at zlib's 258 bytes;
//! - the hash chains: one 15-bit hash per position (zlib's classic 3-byte hash from level 7,
//!   whose collisions decide what a bounded walk reaches; zlib-ng's 4-byte hash at level 6, so
//!   level 6 practically never finds a 3-byte match), newest first, with a 0x1000-entry link
//!   ring; position 0 is the empty-chain marker and never matches;
//! - the chain walk: candidates are pre-checked on two bytes at the start and two bytes ending at
//!   the length to beat, the walk gives up after `max_chain` candidates (a quarter of them when
//!   the match to beat is already `good_length` long) and stops at the first candidate reaching
//!   `nice_length` (or the end of the input);
//! - the strategy: level 6 is zlib-ng's "medium" (a match and the one right after it, the second
//!   one possibly pulled left over the first, with a 8 KiB sliding buffer whose refills drop the
//!   pending look-ahead), levels 7–9 zlib's lazy "slow" strategy (a match is kept only if the
//!   next position's match is not longer; no second look when it is `max_lazy` long).
//!
//! Both stream ends are oead's: a group byte starts as 0xFF, so a stream whose last group is full
//! (or that has no token) ends with one 0xFF byte.

use crate::token::Token;

/// Distance limit: the window minus zlib's minimum look-ahead (258 + 3 + 1).
const MAX_DIST: usize = 0x1000 - MIN_LOOKAHEAD;
const MIN_LOOKAHEAD: usize = MAX_MATCH + 3 + 1;
/// zlib's longest match.
const MAX_MATCH: usize = 258;
/// The link ring (`prev`) is indexed by position modulo the window size.
const WMASK: usize = 0xFFF;
const HASH_MASK: u32 = 0x7FFF;
/// zlib-ng keeps twice the window in its buffer and slides it down by one window at a time.
const BUFFER: usize = 0x2000;

/// A level of oead's compressor that this crate reproduces.
#[derive(Debug, Clone, Copy)]
struct Config {
    good: usize,
    lazy: usize,
    nice: usize,
    chain: usize,
}

fn config(level: u8) -> Config {
    let (good, lazy, nice, chain) = match level {
        6 => (8, 16, 128, 128),
        7 => (8, 32, 128, 256),
        8 => (32, 128, 258, 1024),
        _ => (32, 258, 258, 4096),
    };
    Config {
        good,
        lazy,
        nice,
        chain,
    }
}

struct Deflate<'a> {
    data: &'a [u8],
    cfg: Config,
    /// Level 6 hashes 4 bytes (levels 7–9 hash 3).
    hash4: bool,
    /// Newest position per hash (0 = empty).
    head: Vec<u32>,
    /// Next older position of the same hash, by position modulo the window.
    prev: Vec<u32>,
}

impl<'a> Deflate<'a> {
    fn new(data: &'a [u8], level: u8) -> Self {
        Deflate {
            data,
            cfg: config(level),
            hash4: level < 7,
            head: vec![0; HASH_MASK as usize + 1],
            prev: vec![0; WMASK + 1],
        }
    }

    #[inline(always)]
    fn byte(&self, i: usize) -> u8 {
        self.data.get(i).copied().unwrap_or(0)
    }

    /// The chain key of position `p`. Levels 7–9: zlib's classic 3-byte hash (5-bit shifts, so
    /// the first byte's top two bits fall out: `c0 00 00` shares the chain of `00 00 00`, which
    /// at level 7's 256-candidate limit hides such matches behind zero runs). Level 6: zlib-ng's
    /// 4-byte multiplicative hash. Bytes past the end read as 0.
    #[inline(always)]
    fn hash(&self, p: usize) -> usize {
        let [a, b, c, d] = [0, 1, 2, 3].map(|k| u32::from(self.byte(p + k)));
        let h = if self.hash4 {
            3483 * a + 23081 * b + 6954 * c + 20947 * d
        } else {
            (a << 10) ^ (b << 5) ^ c
        };
        (h & HASH_MASK) as usize
    }

    /// Adds `p` to its chain and returns the previous head (0 = none). A position that already
    /// heads its chain is not linked to itself and is returned as its own head, so a search from
    /// it finds nothing.
    #[inline(always)]
    fn insert(&mut self, p: usize) -> usize {
        let h = self.hash(p);
        let Some(slot) = self.head.get_mut(h) else {
            return 0;
        };
        let old = *slot as usize;
        if old == p {
            return p;
        }
        *slot = p as u32;
        if let Some(l) = self.prev.get_mut(p & WMASK) {
            *l = old as u32;
        }
        old
    }

    #[inline(always)]
    fn pair(&self, i: usize) -> (u8, u8) {
        (self.byte(i), self.byte(i + 1))
    }

    /// zlib-ng's chain walk from `cur` for the string at `pos`, beating `prev_len`. Returns the
    /// length (at least `prev_len`, capped at what is left) and the start of a longer match.
    fn longest_match(&self, pos: usize, cur: usize, prev_len: usize) -> (usize, Option<usize>) {
        let left = self.data.len() - pos;
        let mut best = prev_len.max(1);
        let mut chain = self.cfg.chain;
        if best >= self.cfg.good {
            chain >>= 2;
        }
        let nice = self.cfg.nice.min(left);
        let limit = pos.saturating_sub(MAX_DIST);
        let start = self.pair(pos);
        let mut end = self.pair(pos + best - 1);
        let mut found = None;
        let mut c = cur;
        if c >= pos {
            return (best.min(left), None);
        }
        loop {
            if self.pair(c + best - 1) == end && self.pair(c) == start {
                let len = crate::matcher::common_len(self.data, c, pos, MAX_MATCH.min(left));
                // Past the end zlib compares stale window bytes; a match reaching the end has
                // `len == left >= nice` and stops the walk either way.
                if len > best {
                    found = Some(c);
                    best = len;
                    if len >= nice {
                        break;
                    }
                    end = self.pair(pos + best - 1);
                }
            }
            c = self.prev.get(c & WMASK).copied().unwrap_or(0) as usize;
            if c <= limit {
                break;
            }
            chain -= 1;
            if chain == 0 {
                break;
            }
        }
        (best.min(left), found)
    }

    /// Levels 7–9: zlib's lazy evaluation.
    fn slow(&mut self, sink: &mut impl FnMut(Token) -> bool) {
        let n = self.data.len();
        let mut pos = 0usize;
        let (mut match_len, mut match_start) = (2usize, 0usize);
        let mut pending = false;
        while pos < n {
            let left = n - pos;
            let head = if left >= 3 { self.insert(pos) } else { 0 };
            let (prev_len, prev_start) = (match_len, match_start);
            match_len = 2;
            if head != 0 && prev_len < self.cfg.lazy && pos - head <= MAX_DIST {
                let (len, start) = self.longest_match(pos, head, prev_len);
                match_len = len;
                if let Some(s) = start {
                    match_start = s;
                }
            }
            if prev_len >= 3 && match_len <= prev_len {
                let t = Token::Match {
                    dist: (pos - 1 - prev_start) as u16,
                    len: prev_len as u16,
                };
                if !sink(t) {
                    return;
                }
                // Every covered position goes into the chains (the last two only if 3 bytes
                // remain there).
                let last = (pos + prev_len - 2).min(n.saturating_sub(3));
                for p in pos + 1..=last {
                    self.insert(p);
                }
                pending = false;
                match_len = 2;
                pos += prev_len - 1;
            } else if pending {
                if !sink(Token::Literal(self.byte(pos - 1))) {
                    return;
                }
                pos += 1;
            } else {
                pending = true;
                pos += 1;
            }
        }
        if pending {
            sink(Token::Literal(self.byte(pos - 1)));
        }
    }

    /// A chain search at `pos` as the medium strategy does it: no match shorter than 3, no
    /// match from a position at or after `pos`.
    fn medium_search(&self, pos: usize, head: usize) -> Span {
        let mut m = Span {
            start: 0,
            len: 1,
            pos,
            org: pos,
        };
        if head != 0 && pos - head <= MAX_DIST {
            let (len, start) = self.longest_match(pos, head, 2);
            if let Some(s) = start {
                m.start = s;
            }
            m.len = if len < 3 || m.start >= pos { 1 } else { len };
        }
        m
    }

    /// Inserts the positions a token covers, as zlib-ng's `insert_match` does.
    fn insert_span(&mut self, m: Span, left: usize) {
        if left <= m.len + 3 || m.len < 3 {
            return;
        }
        if m.len <= 16 * self.cfg.lazy {
            let from = (m.pos + 1).max(m.org);
            for p in from..m.pos + m.len {
                self.insert(p);
            }
        } else {
            self.insert(m.pos + m.len - 1);
        }
    }

    /// Level 6: zlib-ng's medium strategy over its sliding 8 KiB buffer (`base` = absolute
    /// position of the buffer start; the buffer slides by 0x1000 when the position passes
    /// 0x1000 + `MAX_DIST` into it and the look-ahead runs short).
    fn medium(&mut self, sink: &mut impl FnMut(Token) -> bool) {
        let n = self.data.len();
        let mut base = 0usize;
        let mut pos = 0usize;
        let mut next: Option<Span> = None;
        loop {
            let mut left = (n.min(base + BUFFER)) - pos;
            if left < MIN_LOOKAHEAD {
                loop {
                    if pos - base >= 0x1000 + MAX_DIST {
                        base += 0x1000;
                    }
                    left = n.min(base + BUFFER) - pos;
                    if left >= MIN_LOOKAHEAD || base + BUFFER >= n {
                        break;
                    }
                }
                if left == 0 {
                    break;
                }
                next = None;
            }
            let mut cur = match next.take() {
                Some(m) => m,
                None => {
                    let head = if left >= 3 { self.insert(pos) } else { 0 };
                    self.medium_search(pos, head)
                }
            };
            self.insert_span(cur, left);
            if left > MIN_LOOKAHEAD && cur.pos + cur.len - base < BUFFER - MIN_LOOKAHEAD {
                let at = cur.pos + cur.len;
                let head = self.insert(at);
                let mut nx = self.medium_search(at, head);
                if nx.len >= 3 {
                    self.fizzle(&mut cur, &mut nx, base);
                }
                next = Some(nx);
            }
            if cur.len < 3 {
                for p in cur.pos..cur.pos + cur.len {
                    if !sink(Token::Literal(self.byte(p))) {
                        return;
                    }
                }
            } else if !sink(Token::Match {
                dist: (cur.pos - cur.start) as u16,
                len: cur.len as u16,
            }) {
                return;
            }
            pos = cur.pos + cur.len;
        }
    }

    /// zlib-ng's `fizzle_matches`: moves the next match left over the current one while the
    /// bytes before both agree; kept only when the current match shrinks to at most one byte.
    fn fizzle(&self, cur: &mut Span, next: &mut Span, base: usize) {
        if cur.len <= 1 || cur.len > 1 + next.start - base || cur.len > 1 + next.pos - base {
            return;
        }
        if self.byte(next.start + 1 - cur.len) != self.byte(next.pos + 1 - cur.len) {
            return;
        }
        let (mut c, mut n) = (*cur, *next);
        let mut changed = false;
        while n.start > 0 && self.byte(n.start - 1) == self.byte(n.pos - 1) {
            if c.len < 1 || n.pos - base == 0 || n.len >= 256 || n.start - base <= 1 {
                break;
            }
            n.pos -= 1;
            n.start -= 1;
            n.len += 1;
            c.len -= 1;
            changed = true;
        }
        if changed && c.len <= 1 && n.len != 2 {
            n.org += 1;
            *cur = c;
            *next = n;
        }
    }
}

/// One medium-strategy token: `len` bytes at `pos` copied from `start` (`len` 1 = a literal);
/// `org` = first position not yet in the chains.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    len: usize,
    pos: usize,
    org: usize,
}

/// Runs oead's compressor at `level` (6..=9), feeding tokens to `sink` until it returns `false`.
pub(crate) fn oead(data: &[u8], level: u8, sink: &mut impl FnMut(Token) -> bool) {
    let mut d = Deflate::new(data, level);
    if level <= 6 {
        d.medium(sink);
    } else {
        d.slow(sink);
    }
}
