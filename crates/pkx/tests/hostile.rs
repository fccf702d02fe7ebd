#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Fuzz-seed replay and hostile headers: never a panic, a hang or an unbounded allocation;
//! detection never misfires.

use pkx::{Game, build, game};

fn seeds() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = build::samples()
        .unwrap()
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    let corpus = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "pkx", "pkx hostile seeds");
    if let Some(dir) = corpus.and_then(|c| std::fs::read_dir(c).ok()) {
        for f in dir.flatten() {
            out.push(std::fs::read(f.path()).unwrap());
        }
    }
    out
}

#[test]
fn seeds_and_their_truncations_replay_through_the_fuzz_body() {
    for s in seeds() {
        pkx::fuzz_pkx(&s);
        for cut in [
            0,
            0x1B,
            0x44,
            0x84,
            0x100,
            s.len() / 2,
            s.len().saturating_sub(21),
            s.len() - 1,
        ] {
            pkx::fuzz_pkx(&s[..cut.min(s.len())]);
        }
    }
}

fn put(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

#[test]
fn huge_sizes_and_counts_are_errors() {
    let xd = build::xd_pokemon().unwrap().write().unwrap();
    let colo = build::colosseum_pokemon().unwrap().write().unwrap();
    for (base, at) in [(&xd, 0), (&xd, 8), (&colo, 0), (&colo, 4)] {
        let mut b = base.clone();
        put(&mut b, at, u32::MAX);
        if at == 0 && base == &colo {
            put(&mut b, 0x40, u32::MAX);
        }
        assert_eq!(game(&b), None);
        assert!(pkx::parse(&b).is_err());
        pkx::fuzz_pkx(&b);
    }
    // A forced layout with an absurd count fails on bounds, not on allocation.
    let mut b = xd.clone();
    put(&mut b, 0x10, u32::MAX);
    assert!(pkx::View::parse_as(&b, Game::Xd, &gcio::Limits::default()).is_err());
}

#[test]
fn a_file_matching_both_signatures_is_settled_by_the_dat() {
    // An XD file with a 17-byte GPT1 block (u32@0x08 = 17) whose part-anim bytes at 0x40 happen
    // to equal the DAT size: both PKX-001 rules match; only the XD layout holds a DAT.
    let mut p = build::xd_pokemon().unwrap();
    p.gpt1.truncate(17);
    let mut b = p.write().unwrap();
    let dat = u32::from_be_bytes(b[0..4].try_into().unwrap());
    put(&mut b, 0x40, dat);
    assert_eq!(u32::from_be_bytes(b[8..12].try_into().unwrap()), 17);
    assert_eq!(game(&b), Some(Game::Xd));
    // With 0x08 = 16 the XD layout moves the DAT off its bytes: neither layout holds one.
    put(&mut b, 8, 16);
    assert_eq!(
        game(&b),
        Some(Game::Xd),
        "align32(16) = align32(17): same layout"
    );
    put(&mut b, 0x10, 16);
    put(&mut b, 8, 17);
    assert_eq!(
        game(&b),
        None,
        "XD count broken, Colosseum layout has no DAT: rejected"
    );
}

#[test]
fn non_pkx_files_are_rejected() {
    assert_eq!(game(&[]), None);
    assert_eq!(game(&[0; 0x200]), None);
    let dat = build::battle_dat(4, 2).unwrap();
    assert_eq!(game(&dat), None);
    // GoD's heuristic alone (0xFFFFFFFF at 0x20) would call this XD.
    let mut b = vec![0u8; 0x2000];
    put(&mut b, 0x20, u32::MAX);
    assert_eq!(game(&b), None);
}
