#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Generated samples: byte-exact round trips through typed chunks, geometry and OBJ counts,
//! validator results, broken variants.

use gcio::Severity;
use j3d_bmd::{Bmd, Chunk, build, geometry, parse, skeleton, to_obj, validate};

fn typed(m: &Bmd) -> Vec<String> {
    m.chunks
        .iter()
        .filter(|c| !matches!(c, Chunk::Raw(_)))
        .map(|c| String::from_utf8_lossy(&c.magic()).into_owned())
        .collect()
}

#[test]
fn samples_round_trip_typed() {
    for (name, bytes) in build::samples() {
        let m = Bmd::parse(&bytes).unwrap();
        assert_eq!(m.write().unwrap(), bytes, "{name}");
        let all: Vec<String> = m
            .chunks
            .iter()
            .map(|c| String::from_utf8_lossy(&c.magic()).into_owned())
            .collect();
        // Every chunk typed, the broken samples' included (a header pointing outside TEX1
        // keeps its stored offset).
        assert_eq!(typed(&m), all, "{name}");
        assert_eq!(&bytes[0x10..0x14], b"SVR3");
        j3d_bmd::fuzz_bmd(&bytes);
    }
}

#[test]
fn chunk_order_and_counts() {
    let bmd = build::skinned_bmd().write().unwrap();
    let v = parse(&bmd).unwrap();
    let names: Vec<String> = v.chunks().iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "INF1", "VTX1", "EVP1", "DRW1", "JNT1", "SHP1", "MAT3", "TEX1"
        ]
    );
    let bdl = build::rigid_bdl().write().unwrap();
    let v = parse(&bdl).unwrap();
    assert!(v.is_bdl());
    assert_eq!(v.chunks().len(), 9);
    assert_eq!(v.chunks()[7].name(), "MDL3");
    for c in v.chunks() {
        assert_eq!(c.data.len() % 32, 0);
    }
}

#[test]
fn samples_check_clean() {
    for (name, bytes) in build::samples()
        .into_iter()
        .filter(|(n, _)| !n.starts_with("broken"))
    {
        let d = validate(&bytes);
        assert!(
            d.iter().all(|d| d.severity == Severity::Info),
            "{name}: {d:#?}"
        );
    }
}

#[test]
fn broken_variants_fire_exactly_their_rule() {
    for (rule, name, bytes) in build::broken_variants() {
        let d = validate(&bytes);
        let rules: Vec<&str> = d
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .map(|d| d.rule.as_str())
            .collect();
        assert!(!rules.is_empty(), "{name}");
        assert!(rules.iter().all(|r| *r == rule), "{name}: {d:#?}");
        // Still byte-exact.
        assert_eq!(Bmd::parse(&bytes).unwrap().write().unwrap(), bytes);
    }
}

#[test]
fn skinned_geometry_and_obj() {
    let bytes = build::skinned_bmd().write().unwrap();
    let v = parse(&bytes).unwrap();
    let mesh = geometry(&v).unwrap();
    // 6 strips of 18 vertices: 16 triangles each.
    assert_eq!(mesh.vertex_count(), 108);
    assert_eq!(mesh.triangle_count(), 96);
    let s = &mesh.shapes[0];
    // Every vertex resolved to joints with weights summing to 1.
    for vx in &s.vertices {
        let sum: f32 = s.skin(vx).iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-6, "{vx:?}");
    }
    // Group 2 slot 0 reuses group 1's DRW entry 0 (joint 0) through 0xFFFF.
    let first_of_group2 = &s.vertices[36];
    assert_eq!(first_of_group2.drw, Some(0));
    let env = s.vertices.iter().find(|v| v.drw == Some(3)).unwrap();
    assert_eq!(s.skin(env), &[(0, 0.5), (1, 0.5)]);
    let obj = to_obj(&v).unwrap();
    assert_eq!(obj.lines().filter(|l| l.starts_with("v ")).count(), 108);
    assert_eq!(obj.lines().filter(|l| l.starts_with("f ")).count(), 96);
    assert_eq!(obj.lines().filter(|l| l.starts_with("g ")).count(), 1);
    let sk = skeleton(&v).unwrap();
    assert_eq!(sk.parents, vec![None, Some(0), Some(1)]);
    assert_eq!(sk.world[2][2][3], 40.0);
}

