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
        // A textured material on a shape without UVs gets an untextured glTF twin (rigid.bdl).
        assert_eq!(
            j3d_bmd::to_scene(&view).unwrap().materials.len(),
            3,
            "{name}"
        );
        assert!(g.materials().count() >= 3, "{name}");
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

/// The real models of `../shared/corpus/real/j3d` (skipped when absent): one glTF mesh per shape,
/// one skin joint per JNT1 joint, one material per MAT3 material, and one PNG per distinct image
/// (never more than TEX1 holds).
#[test]
fn real_models_export_to_gltf() {
    let Some(dir) = gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "real/j3d",
        "j3d-bmd glTF export",
    ) else {
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap();
    let mut seen = 0;
    for e in entries.flatten() {
        let data = std::fs::read(e.path()).unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        let view = parse(&data).unwrap();
        let glb = to_glb(&view).unwrap();
        let g = gltf::Gltf::from_slice(&glb).unwrap();
        let mesh = j3d_bmd::geometry(&view).unwrap();
        let drawn = mesh
            .shapes
            .iter()
            .filter(|s| !s.triangles.is_empty())
            .count();
        assert_eq!(g.meshes().count(), drawn, "{name}");
        assert_eq!(drawn, view.shp1().unwrap().unwrap().len(), "{name}");
        let joints = view.jnt1().unwrap().unwrap().len();
        assert_eq!(g.skins().next().unwrap().joints().count(), joints, "{name}");
        let materials = view.mat3().unwrap().unwrap().len();
        assert_eq!(
            j3d_bmd::to_scene(&view).unwrap().materials.len(),
            materials,
            "{name}"
        );
        assert!(g.materials().count() >= materials, "{name}");
        let tex1 = view.chunk(b"TEX1").unwrap();
        let textures = usize::from(tex1.data.u16(8).unwrap());
        assert!(g.textures().count() <= textures, "{name}");
        assert!(g.textures().count() > 0, "{name}");
        // A texture per image, and one more per other wrap mode (equal pixels in two BTIs
        // that wrap differently share an image).
        assert!(g.images().count() <= g.textures().count(), "{name}");
        let pairs: std::collections::HashSet<_> = g
            .textures()
            .map(|t| (t.source().index(), t.sampler().index()))
            .collect();
        assert_eq!(pairs.len(), g.textures().count(), "{name}");
        // The OBJ carries the same meshes.
        let obj = j3d_bmd::to_scene(&view).unwrap().to_obj(Some("m.mtl"));
        assert_eq!(obj.lines().filter(|l| l.starts_with("g ")).count(), drawn);
        seen += 1;
    }
    eprintln!("{seen} real J3D models exported");
}

/// The exports of the samples and the real models read back with `gx::scene::Scene::from_glb`:
/// the same joints, one mesh per drawn shape with its triangles, texture coordinate and colour
/// sets, positions in model space (at rest, through the skin), and the same images.
#[test]
fn exports_read_back() {
    let mut models: Vec<(String, Vec<u8>)> = [
        ("skinned", build::skinned_bmd()),
        ("rigid", build::rigid_bdl()),
        ("all_attributes", build::all_attributes_bmd()),
    ]
    .into_iter()
    .map(|(n, m)| (n.to_owned(), m.write().unwrap()))
    .collect();
    let dir = gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "real/j3d",
        "j3d-bmd glTF read back",
    );
    let real = dir.as_deref().map(gcio::corpus::files).unwrap_or_default();
    for path in &real {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        models.push((name, std::fs::read(path).unwrap()));
    }
    let (mut triangles, mut vertices, mut multi_set) = (0, 0, 0);
    for (name, bytes) in &models {
        let scene = j3d_bmd::to_scene(&parse(bytes).unwrap()).unwrap();
        let (back, notes) = gx::scene::Scene::read_glb(&scene.to_glb().unwrap()).unwrap();
        assert!(notes.is_empty(), "{name}: {notes:?}");
        assert_eq!(back.nodes.len(), scene.nodes.len(), "{name}");
        assert_eq!(back.images(), scene.images(), "{name}");
        let drawn: Vec<_> = scene
            .meshes
            .iter()
            .filter(|m| !m.triangles.is_empty() && !m.positions.is_empty())
            .collect();
        assert_eq!(back.meshes.len(), drawn.len(), "{name}");
        for (b, m) in back.meshes.iter().zip(drawn) {
            assert_eq!(b.triangles, m.triangles, "{name} {}", m.name);
            assert_eq!(b.uvs, m.uvs, "{name} {}", m.name);
            assert_eq!(b.colors, m.colors, "{name} {}", m.name);
            for (p, q) in b.positions.iter().zip(&m.positions) {
                for (x, y) in p.iter().zip(q) {
                    assert!(
                        (x - y).abs() <= 1e-3 * y.abs().max(1.0),
                        "{name} {}: {p:?} {q:?}",
                        m.name
                    );
                }
            }
            multi_set += usize::from(b.uvs.len() > 1 || b.colors.len() > 1);
            triangles += b.triangles.len();
            vertices += b.positions.len();
        }
    }
    if dir.is_some() {
        assert_eq!(real.len(), 4, "real J3D models read back");
    }
    eprintln!(
        "{} models read back: {triangles} triangles, {vertices} vertices, {multi_set} meshes \
         with several UV or colour sets",
        models.len()
    );
}
