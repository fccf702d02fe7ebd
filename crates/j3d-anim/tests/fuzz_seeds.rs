//! Replays hand-picked edge cases and every built sample through the fuzz body
//! (`j3d_anim::fuzz_anim`), which asserts byte-exact and JSON round trips.

#[test]
fn replay_seeds() {
    let mut seeds: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"J3D1bck1".to_vec(),
        // Header claiming a huge count at a tiny size.
        [
            &b"J3D1bck1\0\0\0\x2c\0\0\0\x01"[..],
            &[0xFF; 16],
            b"ANK1\0\0\0\x0c\0\0\0\0",
        ]
        .concat(),
    ];
    for (_, s) in j3d_anim::build::samples() {
        for cut in [0, 1, 0x20, 0x24, s.len() / 2, s.len().saturating_sub(1)] {
            seeds.push(s.get(..cut).unwrap_or_default().to_vec());
        }
        seeds.push(s);
    }
    for s in &seeds {
        j3d_anim::fuzz_anim(s);
    }
}
