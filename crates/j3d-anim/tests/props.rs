//! Property tests: models built from arbitrary tracks and values write and parse back equal, and
//! arbitrary bytes (plain and with a valid J3D header in front) never panic.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use j3d_anim::{Data, KeyTrack, Kind, build};
use proptest::prelude::*;

fn track() -> impl Strategy<Value = KeyTrack> {
    (0u16..4, 0u16..40, 0u16..2).prop_map(|(count, index, tangent)| KeyTrack {
        count,
        index,
        tangent,
    })
}

proptest! {
    #[test]
    fn bck_model_round_trips(
        joints in proptest::collection::vec(proptest::array::uniform9(track()), 0..6),
        scales in proptest::collection::vec(-1e6f32..1e6, 0..20),
        rots in proptest::collection::vec(any::<i16>(), 0..20),
        trans in proptest::collection::vec(-1e6f32..1e6, 0..20),
        decimal in 0u32..16,
        duration in 0u32..0x8000,
        loop_mode in 0u32..5,
    ) {
        let a = j3d_anim::Anim::with_tool_layout(
            Kind::Bck,
            &[("loop_mode", loop_mode), ("rotation_decimal", decimal), ("duration", duration)],
            vec![Data::KeySrt(joints), Data::F32(scales), Data::I16(rots), Data::F32(trans)],
        );
        let bytes = a.write().unwrap();
        let back = j3d_anim::Anim::parse(&bytes).unwrap();
        prop_assert_eq!(back.write().unwrap(), bytes.clone());
        prop_assert_eq!(&back.tables, &a.tables);
        prop_assert_eq!(&back.values, &a.values);
        let _ = j3d_anim::validate(&bytes);
        let _ = j3d_anim::eval::pose(&back, 3.5);
    }

    #[test]
    fn sample_edits_round_trip(kind in 0usize..j3d_anim::SCHEMAS.len(), fill in proptest::collection::vec(any::<u8>(), 0..8)) {
        let k = j3d_anim::SCHEMAS[kind].kind;
        let mut a = build::sample(k);
        // Grow the last value-like table a little: layout facts still place everything.
        if let Some(t) = a.tables.iter_mut().rev().find(|t| matches!(t.data, Data::U8(_) | Data::I16(_))) {
            match &mut t.data {
                Data::U8(v) => v.extend(&fill),
                Data::I16(v) => v.extend(fill.iter().map(|&b| i16::from(b))),
                _ => {}
            }
        }
        if let Ok(bytes) = a.write() {
            let back = j3d_anim::Anim::parse(&bytes).unwrap();
            prop_assert_eq!(&back.tables, &a.tables);
            prop_assert_eq!(back.write().unwrap(), bytes);
        }
    }

    /// Cluster files store no entry count: it is read back from where the next table starts,
    /// which must give the same entries for any valid track list (count ≥ 1: the game's tools
    /// never write an empty cluster track, and zero bytes could pass for padding).
    #[test]
    fn cluster_models_round_trip(
        keyed in any::<bool>(),
        tracks in proptest::collection::vec((1u16..5, 0u16..40, 0u16..2), 0..12),
        weights in proptest::collection::vec(-2f32..2.0, 0..24),
        duration in 0u32..0x8000,
        field_c in 0u32..3,
    ) {
        let (kind, clusters) = if keyed {
            (Kind::Blk, Data::Key(tracks.iter().map(|&(count, index, tangent)| KeyTrack { count, index, tangent }).collect()))
        } else {
            (Kind::Bla, Data::Full(tracks.iter().map(|&(count, index, _)| j3d_anim::FullTrack { count, index }).collect()))
        };
        let a = j3d_anim::Anim::with_tool_layout(
            kind,
            &[("loop_mode", 2), ("duration", duration), ("field_c", field_c)],
            vec![clusters, Data::F32(weights)],
        );
        let bytes = a.write().unwrap();
        let back = j3d_anim::Anim::parse(&bytes).unwrap();
        prop_assert_eq!(&back.tables, &a.tables);
        prop_assert_eq!(&back.values, &a.values);
        prop_assert_eq!(back.write().unwrap(), bytes);
        let _ = j3d_anim::eval::weights(&back, 3.5);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        j3d_anim::fuzz_anim(&data);
    }

    #[test]
    fn arbitrary_chunks_never_panic(kind in 0usize..j3d_anim::SCHEMAS.len(), body in proptest::collection::vec(any::<u8>(), 0..400)) {
        let s = j3d_anim::SCHEMAS[kind];
        let mut data = b"J3D1".to_vec();
        data.extend(&s.tag);
        data.extend(((0x28 + body.len()) as u32).to_be_bytes());
        data.extend(1u32.to_be_bytes());
        data.extend([0xFF; 16]);
        data.extend(&s.magic);
        data.extend(((8 + body.len()) as u32).to_be_bytes());
        data.extend(&body);
        j3d_anim::fuzz_anim(&data);
    }
}
