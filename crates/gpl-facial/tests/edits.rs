//! Every edit operation against bytes worked out by hand from the packing rule.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod common;
use common::*;
use gpl_facial::edit::{RigidPoses, SkinnedPoses, pool_normals};
use gpl_facial::*;

/// The tiny fixture's target array (submesh 1, five vertices); vertices 3 and 4 are mapped.
fn mesh() -> Vec<i16> {
    vec![0, 0, 0, 1, 1, 1, 2, 2, 2, 10, 20, 30, 40, 50, 60]
}

#[test]
fn apply_base_mesh_edit_patches_pose_zero_only() {
    let mut s = tiny();
    let mut edited = mesh();
    edited[0] = 99; // vertex 0: not mapped, no effect
    edited[9] += 5; // vertex 3: x + 5
    edited[11] -= 2; // vertex 3: z - 2
    assert_eq!(
        s.apply_base_edit(1, AttrKind::POSITION, &mesh(), &edited)
            .unwrap(),
        2
    );
    let mut want = tiny_bytes();
    // pose 0 at 0x4C: (10+5, 20, 30-2), (40, 50, 60); pose 1 at 0x58 untouched.
    want[0x4C..0x58].copy_from_slice(&hex("000F 0014 001C 0028 0032 003C"));
    assert_eq!(s.write().unwrap(), want);
    // A normal edit does not touch the position attribute.
    assert_eq!(
        s.apply_base_edit(1, AttrKind::NORMAL, &mesh(), &edited)
            .unwrap(),
        0
    );
    assert!(
        s.apply_base_edit(1, AttrKind::POSITION, &mesh()[..9], &edited[..9])
            .is_err()
    );
}

#[test]
fn replace_pose_delta_changes_only_those_bytes() {
    let mut s = tiny();
    s.replace_pose_delta(0, 0, 1, &[7, 7, 7, -7, -7, -7])
        .unwrap();
    let mut want = tiny_bytes();
    want[0x58..0x64].copy_from_slice(&hex("0007 0007 0007 FFF9 FFF9 FFF9"));
    assert_eq!(s.write().unwrap(), want);
    assert!(
        s.replace_pose_delta(0, 0, 0, &[0; 6]).is_err(),
        "pose 0 is absolute"
    );
    assert!(
        s.replace_pose_delta(0, 0, 1, &[0; 3]).is_err(),
        "length must stay"
    );
    assert!(s.replace_pose_delta(1, 0, 1, &[0; 6]).is_err());
}

#[test]
fn unpatch_restores_original_arrays() {
    let original = tiny();
    let mut s = tiny();
    let mut edited = mesh();
    edited[10] = -300;
    s.apply_base_edit(1, AttrKind::POSITION, &mesh(), &edited)
        .unwrap();
    s.replace_pose_delta(0, 0, 1, &[1; 6]).unwrap();
    assert_ne!(s.write().unwrap(), tiny_bytes());
    s.unpatch(&original).unwrap();
    assert_eq!(s.write().unwrap(), tiny_bytes());
    let mut other = tiny();
    other.objects[0].attributes[0].entries = 1;
    other.objects[0].attributes[0].poses = vec![be(&[0; 3]), be(&[0; 3])];
    assert!(s.unpatch(&other).is_err());
}

