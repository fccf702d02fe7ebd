//! CTLib's encoder (`szs`'s `CTLib` algorithm, from the CT-modding library of the same name).
//!
//! Greedy, the farthest of the longest matches, compares stopping at 0x111 bytes, like MKW-SP's;
//! what sets it apart is where its candidates come from. It lists the positions of each byte
//! value 0x1000 at a time: starting at `base`, the positions `base..base + 0x1000` are listed;
//! once the output position is 0x1000 or more past `base`, the positions 0x1000 or more behind
//! it are dropped and the next 0x1000 from the current position listed. A reference that ends
//! past `base + 0x1000` skips the positions between (they are never candidates), and right at
//! such a refill the farthest distance, 0x1000, is not a candidate either.

use std::collections::VecDeque;

use crate::token::{MAX_DIST, MAX_LEN, Token, emit};

/// Feeds CTLib's tokens for `data` to `sink`.
pub(crate) fn ctlib(data: &[u8], sink: &mut impl FnMut(Token) -> bool) {
    let mut lists: Vec<VecDeque<u32>> = vec![VecDeque::new(); 256];
    let fill = |lists: &mut Vec<VecDeque<u32>>, from: usize| {
        for p in from..data.len().min(from + MAX_DIST) {
            if let (Some(&b), Ok(p)) = (data.get(p), u32::try_from(p))
                && let Some(l) = lists.get_mut(usize::from(b))
            {
                l.push_back(p);
            }
        }
    };
    fill(&mut lists, 0);
    let (mut base, mut pos) = (0usize, 0usize);
    while pos < data.len() {
        let size = (data.len() - pos).min(MAX_LEN);
        let (mut best, mut best_at) = (0usize, pos);
        if let Some(list) = data.get(pos).and_then(|&b| lists.get(usize::from(b))) {
            let far = pos.saturating_sub(MAX_DIST) as u32;
            let first = list.partition_point(|&p| p < far);
            for &p in list.range(first..) {
                let p = p as usize;
                if p >= pos {
                    break;
                }
                // A candidate that differs at `best` cannot be longer.
                if best > 0 && best < size && data.get(p + best) != data.get(pos + best) {
                    continue;
                }
                let len = 1 + crate::matcher::common_len(data, p + 1, pos + 1, size - 1);
                if len > best {
                    (best, best_at) = (len, p);
                    if best == size {
                        break;
                    }
                }
            }
        }
        match emit(sink, data, pos, best, pos - best_at) {
            Some(n) => pos += n,
            None => return,
        }
        if pos - base >= MAX_DIST {
            let near = pos - (MAX_DIST - 1);
            for l in &mut lists {
                let keep = l.partition_point(|&p| (p as usize) < near);
                l.drain(..keep);
            }
            fill(&mut lists, pos);
            base = pos;
        }
    }
}
