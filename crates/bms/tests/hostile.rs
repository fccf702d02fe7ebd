#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Hostile input: bad targets, self-jumps, unbounded calls, huge VLQs end as findings, never hangs.

use bms::midi::{ExportOptions, render};
use bms::{Program, fuzz_bms, parse, validate};

fn rules(data: &[u8]) -> Vec<String> {
    validate(data).into_iter().map(|d| d.rule).collect()
}

#[test]
fn targets_past_the_end() {
    let data = [0xC7, 0x12, 0x34, 0x56];
    assert!(rules(&data).contains(&"BMS-005".to_owned()));
    assert_eq!(Program::parse(&data).unwrap().write().unwrap(), data);
    let data = [0xC1, 0x20, 0x00, 0x00, 0x00, 0xFF];
    let r = rules(&data);
    assert!(r.contains(&"BMS-004".to_owned()), "{r:?}");
    fuzz_bms(&data);
}

#[test]
fn mid_instruction_targets_and_overlaps() {
    // jmp into its own argument bytes.
    let data = [0xC7, 0x00, 0x00, 0x02];
    assert!(rules(&data).contains(&"BMS-005".to_owned()));
    fuzz_bms(&data);
}

#[test]
fn self_jump_and_self_call_end() {
    // A jump to itself ends the walk; the game would spin in it (BMS-016, tests/ticks.rs).
    let jump = [0xC7, 0x00, 0x00, 0x00];
    assert_eq!(rules(&jump), ["BMS-016"]);
    let song = render(&jump, &ExportOptions::default()).unwrap();
    assert_eq!(song.tracks.len(), 1);
    let call = [0xC3, 0x00, 0x00, 0x00, 0xFF];
    let song = render(&call, &ExportOptions::default()).unwrap();
    assert_eq!(song.tracks.len(), 1);
    fuzz_bms(&call);
    // Counted loops that never end the track still stop at the step budget.
    let loops = [
        0xCB, 0xFF, 0xFF, 0xCB, 0xFF, 0xFF, 0xF0, 0x00, 0xCC, 0xCC, 0xC7, 0, 0, 0,
    ];
    let opts = ExportOptions {
        max_steps: 10_000,
        ..ExportOptions::default()
    };
    render(&loops, &opts).unwrap();
}

#[test]
fn track_fan_out_is_bounded() {
    // Every track opens 16 children at offset 0: exponential without a bound.
    let mut data = Vec::new();
    for n in 0..16 {
        data.extend([0xC1, n, 0, 0, 0]);
    }
    data.push(0xFF);
    let song = render(&data, &ExportOptions::default()).unwrap();
    assert_eq!(song.tracks.len(), ExportOptions::default().max_tracks);
    let view = parse(&data).unwrap();
    assert_eq!(view.tracks().len(), 17);
}

#[test]
fn huge_vlqs_and_unterminated_code() {
    let data = [0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF];
    let r = rules(&data);
    assert!(r.contains(&"BMS-006".to_owned()), "{r:?}");
    let data = [0xF0, 0x81];
    assert!(rules(&data).contains(&"BMS-007".to_owned()));
    let data = [0xFE, 0xFE];
    assert!(rules(&data).contains(&"BMS-007".to_owned()));
    for d in [
        &[0xF0u8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF][..],
        &[0xF0, 0x81],
        &[0xFE],
    ] {
        fuzz_bms(d);
    }
}

#[test]
fn printf_findings() {
    let mut data = vec![0xFD];
    data.extend([b'a'; 0x80]);
    data.push(0xFF);
    assert!(rules(&data).contains(&"BMS-012".to_owned()));
    let data = b"\xFD%d%d%d%d%d\x00\x01\x02\x03\x04\x05\xFF";
    assert!(rules(data).contains(&"BMS-012".to_owned()));
    let data = b"\xFD%q\x00\x01\xFF";
    assert!(rules(data).contains(&"BMS-012".to_owned()));
    assert!(rules(b"\xFD%d\x00\x01\xFF").is_empty());
}

