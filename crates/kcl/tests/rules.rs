//! One broken variant per rule id (golden table): each mutation of a clean built file makes the
//! validator cite exactly the rule it breaks (plus, where unavoidable, its consequences).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use kcl::{Kcl, Node, build};

fn clean() -> Kcl {
    let opts = build::Options {
        max_per_leaf: 2,
        ..Default::default()
    };
    build::build(&build::sample_triangles(), &opts).unwrap()
}

fn ids(k: &Kcl) -> Vec<String> {
    let bytes = k.write().unwrap();
    let mut v: Vec<String> = kcl::validate(&bytes).into_iter().map(|d| d.rule).collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn clean_sample_has_no_findings() {
    assert_eq!(ids(&clean()), Vec::<String>::new());
    assert!(clean().octree.blocks.len() > 1, "the sample has branches");
}

#[test]
fn each_rule_triggers() {
    type Mutation = fn(&mut Kcl);
    let table: &[(&str, Mutation)] = &[
        ("KCL-002", |k| k.prisms[0].pos = 999),
        ("KCL-003", |k| k.prisms[0].face_normal = 999),
        ("KCL-004", |k| k.normals[0] = [2.0, 0.0, 0.0]),
        ("KCL-005", |k| {
            let i = k.octree.lists.iter().position(|&v| v != 0).unwrap();
            k.octree.lists[i] = 999;
        }),
        ("KCL-006", |k| {
            for n in k.octree.blocks.iter_mut().flatten() {
                if let Node::Leaf(_) = n {
                    *n = Node::Leaf(k.octree.lists.len() as u32 - 1);
                }
            }
        }),
        ("KCL-007", |k| k.header.area_masks[0] = 0xFFFF_FF0F),
        ("KCL-008", |k| {
            // A chain of branches one level deeper than the block shift allows.
            let empty = Node::Leaf(k.octree.lists.len() as u32 - 1);
            let first = k.octree.blocks.len() as u32;
            for d in 0..=k.header.block_width_shift {
                let mut b = [empty; 8];
                if d < k.header.block_width_shift {
                    b[0] = Node::Branch(first + d + 1);
                }
                k.octree.blocks.push(b);
            }
            k.octree.root[0] = Node::Branch(first);
        }),
        ("KCL-009", |k| {
            let empty = Node::Leaf(k.octree.lists.len() as u32 - 1);
            k.octree.root.iter_mut().for_each(|n| *n = empty);
            k.octree.blocks.clear();
        }),
        ("KCL-010", |k| k.header.area_min[1] += 1.0e4),
        ("KCL-011", |k| k.tail = Some(0)),
        ("KCL-012", |k| k.prisms[0].height = -1.0),
    ];
    for (id, mutate) in table {
        let mut k = clean();
        mutate(&mut k);
        let found = ids(&k);
        assert!(found.iter().any(|f| f == id), "{id}: {found:?}");
    }
}

#[test]
fn unparseable_is_kcl_001() {
    let mut bytes = clean().write().unwrap();
    bytes[3] = 0x40;
    let d = kcl::validate(&bytes);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].rule, "KCL-001");
    assert!(
        kcl::validate(&bytes[..0x20])
            .iter()
            .any(|d| d.rule == "KCL-001")
    );
}
