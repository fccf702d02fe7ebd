//! The crate's registry contract (`ibnk::Format`): limits are honoured by `parse_with` (each
//! bound on its own, on both versions), the contract detects and writes back what the crate's
//! own functions do.
#![allow(clippy::unwrap_used)]

use gcio::{ErrorKind, FileFormat, Limits};

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = ibnk::build::samples();
    assert_eq!(samples.len(), 4);
    for (name, data) in &samples {
        gcio::check_limits::<ibnk::Format>(data).unwrap();
        let d = ibnk::Format::detect(data).unwrap();
        assert_eq!(d.name, ibnk::Format::NAME, "{name}");
        let m = ibnk::Format::parse_with(data, &Limits::default()).unwrap();
        assert_eq!(ibnk::Format::write(&m).unwrap(), *data, "{name}");
    }
    assert!(ibnk::Format::detect(b"not a bank").is_none());
}

#[test]
fn each_bound_is_checked() {
    for (name, data) in ibnk::build::samples() {
        let bytes = Limits {
            max_alloc_bytes: 0,
            ..Limits::default()
        };
        let elements = Limits {
            max_elements: 0,
            ..Limits::default()
        };
        for tight in [bytes, elements] {
            let e = ibnk::Format::parse_with(&data, &tight).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Limit { .. }), "{name}: {e}");
        }
    }
}
