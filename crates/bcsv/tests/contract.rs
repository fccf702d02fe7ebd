//! The crate's registry contract (`bcsv::Format`): `parse_with` honours its limits (the field
//! and row counts of the view, the cells and stored bytes of the model) on every sample, and the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::{Confidence, FileFormat};

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = bcsv::build::samples();
    assert_eq!(samples.len(), 4);
    for (name, data) in samples {
        gcio::check_limits::<bcsv::Format>(&data).unwrap();
        let d = bcsv::Format::detect(&data).unwrap();
        assert_eq!(d.name, bcsv::Format::NAME, "{name}");
        assert_eq!(Some(d.confidence), bcsv::detect(&data), "{name}");
        let m = bcsv::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(bcsv::Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(bcsv::Format::detect(b"not a table").is_none());
}

#[test]
fn view_limits_bound_fields_and_rows() {
    let (_, data) = bcsv::build::samples()
        .into_iter()
        .find(|(n, _)| n == "every_type.bcsv")
        .unwrap();
    let view = bcsv::parse(&data).unwrap();
    let (rows, fields) = (view.len() as u64, view.header().fields.into());
    assert!(rows > fields);
    let at = |max_elements| gcio::Limits {
        max_elements,
        ..gcio::Limits::default()
    };
    assert!(bcsv::parse_with(&data, &at(rows)).is_ok());
    let e = bcsv::parse_with(&data, &at(rows - 1)).unwrap_err();
    assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    // The little-endian sample reports its own limit, not the big-endian reading's failure.
    let (_, le) = bcsv::build::samples()
        .into_iter()
        .find(|(n, _)| n == "every_type_switch.bcsv")
        .unwrap();
    let e = bcsv::parse_with(&le, &at(0)).unwrap_err();
    assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    assert_eq!(bcsv::detect(&le), Some(Confidence::Strong));
}
