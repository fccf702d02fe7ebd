//! The crate's registry contract (`tpl::Format`): limits are honoured by `parse_with` on the
//! crate's sample (its one sample: `build::sample_bytes`), the contract detects and writes back
//! what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;

#[test]
fn contract_honours_limits_and_round_trips() {
    let data = tpl::build::sample_bytes();
    gcio::check_limits::<tpl::Format>(&data).unwrap();
    let d = tpl::Format::detect(&data).unwrap();
    assert_eq!(d.name, tpl::Format::NAME);
    let m = tpl::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
    assert_eq!(tpl::Format::write(&m).unwrap(), data);
    assert!(tpl::Format::detect(b"not a texture library").is_none());
}
