//! Replays edge cases, the sample and its truncations through the fuzz body.
#![allow(clippy::indexing_slicing)]

#[test]
fn replay_seeds() {
    let mut seeds: Vec<Vec<u8>> = vec![Vec::new(), b"JPAC2-10".to_vec()];
    for (_, s) in jpc::build::samples() {
        for cut in [0, 8, 0x10, 0x18, 0x40, 0x100, s.len() / 2, s.len() - 1] {
            seeds.push(s[..cut.min(s.len())].to_vec());
        }
        seeds.push(s);
    }
    for s in &seeds {
        jpc::fuzz_jpc(s);
    }
}
