//! The crate's registry contract (`pkx::Format`): limits are honoured by `parse_with`, the
//! contract detects (naming the game) and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;
use pkx::Format;

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = pkx::build::samples().unwrap();
    assert!(samples.len() >= 12, "{} samples", samples.len());
    for (name, data) in samples {
        gcio::check_limits::<Format>(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = Format::detect(&data).unwrap();
        let game = pkx::game(&data).unwrap().format_name();
        assert_eq!(d.name, game, "{name}");
        assert!(Format::ALIASES.contains(&d.name), "{name}");
        let m = Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(Format::detect(b"not a container").is_none());
}
