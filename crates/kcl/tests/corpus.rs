//! The real Galaxy archives' KCL and PA members (`../shared/corpus/real/rarc`, skipped when
//! absent): every `.kcl` parses, writes back byte-identical with nothing kept raw, validates without
//! errors, re-builds from its own triangles to the same prism set, and every `.pa` reads with its
//! collision fields named.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

fn real() -> Option<Vec<(String, String, Vec<u8>)>> {
    let dir = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "kcl real")?;
    Some(members(&dir))
}

#[test]
fn real_kcl_round_trip_and_validate() {
    let Some(all) = real() else { return };
    let mut n = 0;
    for (arc, path, data) in &all {
        let is_kcl = path.to_ascii_lowercase().ends_with(".kcl");
        assert_eq!(kcl::sniff(data), is_kcl, "{arc}:{path} sniff");
        if !is_kcl {
            continue;
        }
        n += 1;
        let k = kcl::Kcl::parse(data).unwrap_or_else(|e| panic!("{arc}:{path}: {e}"));
        assert_eq!(k.write().unwrap(), *data, "{arc}:{path} round trip");
        assert!(k.raw_parts().is_empty(), "{arc}:{path} raw parts");
        let diags = kcl::validate(data);
        for d in &diags {
            eprintln!("{path}: {d:?}");
        }
        assert!(
            diags.iter().all(|d| d.severity != gcio::Severity::Error),
            "{arc}:{path}: {diags:?}"
        );
    }
    assert_eq!(n, 7, "real .kcl members");
}

/// Each prism as (attribute, height, corner, face normal, edge normals) values.
fn prism_values(k: &kcl::Kcl) -> Vec<(u16, Vec<f32>)> {
    k.prisms
        .iter()
        .map(|p| {
            let mut v = vec![p.height];
            v.extend(k.positions[usize::from(p.pos)]);
            for n in std::iter::once(p.face_normal).chain(p.edge_normals) {
                v.extend(k.normals[usize::from(n)]);
            }
            (p.attribute, v)
        })
        .collect()
}

/// Whether both hold the same prisms (as a multiset), values equal within rounding.
fn same_prisms(a: &kcl::Kcl, b: &kcl::Kcl) -> Result<(), String> {
    let mut left = prism_values(b);
    for (i, (attr, v)) in prism_values(a).into_iter().enumerate() {
        let close = |w: &Vec<f32>| {
            v.iter()
                .zip(w)
                .all(|(x, y)| (x - y).abs() <= 1e-3 * x.abs().max(1.0) + 1e-3)
        };
        let Some(j) = left.iter().position(|(a2, w)| *a2 == attr && close(w)) else {
            return Err(format!("prism {i} {attr} {v:?} has no match"));
        };
        left.swap_remove(j);
    }
    if left.is_empty() {
        Ok(())
    } else {
        Err(format!("{} extra prisms", left.len()))
    }
}

#[test]
fn real_kcl_rebuild_same_prisms() {
    let Some(all) = real() else { return };
    for (arc, path, data) in &all {
        if !path.to_ascii_lowercase().ends_with(".kcl") {
            continue;
        }
        let k = kcl::Kcl::parse(data).unwrap();
        let opts = kcl::build::Options {
            prism_thickness: k.header.prism_thickness,
            ..Default::default()
        };
        let rebuilt = kcl::build::build(&k.triangles(), &opts).unwrap();
        same_prisms(&rebuilt, &k).unwrap_or_else(|e| panic!("{arc}:{path}: {e}"));
        assert_eq!(rebuilt.prisms.len(), k.prisms.len());
        let bytes = rebuilt.write().unwrap();
        let diags = kcl::validate(&bytes);
        assert!(diags.is_empty(), "{arc}:{path} rebuilt: {diags:?}");
    }
}

#[test]
fn real_pa_fields_named() {
    let Some(all) = real() else { return };
    let mut n = 0;
    for (arc, path, data) in &all {
        if !path.to_ascii_lowercase().ends_with(".pa") {
            continue;
        }
        n += 1;
        let rows = kcl::pa::read(data).unwrap_or_else(|e| panic!("{arc}:{path}: {e}"));
        assert!(!rows.is_empty(), "{arc}:{path}");
        let table = bcsv::Table::parse(data).unwrap();
        for f in &table.fields {
            let name = bcsv::display_name(f.hash);
            assert!(
                kcl::pa::FIELDS.contains(&name.as_str()),
                "{arc}:{path}: unnamed field {name}"
            );
        }
        // The KCL beside it uses attributes that are rows of this table.
        let kcl_path = path.replace(".pa", ".kcl");
        if let Some((_, _, kd)) = all.iter().find(|(a, p, _)| a == arc && *p == kcl_path) {
            let k = kcl::Kcl::parse(kd).unwrap();
            for p in &k.prisms {
                assert!(
                    usize::from(p.attribute) < rows.len(),
                    "{arc}:{path}: attribute {}",
                    p.attribute
                );
            }
        }
    }
    assert_eq!(n, 7, "real .pa members");
}

/// Golden table of the real files: (member, size, positions, normals, prisms, branch blocks,
/// leaves, list stream entries), counted independently with a throw-away script.
type Row = (
    &'static str,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
);

const GOLDEN: &[Row] = &[
    ("ChooChooTrainBody.kcl", 5212, 24, 137, 72, 21, 163, 668),
    ("HitWallTimerSwitch.kcl", 1106, 4, 18, 12, 0, 64, 169),
    ("Move.kcl", 876, 4, 35, 10, 0, 16, 64),
    ("RedCoinSwitch.kcl", 16452, 92, 859, 215, 7, 65, 628),
    ("SwitchBox.kcl", 986, 5, 18, 12, 0, 64, 103),
    ("TestGalaxyPlanet2.kcl", 14016, 125, 288, 324, 33, 247, 1350),
    (
        "TestGalaxyPlanetWater2.kcl",
        14016,
        125,
        288,
        324,
        33,
        247,
        1350,
    ),
];

#[test]
fn real_kcl_golden_counts() {
    let Some(all) = real() else { return };
    for &(name, size, pos, nrm, prisms, blocks, leaves, stream) in GOLDEN {
        let (_, _, data) = all
            .iter()
            .find(|(_, p, _)| p.rsplit('/').next() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing"));
        let k = kcl::Kcl::parse(data).unwrap();
        let got = (
            data.len(),
            k.positions.len(),
            k.normals.len(),
            k.prisms.len(),
            k.octree.blocks.len(),
            k.cells().len(),
            k.octree.lists.len(),
        );
        assert_eq!(
            got,
            (size, pos, nrm, prisms, blocks, leaves, stream),
            "{name}"
        );
    }
}
