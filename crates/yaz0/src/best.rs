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
use crate::token::{MAX_LEN, Token};

/// Cost in bits of a token of `len` bytes (1 flag bit + payload); `len < 3` is a literal.
#[inline(always)]
fn cost(len: usize) -> u32 {
    match len {
        0..=2 => 9,
        3..=17 => 17,
        _ => 25,
    }
}

/// Optimal parse: for every position the longest match (any shorter prefix of it is available at
/// the same distance), then a backward shortest-path pass over bit costs.
pub(crate) fn best(data: &[u8], sink: &mut dyn FnMut(Token) -> bool) {
    let n = data.len();
    let mut m = Matcher::new(data, true);
    let mut found: Vec<(u16, u16)> = Vec::with_capacity(n);
    for pos in 0..n {
        let (len, dist) = m.longest(pos, MAX_LEN);
        found.push((len as u16, dist as u16));
    }
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
