//! Fuzz body shared by `cargo test` (seed replay) and `fuzz/fuzz_targets/j3d_anim.rs`.

use crate::{Anim, eval, validate};

/// Parses arbitrary bytes every way the crate can; must never panic. When they parse, the rewrite
/// must equal them, JSON must convert back to the same bytes, and evaluation and glTF export
/// (short animations) must not panic.
pub fn fuzz_anim(data: &[u8]) {
    let _ = validate(data);
    let _ = crate::sniff(data);
    let Ok(anim) = Anim::parse(data) else {
        return;
    };
    let written = anim.write();
    assert_eq!(written.as_deref().ok(), Some(data), "round trip");
    #[cfg(feature = "json")]
    {
        let json = crate::to_json(&anim)
            .and_then(|j| crate::from_json(&j))
            .and_then(|a| a.write());
        assert_eq!(json.as_deref().ok(), Some(data), "JSON round trip");
    }
    #[cfg(feature = "export")]
    if anim.duration() < 256 {
        // Export onto a small scene (two joints, a textured material named as the file's first
        // name, one mesh): binding and the glTF writer must take any parsed file.
        let mut scene = gx::scene::Scene::new("fuzz");
        for j in 0..2 {
            scene.nodes.push(gx::scene::Node::new(
                format!("{j}"),
                None,
                gx::mtx::IDENTITY,
            ));
        }
        let name = anim
            .tables
            .iter()
            .find_map(|t| match &t.data {
                crate::Data::Names(n) => n.entries.first().map(|e| e.name.clone()),
                _ => None,
            })
            .unwrap_or_default();
        let tex = gx::tex::Image::new(1, 1, vec![[255; 4]])
            .ok()
            .map(|i| scene.add_image(i));
        scene.materials.push(gx::scene::Material::new(
            String::from_utf8_lossy(&name),
            tex,
        ));
        let mut mesh = gx::scene::Mesh::new("m");
        mesh.positions = vec![[0.0; 3]; 3];
        mesh.uvs = vec![vec![[0.0; 2]; 3]];
        mesh.triangles = vec![[0, 1, 2]];
        mesh.material = Some(0);
        scene.meshes.push(mesh);
        if crate::export::add_to_scene(&mut scene, &anim, "fuzz", 30.0).is_ok() {
            let _ = scene.to_glb();
        }
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
