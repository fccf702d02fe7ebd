#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    missing_docs
)]
//! glTF → J3D import: every real model and every sample model goes model → scene (our export,
//! extras included) → import → model → scene; both scenes hold the same model (triangles within
//! 1e-3 of the extent as a multiset, joint names, material count, texture pixels), and the
//! import checks without errors. Prints how many come back byte-identical and, for the others,
//! the first chunk that differs.

mod common;

use j3d_bmd::import::{ImportOptions, import};

fn round_trip(name: &str, data: &[u8]) -> (bool, Option<String>) {
    let view = j3d_bmd::parse(data).unwrap();
    let a = j3d_bmd::to_scene(&view).unwrap();
    // Through the glb file, as `gcf convert` goes: what comes back comes from glTF data and extras.
    let glb = a.to_glb().unwrap();
    let read = gx::scene::Scene::from_glb(&glb).unwrap();
    let imported = import(
        &read,
        &ImportOptions {
            bdl: view.is_bdl(),
            ..ImportOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let back = j3d_bmd::parse(&imported.bytes).unwrap();
    let c = j3d_bmd::to_scene(&back).unwrap();
    let d = gx::compare::compare(&a, &c, 1e-3);
    assert!(d.is_same(), "{name}: {d:?}");
    let same = imported.bytes == data;
    let first = (!same).then(|| {
        let orig = view.chunks();
        let new = back.chunks();
        orig.iter()
            .zip(new)
            .find(|(x, y)| x.data.data() != y.data.data())
            .map_or_else(|| "layout".to_owned(), |(x, _)| x.name())
    });
    (same, first)
}

#[test]
fn sample_models_come_back() {
    for (name, data) in j3d_bmd::build::samples() {
        if name.starts_with("broken/") || !name.ends_with(".bmd") && !name.ends_with(".bdl") {
            continue;
        }
        if j3d_bmd::parse(&data)
            .and_then(|v| j3d_bmd::to_scene(&v))
            .is_ok()
        {
            round_trip(&name, &data);
        }
    }
}

#[test]
fn real_models_come_back() {
    let models: Vec<_> = common::real_models()
        .into_iter()
        .filter(|(n, _)| !n.to_ascii_lowercase().ends_with(".bmt"))
        .collect();
    let mut identical = 0;
    for (name, data) in &models {
        let (same, first) = round_trip(name, data);
        identical += usize::from(same);
        if let Some(f) = first {
            println!("{name}: first difference in {f}");
        }
    }
    println!("{identical} of {} real models byte-identical", models.len());
}

/// Positions of magnitude ≥ 1 beside values no fixed-point format holds exactly (a Blender
/// sphere of radius 2): every vertex has a component a 15-bit fraction cannot store, so the
/// import must not take the clamped values for exact ones (it chose s16/15 and flattened the
/// sphere into the unit cube).
#[test]
fn out_of_range_positions_keep_their_values() {
    let mut s = gx::scene::Scene::new("test");
    s.nodes
        .push(gx::scene::Node::new("root", None, gx::mtx::IDENTITY));
    let mut m = gx::scene::Mesh::new("m");
    m.positions = vec![[2.0, 0.1, 0.0], [0.0, -2.0, 0.3], [0.0, 0.2, 1.5]];
    m.triangles = vec![[0, 1, 2]];
    m.node = Some(0);
    m.material = Some(0);
    s.meshes.push(m);
    s.materials.push(gx::scene::Material::new("mat", None));
    let read = gx::scene::Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let imported = import(&read, &ImportOptions::default()).unwrap();
    let back = j3d_bmd::to_scene(&j3d_bmd::parse(&imported.bytes).unwrap()).unwrap();
    let d = gx::compare::compare(&read, &back, 1e-4);
    assert!(d.is_same(), "{d:?} {:?}", back.meshes[0].positions);
}