#[test]
fn rebuild_rigid_maps_sorted_entries() {
    let mut s = tiny();
    let rebuilt = [[100, 0, 0], [0, 100, 0], [0, 0, 100], [1, 2, 3]];
    let poses = [RigidPoses {
        positions: vec![(2, vec![[5, 5, 5]]), (0, vec![[-1, 0, 0]])],
        normals: vec![],
    }];
    s.rebuild_rigid(1, &rebuilt, &[], Some(&poses)).unwrap();
    let mut want = hex("0002 0001 0001 0000 00000024 00000014 00000000
         0001 01 32 000000000000000000000000
         0002 0001 00000014 00000030
         00000002 01010302 00000044 00000050 0000005C
         0000 0001 0002 0001 0000 0000
         0064 0000 0000 0000 0000 0064
         FFFF 0000 0000 0005 0005 0005");
    want.resize(0x80, 0);
    assert_eq!(s.write().unwrap(), want);
    // Objects on other submeshes are unchanged.
    let mut s2 = tiny();
    s2.rebuild_rigid(0, &rebuilt, &[], Some(&poses)).unwrap();
    assert_eq!(s2, tiny());
    // Wrong number of deltas for the pose count.
    let bad = [RigidPoses {
        positions: vec![(0, vec![])],
        normals: vec![],
    }];
    assert!(tiny().rebuild_rigid(1, &rebuilt, &[], Some(&bad)).is_err());
}

#[test]
fn rebuild_rigid_without_poses_neutralizes() {
    let mut s = tiny();
    let rebuilt = [[100, 0, 0], [0, 100, 0]];
    s.rebuild_rigid(1, &rebuilt, &[], None).unwrap();
    let mut want = hex("0002 0001 0001 0000 00000024 00000014 00000000
         0001 01 32 000000000000000000000000
         0002 0001 00000014 00000030
         00000001 01010302 00000044 0000004C 00000052
         0000 0001 0000 0000
         0064 0000 0000
         0000 0000 0000");
    want.resize(0x60, 0);
    assert_eq!(s.write().unwrap(), want);
    assert!(validate_section(&want).is_empty());
}

#[test]
fn neutralize_object_directly() {
    let mut s = tiny();
    s.objects[0].neutralize(|_| vec![7, 8, 9]).unwrap();
    let a = &s.objects[0].attributes[0];
    assert_eq!(
        (a.entries, a.runs.clone()),
        (1, vec![Run { first: 0, len: 1 }, Run::TERMINATOR])
    );
    assert_eq!(a.poses, vec![be(&[7, 8, 9]), be(&[0, 0, 0])]);
    assert!(s.objects[0].neutralize(|_| vec![1]).is_err());
}

fn skinned() -> FacialSection {
    FacialSection {
        max_pose_count: 2,
        pad: 0,
        reserved: 0,
        descriptors: vec![
            Descriptor::for_format(AttrFormat::body(0)),
            Descriptor::for_format(AttrFormat::skacc(0)),
        ],
        objects: vec![FacialObject {
            pose_count: 2,
            attributes: vec![
                Attribute {
                    entries: 1,
                    format: AttrFormat::body(0),
                    runs: vec![Run { first: 5, len: 1 }, Run::TERMINATOR],
                    poses: vec![be(&[1, 2, 3, 4, 5, 6]), be(&[0; 6])],
                },
                Attribute {
                    entries: 1,
                    format: AttrFormat::skacc(0),
                    runs: vec![Run { first: 0, len: 1 }, Run::TERMINATOR],
                    poses: vec![vec![1, 2, 3, 4, 5, 6], vec![0; 6]],
                },
            ],
        }],
    }
}

#[test]
fn rebuild_skinned_maps_slots_and_drops_kind_zero() {
    let mut s = skinned();
    let buffer: Vec<[i16; 6]> = (0..8).map(|i| [i, i, i, -i, -i, -i]).collect();
    let slot_of = [7, 9, 4];
    let poses = [SkinnedPoses {
        vertices: vec![(2, vec![[1, 1, 1, 2, 2, 2]]), (0, vec![[3, 0, 0, 0, 0, 0]])],
    }];
    let warnings = s.rebuild_skinned(0, &buffer, &slot_of, &poses).unwrap();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    let want = hex("0002 0001 0001 0000 00000024 00000014 00000000
         0000 01 62 000000000000000000000000
         0002 0001 00000014 00000030
         00000002 00010602 00000044 00000050 00000068
         0004 0001 0007 0001 0000 0000
         0004 0004 0004 FFFC FFFC FFFC 0007 0007 0007 FFF9 FFF9 FFF9
         0001 0001 0001 0002 0002 0002 0003 0000 0000 0000 0000 0000");
    assert_eq!(want.len(), 0x80);
    assert_eq!(s.write().unwrap(), want);
    // A vertex without a slot is an error.
    let bad = [SkinnedPoses {
        vertices: vec![(3, vec![[0; 6]])],
    }];
    assert!(
        skinned()
            .rebuild_skinned(0, &buffer, &slot_of, &bad)
            .is_err()
    );
}

#[test]
fn pooled_normals_one_delta_per_entry() {
    let vertex_normals = vec![vec![0, 3], vec![1], vec![3, 4]];
    let pooled = pool_normals(
        &vertex_normals,
        &[(2, vec![[9, 9, 9]]), (0, vec![[1, 1, 1]])],
    )
    .unwrap();
    assert_eq!(
        pooled,
        vec![
            (0, vec![[1, 1, 1]]),
            (3, vec![[1, 1, 1]]),
            (4, vec![[9, 9, 9]])
        ]
    );
    assert!(pool_normals(&vertex_normals, &[(5, vec![])]).is_err());
}

#[test]
fn detach_zeroes_ptr7_and_keeps_bytes() {
    let bytes = tiny_block(&tiny_bytes());
    let mut b = Block::parse(&bytes).unwrap();
    assert!(b.raw_parts().is_empty(), "the facial section is typed");
    assert_eq!(b.write().unwrap(), bytes);
    b.detach_facial().unwrap();
    let out = b.write().unwrap();
    let mut want = bytes.clone();
    want[0x18..0x1C].copy_from_slice(&[0; 4]);
    assert_eq!(out, want);
    assert!(Block::parse(&out).unwrap().facial().is_none());
}

#[test]
fn trailing_pointers_follow_a_rebuilt_section() {
    let bytes = tiny_block(&tiny_bytes());
    assert_eq!(&bytes[0x18..0x20], &hex("00000040 000000C0"));
    let mut b = Block::parse(&bytes).unwrap();
    let mut s = b.facial().unwrap().clone();
    s.rebuild_rigid(1, &[[100, 0, 0], [0, 100, 0]], &[], None)
        .unwrap();
    b.set_facial(s);
    let out = b.write().unwrap();
    // Facial section 0x80 -> 0x60 bytes: ptr8 moves from 0xC0 to 0xA0, ptr7 stays at 0x40.
    assert_eq!(
        &out[..0x20],
        &hex("00000000 00000020 00000000 00000000 00000000 00000000 00000040 000000A0")
    );
    assert_eq!(out.len(), 0xC0);
    assert_eq!(&out[0xA0..], b"TRAILING ptr8 SECTION...........");
}
