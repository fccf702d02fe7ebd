//! The crate's registry contract (`brlan::Format`): limits are honoured by `parse_with`, the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;

#[test]
fn contract_honours_limits_and_round_trips() {
    for (name, data) in brlan::build::samples() {
        gcio::check_limits::<brlan::Format>(&data).unwrap();
        let d = brlan::Format::detect(&data).unwrap();
        assert_eq!(d.name, brlan::Format::NAME, "{name}");
        let m = brlan::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(brlan::Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(brlan::Format::detect(b"RLAN\xff\xfe").is_none());
}
