#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! How close the import's layout comes to HAL's compiler (issue 36): every real model `m.dat` of
//! the shared corpus goes `m.dat → glb → b.dat` in the order `m` detects as, and the test prints
//! per file the whole-file BNB of `b` against `m`, the BNB of each phase's region and the first
//! block where the two layouts part (its phase, offset and the typed structure there). It
//! asserts only a floor per file just under what the rules reach, so a regression fails.
//!
//! Beside it, the bound of everything but the order of values inside the vertex arrays: `b`
//! with each vertex-array and display-list block replaced by `m`'s where the two have the same
//! length. That order is what glTF cannot carry (docs/HSD-ORDER.md, "The bound"); the
//! bound shows what the rest of the import reaches, and its floors catch a
//! regression there that the array order would hide. It is a figure about the import, never
//! an input to it.

mod support;

use hsd_dat::Dat;
use hsd_dat::compile::{Phase, block_phases, detect};
use hsd_dat::import::{ImportOptions, import};
use hsd_dat::{export, parse};

/// The floor of each file's BNB (percent), just under the measured figure.
const FLOORS: [(&str, f64); 5] = [
    ("PlMr-PlMrNr.dat", 84.2),
    ("TyBSword-TyBSword.dat", 94.6),
    ("TyBancho-TyBancho.dat", 89.4),
    ("TyDaisy-TyDaisy.dat", 71.6),
    ("cb_plug-cb_plug.dat", 66.9),
];

/// The floor of each file's BNB with `m`'s own vertex arrays and display lists (percent).
/// `cb_plug` keeps bytes no model holds: an unreferenced 2,048-byte pixel block and normals
/// stored twice with the same value.
const BOUND_FLOORS: [(&str, f64); 5] = [
    ("PlMr-PlMrNr.dat", 99.5),
    ("TyBSword-TyBSword.dat", 99.1),
    ("TyBancho-TyBancho.dat", 99.9),
    ("TyDaisy-TyDaisy.dat", 99.9),
    ("cb_plug-cb_plug.dat", 71.9),
];

/// `b` with every vertex-array and display-list block of `a` (by index, where both have the
/// same length and `b`'s holds no pointer) copied over, written.
fn with_own_arrays(a: &[u8], b: &[u8]) -> Vec<u8> {
    let (da, mut db) = (Dat::parse(a).unwrap(), Dat::parse(b).unwrap());
    let phases = block_phases(&da).unwrap();
    for ((x, (phase, _)), y) in da.blocks.iter().zip(&phases).zip(&mut db.blocks) {
        let arrays = matches!(phase, Phase::VertexBuffers | Phase::DisplayLists);
        if arrays && y.bytes.len() == x.bytes.len() && y.pointers.is_empty() {
            y.bytes.clone_from(&x.bytes);
        }
    }
    db.write().unwrap()
}

/// The first block of `a` whose bytes differ from `b`'s block at the same index: (block index,
/// data offset in `a`, its phase, the typed kinds starting there).
fn first_divergence(a: &[u8], b: &[u8]) -> Option<(usize, usize, String, String)> {
    let (da, db) = (Dat::parse(a).unwrap(), Dat::parse(b).unwrap());
    let phases = block_phases(&da).unwrap();
    let archive = parse(a).unwrap();
    let g = archive.graph();
    let mut at = 0usize;
    for (i, x) in da.blocks.iter().enumerate() {
        if db.blocks.get(i).is_none_or(|y| y.bytes != x.bytes) {
            let kinds: Vec<String> = g
                .nodes
                .iter()
                .filter(|n| n.offset as usize == at)
                .map(|n| format!("{:?}", n.kind))
                .collect();
            return Some((i, at, format!("{:?}", phases[i].0), kinds.join("/")));
        }
        at += x.bytes.len();
    }
    None
}

#[test]
fn import_bnb_per_file() {
    let Some(models) = support::real_models("hsd-dat import BNB") else {
        return;
    };
    assert_eq!(models.len(), support::REAL_MODELS, "real models read");
    let (mut sum, mut bound_sum, mut below) = (0.0, 0.0, Vec::new());
    for (name, m) in &models {
        let a = parse(m).unwrap();
        let order = detect(&Dat::parse(m).unwrap()).unwrap().order();
        let glb = export::to_glb(&a).unwrap();
        let opts = ImportOptions {
            order,
            ..ImportOptions::default()
        };
        let imported = import(&gx::scene::Scene::from_glb(&glb).unwrap(), &opts).unwrap();
        // Our own glb: every extras image index is trusted.
        assert!(!imported.stale_extras, "{name}");
        let b = imported.bytes;
        let c = hsd_dat::compare::compare(m, &b).unwrap();
        sum += c.bnb;
        eprintln!(
            "{name}: {order:?}: {} → {} bytes, BNB {:.2} %",
            m.len(),
            b.len(),
            c.bnb
        );
        for r in &c.regions {
            eprintln!(
                "    {:?}: {} → {} bytes, BNB {:.2} %",
                r.phase, r.bytes.0, r.bytes.1, r.bnb
            );
        }
        match first_divergence(m, &b) {
            Some((i, at, phase, kinds)) => {
                eprintln!("    first divergence: block {i} at {at:#x}, {phase} ({kinds})")
            }
            None => eprintln!("    identical blocks"),
        }
        let bound = hsd_dat::compare::compare(m, &with_own_arrays(m, &b))
            .unwrap()
            .bnb;
        bound_sum += bound;
        eprintln!("    with the file's own vertex arrays and display lists: BNB {bound:.2} %");
        let floor = |t: &[(&str, f64)]| t.iter().find(|f| f.0 == *name).map_or(0.0, |f| f.1);
        if c.bnb < floor(&FLOORS) {
            below.push(format!("{name}: BNB {:.2} < {}", c.bnb, floor(&FLOORS)));
        }
        if bound < floor(&BOUND_FLOORS) {
            below.push(format!(
                "{name}: bound {bound:.2} < {}",
                floor(&BOUND_FLOORS)
            ));
        }
    }
    let n = models.len() as f64;
    eprintln!(
        "average BNB {:.2} %; with the files' own arrays {:.2} %",
        sum / n,
        bound_sum / n
    );
    assert!(below.is_empty(), "{below:?}");
}
