#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Hostile graphs end in errors with offsets, with bounded work; the validator reports them.

use hsd_dat::build::Builder;
use hsd_dat::{DObj, Dat, Joint, JointFlags, Loc, Target, parse};

fn joint() -> Joint<Target> {
    Joint {
        class_name: None,
        flags: JointFlags::empty(),
        child: None,
        next: None,
        data: None,
        rotation: [0.0; 3],
        scale: [1.0; 3],
        translation: [0.0; 3],
        inverse_bind: None,
        robj: None,
    }
}

fn graph_errors(bytes: &[u8]) -> Vec<String> {
    let a = parse(bytes).unwrap();
    let g = a.graph();
    let rules: Vec<_> = hsd_dat::validate_view(&a)
        .into_iter()
        .map(|d| d.rule)
        .collect();
    assert!(g.errors.is_empty() || rules.iter().any(|r| r == "HSD-032"));
    g.errors.iter().map(|e| e.to_string()).collect()
}

#[test]
fn sibling_cycle_is_reported_once() {
    let mut b = Builder::new();
    let j = b.put(&joint());
    let mut jj = joint();
    jj.next = Some(j);
    let Target::In(l) = j else { unreachable!() };
    b.dat.write_struct(l, &jj).unwrap();
    b.root("a_joint", j);
    let errs = graph_errors(&b.finish().write().unwrap());
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("Joint reached twice"), "{errs:?}");
    assert!(errs[0].contains("0x0"), "{errs:?}");
}

#[test]
fn child_cycle_and_deep_chain_end() {
    // A child chain 1000 deep exceeds the depth limit (256) and ends in an error.
    let mut b = Builder::new();
    let mut prev = None;
    for _ in 0..1000 {
        let mut j = joint();
        j.child = prev;
        prev = Some(b.put(&j));
    }
    b.root("deep_joint", prev.unwrap());
    let errs = graph_errors(&b.finish().write().unwrap());
    assert!(
        errs.iter().any(|e| e.contains("limit exceeded: depth")),
        "{errs:?}"
    );
}

#[test]
fn pointer_past_the_data_block() {
    let mut b = Builder::new();
    let mut j = joint();
    j.child = Some(Target::End(0x100));
    let j = b.put(&j);
    b.root("a_joint", j);
    let bytes = b.finish().write().unwrap();
    let errs = graph_errors(&bytes);
    assert!(errs.iter().any(|e| e.contains("past end")), "{errs:?}");
    let d = hsd_dat::validate_view(&parse(&bytes).unwrap());
    assert!(d.iter().any(|d| d.rule == "HSD-003"), "{d:?}");
    assert_eq!(Dat::parse(&bytes).unwrap().write().unwrap(), bytes);
}

#[test]
fn overlapping_structs() {
    let mut b = Builder::new();
    let j = b.put(&joint());
    let Target::In(l) = j else { unreachable!() };
    // A DObj placed inside the joint's own bytes (at +0x20).
    let inner = Target::In(Loc {
        block: l.block,
        offset: 0x20,
    });
    let mut jj = joint();
    jj.data = Some(inner);
    b.dat.write_struct(l, &jj).unwrap();
    b.dat
        .write_struct(
            Loc {
                block: l.block,
                offset: 0x20,
            },
            &DObj::<Target> {
                class_name: None,
                next: None,
                mobj: None,
                pobj: None,
            },
        )
        .unwrap();
    b.root("a_joint", j);
    let bytes = b.finish().write().unwrap();
    let errs = graph_errors(&bytes);
    assert!(errs.iter().any(|e| e.contains("overlaps")), "{errs:?}");
    assert_eq!(Dat::parse(&bytes).unwrap().write().unwrap(), bytes);
}

#[test]
fn runaway_pointer_array() {
    // scene_data.models points at an array whose slots are all relocated: no NULL before the end.
    let mut b = Builder::new();
    let arr = b.bytes(vec![0; 64], 4);
    let Target::In(l) = arr else { unreachable!() };
    for k in 0..16 {
        b.dat.blocks[l.block].set_pointer(4 * k, Some(Target::End(0)));
    }
    let s = b.put(&hsd_dat::SceneData {
        models: Some(arr),
        camera: None,
        lights: None,
        fog: None,
    });
    b.root("scene_data", s);
    let errs = graph_errors(&b.finish().write().unwrap());
    assert!(errs.iter().any(|e| e.contains("past end")), "{errs:?}");
}

#[test]
fn relocated_zero_is_a_pointer_to_offset_zero() {
    let mut b = Builder::new();
    let target = b.bytes(vec![1, 2, 3, 4], 4);
    let mut j = joint();
    j.robj = None;
    j.class_name = Some(target);
    let jt = b.put(&j);
    b.root("a_joint", jt);
    let bytes = b.finish().write().unwrap();
    let a = parse(&bytes).unwrap();
    let root = a.roots().next().unwrap().offset;
    assert_eq!(a.pointer(root).unwrap(), Some(0));
    assert_eq!(a.pointer(root + 4).unwrap(), None);
    let dat = Dat::parse(&bytes).unwrap();
    assert_eq!(
        dat.pointer(Loc {
            block: 1,
            offset: 0
        }),
        Some(Target::block(0))
    );
}

#[test]
fn extern_chain_loop() {
    // Header + 8 data bytes (slot 0 → 4, slot 4 → 0), one root, one extern whose chain loops.
    let mut f = Vec::new();
    let sym = b"r\0e\0";
    let size = 0x20 + 8 + 16 + sym.len();
    for v in [size as u32, 8, 0, 1, 1] {
        f.extend_from_slice(&v.to_be_bytes());
    }
    f.extend_from_slice(&[0; 12]);
    f.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0]);
    for v in [0u32, 0, 0, 2] {
        f.extend_from_slice(&v.to_be_bytes());
    }
    f.extend_from_slice(sym);
    let a = parse(&f).unwrap();
    assert!(a.extern_chain(0).is_err());
    assert!(
        hsd_dat::validate_view(&a)
            .iter()
            .any(|d| d.rule == "HSD-006")
    );
    assert!(Dat::parse(&f).is_err());
    // A terminated chain round-trips and is rewritten after layout changes.
    f[0x24..0x28].copy_from_slice(&u32::MAX.to_be_bytes());
    let dat = Dat::parse(&f).unwrap();
    assert_eq!(dat.externs[0].chain.len(), 2);
    assert_eq!(dat.write().unwrap(), f);
}

/// A relocation entry that is no usable slot (here past the data block) is kept as a raw slot:
/// listed by `raw_parts` and written back in its place. Hand-laid bytes: header, an 8-byte data
/// block (a pointer at 0 to 4, then a word), relocations {0, 0x100}, one root `root` at 0.
#[test]
fn raw_relocation_entries_are_listed_and_kept() {
    #[rustfmt::skip]
    let bytes: Vec<u8> = [
        &[0, 0, 0, 0x3D, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0, 0, 1][..], // size, data, relocs, roots
        &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],        // externs, version, pad
        &[0, 0, 0, 4, 0x11, 0x22, 0x33, 0x44],                    // data block
        &[0, 0, 0, 0, 0, 0, 1, 0],                                // relocations
        &[0, 0, 0, 0, 0, 0, 0, 0],                                // root: offset 0, symbol 0
        b"root\0",
    ]
    .concat();
    let dat = Dat::parse(&bytes).unwrap();
    assert_eq!(dat.raw_parts(), ["relocation entry 0x100"]);
    assert_eq!(dat.write().unwrap(), bytes);
}
