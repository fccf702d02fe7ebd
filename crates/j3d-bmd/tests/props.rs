#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Property tests: chunk models survive write → parse; arbitrary and mutated bytes never panic and
//! every model that parses writes back identically (checked inside `fuzz_bmd`).

use gcio::Reader;
use j3d_bmd::*;
use proptest::prelude::*;

fn finite() -> impl Strategy<Value = f32> {
    -1.0e6f32..1.0e6
}

fn inf1() -> impl Strategy<Value = Inf1> {
    (
        any::<u16>(),
        any::<u32>(),
        any::<u32>(),
        proptest::collection::vec((0u16..0x20, any::<u16>()), 0..40),
    )
        .prop_map(|(f, a, b, n)| {
            let mut nodes: Vec<Node> = n
                .into_iter()
                .filter(|(k, _)| *k != 0)
                .map(|(k, i)| Node {
                    kind: NodeKind(k),
                    index: i,
                })
                .collect();
            nodes.push(Node::default());
            Inf1 {
                flags: LoaderFlags::from_bits_retain(f),
                marker: 0xFFFF,
                matrix_group_count: a,
                vertex_count: b,
                nodes,
                pad: Pad::Nintendo,
            }
        })
}

fn evp1() -> impl Strategy<Value = Evp1> {
    (
        proptest::collection::vec(
            proptest::collection::vec((any::<u16>(), finite()), 1..5),
            0..8,
        ),
        proptest::collection::vec(
            proptest::array::uniform3(proptest::array::uniform4(finite())),
            0..5,
        ),
    )
        .prop_map(|(e, ibms)| Evp1 {
            marker: 0xFFFF,
            envelopes: e.into_iter().map(|pairs| Envelope { pairs }).collect(),
            ibms,
            pad: Pad::Nintendo,
            aligns: Evp1::uniform_aligns(1),
        })
}

fn jnt1() -> impl Strategy<Value = Jnt1> {
    proptest::collection::vec(
        (
            any::<u16>(),
            0u8..2,
            proptest::array::uniform3(finite()),
            proptest::array::uniform3(any::<i16>()),
            finite(),
        ),
        1..6,
    )
    .prop_map(|js| {
        let joints = js
            .into_iter()
            .map(|(m, s, t, r, rad)| Joint {
                matrix_type: m,
                scale_compensate: s,
                rotation: r,
                radius: rad,
                ..Joint::at(t)
            })
            .collect::<Vec<_>>();
        let names = NameTable::new((0..joints.len()).map(|i| format!("joint_{i}")));
        Jnt1::new(joints, Some(names))
    })
}

proptest! {
    #[test]
    fn inf1_round_trips(m in inf1()) {
        let b = m.write().unwrap();
        prop_assert_eq!(Inf1::from_view(&Inf1View::parse(Reader::new(&b)).unwrap()).unwrap(), m);
    }

    #[test]
    fn evp1_round_trips(m in evp1()) {
        let b = m.write().unwrap();
        prop_assert_eq!(Evp1::from_view(&Evp1View::parse(Reader::new(&b)).unwrap()).unwrap(), m);
    }

    #[test]
    fn drw1_round_trips(j in proptest::collection::vec(any::<u16>(), 0..20), e in 0u16..20) {
        let m = Drw1::nintendo(&j, e);
        let b = m.write().unwrap();
        prop_assert_eq!(Drw1::from_view(&Drw1View::parse(Reader::new(&b)).unwrap()).unwrap(), m);
    }

    #[test]
    fn jnt1_round_trips(m in jnt1()) {
        let b = m.write().unwrap();
        prop_assert_eq!(Jnt1::from_view(&Jnt1View::parse(Reader::new(&b)).unwrap()).unwrap(), m);
    }

    #[test]
    fn grid_models_round_trip(cols in 1usize..20, rows in 1usize..40) {
        let m = build::grid_bmd(cols, rows);
        let b = m.write().unwrap();
        prop_assert_eq!(Bmd::parse(&b).unwrap(), m);
        let mesh = geometry(&parse(&b).unwrap()).unwrap();
        prop_assert_eq!(mesh.triangle_count(), 2 * cols * rows);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        fuzz_bmd(&data);
        let mut with_magic = b"J3D2bmd3".to_vec();
        with_magic.extend_from_slice(&data);
        fuzz_bmd(&with_magic);
    }

    #[test]
    fn mutated_samples_never_panic(which in 0usize..8, edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let samples = build::samples();
        let mut b = samples[which % samples.len()].1.clone();
        for (at, v) in edits {
            let n = b.len();
            b[at % n] = v;
        }
        fuzz_bmd(&b);
    }
}
