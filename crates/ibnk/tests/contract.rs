//! The crate's registry contract (`ibnk::Format`): limits are honoured by `parse_with` (each
//! bound on its own, on both versions), the contract detects and writes back what the crate's
//! own functions do.
#![allow(clippy::unwrap_used, clippy::panic)]

use gcio::{FileFormat, Limits};

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
        gcio::check_each_limit::<ibnk::Format>(&data, &["bytes", "elements"])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
