//! The crate's registry contract (`brlyt::Format`): limits are honoured by `parse_with`, the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;

#[test]
fn contract_honours_limits_and_round_trips() {
    for (name, data) in brlyt::build::samples() {
        gcio::check_limits::<brlyt::Format>(&data).unwrap();
        let d = brlyt::Format::detect(&data).unwrap();
        assert_eq!(d.name, brlyt::Format::NAME, "{name}");
        let m = brlyt::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(brlyt::Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(brlyt::Format::detect(b"RLYT\xff\xfe").is_none());
}
