#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Property tests for MAT3 and BTI: built materials survive write → parse → resolve; arbitrary and
//! mutated bytes never panic and anything typed writes back identically.

use gcio::Reader;
use j3d_bmd::mat3::{Mat3, Mat3View, Material};
use j3d_bmd::{Bti, Pad, build};
use proptest::prelude::*;

fn material() -> impl Strategy<Value = Material> {
    let base = build::materials();
    (
        0..base.len(),
        any::<[u8; 4]>(),
        proptest::option::of(0u32..4),
        proptest::option::of(any::<u16>().prop_map(|t| t % 12)),
        any::<u8>(),
        proptest::option::of(any::<[i16; 4]>()),
        -1.0e4f32..1.0e4,
    )
        .prop_map(move |(i, konst, cull, tex, sel, tev, fog_z)| {
            let mut m = base[i].clone();
            m.konst_colors[1] = Some(konst);
            m.cull = cull;
            m.textures[3] = tex;
            m.konst_color_sel[5] = sel;
            m.tev_colors[2] = tev;
            if let Some(f) = &mut m.fog {
                f.start_z = fog_z;
            }
            m
        })
}

proptest! {
    #[test]
    fn materials_survive_write_parse(mats in proptest::collection::vec(material(), 1..12)) {
        let m = Mat3::from_materials(&mats).unwrap();
        let b = m.write().unwrap();
        let back = Mat3::from_view(&Mat3View::parse(Reader::new(&b)).unwrap(), Pad::Nintendo, 4).unwrap();
        prop_assert_eq!(back.write().unwrap(), b);
        prop_assert_eq!(back.materials(), mats);
    }

    #[test]
    fn arbitrary_mat3_and_bti_never_panic(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        j3d_bmd::fuzz_bti(&data);
        let mut mat = b"MAT3".to_vec();
        mat.extend_from_slice(&data);
        j3d_bmd::fuzz_mat3(&mat);
    }

    #[test]
    fn mutated_mat3_and_bti_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let mut mat = Mat3::from_materials(&build::materials()).unwrap().write().unwrap();
        let (set, _) = build::textures();
        let mut bti = Bti::new(set.textures[3].header, set.image(3).unwrap(), set.palette(3)).write().unwrap();
        for (at, v) in edits {
            let n = mat.len();
            mat[at % n] = v;
            let n = bti.len();
            bti[at % n] = v;
        }
        j3d_bmd::fuzz_mat3(&mat);
        j3d_bmd::fuzz_bti(&bti);
    }
}
