//! Replays the fuzz body on seeds: samples, truncations, and hostile headers.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gpl_facial::*;

#[test]
fn replay_seeds() {
    let mut seeds: Vec<Vec<u8>> = build::samples().into_iter().map(|(_, b)| b).collect();
    let birdo = build::birdo_block();
    for cut in [0, 4, 0x20, 0x21, 0x40, birdo.len() / 2, birdo.len() - 1] {
        seeds.push(birdo[..cut].to_vec());
    }
    // Facial section alone, and with every object pointing at the same records.
    let start = gpl_facial::parse(&birdo).unwrap().word(slot::FACIAL) as usize;
    let sec = birdo[start..].to_vec();
    seeds.push(sec.clone());
    let mut same = sec.clone();
    same[2..4].copy_from_slice(&0xFFFFu16.to_be_bytes());
    seeds.push(same);
    let mut huge = sec;
    huge[0x30..0x34].copy_from_slice(&0xFFFF_FFFFu32.to_be_bytes());
    seeds.push(huge);
    seeds.push(vec![0xFF; 64]);
    for s in &seeds {
        fuzz_gpl_facial(s);
    }
}

/// Every file of the shared corpus (no GPL block is among them) as hostile input; anything that
/// parses as a block must write back exactly.
#[test]
fn corpus_files_as_hostile_input() {
    let Some(root) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "", "gpl-facial hostile corpus")
    else {
        return;
    };
    let files = gcio::corpus::files(&root);
    assert!(!files.is_empty(), "the corpus folder holds no file");
    for p in files {
        let data = std::fs::read(&p).unwrap();
        if let Ok(b) = Block::parse(&data) {
            assert_eq!(b.write().unwrap(), data, "{}", p.display());
        }
        fuzz_gpl_facial(&data);
    }
}
