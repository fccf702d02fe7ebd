//! The optimal-parse encoder ([`crate::Encoder::Best`]): shortest path over bit costs.
//!
//! A token costs 1 flag bit plus 8 (literal), 16 (match of 3..=17 bytes) or 24 bits (18..=0x111);
//! with the flag bytes that is the stream size to within the last partial flag byte, and a parse
//! with fewer bits never takes more bytes. Every match length at every position is considered:
//! the exact longest match per position (the window search the exact encoders use) supplies all
//! shorter lengths at the same distance, and any distance costs the same. So no Yaz0 parse of the
//! input is smaller; ties keep the literal, then the shortest length (deterministic).

use crate::encode::emit;
use crate::matcher::Matcher;
use crate::matcher::common_len;
use crate::token::{MAX_DIST, MAX_LEN, Token};

/// Cost in bits of a token of `len` bytes (1 flag bit + payload); `len < 3` is a literal.
#[inline(always)]
fn cost(len: usize) -> u32 {
    match len {
        0..=2 => 9,
        3..=17 => 17,
        _ => 25,
    }
}

/// Runs shorter than this are left to the window search (their chains are short).
const RUN_MIN: usize = 3;

/// The longest match (length, distance) at every position; `(0, 0)` where none of 3 bytes.
///
/// Inside a run of one byte the window search would visit every earlier position of that byte
/// (none reaches the cap where a run ends early), so runs are answered directly, exactly: at a
/// position `rp` bytes before the end `E` of its run (`rp >= 3`, not the run's first byte), a
/// candidate can only beat the `rp` bytes 1 back if it sits exactly `rp` bytes before the end `e`
/// of an earlier run of the same byte at least `rp` long; it then matches `rp + q(e)` bytes,
/// `q(e)` being the common length after both runs, at distance `E - e` (within the window iff
/// `E - e <= 0x1000`, whatever the position).
fn longest_matches(data: &[u8]) -> Vec<(u16, u16)> {
    let n = data.len();
    let mut m = Matcher::new(data, true);
    let mut found: Vec<(u16, u16)> = Vec::with_capacity(n);
    // Runs of at least RUN_MIN bytes seen so far, per byte value: (start, end). The loop goes
    // run by run, so these are maximal runs.
    let mut runs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); 256];
    // best[rp] for the current run: the (q, e) of the earlier run giving the longest match.
    let mut best: Vec<(usize, usize)> = Vec::new();
    let mut pos = 0;
    while pos < n {
        let b = data.get(pos).copied().unwrap_or(0);
        let end = pos
            + data
                .get(pos..)
                .map_or(0, |r| r.iter().take_while(|&&x| x == b).count());
        let len = end - pos;
        let (first, dist) = m.longest(pos, MAX_LEN);
        found.push((first as u16, dist as u16));
        if len <= RUN_MIN {
            for p in pos + 1..end {
                let (l, d) = m.longest(p, MAX_LEN);
                found.push((l as u16, d as u16));
            }
            if len == RUN_MIN
                && let Some(v) = runs.get_mut(usize::from(b))
            {
                v.push((pos, end));
            }
            pos = end;
            continue;
        }
        // Positions pos + 1 .. end - RUN_MIN + 1 have rp = end - p >= RUN_MIN.
        let top = (len - 1).min(MAX_LEN);
        best.clear();
        best.resize(top + 1, (0, 0));
        let list = runs.get(usize::from(b)).map_or(&[][..], |v| &v[..]);
        for &(s, e) in list.iter().rev() {
            if end - e > MAX_DIST {
                break;
            }
            let q = common_len(data, e, end, MAX_LEN);
            let slot = (e - s).min(top);
            // Later (nearer) runs come first and win ties.
            if let Some(x) = best.get_mut(slot)
                && (q > x.0 || x.1 == 0)
            {
                *x = (q, e);
            }
        }
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
                m.longest(p, MAX_LEN)
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
        for l in 3..=maxlen.min(17) {
            let c = cost(l) + at(&total, i + l);
            if c < best_cost {
                best_cost = c;
                best_len = l;
            }
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
                for l in 18..=maxlen {
                    let c = cost(l) + at(&total, i + l);
                    if c < best_cost {
                        best_cost = c;
                        best_len = l;
                    }
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
