//! The crate's registry contracts (`j3d_bmd::BmdFormat`, `j3d_bmd::BtiFormat`): limits are
//! honoured by `parse_with`, detection names the format (or its `j3d-bdl` alias) and the model
//! writes the sample back.
#![allow(clippy::unwrap_used)]

use gcio::{Confidence, FileFormat, Limits};
use j3d_bmd::{BmdFormat, BtiFormat, build};

#[test]
fn model_contract_honours_limits_and_round_trips() {
    let samples = build::samples();
    assert!(samples.len() >= 4);
    for (name, data) in samples {
        gcio::check_limits::<BmdFormat>(&data).unwrap();
        let d = BmdFormat::detect(&data).unwrap();
        assert_eq!(d.confidence, Confidence::Strong, "{name}");
        let expect = if name.ends_with(".bdl") {
            "j3d-bdl"
        } else {
            BmdFormat::NAME
        };
        assert_eq!(d.name, expect, "{name}");
        assert!(
            d.name == BmdFormat::NAME || BmdFormat::ALIASES.contains(&d.name),
            "{name}"
        );
        let m = BmdFormat::parse_with(&data, &Limits::default()).unwrap();
        assert_eq!(BmdFormat::write(&m).unwrap(), data, "{name}");
    }
    let mut bmt = build::samples().swap_remove(0).1;
    bmt[4..7].copy_from_slice(b"bmt");
    let d = BmdFormat::detect(&bmt).unwrap();
    assert_eq!(
        (d.name, d.detail.as_deref()),
        ("j3d-bmd", Some("material file (bmt)"))
    );
    assert!(BmdFormat::detect(b"J3D1bck1").is_none());
}

#[test]
fn texture_contract_honours_limits_and_round_trips() {
    let samples = build::bti_samples();
    assert_eq!(samples.len(), build::textures().0.textures.len());
    for (name, data) in samples {
        gcio::check_limits::<BtiFormat>(&data).unwrap();
        let d = BtiFormat::detect(&data).unwrap();
        // No magic: claimed only under a .bti name.
        assert_eq!((d.name, d.confidence), ("bti", Confidence::Weak), "{name}");
        assert!(d.claims(&name, BtiFormat::EXTENSIONS), "{name}");
        assert!(!d.claims("texture.bin", BtiFormat::EXTENSIONS), "{name}");
        let m = BtiFormat::parse_with(&data, &Limits::default()).unwrap();
        assert_eq!(BtiFormat::write(&m).unwrap(), data, "{name}");
    }
    assert!(BtiFormat::detect(&[0; 8]).is_none());
}

#[test]
fn texture_detection_refuses_no_size_or_an_unknown_format() {
    // Any size with an unknown format (0x7) or a zero width is refused, whatever follows.
    let (name, mut data) = build::bti_samples().swap_remove(0);
    assert!(BtiFormat::detect(&data).is_some(), "{name}");
    data[0] = 0x7;
    assert!(BtiFormat::detect(&data).is_none());
    data[0] = 0xE;
    data[2..4].copy_from_slice(&[0, 0]);
    assert!(BtiFormat::detect(&data).is_none());
}
