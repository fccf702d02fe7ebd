//! Generated blocks with retail-like shapes: round trips, clean validation, and broken variants
//! that each fire exactly their rule.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gpl_facial::build::{BlockSpec, birdo, luigi};
use gpl_facial::*;

fn rules(bytes: &[u8]) -> Vec<String> {
    let mut r: Vec<String> = gpl_facial::validate_view(&gpl_facial::parse(bytes).unwrap())
        .into_iter()
        .map(|d| d.rule)
        .collect();
    r.sort();
    r.dedup();
    r
}

#[test]
fn generated_blocks_round_trip_and_validate_clean() {
    for (name, bytes) in build::samples() {
        let v = gpl_facial::parse(&bytes).unwrap();
        assert!(
            gpl_facial::validate_view(&v).is_empty(),
            "{name}: {:?}",
            gpl_facial::validate_view(&v)
        );
        let block = Block::parse(&bytes).unwrap();
        assert!(
            block.raw_parts().is_empty(),
            "{name}: {:?}",
            block.raw_parts()
        );
        assert_eq!(block.write().unwrap(), bytes, "{name}");
        for i in 1..8 {
            assert!(v.word(i).is_multiple_of(32), "{name}: section {i} aligned");
        }
    }
}

#[test]
fn birdo_has_the_seed_shapes() {
    let bytes = build::birdo_block();
    let b = Block::parse(&bytes).unwrap();
    let f = b.facial().unwrap();
    assert_eq!(f.objects.len(), 2);
    let counts: Vec<(u16, u32, u32)> = f
        .objects
        .iter()
        .map(|o| {
            (
                o.pose_count,
                o.attributes[0].entries,
                o.attributes[1].entries,
            )
        })
        .collect();
    assert_eq!(counts, vec![(5, 199, 247), (5, 451, 520)]);
    for o in &f.objects {
        assert_eq!(o.attributes[0].format.to_bytes(), [1, 1, 3, 2]);
        assert_eq!(o.attributes[1].format.to_bytes(), [1, 2, 3, 2]);
        assert!(
            o.attributes
                .iter()
                .all(|a| a.runs.last() == Some(&Run::TERMINATOR) && a.runs.len() > 2)
        );
    }
    // Pose 0 is the mesh; later poses are deltas with zero triplets for entries at rest.
    let v = gpl_facial::parse(&bytes).unwrap();
    let head = v.mesh().unwrap().submeshes[1].positions.unwrap();
    let a = &f.objects[0].attributes[0];
    let idx = a.indices();
    assert_eq!(&a.poses[0][..6], head.entry(usize::from(idx[0])).unwrap());
    assert_eq!(&a.values(1).unwrap()[9..12], &[0, 0, 0]);
    let low = build::samples()
        .into_iter()
        .find(|(n, _)| n.starts_with("L_"))
        .unwrap()
        .1;
    assert_eq!(
        gpl_facial::parse(&low).unwrap().word(slot::FACIAL),
        0,
        "low detail: null ptr7"
    );
}

#[test]
fn luigi_has_interleaved_and_kind_zero_records_and_pose_counts_2_to_6() {
    let bytes = build::luigi_block();
    let f = Block::parse(&bytes).unwrap().facial().unwrap().clone();
    let mut pcs: Vec<u16> = f.objects.iter().map(|o| o.pose_count).collect();
    pcs.extend(
        build::birdo()
            .facial
            .unwrap()
            .objects
            .iter()
            .map(|o| o.pose_count),
    );
    pcs.sort();
    pcs.dedup();
    assert_eq!(pcs, vec![2, 3, 4, 5, 6]);
    let body = &f.objects[1];
    assert_eq!(body.attributes[0].format.to_bytes(), [0, 1, 6, 2]);
    assert_eq!(body.attributes[0].entries, 356);
    assert_eq!(body.attributes[1].format.to_bytes(), [0, 0, 6, 1]);
    assert_eq!(f.objects[0].attributes[0].entries, 64);
    assert!(
        f.descriptors
            .iter()
            .any(|d| d.kind == AttrKind::SKACC && d.format == 0x61)
    );
    // Record sizes follow each object's own pose count.
    let v = gpl_facial::parse(&bytes).unwrap();
    let fv = v.facial().unwrap().unwrap();
    for (i, o) in f.objects.iter().enumerate() {
        assert_eq!(
            fv.object(i).unwrap().entry().record_size.get() as usize,
            record_size(o.pose_count)
        );
    }
    let skin = v.mesh().unwrap().skin.unwrap();
    assert_eq!(skin.entries.len(), 3);
    assert_eq!(skin.skacc_counts, vec![8, 4]);
}

