#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! FObj keyframe streams: encode/decode round trips on arbitrary packs in every number format,
//! and curve evaluation never panics.

use gcio::Reader;
use hsd_dat::anim::Curve;
use hsd_dat::fobj::{Key, Op, Pack, decode, decode_packs, encode, encode_packs};
use hsd_dat::fuzz_fobj;
use proptest::prelude::*;

/// A number exactly representable in `frac` (format in bits 5–7, shift in 0–4).
fn number(frac: u8, raw: i32, f: f32) -> f32 {
    let scale = (-f32::from(frac & 0x1F)).exp2();
    match frac >> 5 {
        0 => f,
        1 => f32::from(raw as i16) * scale,
        2 => f32::from(raw as u16) * scale,
        3 => f32::from(raw as i8) * scale,
        _ => f32::from(raw as u8) * scale,
    }
}

fn frac() -> impl Strategy<Value = u8> {
    (0u8..5, 0u8..16).prop_map(|(f, s)| f << 5 | s)
}

fn track() -> impl Strategy<Value = (u8, u8, Vec<Pack>)> {
    (frac(), frac()).prop_flat_map(|(fv, fs)| {
        let key = (
            any::<i32>(),
            -1e6f32..1e6,
            any::<i32>(),
            -1e3f32..1e3,
            0u32..100_000,
        );
        let pack = (1u8..7, prop::collection::vec(key, 1..20)).prop_map(move |(op, keys)| {
            let op = Op(op);
            let keys = keys
                .into_iter()
                .map(|(rv, fv_, rs, fs_, wait)| Key {
                    op,
                    value: (op != Op::SLP).then(|| number(fv, rv, fv_)),
                    slope: matches!(op, Op::SPL | Op::SLP).then(|| number(fs, rs, fs_)),
                    wait: (op != Op::SLP).then_some(wait),
                })
                .collect();
            Pack { op, keys }
        });
        (Just(fv), Just(fs), prop::collection::vec(pack, 0..8))
    })
}

proptest! {
    #[test]
    fn packs_encode_and_decode(t in track()) {
        let (fv, fs, packs) = t;
        let bytes = encode_packs(&packs, fv, fs).unwrap();
        let back = decode_packs(&Reader::new(&bytes), fv, fs).unwrap();
        prop_assert_eq!(&back, &packs);
        prop_assert_eq!(encode_packs(&back, fv, fs).unwrap(), bytes.clone());
        // Flat keys regroup into maximal runs and still decode to the same keys.
        let keys = decode(&Reader::new(&bytes), fv, fs).unwrap();
        let again = encode(&keys, fv, fs).unwrap();
        prop_assert_eq!(decode(&Reader::new(&again), fv, fs).unwrap(), keys.clone());
        let c = Curve::new(&keys);
        for f in 0..50 {
            let _ = c.eval(f as f32 * 7.5);
        }
    }

    #[test]
    fn arbitrary_streams_never_panic(data in prop::collection::vec(any::<u8>(), 0..256)) {
        fuzz_fobj(&data);
    }
}

#[test]
fn unrepresentable_numbers_are_errors() {
    let key = |op, value| Key {
        op,
        value: Some(value),
        slope: None,
        wait: Some(1),
    };
    // 0.3 is not a multiple of 2^-8 (s16, shift 8); 300 does not fit u8; SPL needs a slope.
    assert!(encode(&[key(Op::LIN, 0.3)], 0x28, 0).is_err());
    assert!(encode(&[key(Op::LIN, 300.0)], 0x80, 0).is_err());
    assert!(encode(&[key(Op::SPL, 1.0)], 0, 0).is_err());
    assert!(
        encode_packs(
            &[Pack {
                op: Op::LIN,
                keys: vec![]
            }],
            0,
            0
        )
        .is_err()
    );
}

/// The XD sample: every FObj stream re-encodes byte for byte, and the first animation (ROTY on
/// the root, LIN 0 → 1.5 over 9 frames) poses the root at frame 4.5 with a 0.75 rad turn.
#[test]
fn xd_sample_streams_and_pose() {
    let bytes = hsd_dat::build::xd_model(Default::default())
        .unwrap()
        .write()
        .unwrap();
    let a = hsd_dat::parse(&bytes).unwrap();
    let g = a.graph();
    let mut n = 0;
    for node in g.nodes.iter().filter(|n| n.kind == hsd_dat::Kind::FObj) {
        let f: hsd_dat::FObj = a.read(node.offset).unwrap();
        let s = a
            .data()
            .sub(f.data.unwrap() as usize, f.length as usize)
            .unwrap();
        let packs = decode_packs(&s, f.frac_value, f.frac_slope).unwrap();
        assert_eq!(
            encode_packs(&packs, f.frac_value, f.frac_slope).unwrap(),
            s.bytes(0, s.len()).unwrap()
        );
        n += 1;
    }
    assert_eq!(n, 2);
    let j = g.joints[0].offset;
    let anim_root = g
        .nodes
        .iter()
        .find(|n| {
            n.kind == hsd_dat::Kind::AnimJoint && {
                let aj: hsd_dat::AnimJoint = a.read(n.offset).unwrap();
                aj.aobj.is_some()
            }
        })
        .unwrap()
        .offset;
    let m = a.sample_anim_joint(j, Some(anim_root), 4.5).unwrap();
    assert_eq!(m.len(), 4);
    let (s, c) = 0.75f32.sin_cos();
    assert!((m[0][0][0] - c).abs() < 1e-5 && (m[0][0][2] - s).abs() < 1e-5);
    assert!((m[0][2][0] + s).abs() < 1e-5);
    let rest = a.sample_anim_joint(j, None, 4.5).unwrap();
    assert_eq!(rest, a.world_matrices(&g)[..4].to_vec());
}

/// The XD sample's AnimJoint tree decodes to its owned form: the root carries one ROTY track
/// whose packs re-encode to the stored stream; the tree mirrors the four joints.
#[test]
fn xd_sample_anim_tree() {
    use hsd_dat::anim::TreeKind;
    let bytes = hsd_dat::build::xd_model(Default::default())
        .unwrap()
        .write()
        .unwrap();
    let a = hsd_dat::parse(&bytes).unwrap();
    let g = a.graph();
    let roots: Vec<u32> = g
        .nodes
        .iter()
        .filter(|n| n.kind == hsd_dat::Kind::AnimJoint)
        .map(|n| n.offset)
        .filter(|&o| {
            let aj: hsd_dat::AnimJoint = a.read(o).unwrap();
            aj.aobj.is_some()
        })
        .collect();
    assert_eq!(roots.len(), 2);
    let tree = a.anim_tree(roots[0], TreeKind::Joint).unwrap();
    assert_eq!(tree.len(), 1);
    let anim = tree[0].slots[0].animation.as_ref().unwrap();
    assert_eq!(anim.end_frame, 9.0);
    let t = &anim.tracks[0];
    assert_eq!(t.track, 2);
    let f: hsd_dat::FObj = a.read(t.offset).unwrap();
    let stored = a
        .data()
        .bytes(f.data.unwrap() as usize, f.length as usize)
        .unwrap();
    assert_eq!(t.encode().unwrap(), stored);
    assert!((t.curve().eval(4.5) - 0.75).abs() < 1e-6);
    fn count(n: &[hsd_dat::anim::AnimNode]) -> usize {
        n.iter().map(|x| 1 + count(&x.children)).sum()
    }
    assert_eq!(count(&tree), 4);
}
