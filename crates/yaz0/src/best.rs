//! The optimal-parse encoder ([`crate::Encoder::Best`]): shortest path over bit costs.
//!
//! A token costs 1 flag bit plus 8 (literal), 16 (match of 3..=17 bytes) or 24 bits (18..=0x111);
//! with the flag bytes that is the stream size to within the last partial flag byte, and a parse
//! with fewer bits never takes more bytes. Every match length at every position is considered:
//! the exact longest match per position (a binary-tree match finder, runs of one byte answered
//! directly) supplies all shorter lengths at the same distance, and any distance costs the same. So no Yaz0 parse of the
//! input is smaller; ties keep the literal, then the shortest length (deterministic).

use crate::matcher::common_len;
use crate::token::{MAX_DIST, MAX_LEN, Token, emit};

/// Cost in bits of a token of `len` bytes (1 flag bit + payload); `len < 3` is a literal.
#[inline(always)]
fn cost(len: usize) -> u32 {
    match len {
        0..=2 => 9,
        3..=17 => 17,
        _ => 25,
    }
}

/// Ring of tree nodes: more than the window, so the node a search is rewriting (the new
/// position's) is never one it still has to read (the one 0x1000 back is a candidate).
const RING: usize = 2 * MAX_DIST;
const HASH_BITS: u32 = 14;
const NONE: u32 = u32::MAX;

/// A binary-tree match finder (LZMA's `bt` scheme) over the positions [`Tree::insert`] is given:
/// per hash of the next 3 bytes, they form a binary search tree ordered by the bytes that follow
/// them (compared up to 0x111 bytes or the input's end), newest at the root, every node older
/// than its parent. Inserting a position searches the tree for it and re-roots the tree at it;
/// the longest match in a sorted set is with a neighbour in the order, and both neighbours are on
/// the search path, so the search is exact over the inserted positions. A node farther than
/// 0x1000 bytes is cut off with its whole subtree (all older). Two positions equal over 0x111
/// bytes (or to the input's end) are interchangeable for every later search, so the older one
/// leaves the tree. The distance returned is one of the longest matches', not a particular one.
struct Tree<'a> {
    data: &'a [u8],
    head: Vec<u32>,
    /// `son[2 * slot]` = smaller child, `son[2 * slot + 1]` = larger child.
    son: Vec<u32>,
}

impl<'a> Tree<'a> {
    fn new(data: &'a [u8]) -> Self {
        Tree {
            data,
            head: vec![NONE; 1 << HASH_BITS],
            son: vec![NONE; 2 * RING],
        }
    }

    /// The longest match for `pos` among the positions inserted before (`(0, 0)` when none of 3
    /// bytes), then adds `pos`. Positions must come in increasing order.
    fn insert(&mut self, pos: usize) -> (usize, usize) {
        let data = self.data;
        let son = &mut self.son;
        let n = data.len();
        let max = MAX_LEN.min(n.saturating_sub(pos));
        let Some(&[a, b, c]) = data.get(pos..pos + 3) else {
            return (0, 0);
        };
        let h = (u32::from_le_bytes([a, b, c, 0]).wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS))
            as usize;
        let Some(root) = self.head.get_mut(h) else {
            return (0, 0);
        };
        let mut cur = *root;
        *root = pos as u32;
        let slot = pos % RING;
        // Where the next smaller / larger node goes, and how many bytes every node on that
        // side is known to share with `pos`.
        let (mut ptr1, mut ptr0) = (2 * slot, 2 * slot + 1);
        let (mut len1, mut len0) = (0usize, 0usize);
        let (mut best, mut best_dist) = (2usize, 0usize);
        loop {
            let cm = cur as usize;
            if cur == NONE || pos - cm > MAX_DIST {
                if let Some(x) = son.get_mut(ptr0) {
                    *x = NONE;
                }
                if let Some(x) = son.get_mut(ptr1) {
                    *x = NONE;
                }
                break;
            }
            let pair = 2 * (cm % RING);
            let mut len = len0.min(len1);
            if data.get(cm + len) == data.get(pos + len) {
                len += common_len(data, cm + len + 1, pos + len + 1, max - len - 1) + 1;
                if len > best {
                    best = len;
                    best_dist = pos - cm;
                }
                if len >= max {
                    let (l, r) = (
                        son.get(pair).copied().unwrap_or(NONE),
                        son.get(pair + 1).copied().unwrap_or(NONE),
                    );
                    if let Some(x) = son.get_mut(ptr1) {
                        *x = l;
                    }
                    if let Some(x) = son.get_mut(ptr0) {
                        *x = r;
                    }
                    break;
                }
            }
            if data.get(cm + len) < data.get(pos + len) {
                if let Some(x) = son.get_mut(ptr1) {
                    *x = cur;
                }
                ptr1 = pair + 1;
                len1 = len;
                cur = son.get(ptr1).copied().unwrap_or(NONE);
            } else {
                if let Some(x) = son.get_mut(ptr0) {
                    *x = cur;
                }
                ptr0 = pair;
                len0 = len;
                cur = son.get(ptr0).copied().unwrap_or(NONE);
            }
        }
        if best_dist != 0 {
            (best, best_dist)
        } else {
            (0, 0)
        }
    }
}

