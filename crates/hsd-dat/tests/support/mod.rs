//! What the import tests share: the real model archives of the shared corpus and the
//! `m.dat → a.glb → b.dat → c.glb` round trip.
#![allow(dead_code, clippy::unwrap_used)]

use gcio::Severity;
use gx::scene::Scene;
use hsd_dat::compile::Order;
use hsd_dat::import::{ImportOptions, import};
use hsd_dat::{export, parse};

/// Every real model archive of `shared/corpus/real/hsd` (data-only archives, such as m-ex
/// fighter data, left out: no model to import), sorted, as (file name, bytes); `None`, and the
/// corpus check logged as skipped for `who`, without the corpus.
pub fn real_models(who: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/hsd", who)?;
    let mut files = gcio::corpus::files(&dir);
    files.sort();
    let models = files
        .into_iter()
        .filter_map(|p| {
            let m = std::fs::read(&p).unwrap();
            let g = parse(&m).unwrap().graph();
            let name = p.file_name()?.to_string_lossy().into_owned();
            (!(g.joints.is_empty() && g.pobjs.is_empty())).then_some((name, m))
        })
        .collect();
    Some(models)
}

/// How many real model archives the shared corpus holds (`PlMrNr`, `TyBSword`, `TyBancho`,
/// `TyDaisy`, `cb_plug`).
pub const REAL_MODELS: usize = 5;

/// `m.dat → a.glb → b.dat → c.glb` with `opts`; `b` must check with 0 errors. Returns (a, c, b
/// bytes).
pub fn round_trip(m: &[u8], opts: &ImportOptions) -> (Scene, Scene, Vec<u8>) {
    let a = Scene::from_glb(&export::to_glb(&parse(m).unwrap()).unwrap()).unwrap();
    let b = import(&a, opts).unwrap();
    let errors: Vec<_> = hsd_dat::validate(&b.bytes)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let c = Scene::from_glb(&export::to_glb(&parse(&b.bytes).unwrap()).unwrap()).unwrap();
    (a, c, b.bytes)
}

/// The import options of `order`.
pub fn in_order(order: Order) -> ImportOptions {
    ImportOptions {
        order,
        ..ImportOptions::default()
    }
}
