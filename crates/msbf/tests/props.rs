#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Property tests: parse(write(m)) == m for arbitrary models, JSON round trips, and arbitrary or
//! mutated bytes never panic (through the fuzz body, which also asserts byte-exact rewrites).

use gcio::Endian;
use msbf::{Flow, Frame, Label, LabelTable, Msbf, Node, Section, SectionKind, build, fuzz_msbf};
use proptest::prelude::*;

fn node() -> impl Strategy<Value = Node> {
    (prop_oneof![1u16..=4, any::<u16>()], any::<[u16; 5]>()).prop_map(|(k, a)| Node::from_raw(k, a))
}

fn flow() -> impl Strategy<Value = Flow> {
    (
        prop::collection::vec(node(), 0..24),
        prop::collection::vec(any::<u16>(), 0..12),
        any::<[u8; 4]>(),
    )
        .prop_map(|(nodes, branches, padding)| Flow {
            nodes,
            branches,
            padding,
        })
}

fn labels() -> impl Strategy<Value = LabelTable> {
    (
        0u32..70,
        prop::collection::vec(
            (prop::collection::vec(any::<u8>(), 0..40), any::<u32>()),
            0..8,
        ),
    )
        .prop_map(|(n, labels)| {
            let mut t = LabelTable::new(n);
            for (name, node) in labels {
                // A table without buckets holds no labels; otherwise any bucket is allowed.
                if let Some(b) = t.buckets.get_mut(node as usize % n.max(1) as usize) {
                    b.push(Label { name, node });
                }
            }
            t
        })
}

fn section() -> impl Strategy<Value = Section> {
    let kind = prop_oneof![
        flow().prop_map(SectionKind::Flow),
        labels().prop_map(SectionKind::Labels),
        (any::<[u8; 4]>(), prop::collection::vec(any::<u8>(), 0..40))
            .prop_filter("known magic", |(m, _)| m != b"FLW2" && m != b"FEN1")
            .prop_map(|(magic, data)| SectionKind::Other { magic, data }),
    ];
    (
        kind,
        any::<[u8; 8]>(),
        prop::collection::vec(any::<u8>(), 0..6),
    )
        .prop_map(|(kind, hp, trailing)| {
            // Bytes after "other" data are part of the data on reading.
            let trailing = if matches!(kind, SectionKind::Other { .. }) {
                Vec::new()
            } else {
                trailing
            };
            Section {
                kind,
                frame: Frame {
                    header_padding: hp,
                    trailing,
                    ..Frame::default()
                },
            }
        })
}

fn model() -> impl Strategy<Value = Msbf> {
    (
        any::<bool>(),
        any::<u8>(),
        any::<[u8; 3]>(),
        any::<[u8; 12]>(),
        prop::collection::vec(section(), 0..4),
        prop::collection::vec(any::<u8>(), 0..20),
    )
        .prop_map(
            |(le, version, reserved, header_padding, sections, trailing)| Msbf {
                endian: if le { Endian::Little } else { Endian::Big },
                version,
                reserved,
                header_padding,
                file_size_field: None,
                sections,
                trailing,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parse_write_round_trips(m in model()) {
        let bytes = m.write().unwrap();
        let back = Msbf::parse(&bytes).unwrap();
        prop_assert_eq!(&back, &m);
        prop_assert_eq!(back.write().unwrap(), bytes);
        prop_assert_eq!(Msbf::from_json(&m.to_json()).unwrap(), m);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..600)) {
        fuzz_msbf(&data);
        let mut with_header = b"MsgFlwBn\xfe\xff\0\0\0\x03\0\x02".to_vec();
        with_header.extend_from_slice(&data);
        fuzz_msbf(&with_header);
    }

    #[test]
    fn mutated_samples_never_panic(pick in 0usize..4, edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8), cut in any::<prop::sample::Index>()) {
        let samples = build::samples();
        let mut data = samples[pick % samples.len()].1.clone();
        for (at, b) in edits {
            let i = at.index(data.len());
            data[i] = b;
        }
        fuzz_msbf(&data);
        data.truncate(cut.index(data.len() + 1));
        fuzz_msbf(&data);
    }
}

/// Replays the fuzz seeds: the samples, the golden file, and their truncations.
#[test]
fn fuzz_seed_replay() {
    let mut seeds: Vec<Vec<u8>> = build::samples().into_iter().map(|(_, b)| b).collect();
    seeds.push(msbf::golden::LITTLE_FILE.to_vec());
    for s in seeds {
        for len in 0..=s.len() {
            fuzz_msbf(&s[..len]);
        }
    }
}

/// Hostile counts: a FEN1 whose buckets all point at the same labels with huge counts ends fast.
#[test]
fn overlapping_buckets_are_bounded() {
    let mut m = build::npc_yes_no();
    let t = m.labels_mut().unwrap();
    t.buckets = vec![Vec::new(); 5000];
    let mut bytes = m.write().unwrap();
    // Every bucket: u32::MAX labels at offset 0 (the bucket count itself, read as a label).
    let start = 0xE0 + 0x10 + 4;
    for b in 0..5000 {
        let at = start + b * 8;
        bytes[at..at + 4].copy_from_slice(&u32::MAX.to_be_bytes());
        bytes[at + 4..at + 8].copy_from_slice(&0u32.to_be_bytes());
    }
    let t0 = std::time::Instant::now();
    assert!(Msbf::parse(&bytes).is_err());
    fuzz_msbf(&bytes);
    assert!(t0.elapsed().as_secs() < 5);
}
