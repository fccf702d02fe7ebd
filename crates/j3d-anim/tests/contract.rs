//! The crate's registry contract (`j3d_anim::Format`): limits are honoured by `parse_with`,
//! detection names each kind by one of the aliases, and the model writes the sample back.
#![allow(clippy::unwrap_used)]

use gcio::{Confidence, FileFormat, Limits};
use j3d_anim::{Format, SCHEMAS, build};

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = build::samples();
    assert_eq!(samples.len(), SCHEMAS.len());
    for (name, data) in samples {
        gcio::check_limits::<Format>(&data).unwrap();
        let d = Format::detect(&data).unwrap();
        assert_eq!(d.confidence, Confidence::Strong, "{name}");
        let kind = j3d_anim::sniff(&data).unwrap();
        assert_eq!(d.name, kind.format_name(), "{name}");
        assert!(Format::ALIASES.contains(&d.name), "{name}");
        assert!(Format::EXTENSIONS.contains(&kind.schema().ext), "{name}");
        let m = Format::parse_with(&data, &Limits::default()).unwrap();
        assert_eq!(Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(Format::detect(b"J3D2bmd3").is_none());
}
