#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! glTF export re-read with the `gltf` crate: mesh, joint, skin and texture counts.

use j3d_bmd::{build, parse, to_glb};

#[test]
fn samples_export_to_gltf() {
    for (name, model) in [
        ("skinned", build::skinned_bmd()),
        ("rigid", build::rigid_bdl()),
        ("all_attributes", build::all_attributes_bmd()),
    ] {
        let bytes = model.write().unwrap();
        let view = parse(&bytes).unwrap();
        let glb = to_glb(&view).unwrap();
        let g = gltf::Gltf::from_slice(&glb).unwrap();
        let shapes = model.shp1().unwrap().shapes.len();
        let joints = model.jnt1().unwrap().joints.len();
        assert_eq!(g.meshes().count(), shapes, "{name}");
        let skin = g.skins().next().unwrap();
        assert_eq!(skin.joints().count(), joints, "{name}");
        assert!(skin.inverse_bind_matrices().is_some());
        // Every material has a texture; the sample materials use TEX1 textures 0..=3 (0 twice).
        assert_eq!(g.materials().count(), 3, "{name}");
        assert!(g.textures().count() >= 1, "{name}");
        assert_eq!(g.images().count(), g.textures().count());
        let blob = g.blob.as_ref().unwrap();
        for img in g.images() {
            if let gltf::image::Source::View { view, mime_type } = img.source() {
                assert_eq!(mime_type, "image/png");
                let at = view.offset();
                assert_eq!(&blob[at + 1..at + 4], b"PNG");
            }
        }
        for m in g.meshes() {
            let p = m.primitives().next().unwrap();
            assert!(p.get(&gltf::Semantic::Joints(0)).is_some());
            assert!(p.get(&gltf::Semantic::Weights(0)).is_some());
            assert!(p.indices().unwrap().count() % 3 == 0);
        }
    }
}
