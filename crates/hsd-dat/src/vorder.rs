//! The glTF vertex order of an exported PObj: one order that gives back every attribute's
//! array order at once. An importer that numbers each attribute's values in first-use order
//! along the glTF vertices (ours does) then rebuilds HAL's arrays, which HAL filled in its
//! source mesh's vertex order; the order itself is ordinary glTF data, nothing is recorded.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Orders `vertices` (each one's array indices, one per indexed descriptor entry) so that, for
/// every entry `k`, the first uses of the values `own[k]` lists come in array order; values
/// not in `own[k]` (an earlier PObj's, already placed) are free. Greedy and exact when such an
/// order exists (placing a vertex never blocks another): next, the vertex, first in index
/// order, whose every own value is already used or the next expected one; when none is, the
/// one that keeps the earliest entries in order (positions before normals before texture
/// coordinates), then takes the nearest values. Vertices with equal indices stay together in their order.
/// Returns the vertices' positions in the new order.
pub(crate) fn array_order(vertices: &[&[u32]], own: &[HashSet<u32>]) -> Vec<usize> {
    let mut groups: BTreeMap<&[u32], Vec<usize>> = BTreeMap::new();
    for (i, v) in vertices.iter().enumerate() {
        groups.entry(v).or_default().push(i);
    }
    let tuples: Vec<(&[u32], Vec<usize>)> = groups.into_iter().collect();
    // Per entry: each own value's rank in array order.
    let ranks: Vec<HashMap<u32, usize>> = own
        .iter()
        .map(|o| {
            let mut v: Vec<u32> = o.iter().copied().collect();
            v.sort_unstable();
            v.into_iter().enumerate().map(|(r, x)| (x, r)).collect()
        })
        .collect();
    // Per vertex and entry, the rank of its value when it is an own one.
    let need: Vec<Vec<Option<usize>>> = tuples
        .iter()
        .map(|(t, _)| {
            ranks
                .iter()
                .enumerate()
                .map(|(k, r)| t.get(k).and_then(|x| r.get(x)).copied())
                .collect()
        })
        .collect();
    let lens: Vec<usize> = ranks.iter().map(HashMap::len).collect();
    walk(&need, &lens)
        .into_iter()
        .filter_map(|u| tuples.get(u))
        .flat_map(|(_, members)| members.iter().copied())
        .collect()
}

/// The greedy walk over vertex groups with own-value ranks `need` (`lens[k]` own values of
/// entry `k`): the groups in order.
fn walk(need: &[Vec<Option<usize>>], lens: &[usize]) -> Vec<usize> {
    let mut waiting: Vec<Vec<Vec<usize>>> = lens.iter().map(|&n| vec![Vec::new(); n]).collect();
    let mut unmet = vec![0usize; need.len()];
    for (u, n) in need.iter().enumerate() {
        for (k, r) in n.iter().enumerate() {
            if let Some(list) = r.and_then(|r| waiting.get_mut(k)?.get_mut(r)) {
                list.push(u);
                if let Some(c) = unmet.get_mut(u) {
                    *c += 1;
                }
            }
        }
    }
    let mut s = State {
        released: lens.iter().map(|&n| vec![false; n]).collect(),
        used: lens.iter().map(|&n| vec![false; n]).collect(),
        next: vec![0; lens.len()],
        placed: vec![false; need.len()],
        ready: (0..need.len())
            .filter(|&u| unmet.get(u) == Some(&0))
            .collect(),
        waiting,
        unmet,
    };
    for k in 0..lens.len() {
        s.release(k, 0);
    }
    let mut out = Vec::with_capacity(need.len());
    for _ in 0..need.len() {
        let u = match s.ready.pop_first() {
            Some(u) => u,
            // Stuck: the vertex that keeps the earliest entries in order (positions first:
            // the largest values, and the attribute HAL's source mesh numbered), then takes
            // the values nearest the expected ones.
            None => match (0..need.len())
                .filter(|&u| !s.placed.get(u).copied().unwrap_or(true))
                .min_by_key(|&u| {
                    let n = need.get(u).map_or(&[][..], Vec::as_slice);
                    (s.broken(n), s.gaps(n), u)
                }) {
                Some(u) => u,
                None => break,
            },
        };
        s.place(u, need.get(u).map_or(&[][..], Vec::as_slice));
        out.push(u);
    }
    out
}

