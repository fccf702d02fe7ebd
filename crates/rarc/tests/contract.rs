//! The crate's registry contract (`rarc::Format`): limits are honoured by `parse_with` and by
//! `from_view` on its own, the contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::{ErrorKind, FileFormat, Limits};

fn sample() -> Vec<u8> {
    rarc::pack(&rarc::sample_tree(), rarc::PackOptions::default())
        .write()
        .unwrap()
}

#[test]
fn contract_honours_limits_and_round_trips() {
    let data = sample();
    gcio::check_limits::<rarc::Format>(&data).unwrap();
    let d = rarc::Format::detect(&data).unwrap();
    assert_eq!(d.name, rarc::Format::NAME);
    let m = rarc::Format::parse_with(&data, &Limits::default()).unwrap();
    assert_eq!(rarc::Format::write(&m).unwrap(), data);
    assert!(rarc::Format::detect(b"not an archive").is_none());
}

/// A view parsed under the defaults does not lift the model's own bounds: the table counts, and
/// the bytes copied (the file once plus every name) are checked again.
#[test]
fn from_view_checks_its_own_limits() {
    let data = sample();
    let view = rarc::Format::view_with(&data, &Limits::default()).unwrap();
    let names: usize = (0..view.nodes.len())
        .map(|i| view.node_name(i).unwrap().len())
        .chain((0..view.entries.len()).map(|i| view.entry(i).unwrap().name.len()))
        .sum();
    let copied = (data.len() + names) as u64;
    let limited = |max_alloc_bytes, max_elements| Limits {
        max_alloc_bytes,
        max_elements,
        ..Limits::default()
    };
    let entries = view.entries.len() as u64;
    rarc::Format::from_view(&view, &limited(copied, entries)).unwrap();
    for l in [limited(copied - 1, entries), limited(copied, entries - 1)] {
        let e = rarc::Format::from_view(&view, &l).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit { .. }), "{e}");
    }
}
