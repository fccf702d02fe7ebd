//! The crate's registry contract (`jpc::Format`): limits are honoured by `parse_with`, the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;

#[test]
fn contract_honours_limits_and_round_trips() {
    for (name, data) in jpc::build::samples() {
        gcio::check_limits::<jpc::Format>(&data).unwrap();
        gcio::check_each_limit::<jpc::Format>(&data, &["bytes", "elements"]).unwrap();
        let d = jpc::Format::detect(&data).unwrap();
        assert_eq!(d.name, jpc::Format::NAME, "{name}");
        let m = jpc::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(jpc::Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(jpc::Format::detect(b"JPAC1-00").is_none());
}
