//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/kcl.rs`.

use crate::{Kcl, validate};

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the rewrite
/// must equal them, and queries, OBJ export and re-building must not panic.
pub fn fuzz_kcl(data: &[u8]) {
    let _ = validate(data);
    let _ = crate::sniff(data);
    let Ok(k) = Kcl::parse(data) else {
        return;
    };
    assert_eq!(k.write().ok().as_deref(), Some(data), "round trip");
    let _ = k.cells();
    for p in [[0.0, 0.0, 0.0], k.header.area_min, [1e9, -1e9, 3.5]] {
        let _ = k.query_point(p);
        let _ = k.query_ray(p, [0.3, -1.0, 0.2], 1e4);
    }
    let obj = crate::obj::to_obj(&k);
    if k.prisms.len() <= 64 {
        let _ =
            crate::obj::from_obj(&obj).and_then(|t| crate::build::build(&t, &Default::default()));
    }
}
