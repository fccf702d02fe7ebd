//! Replays fuzz findings and hand-picked edge cases through the fuzz body (`bcsv::fuzz_bcsv`), which
//! asserts byte-exact round trips directly and through CSV and JSON.

/// Inputs the fuzzer once broke, kept as regressions.
const SEEDS: &[&[u8]] = &[
    // No fields, a 5-byte gap before the (empty) rows and an entry size of 107: the CSV header of a
    // field-less table is one empty cell.
    &[
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x15, 0, 0, 0, 0x6b, 2, 0, 0, 0, 0x28, 0, 0, 0, 0, 0, 0,
        0x40, 0xd7, 0x40, 0x40, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x40, 0x40, 0x40,
    ],
    // No fields, three rows of pure residue.
    &[
        0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 4, 1, 2, 3, 4, 0, 0, 0, 0, 9, 9, 9, 9,
    ],
    // No rows and an entry size of 0xFFFFFFF0: nothing may be allocated for the entry size.
    &[
        0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x1C, 0xFF, 0xFF, 0xFF, 0xF0, 0, 0x33, 0x7A, 0x8B, 0xFF,
        0xFF, 0xFF, 0xFF, 0, 0, 0, 0,
    ],
    // Empty file, short header.
    &[],
    &[0, 0, 0, 1],
];

#[test]
fn replay_seeds() {
    for seed in SEEDS {
        bcsv::fuzz_bcsv(seed);
    }
    // Whatever the fuzzer keeps locally (fuzz/artifacts, fuzz/corpus) is replayed too.
    for dir in ["../../fuzz/artifacts/bcsv", "../../fuzz/corpus/bcsv"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            if let Ok(data) = std::fs::read(entry.path()) {
                bcsv::fuzz_bcsv(&data);
            }
        }
    }
}