#[test]
fn other_rules() {
    assert!(rules(&[0xA0, 0xFF]).contains(&"BMS-009".to_owned()));
    assert!(rules(&[0xC8, 0x09, 0, 0, 0, 0xFF]).contains(&"BMS-013".to_owned()));
    assert!(rules(&[0xB0, 0x05, 0xFF]).contains(&"BMS-015".to_owned()));
    assert!(rules(&[0xC5]).contains(&"BMS-008".to_owned()));
    assert!(rules(&[0xE8, 0, 0x10, 0, 0, 0xFF]).contains(&"BMS-014".to_owned()));
    assert!(rules(&[0x90, 0x80, 0x3C, 1, 1]).contains(&"BMS-011".to_owned()));
    assert!(rules(&[0x3C, 0x01, 0x90, 0xFF]).contains(&"BMS-002".to_owned()));
    assert!(rules(&[0x88, 0xFF]).contains(&"BMS-003".to_owned()));
    assert!(rules(&[0xD8, 0x55, 0, 1, 0xFF]).contains(&"BMS-011".to_owned()));
    assert!(rules(&[]).contains(&"BMS-001".to_owned()));
}

#[test]
fn fuzz_seeds_replay() {
    let seeds: Vec<Vec<u8>> = vec![
        bms::build::demo_song(),
        bms::build::sfx().unwrap().bytes,
        vec![0xC9, 0, 0, 5, 0, 0, 0, 0, 0, 0],
        vec![0xCA, 0, 0, 0, 0],
        vec![0xF3, 0, 0, 4, 0, 0, 0, 0xF6],
        vec![0x9F, 0xFF, 0xDC, 1, 2, 3, 4],
        vec![0xFD, b'%'],
    ];
    for s in seeds {
        fuzz_bms(&s);
    }
}

/// The shared corpus holds no BMS file (none is public), but every other game file is hostile input
/// for a headerless format: all of it must walk, round-trip and render without a panic or a hang.
/// Skips when the corpus is absent.
#[test]
fn corpus_files_as_hostile_input() {
    let root = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "", "bms hostile corpus");
    let Some(root) = root else { return };
    let files = gcio::corpus::files(&root);
    assert!(!files.is_empty(), "the corpus folder holds no file");
    let mut seen = 0;
    for p in files {
        if let Ok(data) = std::fs::read(&p) {
            fuzz_bms(&data);
            seen += 1;
        }
    }
    eprintln!("{seen} corpus files replayed");
}

#[test]
fn midi_memory_is_bounded() {
    // A counted loop that opens tracks, closes them and plays notes 65535 times.
    let data = [
        0xCB, 0xFF, 0xFF, 0xC1, 0x01, 0, 0, 0x0D, 0xC2, 0x01, 0x3C, 0x01, 0x64, 0xCC, 0xFF, 0xFF,
    ];
    let opts = ExportOptions {
        max_events: 1000,
        max_tracks: 8,
        ..ExportOptions::default()
    };
    let song = render(&data, &opts).unwrap();
    assert!(song.tracks.len() <= 8);
    let events: usize = song.tracks.iter().map(|t| t.events.len()).sum();
    assert!(events <= 1000 + 16, "{events}");
}

/// Detection's walk (only the items found, at most `DETECT_ITEMS` of them) classifies every byte,
/// finds the same problems and counts the same instructions as the parse's per-byte walk whenever
/// it is not cut short; past the bound it stops, so a gigabyte of code costs no more than 16 Ki
/// instructions.
#[test]
fn detection_walk_matches_the_parse() {
    let limits = gcio::Limits::default();
    let mut inputs: Vec<Vec<u8>> = bms::build::samples()
        .unwrap()
        .into_iter()
        .map(|s| s.bytes)
        .collect();
    let mut x = 0x1234_5678u32;
    for len in [1usize, 3, 7, 64, 300, 2000, 9000] {
        inputs.push(
            (0..len)
                .map(|_| {
                    x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (x >> 24) as u8
                })
                .collect(),
        );
    }
    for data in &inputs {
        let full = bms::Flow::discover(data, &limits).unwrap();
        let quick = bms::Flow::detect(data, &limits).unwrap();
        assert!(full.instruction_count() < bms::flow::DETECT_ITEMS);
        assert_eq!(quick.len(), full.len());
        assert_eq!(quick.instruction_count(), full.instruction_count());
        assert_eq!(quick.findings(), full.findings());
        assert_eq!(quick.tables(), full.tables());
        for o in 0..data.len() + 2 {
            assert_eq!(quick.class(o), full.class(o), "offset {o:#x}");
        }
    }
    // 16 MiB of zeros is one long run of notes: detection stops at its bound.
    let zeros = vec![0u8; 16 << 20];
    let quick = bms::Flow::detect(&zeros, &limits).unwrap();
    assert_eq!(quick.instruction_count(), bms::flow::DETECT_ITEMS);
    assert_eq!(quick.len(), zeros.len());
}
