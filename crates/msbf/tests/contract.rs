//! The crate's registry contract (`msbf::Format`): limits are honoured by `parse_with` (each
//! bound on its own, in both byte orders), the contract detects and writes back what the crate's
//! own functions do.
#![allow(clippy::unwrap_used)]

use gcio::{ErrorKind, FileFormat, Limits};

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = msbf::build::samples();
    assert_eq!(samples.len(), 4);
    for (name, data) in &samples {
        gcio::check_limits::<msbf::Format>(data).unwrap();
        let d = msbf::Format::detect(data).unwrap();
        assert_eq!(d.name, msbf::Format::NAME, "{name}");
        let m = msbf::Format::parse_with(data, &Limits::default()).unwrap();
        assert_eq!(msbf::Format::write(&m).unwrap(), *data, "{name}");
    }
    assert!(msbf::Format::detect(b"not a flow").is_none());
}

#[test]
fn each_bound_is_checked() {
    for (name, data) in msbf::build::samples() {
        let bytes = Limits {
            max_alloc_bytes: 0,
            ..Limits::default()
        };
        let elements = Limits {
            max_elements: 0,
            ..Limits::default()
        };
        for tight in [bytes, elements] {
            let e = msbf::Format::parse_with(&data, &tight).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Limit { .. }), "{name}: {e}");
        }
    }
}
