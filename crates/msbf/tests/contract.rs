//! The crate's registry contract (`msbf::Format`): limits are honoured by `parse_with` (each
//! bound on its own, in both byte orders), the contract detects and writes back what the crate's
//! own functions do.
#![allow(clippy::unwrap_used, clippy::panic)]

use gcio::{FileFormat, Limits};

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
        gcio::check_each_limit::<msbf::Format>(&data, &["bytes", "elements"])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
