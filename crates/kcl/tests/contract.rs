//! The crate's registry contract (`kcl::Format`): limits are honoured by `parse_with`, the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = kcl::build::samples();
    assert_eq!(samples.len(), 1);
    for (name, data) in samples {
        gcio::check_limits::<kcl::Format>(&data).unwrap();
        let d = kcl::Format::detect(&data).unwrap();
        assert_eq!(d.name, kcl::Format::NAME, "{name}");
        let m = kcl::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(kcl::Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(kcl::Format::detect(&[0u8; 0x40]).is_none());
}
