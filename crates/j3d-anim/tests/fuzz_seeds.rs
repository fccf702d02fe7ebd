//! Replays hand-picked edge cases and every built sample through the fuzz body
//! (`j3d_anim::fuzz_anim`), which asserts byte-exact and JSON round trips.
#![allow(clippy::indexing_slicing)]

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
    // A BTP whose name string sits 1 byte further than packed: read through its offset (as the
    // game does) and kept as stored, so the fuzz body's round trip holds.
    let mut btp = j3d_anim::build::sample(j3d_anim::Kind::Btp)
        .write()
        .unwrap_or_default();
    let names = 0x20 + usize::from(u16::from_be_bytes([btp[0x3E], btp[0x3F]]));
    btp[names + 7] += 1;
    let kept = j3d_anim::Anim::parse(&btp)
        .ok()
        .and_then(|a| match a.table(3) {
            Some(j3d_anim::Data::Names(n)) => n.strings.clone(),
            _ => None,
        });
    assert_eq!(kept.map(|s| s.offsets), Some(vec![9]));
    seeds.push(btp);
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
