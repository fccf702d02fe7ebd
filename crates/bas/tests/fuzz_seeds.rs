//! Replays edge cases, the samples and their truncations through the fuzz body.
#![allow(clippy::indexing_slicing)]

#[test]
fn replay_seeds() {
    let mut seeds: Vec<Vec<u8>> = vec![Vec::new(), vec![0; 8], vec![0xFF; 8], vec![0, 1, 0, 0]];
    for (_, s) in bas::build::samples() {
        for cut in [0, 2, 8, 0x20, 0x28, s.len() / 2, s.len().saturating_sub(1)] {
            seeds.push(s[..cut.min(s.len())].to_vec());
        }
        let mut long = s.clone();
        long.extend([1, 2, 3]);
        seeds.push(long);
        seeds.push(s);
    }
    for s in &seeds {
        bas::fuzz_bas(s);
    }
}
