//! The crate's registry contract (`kcl::Format`): limits are honoured by `parse_with`, the
//! contract detects and writes back what the crate's own functions do.
#![allow(clippy::unwrap_used)]

use gcio::FileFormat;

#[test]
fn contract_honours_limits_and_round_trips() {
    let samples = kcl::build::samples();
    assert_eq!(samples.len(), 1);
    for (name, data) in samples {
        gcio::check_limits::<kcl::Format>(&data).unwrap();
        let d = kcl::Format::detect(&data).unwrap();
        assert_eq!(d.name, kcl::Format::NAME, "{name}");
        let m = kcl::Format::parse_with(&data, &gcio::Limits::default()).unwrap();
        assert_eq!(kcl::Format::write(&m).unwrap(), data, "{name}");
    }
    assert!(kcl::Format::detect(&[0u8; 0x40]).is_none());
}

#[test]
fn octree_walk_honours_limits() {
    let opts = kcl::build::Options {
        max_per_leaf: 1,
        min_cell_shift: 0,
        ..kcl::build::Options::default()
    };
    let k = kcl::build::build(&kcl::build::sample_triangles(), &opts).unwrap();
    let data = k.write().unwrap();
    let (root, blocks, lists) = (
        k.octree.root.len() as u64,
        k.octree.blocks.len() as u64,
        k.octree.lists.len() as u64,
    );
    let pools = [k.positions.len(), k.normals.len(), k.prisms.len()];
    let pools = pools.into_iter().max().unwrap() as u64;
    assert!(
        blocks > 0 && root > pools && lists > root,
        "{root} {blocks} {lists}"
    );
    let limits = |max_elements, max_nodes| gcio::Limits {
        max_elements,
        max_nodes,
        ..gcio::Limits::default()
    };
    let parse = |l: gcio::Limits| kcl::Kcl::parse_with(&data, &l);
    assert!(parse(limits(lists, blocks)).is_ok());
    for l in [
        limits(root - 1, blocks),
        limits(lists - 1, blocks),
        limits(lists, blocks - 1),
    ] {
        let e = parse(l).unwrap_err();
        assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    }
}
