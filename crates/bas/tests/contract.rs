//! The crate's registry contract (`bas::Format`): limits are honoured by `parse_with`, the
//! contract detects (weakly: by name) and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::{Confidence, FileFormat};

#[test]
fn contract_honours_limits_and_round_trips() {
    for (name, data) in bas::build::samples() {
        gcio::check_limits::<bas::Format>(&data).unwrap();
        let d = bas::Format::detect(&data).unwrap();
        assert_eq!(d.name, bas::Format::NAME, "{name}");
        assert_eq!(d.confidence, Confidence::Weak, "{name}");
        assert!(d.claims("Walk.bas", bas::Format::EXTENSIONS));
        assert!(!d.claims("Walk.bin", bas::Format::EXTENSIONS));
        let m = bas::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(bas::Format::write(&m).unwrap(), data, "{name}");
    }
    // A count that does not fill the file, or a non-zero control word, is not claimed.
    assert!(bas::Format::detect(&[0, 1, 0, 0, 0, 0, 0, 0]).is_none());
    assert!(bas::Format::detect(&[0, 0, 0, 0, 0, 0, 0, 1]).is_none());
}
