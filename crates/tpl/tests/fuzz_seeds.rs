//! Replays edge cases and truncations of the sample through the fuzz body (`tpl::fuzz_tpl`).
#![allow(clippy::indexing_slicing)]

#[test]
fn replay_seeds() {
    let s = tpl::build::sample_bytes();
    let mut seeds: Vec<Vec<u8>> = vec![
        Vec::new(),
        tpl::MAGIC.to_be_bytes().to_vec(),
        // A huge image count with a table offset at the end.
        [&tpl::MAGIC.to_be_bytes()[..], &[0xFF; 4], &[0, 0, 0, 0x0C]].concat(),
    ];
    for cut in [0, 4, 0x0C, 0x14, 0x38, s.len() / 2, s.len() - 1] {
        seeds.push(s[..cut].to_vec());
    }
    seeds.push(s);
    // Found by the CI fuzz smoke: an I4 image whose texels are shared by a palette-less CI entry.
    seeds.push(vec![
        0, 32, 175, 48, 0, 0, 0, 1, 0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 255, 208, 0, 0, 0, 255, 255, 255, 255, 0, 255, 208, 0, 0, 0, 255, 255, 255, 255, 1,
        67, 0, 0, 0, 0, 0, 0, 0, 229, 0, 32, 64, 32, 93,
    ]);
    for s in &seeds {
        tpl::fuzz_tpl(s);
    }
}
