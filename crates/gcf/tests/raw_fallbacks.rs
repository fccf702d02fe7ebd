//! How every shared file round-trips, not only whether: `gcf::examine --deep` over the real game
//! files and the peer-made samples of `../shared/corpus` (skipped when absent) must give
//! `identical` through the typed writers for every recognised file and member, with the raw
//! fallbacks listed below as the only exceptions. A writer regression hidden by a raw fallback
//! (the model copying a part it failed to reproduce) shows up here as a new `identical (raw: …)`.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

use gcf::{Options, RoundTrip, examine};

/// `(file:member, outcome)` for every examined file that was not `identical` or `kept`.
fn non_typed(root: &Path) -> (usize, Vec<(String, String)>) {
    // expect/ holds the oracles' JSON, not samples; index and notes are no game files.
    let files = gcio::corpus::files(root).into_iter().filter(|p| {
        !p.components().any(|c| c.as_os_str() == "expect")
            && !matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("tsv" | "md" | "json")
            )
    });
    let mut seen = 0;
    let mut out = Vec::new();
    for f in files {
        let data = std::fs::read(&f).unwrap();
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        let mut found = Vec::new();
        examine(&rel, &data, true, &Options::new(), &mut found);
        for e in found {
            if e.format == gcf::UNKNOWN {
                continue;
            }
            seen += 1;
            if !matches!(e.roundtrip, RoundTrip::Identical) {
                out.push((e.path, e.roundtrip.to_string()));
            }
        }
    }
    (seen, out)
}

/// The peer-made samples (`rarc`, `yaz0`, `bcsv`, `hsd`, `pkx`, `msbf`): no fallback at all.
#[test]
fn peer_samples_round_trip_typed() {
    let Some(root) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "", "gcf raw fallbacks (peer)")
    else {
        return;
    };
    let mut seen = 0;
    let mut bad = Vec::new();
    for sub in ["rarc", "yaz0", "bcsv", "hsd", "pkx", "msbf"] {
        let (n, b) = non_typed(&root.join(sub));
        seen += n;
        bad.extend(b);
    }
    assert!(seen >= 30, "only {seen} recognised files and members");
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The real game files: every recognised file and archive member typed, except three BCSV
/// tables whose pool tail is not the `@` padding to 32 the model writes (BCSV-007): the older
/// tools padded these to 16 (`ItemGenerator.bcsv` with two `@`, both camera tables with a NUL
/// and seven `@`), which the model can only keep as stored bytes.
#[test]
fn real_files_round_trip_typed() {
    let Some(root) = gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "real",
        "gcf raw fallbacks (real)",
    ) else {
        return;
    };
    let (seen, bad) = non_typed(&root);
    assert!(seen >= 250, "only {seen} recognised files and members");
    let expected = [
        (
            "rarc/smg2/ObjectData-SamboHead.arc:payload:ItemGenerator.bcsv",
            "identical (raw: pool tail (2 bytes))",
        ),
        (
            "rarc/templates/SMG1OneStarGalaxy.arc:payload:camera/cameraparam.bcam",
            "identical (raw: pool tail (7 bytes))",
        ),
        (
            "rarc/templates/SMG2SmallGalaxyMap.arc:payload:camera/CameraParam.bcam",
            "identical (raw: pool tail (7 bytes))",
        ),
    ];
    let bad: Vec<(&str, &str)> = bad.iter().map(|(p, r)| (p.as_str(), r.as_str())).collect();
    assert_eq!(bad, expected);
}

/// The label itself: a raw part turns `identical` into `identical (raw: …)`.
#[test]
fn raw_parts_are_printed() {
    let r = RoundTrip::Raw {
        parts: vec!["SHP1".into(), "MDL3".into()],
    };
    assert_eq!(r.to_string(), "identical (raw: SHP1, MDL3)");
    assert!(r.is_ok());
    assert_eq!(RoundTrip::Identical.to_string(), "identical");
}

/// The case that used to pass silently: flipping the last padding byte of a J3D chunk. The typed
/// writer cannot reproduce it, so the model keeps the chunk raw; the bytes still come back, but
/// the round trip must name the chunk instead of saying `identical`.
#[test]
fn flipped_j3d_padding_is_reported_raw() {
    let (_, model) = j3d_bmd::build::samples()
        .into_iter()
        .find(|(n, _)| n == "skinned.bmd")
        .unwrap();
    assert_eq!(
        gcf::roundtrip_of(
            &gcf::open_with(&model, &gcf::OpenOptions::named("skinned.bmd")).unwrap()
        ),
        RoundTrip::Identical
    );
    let v = j3d_bmd::parse(&model).unwrap();
    let mut flipped = 0;
    for c in v.chunks() {
        let bytes = c.data.data();
        // Chunks that end in Nintendo padding ("This is padding data to alignme", a prefix).
        let pad = (1..=j3d_bmd::NINTENDO_PAD.len())
            .rev()
            .find(|&n| bytes.ends_with(&j3d_bmd::NINTENDO_PAD[..n]));
        if pad.is_none() {
            continue;
        }
        let end = c.offset() as usize + bytes.len();
        let mut data = model.clone();
        data[end - 1] ^= 0x01;
        match gcf::roundtrip_of(
            &gcf::open_with(&data, &gcf::OpenOptions::named("skinned.bmd")).unwrap(),
        ) {
            RoundTrip::Raw { parts } => {
                assert_eq!(parts, [c.name()]);
                flipped += 1;
            }
            // VTX1's last array and TEX1's last image run to the chunk end: their "padding" is
            // read as data, and a changed value is still a typed round trip.
            RoundTrip::Identical => assert!(["VTX1", "TEX1"].contains(&c.name().as_str())),
            other => panic!("{}: {other}", c.name()),
        }
    }
    assert!(flipped >= 3, "{flipped} padded chunks reported raw");
}
