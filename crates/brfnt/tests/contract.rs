//! The crate's registry contract (`brfnt::Format`): limits are honoured by `parse_with`, the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::{Confidence, FileFormat};

#[test]
fn contract_honours_limits_and_round_trips() {
    for (name, data) in brfnt::build::samples() {
        gcio::check_limits::<brfnt::Format>(&data).unwrap();
        let d = brfnt::Format::detect(&data).unwrap();
        assert_eq!(d.name, brfnt::Format::NAME, "{name}");
        assert_eq!(d.confidence, Confidence::Strong, "{name}");
        let m = brfnt::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(brfnt::Format::write(&m).unwrap(), data, "{name}");
        assert!(brfnt::Format::raw_parts(&m).is_empty(), "{name}");
    }
    // Little-endian byte order mark: not claimed.
    assert!(brfnt::Format::detect(b"RFNT\xff\xfe\x01\x04").is_none());
}
