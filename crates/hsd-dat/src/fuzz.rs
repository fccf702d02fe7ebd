//! The fuzz body shared by `fuzz/fuzz_targets/hsd_dat.rs` and `cargo test`.

use crate::{Dat, parse};

/// Parses `data` and runs everything on it: archive queries, the typed graph, meshes, textures,
/// OBJ export, the validator (keyframe streams included), the owned model and its write (which must read back to the same model). Never
/// panics; hostile graphs end through the limits.
pub fn fuzz_hsd_dat(data: &[u8]) {
    let Ok(a) = parse(data) else { return };
    let _ = a.extents();
    let _ = a.roots().count();
    let g = a.graph();
    for p in g.pobjs.iter().take(64) {
        let _ = a.mesh(&g, p);
    }
    let _ = a.world_matrices(&g);
    for t in a.textures(&g).iter().take(16) {
        let _ = a.decode_texture(t);
    }
    #[cfg(feature = "export")]
    if let Ok(obj) = crate::export::to_obj(&a) {
        let _ = obj.len();
    }
    let _ = crate::validate_view(&a);
    for r in a.roots().take(8) {
        use crate::anim::TreeKind;
        let kind = match r.kind() {
            crate::RootKind::AnimJoint => TreeKind::Joint,
            crate::RootKind::MatAnimJoint => TreeKind::Material,
            crate::RootKind::ShapeAnimJoint => TreeKind::Shape,
            _ => continue,
        };
        let _ = a.anim_tree(r.offset, kind);
    }
    if let (Some(j), Some(n)) = (
        g.joints.first(),
        g.nodes.iter().find(|n| n.kind == crate::Kind::AnimJoint),
    ) {
        let _ = a.sample_anim_joint(j.offset, Some(n.offset), 1.5);
    }
    if let Ok(dat) = Dat::from_view(&a, &a.limits()) {
        let _ = crate::compile::compile(&dat).and_then(|c| c.write());
    }
    if let Ok(dat) = Dat::from_view(&a, &a.limits())
        && let Ok(out) = dat.write()
        && let Ok(again) = Dat::parse(&out)
    {
        let _ = again.write();
    }
}

/// The FObj decoder on its own (`fuzz/fuzz_targets/hsd_dat_fobj.rs`): bytes 0 and 1 are the
/// value and slope formats, the rest the stream. Whatever decodes re-encodes, and the re-encoded
/// stream decodes to the same keys and encodes to the same bytes; the curve evaluates.
pub fn fuzz_fobj(data: &[u8]) {
    let (Some(&fv), Some(&fs)) = (data.first(), data.get(1)) else {
        return;
    };
    let stream = gcio::Reader::new(data.get(2..).unwrap_or_default());
    let Ok(packs) = crate::fobj::decode_packs(&stream, fv, fs) else {
        return;
    };
    let keys: Vec<_> = packs.iter().flat_map(|p| p.keys.iter().copied()).collect();
    let curve = crate::anim::Curve::new(&keys);
    for f in 0..16u8 {
        let _ = curve.eval(f32::from(f) * 3.5);
    }
    if let Ok(bytes) = crate::fobj::encode_packs(&packs, fv, fs) {
        let again = crate::fobj::decode_packs(&gcio::Reader::new(&bytes), fv, fs);
        let re = again.and_then(|p| crate::fobj::encode_packs(&p, fv, fs));
        assert!(re.is_ok_and(|r| r == bytes), "FObj re-encode differs");
    }
}

/// The glbs of the in-code samples that export (the import fuzz body's templates).
#[cfg(feature = "import")]
fn import_templates() -> &'static [Vec<u8>] {
    static GLBS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    GLBS.get_or_init(|| {
        crate::build::samples()
            .unwrap_or_default()
            .iter()
            .filter_map(|(_, bytes)| crate::export::to_glb(&parse(bytes).ok()?).ok())
            .collect()
    })
}

/// The glTF → `.dat` import (`fuzz/fuzz_targets/hsd_dat_import.rs`), structure-aware as the
/// text converters' bodies are: an in-code sample's glb with the input's edits to its JSON or
/// binary chunk ([`gx::scene::edited_glb`]), read as a glb and imported in both orders. Never
/// panics, hangs or allocates without bound; every model it imports reads back, checks
/// without errors (the import's own promise, asserted again here) and exports again.
#[cfg(feature = "import")]
pub fn fuzz_import(data: &[u8]) {
    use crate::compile::Order;
    use crate::import::{ImportOptions, import};
    let Some(glb) = gx::scene::edited_glb(import_templates(), data) else {
        return;
    };
    let Ok(scene) = gx::scene::Scene::from_glb(&glb) else {
        return;
    };
    for order in [Order::ColosseumXd, Order::Melee] {
        let opts = ImportOptions {
            order,
            ..ImportOptions::default()
        };
        let Ok(out) = import(&scene, &opts) else {
            continue;
        };
        let a = parse(&out.bytes);
        assert!(a.is_ok(), "the import wrote what does not parse: {a:?}");
        if let Ok(a) = a {
            let errors = crate::validate_view(&a)
                .into_iter()
                .filter(|d| d.severity == gcio::Severity::Error)
                .count();
            assert_eq!(errors, 0, "the import wrote a model with validator errors");
            let _ = crate::export::to_glb(&a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{XdOptions, melee_joint, mextk_minimal, xd_model};

    /// Replays hand-built streams and every single-byte corruption of one.
    #[test]
    fn replay_fobj_seeds() {
        let base = [
            0x00, 0x28, 0x04, 0x80, 0x01, 0x40, 0x00, 0xC8, 0x01, 0x05, 0x00, 0x01,
        ];
        fuzz_fobj(&base);
        fuzz_fobj(&[0, 0, 0x12, 0, 0, 0, 0, 10, 0, 0, 0xC0, 0x3F, 0]);
        for i in 0..base.len() {
            for v in [0u8, 0xFF, 0x80, 0x13, 0x45] {
                let mut m = base;
                m[i] = v;
                fuzz_fobj(&m);
            }
        }
    }

    /// Replays the samples and every single-byte corruption of the smallest one.
    #[test]
    fn replay_seeds() {
        let seeds = [
            mextk_minimal().write().unwrap(),
            melee_joint().unwrap().write().unwrap(),
            xd_model(XdOptions::default()).unwrap().write().unwrap(),
        ];
        for s in &seeds {
            fuzz_hsd_dat(s);
            for cut in [0, 1, 0x1F, 0x20, s.len() / 2] {
                fuzz_hsd_dat(s.get(..cut).unwrap_or_default());
            }
        }
        let base = &seeds[1];
        for i in 0..base.len() {
            for v in [0u8, 0xFF, 0x80, 0x04] {
                let mut m = base.clone();
                m[i] = v;
                fuzz_hsd_dat(&m);
            }
        }
    }
}
