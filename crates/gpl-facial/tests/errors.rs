//! Error messages say what, where and in which structure.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gpl_facial::*;

#[test]
fn errors_carry_structure_and_offset() {
    let mut b = golden::tiny_bytes();
    // Pose 1 pointer (record at 0x30, pose pointers from 0x3C) moved past the section.
    b[0x40..0x44].copy_from_slice(&0x200u32.to_be_bytes());
    let e = FacialSection::parse(&b).unwrap_err().to_string();
    assert!(e.contains("facial object 0 > attribute 0 > pose 1"), "{e}");
    assert!(e.contains("0x200"), "{e}");
    let d = validate_section(&b);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d.iter()
            .all(|x| x.rule == "GPL-014" && x.offset == Some(0x40))
    );
    // Inside a block, offsets are absolute.
    let block = {
        let mut spec = build::birdo();
        spec.facial = Some(FacialSection::parse(&golden::tiny_bytes()).unwrap());
        spec.build().unwrap()
    };
    let start = gpl_facial::parse(&block).unwrap().word(slot::FACIAL) as usize;
    let mut broken = block.clone();
    broken[start + 0x40..start + 0x44].copy_from_slice(&0x200u32.to_be_bytes());
    let d = gpl_facial::validate_view(&gpl_facial::parse(&broken).unwrap());
    assert!(
        d.iter()
            .any(|x| x.rule == "GPL-014" && x.offset == Some(start as u64 + 0x40)),
        "{d:?}"
    );
}

/// The owned block copies its sections only within the caller's limits, and the mapped vertex
/// lists stop at its element bound: tiny limits refuse what the defaults accept.
#[test]
fn caller_limits_bound_the_owned_block_and_the_indices() {
    let bytes = gpl_facial::build::birdo_block();
    let view = gpl_facial::parse(&bytes).unwrap();
    let tiny = gcio::Limits {
        max_alloc_bytes: 16,
        max_elements: 1,
        ..gcio::Limits::default()
    };
    let e = gpl_facial::Block::from_view(&view, &tiny).unwrap_err();
    assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    let block = gpl_facial::Block::from_view(&view, &gcio::Limits::default()).unwrap();
    let a = &block.facial().unwrap().objects[0].attributes[0];
    assert!(a.indices().len() > 1);
    assert_eq!(a.indices_with(&tiny).len(), 1);
}
