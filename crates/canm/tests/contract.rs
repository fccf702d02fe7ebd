//! The crate's registry contract (`canm::Format`): limits are honoured by `parse_with`, the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;

#[test]
fn contract_honours_limits_and_round_trips() {
    for (name, data) in canm::build::samples() {
        gcio::check_limits::<canm::Format>(&data).unwrap();
        let d = canm::Format::detect(&data).unwrap();
        assert_eq!(d.name, canm::Format::NAME, "{name}");
        let m = canm::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(canm::Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(canm::Format::detect(b"not a camera").is_none());
}