/// Rewrites the facial section of `spec` through `edit` and returns the block.
fn with_section(mut spec: BlockSpec, edit: impl FnOnce(&mut FacialSection)) -> Vec<u8> {
    edit(spec.facial.as_mut().unwrap());
    spec.build().unwrap()
}

#[test]
fn missing_terminator_fires_gpl_008_only() {
    for spec in [birdo(), luigi()] {
        let b = with_section(spec, |s| {
            s.objects[0].attributes[0].runs.pop();
        });
        assert_eq!(rules(&b), vec!["GPL-008"]);
    }
}

/// Patches the facial section bytes of a built block in place.
fn patch(
    spec: BlockSpec,
    edit: impl FnOnce(&mut [u8], &FacialView<'_>) -> Vec<(usize, Vec<u8>)>,
) -> Vec<u8> {
    let mut b = spec.build().unwrap();
    let start = gpl_facial::parse(&b).unwrap().word(slot::FACIAL) as usize;
    let copy = b.clone();
    let v = gpl_facial::parse(&copy).unwrap();
    let fv = v.facial().unwrap().unwrap();
    for (off, bytes) in edit(&mut b[start..], &fv) {
        b[start + off..start + off + bytes.len()].copy_from_slice(&bytes);
    }
    b
}

#[test]
fn wrong_record_size_fires_gpl_007_only() {
    for spec in [birdo(), luigi()] {
        let b = patch(spec, |_, v| {
            let table = v.header().object_table.get() as usize;
            vec![(table + 12 + 4, 0x1Cu32.to_be_bytes().to_vec())]
        });
        assert_eq!(rules(&b), vec!["GPL-007"]);
    }
}

#[test]
fn pose_zero_off_the_mesh_fires_gpl_011_only() {
    for spec in [birdo(), luigi()] {
        let b = with_section(spec, |s| {
            let a = &mut s.objects[1].attributes[0];
            a.poses[0][3] ^= 0x10;
        });
        assert_eq!(rules(&b), vec!["GPL-011"]);
    }
    // A mapped index past the target array is off the mesh too.
    let b = with_section(birdo(), |s| {
        let a = &mut s.objects[0].attributes[0];
        let n = a.runs.len();
        a.runs[n - 2].first = 0xFF00;
    });
    assert_eq!(rules(&b), vec!["GPL-011"]);
}

#[test]
fn pointer_past_the_section_fires_gpl_014_only() {
    for spec in [birdo(), luigi()] {
        let b = patch(spec, |sec, v| {
            let o = v
                .object(v.header().object_count.get() as usize - 1)
                .unwrap();
            let r = o.record(usize::from(o.attr_count()) - 1).unwrap();
            let last = r.offset() + 12 + 4 * (usize::from(o.pose_count()) - 1);
            vec![(last, (sec.len() as u32 + 0x100).to_be_bytes().to_vec())]
        });
        assert_eq!(rules(&b), vec!["GPL-014"]);
        // The broken section is kept as bytes: the block still round-trips and can be detached.
        let mut m = Block::parse(&b).unwrap();
        assert!(m.facial().is_none());
        assert_eq!(m.raw_parts(), ["facial section (does not parse)"]);
        assert_eq!(m.write().unwrap(), b);
        m.detach_facial().unwrap();
        let out = m.write().unwrap();
        assert_eq!(&out[0x18..0x1C], &[0; 4]);
        assert_eq!(&out[0x1C..], &b[0x1C..]);
        assert!(rules(&out).is_empty());
    }
}

#[test]
fn sources_off_the_mirror_fire_gpl_016_only() {
    let mut spec = luigi();
    spec.skin.as_mut().unwrap().sk2[0].skew = 0x20;
    let b = spec.build().unwrap();
    assert_eq!(rules(&b), vec!["GPL-016"]);
    let d = gpl_facial::validate_view(&gpl_facial::parse(&b).unwrap());
    // The SK2 entry itself, and the facial record whose neck vertices it skins.
    assert_eq!(d.len(), 2, "{d:?}");
}

#[test]
fn other_section_rules() {
    // GPL-006: a record without a matching descriptor.
    let b = with_section(birdo(), |s| s.descriptors.truncate(1));
    assert_eq!(rules(&b), vec!["GPL-006"]);
    // GPL-009: runs do not add up to the entry count.
    let b = patch(birdo(), |_, v| {
        let r = v.object(0).unwrap().record(0).unwrap();
        vec![(r.run_ptr() + 2, 0x0001u16.to_be_bytes().to_vec())]
    });
    assert!(rules(&b).contains(&"GPL-009".to_string()));
    // GPL-010: rigid runs out of order.
    let b = with_section(birdo(), |s| {
        let a = &mut s.objects[0].attributes[0];
        a.runs.swap(0, 1);
    });
    assert_eq!(rules(&b), vec!["GPL-010", "GPL-011"]);
    // GPL-004 / GPL-005 / GPL-012 / GPL-013.
    let b = with_section(birdo(), |s| {
        s.pad = 1;
        s.descriptors[0].reserved[8] = 1;
    });
    assert_eq!(rules(&b), vec!["GPL-004", "GPL-005"]);
    let b = with_section(birdo(), |s| {
        s.descriptors.push(Descriptor {
            target: 1,
            kind: AttrKind(5),
            format: 0x22,
            reserved: [0; 12],
        });
    });
    assert_eq!(rules(&b), vec!["GPL-012", "GPL-013"]);
}

#[test]
fn stored_target_pointer_into_skn_fires_gpl_015() {
    let skn = gpl_facial::parse(&build::luigi_block())
        .unwrap()
        .word(slot::SKN);
    for p in [skn + 0x40, 0x40] {
        let b = with_section(luigi(), |s| {
            s.descriptors[0].reserved[4..8].copy_from_slice(&p.to_be_bytes())
        });
        assert_eq!(rules(&b), vec!["GPL-005", "GPL-015"]);
    }
}

#[test]
fn block_rules() {
    let mut b = build::birdo_block();
    b[0x20] ^= 1; // GPL version word
    assert_eq!(rules(&b), vec!["GPL-002"]);
    let mut b = build::birdo_block();
    b[3] = 1;
    assert_eq!(rules(&b), vec!["GPL-001"]);
    // ptr7 pointing before the leading sections.
    let mut b = build::birdo_block();
    b[0x18..0x1C].copy_from_slice(&0x20u32.to_be_bytes());
    assert!(rules(&b).contains(&"GPL-003".to_string()));
    assert!(gpl_facial::parse(&b[..0x10]).is_err());
    let mut b = build::birdo_block();
    b[0x08..0x0C].copy_from_slice(&0xFFFF_FF00u32.to_be_bytes());
    assert!(gpl_facial::parse(&b).is_err());
}

#[test]
fn rebuilt_rigid_head_validates_clean() {
    let mut spec = birdo();
    let head = &mut spec.submeshes[1];
    // Rebuild: drop the first 50 vertices, so every old index is stale.
    head.positions.drain(..150);
    let positions = head.triplets();
    let normals = head.normals.clone().unwrap();
    let poses = vec![edit::RigidPoses {
        positions: (0..40u16).map(|i| (i * 3, vec![[1, 2, 3]; 4])).collect(),
        normals: (0..30u16)
            .map(|i| (i * 5 + 1, vec![[0, 0, 9]; 4]))
            .collect(),
    }];
    let f = spec.facial.as_mut().unwrap();
    f.rebuild_rigid(1, &positions, &normals, Some(&poses))
        .unwrap();
    let b = spec.build().unwrap();
    assert_eq!(rules(&b), Vec::<String>::new());
    let f = Block::parse(&b).unwrap().facial().unwrap().clone();
    assert_eq!(f.objects[0].attributes[0].entries, 40);
    // Object 1 had no poses given: neutral.
    assert_eq!(
        f.objects[1].attributes[0].runs,
        vec![Run { first: 0, len: 1 }, Run::TERMINATOR]
    );
}

#[test]
fn rebuilt_skinned_body_validates_clean_and_drops_kind_zero() {
    let mut spec = luigi();
    let buffer = spec.submeshes[0].sextuplets();
    // Skin layout: mesh vertex v lands in slot (v * 5) % 512 (a permutation of the skinned slots).
    let slot_of: Vec<u16> = (0..512u32).map(|v| ((v * 5) % 512) as u16).collect();
    let poses = vec![
        edit::SkinnedPoses {
            vertices: (0..20u32).map(|v| (v, vec![[1, 0, 0, 0, 0, 1]])).collect(),
        },
        edit::SkinnedPoses {
            vertices: (100..300u32)
                .map(|v| (v, vec![[0, 1, 0, 0, 1, 0]; 5]))
                .collect(),
        },
    ];
    let f = spec.facial.as_mut().unwrap();
    let warnings = f.rebuild_skinned(0, &buffer, &slot_of, &poses).unwrap();
    assert_eq!(warnings.len(), 2);
    assert!(f.descriptors.iter().all(|d| d.kind != AttrKind::SKACC));
    // The rigid cap's objects are copied unchanged.
    assert_eq!(f.objects[2..], luigi().facial.unwrap().objects[2..]);
    let b = spec.build().unwrap();
    assert_eq!(rules(&b), Vec::<String>::new());
}

/// Findings of another rule than `rule` with severity error (none allowed in a broken variant).
fn other_errors(bytes: &[u8], rule: &str) -> Vec<gcio::Diagnostic> {
    gpl_facial::validate_view(&gpl_facial::parse(bytes).unwrap())
        .into_iter()
        .filter(|d| d.severity == gcio::Severity::Error && d.rule != rule)
        .collect()
}

#[test]
fn skin_rules() {
    // GPL-017: posNrmShift (SKN + 6) with a non-zero high nibble.
    let mut b = build::luigi_block();
    let skn = gpl_facial::parse(&b).unwrap().word(slot::SKN) as usize;
    b[skn + 6] |= 0x10;
    assert_eq!(rules(&b), vec!["GPL-017"]);
    // GPL-018: an SK2 range starting off an 8-slot boundary (destination not 32-aligned; the
    // source follows it on the mirror, so GPL-016 holds).
    let mut spec = luigi();
    spec.skin.as_mut().unwrap().sk2[0].first += 1;
    let b = spec.build().unwrap();
    assert_eq!(rules(&b), vec!["GPL-018"]);
}

#[test]
fn variants_checked_by_contains_have_no_other_error() {
    // GPL-009: the last run one entry short (earlier entries keep their mesh indices, so pose 0
    // still matches the mesh where it is compared: no GPL-011).
    let b = patch(birdo(), |_, v| {
        let r = v.object(0).unwrap().record(0).unwrap();
        let runs = v.runs(&r).unwrap();
        let last = runs.iter().take_while(|x| x.len.get() != 0).count() - 1;
        let len = runs[last].len.get() - 1;
        vec![(r.run_ptr() + 4 * last + 2, len.to_be_bytes().to_vec())]
    });
    assert!(rules(&b).contains(&"GPL-009".to_string()));
    assert!(
        other_errors(&b, "GPL-009").is_empty(),
        "{:?}",
        other_errors(&b, "GPL-009")
    );
    // GPL-003: ptr8 before the leading sections (ptr7 there would also misread the facial
    // section and fire its rules).
    let mut b = build::birdo_block();
    b[0x1C..0x20].copy_from_slice(&0x20u32.to_be_bytes());
    assert!(rules(&b).contains(&"GPL-003".to_string()));
    assert!(
        other_errors(&b, "GPL-003").is_empty(),
        "{:?}",
        other_errors(&b, "GPL-003")
    );
}