/// The greedy walk's state over vertex groups `u` and entries `k` (values by rank `r`).
struct State {
    /// Per entry and rank: whether vertices waiting on it have been told (it is used or next).
    released: Vec<Vec<bool>>,
    /// Per entry and rank: whether a placed vertex uses it.
    used: Vec<Vec<bool>>,
    /// Per entry: the first unused rank.
    next: Vec<usize>,
    /// Per entry and rank: the vertices that use it.
    waiting: Vec<Vec<Vec<usize>>>,
    /// Per vertex: the entries whose value is neither used nor next.
    unmet: Vec<usize>,
    placed: Vec<bool>,
    /// Unplaced vertices with nothing unmet.
    ready: BTreeSet<usize>,
}

impl State {
    /// Tells the vertices using rank `r` of entry `k` that it is now used or next (once).
    fn release(&mut self, k: usize, r: usize) {
        let Some(flag) = self.released.get_mut(k).and_then(|x| x.get_mut(r)) else {
            return;
        };
        if std::mem::replace(flag, true) {
            return;
        }
        let users = self
            .waiting
            .get(k)
            .and_then(|x| x.get(r))
            .cloned()
            .unwrap_or_default();
        for u in users {
            if let Some(c) = self.unmet.get_mut(u) {
                *c = c.saturating_sub(1);
                if *c == 0 && !self.placed.get(u).copied().unwrap_or(true) {
                    self.ready.insert(u);
                }
            }
        }
    }

    /// The entries whose order placing a vertex (its own values' ranks `need`) now breaks (it
    /// takes a value before the next expected one), as bits, the first entry's highest.
    fn broken(&self, need: &[Option<usize>]) -> u64 {
        need.iter()
            .enumerate()
            .filter(|&(k, r)| {
                r.is_some_and(|r| {
                    let next = self.next.get(k).copied().unwrap_or(0);
                    let used = self.used.get(k).and_then(|x| x.get(r)).copied();
                    used == Some(false) && r > next
                })
            })
            .fold(0, |acc, (k, _)| {
                acc | (1u64 << 63).checked_shr(k as u32).unwrap_or(0)
            })
    }

    /// Per entry, how far the value of a vertex (its own values' ranks `need`) stands past the
    /// next expected one (0 when it is used or next).
    fn gaps(&self, need: &[Option<usize>]) -> Vec<usize> {
        need.iter()
            .enumerate()
            .map(|(k, r)| {
                let next = self.next.get(k).copied().unwrap_or(0);
                r.map_or(0, |r| r.saturating_sub(next))
            })
            .collect()
    }

    /// Places vertex `u` (its own values' ranks `need`): its values become used and each
    /// entry's next value the first unused one.
    fn place(&mut self, u: usize, need: &[Option<usize>]) {
        if let Some(p) = self.placed.get_mut(u) {
            *p = true;
        }
        self.ready.remove(&u);
        for (k, r) in need.iter().enumerate() {
            let Some(r) = *r else { continue };
            if let Some(x) = self.used.get_mut(k).and_then(|x| x.get_mut(r)) {
                *x = true;
            }
            self.release(k, r);
            let (Some(next), Some(used)) = (self.next.get_mut(k), self.used.get(k)) else {
                continue;
            };
            while used.get(*next).copied().unwrap_or(false) {
                *next += 1;
            }
            let n = *next;
            self.release(k, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(sets: &[&[u32]]) -> Vec<HashSet<u32>> {
        sets.iter().map(|s| s.iter().copied().collect()).collect()
    }

    #[test]
    fn every_entry_in_array_order() {
        // Positions sorted alone would put (0, 2) before (1, 0): normals 2 before 0.
        let v: [&[u32]; 4] = [&[1, 0], &[0, 2], &[2, 1], &[0, 0]];
        let order = array_order(&v, &own(&[&[0, 1, 2], &[0, 1, 2]]));
        assert_eq!(order, vec![3, 0, 2, 1]);
    }

    #[test]
    fn others_values_are_free_and_ties_stay_together() {
        // Normal 9 is an earlier PObj's: it constrains nothing.
        let v: [&[u32]; 4] = [&[1, 9], &[0, 1], &[1, 9], &[0, 0]];
        let order = array_order(&v, &own(&[&[0, 1], &[0, 1]]));
        assert_eq!(order, vec![3, 1, 0, 2]);
    }

    #[test]
    fn stuck_keeps_positions() {
        // No order holds both entries: (0, 1) and (1, 0) contradict; positions win.
        let v: [&[u32]; 2] = [&[1, 0], &[0, 1]];
        let order = array_order(&v, &own(&[&[0, 1], &[0, 1]]));
        assert_eq!(order, vec![1, 0]);
    }
}