#[test]
fn obj_counts_of_every_sample() {
    // (name, vertices, triangles, groups)
    let expect = [
        ("skinned.bmd", 108, 96, 1),
        ("rigid.bdl", 4 * 10 + 4, 4 * 8 + 2, 1),
        ("billboard.bmd", 8, 4, 2),
        ("all_attributes.bmd", 12, 8, 1),
    ];
    let samples = build::samples();
    for (name, verts, tris, groups) in expect {
        let bytes = &samples.iter().find(|(n, _)| n == name).unwrap().1;
        let obj = to_obj(&parse(bytes).unwrap()).unwrap();
        let count = |p: &str| obj.lines().filter(|l| l.starts_with(p)).count();
        assert_eq!(
            (count("v "), count("f "), count("g ")),
            (verts, tris, groups),
            "{name}"
        );
    }
}

#[test]
fn all_attributes_decode() {
    let bytes = build::all_attributes_bmd().write().unwrap();
    let mesh = geometry(&parse(&bytes).unwrap()).unwrap();
    let v = &mesh.shapes[0].vertices[1];
    assert_eq!(v.position, [0.0, 0.0, 10.0]);
    assert_eq!(v.normal, Some([0.0, -1.0, 0.0]));
    assert_eq!(v.colors, [Some([0, 255, 0, 128]), Some([1, 2, 3, 255])]);
    for t in 0..7 {
        assert_eq!(v.uvs[t], Some([0.0, 0.5]), "TEX{t}");
    }
    assert_eq!(v.uvs[7], Some([0.0, 0.0]));
}

#[test]
fn committed_samples_are_up_to_date() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/j3d-bmd");
    if !dir.exists() {
        return;
    }
    for (name, bytes) in build::samples() {
        if let Ok(found) = std::fs::read(dir.join(&name)) {
            let at = gcio::first_difference(&found, &bytes);
            assert_eq!(
                at, None,
                "{name} differs from the builders (run `cargo xtask gen-samples`)"
            );
        }
    }
}

#[test]
fn edits_recompute_derived_values() {
    use gx::vtx::{Attr, Components, Value};
    let mut m = build::rigid_bdl();
    // Add positions and a matrix group's worth of data, then let the model derive the rest.
    let vtx = m.vtx1_mut().unwrap();
    let f = vtx.format(Attr::POS).unwrap();
    let mut values: Vec<Value> = (0..vtx.len(Attr::POS))
        .map(|i| vtx.array(Attr::POS).unwrap().unwrap().get(i).unwrap())
        .collect();
    values.push(Value::Float(Components::new(&[1.0, 2.0, 3.0])));
    vtx.set(f, &values).unwrap();
    m.update_counts();
    assert_eq!(m.inf1().unwrap().vertex_count, 26);
    let bytes = m.write().unwrap();
    assert!(
        validate(&bytes)
            .iter()
            .all(|d| d.severity == Severity::Info),
        "{:#?}",
        validate(&bytes)
    );
    assert_eq!(Bmd::parse(&bytes).unwrap(), m);
    // Hierarchy edits go through the tree.
    let mut m = build::skinned_bmd();
    let inf = m.inf1_mut().unwrap();
    let mut tree = inf.tree().unwrap();
    tree[0]
        .children
        .retain(|c| c.kind != j3d_bmd::NodeKind::MATERIAL);
    inf.set_tree(&tree);
    let bytes = m.write().unwrap();
    assert_eq!(Bmd::parse(&bytes).unwrap().write().unwrap(), bytes);
}

