//! Golden table: one table of (model, bytes) drives the read and the write tests.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod common;
use common::*;
use gpl_facial::*;

#[test]
fn golden_read() {
    for (name, model, bytes) in golden::table() {
        assert_eq!(FacialSection::parse(&bytes).unwrap(), model, "{name}");
    }
}

#[test]
fn golden_write() {
    for (name, model, bytes) in golden::table() {
        assert_eq!(model.write().unwrap(), bytes, "{name}");
    }
}

#[test]
fn golden_view() {
    let b = tiny_bytes();
    let v = FacialView::parse(&b).unwrap();
    let o = v.object(0).unwrap();
    let r = o.record(0).unwrap();
    assert_eq!((o.pose_count(), o.attr_count(), r.entries()), (2, 1, 2));
    assert_eq!(r.format(), AttrFormat::rigid_position(1));
    assert_eq!(v.runs(&r).unwrap().len(), 2);
    assert_eq!(r.pose(1).unwrap(), &be(&[1, 0, -1, 0, 0, 0])[..]);
    assert_eq!(tiny().objects[0].attributes[0].indices(), vec![3, 4]);
    assert_eq!(
        tiny().objects[0].attributes[0].values(1).unwrap(),
        vec![1, 0, -1, 0, 0, 0]
    );
    assert!(validate_section(&b).is_empty());
}

#[test]
fn writer_refuses_inconsistent_models() {
    let mut m = tiny();
    m.objects[0].pose_count = 3;
    assert!(m.write().is_err());
    let mut m = tiny();
    m.objects[0].attributes[0].entries = 3;
    assert!(m.write().is_err());
}

#[test]
fn runs_from_sorted() {
    assert_eq!(
        Run::from_sorted(&[0, 1, 2, 5, 7, 8]),
        vec![
            Run { first: 0, len: 3 },
            Run { first: 5, len: 1 },
            Run { first: 7, len: 2 },
            Run::TERMINATOR
        ]
    );
    assert_eq!(Run::from_sorted(&[]), vec![Run::TERMINATOR]);
}
