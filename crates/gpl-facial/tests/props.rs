//! Property tests: any section model writes and parses back equal; rebuild then validate is
//! clean; arbitrary and mutated bytes never panic.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gpl_facial::build::{BlockSpec, birdo, luigi};
use gpl_facial::edit::{RigidPoses, SkinnedPoses};
use gpl_facial::*;
use proptest::prelude::*;

fn format() -> impl Strategy<Value = AttrFormat> {
    prop_oneof![
        any::<u8>().prop_map(AttrFormat::rigid_position),
        any::<u8>().prop_map(AttrFormat::rigid_normal),
        any::<u8>().prop_map(AttrFormat::body),
        any::<u8>().prop_map(AttrFormat::skacc),
        (any::<u8>(), any::<u8>(), 0u8..8, 0u8..5).prop_map(|(t, k, c, w)| AttrFormat {
            target: t,
            kind: AttrKind(k),
            count: c,
            width: w
        }),
    ]
}

fn attribute(pose_count: u16) -> impl Strategy<Value = Attribute> {
    (
        format(),
        0u32..12,
        prop::collection::vec((any::<u16>(), 1u16..), 0..5),
        any::<u16>(),
        any::<u64>(),
    )
        .prop_map(move |(format, entries, mut runs, term_first, seed)| {
            // A list ends at its first zero-length pair, so well-formed lists end with one.
            runs.push((term_first % 3, 0));
            let mut rng = build::Rng(seed | 1);
            let len = entries as usize * format.stride();
            let poses = (0..pose_count)
                .map(|_| (0..len).map(|_| rng.next_u64() as u8).collect())
                .collect();
            Attribute {
                entries,
                format,
                runs: runs
                    .into_iter()
                    .map(|(first, len)| Run { first, len })
                    .collect(),
                poses,
            }
        })
}

fn object() -> impl Strategy<Value = FacialObject> {
    (0u16..7).prop_flat_map(|pc| {
        prop::collection::vec(attribute(pc), 0..4).prop_map(move |attributes| FacialObject {
            pose_count: pc,
            attributes,
        })
    })
}

fn section() -> impl Strategy<Value = FacialSection> {
    (
        any::<u16>(),
        any::<u16>(),
        any::<u32>(),
        prop::collection::vec(
            (any::<u16>(), any::<u8>(), any::<u8>(), any::<[u8; 12]>()),
            0..4,
        ),
        prop::collection::vec(object(), 0..4),
    )
        .prop_map(
            |(max_pose_count, pad, reserved, descriptors, objects)| FacialSection {
                max_pose_count,
                pad,
                reserved,
                descriptors: descriptors
                    .into_iter()
                    .map(|(target, k, format, reserved)| Descriptor {
                        target,
                        kind: AttrKind(k),
                        format,
                        reserved,
                    })
                    .collect(),
                objects,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn section_writes_and_parses_back_equal(s in section()) {
        let bytes = s.write().unwrap();
        prop_assert_eq!(bytes.len() % SECTION_ALIGN, 0);
        prop_assert_eq!(FacialSection::parse(&bytes).unwrap(), s);
        let _ = validate_section(&bytes);
    }

    #[test]
    fn rigid_rebuild_then_validate_is_clean(
        drop in 0usize..100,
        moved in prop::collection::btree_map(0u16..400, [-50i16..50, -50..50, -50..50], 1..60),
        tilted in prop::collection::btree_map(0u16..500, [-50i16..50, -50..50, -50..50], 0..60),
        with_poses in any::<bool>(),
    ) {
        let mut spec = birdo();
        let head = &mut spec.submeshes[1];
        head.positions.drain(..drop * 3);
        let positions = head.triplets();
        let normals = head.normals.clone().unwrap();
        let p = RigidPoses {
            positions: moved.into_iter().map(|(i, d)| (i, vec![d; 4])).collect(),
            normals: tilted.into_iter().map(|(i, d)| (i, vec![d; 4])).collect(),
        };
        let poses = [p.clone(), p];
        spec.facial.as_mut().unwrap().rebuild_rigid(1, &positions, &normals, with_poses.then_some(&poses[..])).unwrap();
        let b = spec.build().unwrap();
        let d = gpl_facial::validate_view(&gpl_facial::parse(&b).unwrap());
        prop_assert!(d.is_empty(), "{:?}", d);
        prop_assert_eq!(Block::parse(&b).unwrap().write().unwrap(), b);
    }

    #[test]
    fn skinned_rebuild_then_validate_is_clean(
        mul in prop::sample::select(vec![1u32, 3, 5, 7, 9, 11]),
        moved in prop::collection::btree_map(0u32..512, [-50i16..50, -50..50, -50..50, -50..50, -50..50, -50..50], 1..80),
    ) {
        let mut spec: BlockSpec = luigi();
        let buffer = spec.submeshes[0].sextuplets();
        let slot_of: Vec<u16> = (0..512u32).map(|v| ((v * mul) % 512) as u16).collect();
        let deltas = |n: usize| SkinnedPoses { vertices: moved.iter().map(|(v, d)| (*v, vec![*d; n])).collect() };
        let poses = [deltas(1), deltas(5)];
        spec.facial.as_mut().unwrap().rebuild_skinned(0, &buffer, &slot_of, &poses).unwrap();
        let b = spec.build().unwrap();
        let d = gpl_facial::validate_view(&gpl_facial::parse(&b).unwrap());
        prop_assert!(d.is_empty(), "{:?}", d);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..600)) {
        fuzz_gpl_facial(&data);
    }

    #[test]
    fn mutated_blocks_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8), which in any::<bool>()) {
        let mut b = if which { build::birdo_block() } else { build::luigi_block() };
        for (i, v) in flips {
            let at = i.index(b.len());
            b[at] = v;
        }
        fuzz_gpl_facial(&b);
    }
}