/// Rules (non-info) that `bytes` fires.
fn fired(bytes: &[u8]) -> Vec<(String, String)> {
    validate(bytes)
        .into_iter()
        .filter(|d| d.severity != Severity::Info)
        .map(|d| (d.rule, d.message))
        .collect()
}

#[test]
fn group_size_covers_exactly_the_padded_primitives() {
    // 32 bytes too many (still a multiple of 32, so J3D-061 is silent).
    let plus32 = &build::broken_variant("group_size_past_padding").unwrap();
    let d = fired(plus32);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].0, "J3D-062");
    assert!(d[0].1.contains("shape 0 group 0"), "{d:#?}");
    // The right size, but the pad after the NOP holds a non-zero byte.
    let mut m = build::skinned_bmd();
    let g = &mut m.shp1_mut().unwrap().groups[0];
    let used: usize = g.prims.iter().map(|p| 3 + p.data.len()).sum();
    let pad = (32 - used % 32) % 32;
    assert!(
        pad >= 2,
        "sample group needs room for a NOP and a stray byte"
    );
    let mut tail = vec![0; pad];
    tail[pad - 1] = 0xAB;
    g.tail = j3d_bmd::Tail::Bytes(tail);
    let d = fired(&m.write().unwrap());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].0, "J3D-062");
    assert!(d[0].1.contains("not zeros"), "{d:#?}");
}

#[test]
fn joint_bounds_are_in_joint_space() {
    // Joint 2 ("head") sits at world (0, 0, 40). It moves rigid vertices, stored in its own frame
    // (z 20..60 as stored), and envelope-1 vertices, stored in bind space (z 20..60) and brought
    // into its frame by its inverse bind matrix (z − 40). So its box reaches z = −20: in model
    // space it would start at 20.
    let bytes = build::skinned_bmd().write().unwrap();
    let v = parse(&bytes).unwrap();
    let fitted = j3d_bmd::fit_joint_bounds(&v).unwrap();
    let head = fitted[2].unwrap();
    assert_eq!(head.bbox[2], -20.0);
    assert_eq!(head.bbox[5], 60.0);
    assert_eq!((head.bbox[0], head.bbox[3]), (0.0, 80.0));
    // The sphere is about the joint's origin: at least the farthest z, at most the box corner.
    assert!(head.radius >= 60.0 && head.radius <= (80.0f32 * 80.0 + 60.0 * 60.0).sqrt());
    // The builders store exactly these bounds.
    let m = Bmd::parse(&bytes).unwrap();
    let jnt = m.jnt1().unwrap();
    for (j, b) in fitted.iter().enumerate() {
        let b = b.unwrap();
        let stored = jnt.joint(j).unwrap();
        assert_eq!(
            (stored.radius, stored.bbox),
            (b.radius, b.bbox),
            "joint {j}"
        );
    }
    // Every (joint, vertex) pair lies inside its joint's bounds.
    let mesh = geometry(&v).unwrap();
    let mut pairs = 0;
    j3d_bmd::joint_vertices(&v, &mesh, |jv| {
        assert!(fitted[usize::from(jv.joint)].unwrap().contains(jv.local));
        pairs += 1;
        true
    })
    .unwrap();
    assert!(pairs > mesh.vertex_count());
}

#[test]
fn joint_bounds_too_small_warn_once_per_joint() {
    let bytes = &build::broken_variant("joint_bounds_too_small").unwrap();
    let d: Vec<_> = validate(bytes)
        .into_iter()
        .filter(|d| d.severity != Severity::Info)
        .collect();
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].rule, "J3D-046");
    assert_eq!(d[0].severity, Severity::Warning);
    assert!(
        d[0].message.starts_with("joint 1 (spine): shape 0 vertex "),
        "{}",
        d[0].message
    );
    // Fitting the bounds again makes the model clean.
    let mut m = Bmd::parse(bytes).unwrap();
    m.fit_joint_bounds().unwrap();
    assert!(fired(&m.write().unwrap()).is_empty());
}
