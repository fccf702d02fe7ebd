//! Replays hand-picked edge cases, cuts of the built sample and of the real files through the fuzz
//! body (`kcl::fuzz_kcl`), which asserts the byte-exact round trip.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

#[test]
fn replay_seeds() {
    let mut seeds: Vec<Vec<u8>> = vec![Vec::new(), vec![0, 0, 0, 0x38], vec![0; 0x38]];
    // Header only, every offset at the end of the header, empty root grid masks.
    let mut h = vec![0u8; 0x38];
    for (i, v) in [0x38u32, 0x38, 0x28, 0x38].iter().enumerate() {
        h[i * 4..i * 4 + 4].copy_from_slice(&v.to_be_bytes());
    }
    for m in 0..3 {
        h[0x20 + m * 4..0x24 + m * 4].copy_from_slice(&0xFFFF_FFFFu32.to_be_bytes());
    }
    seeds.push(h.clone());
    // One root leaf pointing 2 bytes before a single terminator.
    h.extend_from_slice(&0x8000_0002u32.to_be_bytes());
    h.extend_from_slice(&[0, 0]);
    assert!(kcl::Kcl::parse(&h).is_ok());
    seeds.push(h.clone());
    // A branch pointing at itself.
    let mut cyc = h.clone();
    cyc[0x38..0x3C].copy_from_slice(&0u32.to_be_bytes());
    assert!(kcl::Kcl::parse(&cyc).is_err());
    seeds.push(cyc);
    for (_, s) in kcl::build::samples() {
        for cut in [0, 1, 0x20, 0x38, s.len() / 2, s.len().saturating_sub(1)] {
            seeds.push(s.get(..cut).unwrap_or_default().to_vec());
        }
        let mut odd = s.clone();
        odd.push(7);
        seeds.push(odd);
        seeds.push(s);
    }
    for s in &seeds {
        kcl::fuzz_kcl(s);
    }
}
