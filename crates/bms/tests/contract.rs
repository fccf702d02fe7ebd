//! The crate's registry contract (`bms::Format`): limits are honoured by `parse_with` and by
//! `from_view` on a view made under other limits, detection is weak (no header), and the
//! contract writes back what it parsed.
#![allow(clippy::unwrap_used)]

use gcio::{Confidence, ErrorKind, FileFormat, Limits};

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = bms::build::samples().unwrap();
    assert_eq!(samples.len(), 2);
    for s in &samples {
        gcio::check_limits::<bms::Format>(&s.bytes).unwrap();
        let d = bms::Format::detect(&s.bytes).unwrap();
        assert_eq!(
            (d.name, d.confidence),
            (bms::Format::NAME, Confidence::Weak),
            "{}",
            s.name
        );
        assert!(d.claims("x.BMS", bms::Format::EXTENSIONS));
        assert!(!d.claims("x.bin", bms::Format::EXTENSIONS));
        let m = bms::Format::parse_with(&s.bytes, &Limits::default()).unwrap();
        assert_eq!(bms::Format::write(&m).unwrap(), s.bytes, "{}", s.name);
    }
    assert!(bms::Format::detect(b"RARC\0\0\0\0").is_none());
}

#[test]
fn from_view_checks_its_own_limits() {
    let song = bms::build::demo_song();
    let view = bms::Format::view_with(&song, &Limits::default()).unwrap();
    let bytes = Limits {
        max_alloc_bytes: 0,
        ..Limits::default()
    };
    let blocks = Limits {
        max_elements: 1,
        ..Limits::default()
    };
    for tight in [bytes, blocks] {
        let e = bms::Format::from_view(&view, &tight).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit { .. }), "{e}");
    }
}