/// Positions with at most this many bytes of their own run (the run's length from them) go to
/// the tree; the others are answered from the runs.
const RUN_MIN: usize = 3;

/// The longest match (length, distance) at every position; `(0, 0)` where none of 3 bytes.
///
/// A position `p` with `rp = run[p] <= 3` bytes of one byte before a different one can only
/// match more than `rp` bytes with a position whose run is exactly `rp` long too, and any
/// 3-byte run inside the window leaves such a position (its last 3 bytes) inside it: those
/// positions go into the [`Tree`], which answers them exactly (an `rp = 3` position inside a
/// longer run also has the 3 bytes 1 back). Positions deeper in runs (`rp > 3`) would make the
/// trees deep and are answered directly, exactly, from the earlier maximal runs of the byte:
/// - inside a run (not its first byte), `rp` bytes before its end `E`: a candidate can only beat
///   the `rp` bytes 1 back if it sits exactly `rp` bytes before the end `e` of an earlier run at
///   least `rp` long; it then matches `rp + q(e)` bytes, `q(e)` being the common length after
///   both runs, at distance `E - e` (within the window iff `E - e <= 0x1000`);
/// - a run's first byte, the run `len` long: per earlier run, `len + q(e)` at `E - e` when the
///   part of that run inside the window is at least `len` long, else that part's length from its
///   first position in the window.
fn longest_matches(data: &[u8]) -> Vec<(u16, u16)> {
    let n = data.len();
    let mut tree = Tree::new(data);
    let mut found: Vec<(u16, u16)> = Vec::with_capacity(n);
    // Runs of more than RUN_MIN bytes seen so far, per byte value: (start, end). The loop goes
    // run by run, so these are maximal runs.
    let mut runs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); 256];
    // The same runs chained per (byte, byte after the run): (start, end, the next older run's
    // index in `chained`), the newest per key in `chain_head`.
    let mut chained: Vec<(usize, usize, u32)> = Vec::new();
    let mut chain_head: Vec<u32> = vec![NONE; 1 << 16];
    // The newest run of exactly RUN_MIN bytes per byte value (its start); `runs` holds the longer.
    let mut last3: Vec<Option<usize>> = vec![None; 256];
    // best[rp] for the current run: the (q, e) of the earlier run giving the longest match.
    let mut best: Vec<(usize, usize)> = Vec::new();
    // sufmax[rp]: the longest q so far over runs at least rp long (slot >= rp).
    let mut sufmax: Vec<usize> = Vec::new();
    let mut pos = 0;
    while pos < n {
        let b = data.get(pos).copied().unwrap_or(0);
        let end = pos
            + data
                .get(pos..)
                .map_or(0, |r| r.iter().take_while(|&&x| x == b).count());
        let len = end - pos;
        if len <= RUN_MIN {
            for p in pos..end {
                let (l, d) = tree.insert(p);
                found.push((l as u16, d as u16));
            }
            if len == RUN_MIN
                && let Some(v) = last3.get_mut(usize::from(b))
            {
                *v = Some(pos);
            }
            pos = end;
            continue;
        }
        // Positions pos + 1 .. end - RUN_MIN + 1 have rp = end - p >= RUN_MIN.
        let top = (len - 1).min(MAX_LEN);
        best.clear();
        best.resize(top + 1, (0, 0));
        sufmax.clear();
        sufmax.resize(top + 1, 0);
        let cap = MAX_LEN.min(n - pos);
        // The run's first position: see the function comment.
        let mut first = (0usize, 0usize);
        // Without the bytes after the runs, an earlier run gives the first byte what it has
        // inside the window, at most `len` (then at `end - e`, the same bytes after); the
        // nearest run reaching that bound ends the scan.
        let full = len.min(cap);
        let list = runs.get(usize::from(b)).map_or(&[][..], |v| &v[..]);
        for &(s, e) in list.iter().rev() {
            if pos - e >= MAX_DIST {
                break;
            }
            // The earlier run's first position inside the window, and how long it still is.
            let lo = s.max(pos.saturating_sub(MAX_DIST));
            let m = e - lo;
            if end - e > MAX_DIST || m < len {
                // (The first case implies m < len: shorter than this run inside the window.)
                if m.min(cap) > first.0 {
                    first = (m.min(cap), pos - lo);
                }
            } else if full > first.0 {
                first = (full, end - e);
            }
            if first.0 >= full {
                break;
            }
        }
        // The bytes after the runs (q, their common length) count only for earlier runs followed
        // by the same byte as this one: those chained under (byte, next byte), nearest first.
        // q is compared only when it can matter: for the interior when it beats every run at
        // least as long seen so far (ties keep those: same lengths), for the first byte when it
        // beats `first`. Either needs the byte at that bound equal; most runs fail that compare.
        let mut k = data
            .get(end)
            .and_then(|&nb| chain_head.get(usize::from(b) << 8 | usize::from(nb)))
            .copied()
            .unwrap_or(NONE);
        while let Some(&(s, e, older)) = chained.get(k as usize) {
            k = older;
            if pos - e >= MAX_DIST {
                break;
            }
            if end - e > MAX_DIST {
                continue;
            }
            let lo = s.max(pos.saturating_sub(MAX_DIST));
            let m = e - lo;
            let slot = (e - s).min(top);
            let t = sufmax.get(slot).copied().unwrap_or(0);
            let differs = |k: usize| data.get(end + k).is_none_or(|x| data.get(e + k) != Some(x));
            let for_slot = !differs(t);
            let for_first = m >= len && first.0 < cap && (first.0 < len || !differs(first.0 - len));
            if for_slot || for_first {
                let q = common_len(data, e, end, MAX_LEN);
                if m >= len && (len + q).min(cap) > first.0 {
                    first = ((len + q).min(cap), end - e);
                }
                if q > t {
                    if let Some(x) = best.get_mut(slot) {
                        *x = (q, e);
                    }
                    for r in (0..=slot).rev() {
                        match sufmax.get_mut(r) {
                            Some(v) if *v < q => *v = q,
                            _ => break,
                        }
                    }
                }
            }
        }
        // A 3-byte run (not in `runs`) gives 3 bytes when wholly inside the window; the newest
        // is the nearest.
        if first.0 < RUN_MIN
            && let Some(&Some(s3)) = last3.get(usize::from(b))
            && pos - s3 <= MAX_DIST
            && cap >= RUN_MIN
        {
            first = (RUN_MIN, pos - s3);
        }
        found.push(if first.0 >= 3 {
            (first.0 as u16, first.1 as u16)
        } else {
            (0, 0)
        });
        // Longest runs first: best[rp] = best over runs at least rp long.
        for r in (0..top).rev() {
            let (hi, lo) = (best.get(r + 1).copied(), best.get(r).copied());
            if let (Some(hi), Some(lo)) = (hi, lo)
                && hi.1 != 0
                && (lo.1 == 0 || hi.0 > lo.0)
                && let Some(x) = best.get_mut(r)
            {
                *x = hi;
            }
        }
        for p in pos + 1..end {
            let rp = end - p;
            let cap = MAX_LEN.min(n - p);
            let found_here = if rp < RUN_MIN {
                tree.insert(p)
            } else if rp == RUN_MIN {
                // In the tree too; 3 bytes 1 back at least.
                match tree.insert(p) {
                    (l, d) if l >= RUN_MIN => (l, d),
                    _ => (RUN_MIN, 1),
                }
            } else if rp >= MAX_LEN {
                (cap, 1)
            } else {
                match best.get(rp).copied() {
                    Some((q, e)) if e != 0 && q > 0 => ((rp + q).min(cap), end - e),
                    _ => (rp.min(cap), 1),
                }
            };
            found.push((found_here.0 as u16, found_here.1 as u16));
        }
        if let Some(v) = runs.get_mut(usize::from(b)) {
            v.push((pos, end));
        }
        if let Some(&nb) = data.get(end)
            && let Some(h) = chain_head.get_mut(usize::from(b) << 8 | usize::from(nb))
        {
            chained.push((pos, end, *h));
            *h = (chained.len() - 1) as u32;
        }
        pos = end;
    }
    found
}

