//! The crate's registry contract (`hsd_dat::Format`): limits are honoured by `parse_with`, the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;
use hsd_dat::Format;

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = hsd_dat::build::samples().unwrap();
    assert!(samples.len() >= 8, "{} samples", samples.len());
    for (name, data) in samples {
        gcio::check_limits::<Format>(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = Format::detect(&data).unwrap();
        assert_eq!(d.name, Format::NAME, "{name}");
        let m = Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(Format::detect(b"not an archive").is_none());
}
