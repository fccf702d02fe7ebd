//! Replays edge cases, the built fonts, their truncations and single-byte edits through the fuzz
//! body.
#![allow(clippy::indexing_slicing)]

#[test]
fn replay_seeds() {
    let mut seeds: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"RFNT\xfe\xff\x01\x04".to_vec(),
        vec![0xFF; 0x20],
    ];
    for (_, s) in brfnt::build::samples() {
        for cut in [
            0,
            8,
            0x10,
            0x18,
            0x30,
            0x50,
            s.len() / 2,
            s.len().saturating_sub(1),
        ] {
            seeds.push(s[..cut.min(s.len())].to_vec());
        }
        // Every header and pointer word set to values that name other places.
        for at in (0..0x60).step_by(2) {
            for v in [0x00, 0x7F, 0xFF] {
                let mut e = s.clone();
                e[at] = v;
                seeds.push(e);
            }
        }
        let mut long = s.clone();
        long.extend([1, 2, 3]);
        seeds.push(long);
        seeds.push(s);
    }
    for s in &seeds {
        brfnt::fuzz_brfnt(s);
    }
}