/// Optimal parse: for every position the longest match (any shorter prefix of it is available at
/// the same distance), then a backward shortest-path pass over bit costs.
pub(crate) fn best(data: &[u8], sink: &mut impl FnMut(Token) -> bool) {
    let n = data.len();
    let found = longest_matches(data);
    // total[i] = cheapest bits to encode data[i..]; choice[i] = length taken at i (1 = literal).
    // Lengths 3..=17 cost the same, and so do 18..=0x111: the short class is scanned, the long
    // class is a sliding-window minimum over total[i + 18 ..= i + len(i)]. Because the longest
    // match at i + 1 is at least len(i) - 1, the window's right end never grows as i falls, so a
    // monotone deque answers it in amortised O(1); where it would grow, the class is scanned.
    let mut total = vec![0u32; n + 1];
    let mut choice = vec![1u16; n];
    let mut window: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let mut last_right = usize::MAX;
    let at = |t: &[u32], j: usize| t.get(j).copied().unwrap_or(u32::MAX / 2);
    for i in (0..n).rev() {
        let maxlen = usize::from(found.get(i).map_or(0, |f| f.0));
        let mut best_cost = cost(1) + at(&total, i + 1);
        let mut best_len = 1usize;
        // The cheapest continuation after a short match, the shortest length on ties (a min
        // over the slice, then one search for where it is when it wins).
        if let Some(class) = total.get(i + 3..=i + maxlen.min(17))
            && let Some(&min) = class.iter().min()
            && cost(3) + min < best_cost
        {
            best_cost = cost(3) + min;
            best_len = 3 + class.iter().position(|&t| t == min).unwrap_or(0);
        }
        // Feed index i + 18 into the window (newest, smallest index, at the back).
        let j = i + 18;
        if j <= n {
            while window
                .back()
                .is_some_and(|&b| at(&total, b) >= at(&total, j))
            {
                window.pop_back();
            }
            window.push_back(j);
        }
        if maxlen >= 18 {
            let right = i + maxlen;
            if right <= last_right {
                while window.front().is_some_and(|&f| f > right) {
                    window.pop_front();
                }
                last_right = right;
                if let Some(&f) = window.front() {
                    let c = cost(18) + at(&total, f);
                    if c < best_cost {
                        best_cost = c;
                        best_len = f - i;
                    }
                }
            } else {
                if let Some(class) = total.get(i + 18..=i + maxlen)
                    && let Some(&min) = class.iter().min()
                    && cost(18) + min < best_cost
                {
                    best_cost = cost(18) + min;
                    best_len = 18 + class.iter().position(|&t| t == min).unwrap_or(0);
                }
            }
        }
        if let (Some(t), Some(ch)) = (total.get_mut(i), choice.get_mut(i)) {
            *t = best_cost;
            *ch = best_len as u16;
        }
    }
    let mut pos = 0;
    while pos < n {
        let l = usize::from(choice.get(pos).copied().unwrap_or(1));
        let dist = usize::from(found.get(pos).map_or(0, |f| f.1));
        match emit(sink, data, pos, if l >= 3 { l } else { 0 }, dist) {
            Some(k) => pos += k,
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Longest match length at `p` by brute force (window 0x1000, cap 0x111).
    fn brute(data: &[u8], p: usize) -> usize {
        let cap = MAX_LEN.min(data.len() - p);
        (p.saturating_sub(MAX_DIST)..p)
            .map(|c| common_len(data, c, p, cap))
            .max()
            .filter(|&l| l >= 3)
            .unwrap_or(0)
    }

    /// Runs of a few bytes with varied lengths, some noise: the shapes the run shortcut handles.
    fn runs_and_noise() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec((0u8..3, 1usize..40, any::<u8>()), 0..120).prop_map(|parts| {
            let mut v = Vec::new();
            for (b, n, noise) in parts {
                v.extend(std::iter::repeat_n(b, n));
                if noise % 3 == 0 {
                    v.push(noise);
                }
            }
            v
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn longest_matches_are_exact(data in runs_and_noise()) {
            let found = longest_matches(&data);
            prop_assert_eq!(found.len(), data.len());
            for (p, &(len, dist)) in found.iter().enumerate() {
                let (len, dist) = (usize::from(len), usize::from(dist));
                prop_assert_eq!(len, brute(&data, p), "length at {}", p);
                if len > 0 {
                    prop_assert!((1..=MAX_DIST).contains(&dist) && dist <= p);
                    prop_assert_eq!(common_len(&data, p - dist, p, len), len, "distance at {}", p);
                }
            }
        }
    }

    /// Few byte values, long enough to pass the window several times: the binary trees' cuts
    /// at the window's end and their removals at the cap.
    #[test]
    fn longest_matches_are_exact_past_the_window() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut data = Vec::new();
        while data.len() < 20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = (x % 4) as u8;
            let n = if x.is_multiple_of(7) {
                (x >> 8) as usize % 300
            } else {
                1
            };
            data.extend(std::iter::repeat_n(b, n));
            if x.is_multiple_of(11) {
                let at = data.len().saturating_sub(3000 + (x >> 20) as usize % 1500);
                let copy: Vec<u8> = data
                    .get(at..)
                    .unwrap_or_default()
                    .iter()
                    .take(400)
                    .copied()
                    .collect();
                data.extend(copy);
            }
        }
        let found = longest_matches(&data);
        for (p, &(len, dist)) in found.iter().enumerate() {
            let (len, dist) = (usize::from(len), usize::from(dist));
            assert_eq!(len, brute(&data, p), "{p}");
            if len > 0 {
                assert_eq!(common_len(&data, p - dist, p, len), len, "{p}");
            }
        }
    }

    /// Long runs: 300 zeros then a shorter zero run inside the window, whose continuation
    /// repeats what followed an earlier run of the same length.
    #[test]
    fn runs_longer_than_the_cap() {
        let data = [
            &[0u8; 300][..],
            b"xyz",
            &[0; 20],
            b"xyz!",
            &[0; 20],
            b"xyz?",
        ]
        .concat();
        let found = longest_matches(&data);
        for (p, &(len, _)) in found.iter().enumerate() {
            assert_eq!(usize::from(len), brute(&data, p), "{p}");
        }
    }
}
