//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/j3d_anim.rs`.

use crate::{eval, from_json, parse, to_json, validate};

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the rewrite
/// must equal them, JSON must convert back to the same bytes, and evaluation must not panic.
pub fn fuzz_anim(data: &[u8]) {
    let _ = validate(data);
    let _ = crate::sniff(data);
    let Ok(anim) = parse(data) else {
        return;
    };
    let written = anim.write();
    assert_eq!(written.as_deref().ok(), Some(data), "round trip");
    let json = to_json(&anim)
        .and_then(|j| from_json(&j))
        .and_then(|a| a.write());
    if anim_has_finite_floats(&anim) {
        assert_eq!(json.as_deref().ok(), Some(data), "JSON round trip");
    }
    for f in [-1.0, 0.0, 0.5, 3.7, 1e9] {
        let _ = eval::pose(&anim, f);
        let _ = eval::weights(&anim, f);
        for i in 0..4 {
            let _ = eval::color(&anim, i % 2 == 0, i, f);
            let _ = eval::pattern(&anim, i, f);
            let _ = eval::visible(&anim, i, f);
        }
    }
}

/// JSON has no NaN or infinities; files holding them round-trip only as bytes.
fn anim_has_finite_floats(anim: &crate::Anim) -> bool {
    use crate::Data;
    anim.tables.iter().all(|t| match &t.data {
        Data::F32(v) => v.iter().all(|x| x.is_finite()),
        Data::Vec3(v) => v.iter().flatten().all(|x| x.is_finite()),
        _ => true,
    })
}
