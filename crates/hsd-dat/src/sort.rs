//! LSD radix sort for the offset lists of the archive layer and the graph walk, where a comparison
//! sort was the hot spot (every pointer target is a boundary; every node is overlap-checked).

/// Sorts `v` by the low `bytes` bytes of `key` (stable), skipping bytes every key shares; short
/// lists use a comparison sort.
pub fn radix_sort_by<T: Copy + Default>(v: &mut Vec<T>, key: impl Fn(&T) -> u64, bytes: u32) {
    if v.len() < 512 {
        v.sort_by_key(&key);
        return;
    }
    let mut tmp = vec![T::default(); v.len()];
    for shift in (0..bytes).map(|b| 8 * b) {
        let digit = |x: &T| ((key(x) >> shift) & 0xFF) as usize;
        let mut counts = [0usize; 256];
        for x in v.iter() {
            if let Some(c) = counts.get_mut(digit(x)) {
                *c += 1;
            }
        }
        if counts.contains(&v.len()) {
            continue;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for x in v.iter() {
            if let Some(c) = counts.get_mut(digit(x))
                && let Some(t) = tmp.get_mut(*c)
            {
                *t = *x;
                *c += 1;
            }
        }
        std::mem::swap(v, &mut tmp);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_comparison_sort() {
        let mut v: Vec<u32> = (0..5000u32)
            .map(|i| i.wrapping_mul(2654435761) >> (i % 9))
            .collect();
        let mut w = v.clone();
        super::radix_sort_by(&mut v, |&x| u64::from(x), 4);
        w.sort_unstable();
        assert_eq!(v, w);
        let mut p: Vec<(u32, u32)> = (0..3000u32)
            .map(|i| (i.wrapping_mul(40503) % 977, i))
            .collect();
        let mut q = p.clone();
        super::radix_sort_by(&mut p, |&(a, b)| u64::from(a) << 32 | u64::from(b), 8);
        q.sort_unstable();
        assert_eq!(p, q);
    }
}
