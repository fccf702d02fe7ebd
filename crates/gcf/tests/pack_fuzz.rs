//! Replays the `pack` fuzz body (`gcformats::archive::fuzz_pack`) on reproducible inputs: generated
//! folders and a sample's extracted folder with an edited manifest.

#[test]
fn replay() {
    for input in gcio::replay_inputs(300) {
        gcformats::archive::fuzz_pack(&input);
    }
    // Hostile names in generated folders.
    for names in [
        &[b"..".as_slice(), b"a/../b", b".gcf-rarc.txt"][..],
        &[b"", b"/", b"a//b", b"."],
        &[b"x", b"x/y", b"X"],
    ] {
        let mut input = vec![0u8];
        for (i, n) in names.iter().enumerate() {
            input.extend([(i as u8) << 1, n.len() as u8]);
            input.extend_from_slice(n);
            input.extend([3, 1, 2, 3]);
        }
        gcformats::archive::fuzz_pack(&input);
    }
}
