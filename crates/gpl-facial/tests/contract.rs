//! The crate's registry contract (`gpl_facial::Format`): limits are honoured by `parse_with`,
//! the contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::{Confidence, FileFormat};
use gpl_facial::Format;

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = gpl_facial::build::samples();
    assert!(samples.len() >= 4, "{} samples", samples.len());
    for (name, data) in samples {
        gcio::check_limits::<Format>(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = Format::detect(&data).unwrap();
        assert_eq!(d.name, Format::NAME, "{name}");
        assert_eq!(Some(d.confidence), gpl_facial::sniff(&data), "{name}");
        let m = Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(Format::write(&m).unwrap(), data, "{name}");
    }
    // Without the GPL version word the block is only weak: a `.gpl` name claims it.
    let mut weak = gpl_facial::build::birdo_block();
    weak[0x20] ^= 0x80;
    let d = Format::detect(&weak).unwrap();
    assert_eq!(d.confidence, Confidence::Weak);
    assert!(d.claims("catherine.GPL", Format::EXTENSIONS));
    assert!(!d.claims("x.bin", Format::EXTENSIONS));
    assert!(Format::detect(b"").is_none());
}
