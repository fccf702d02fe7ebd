//! Blender as a test client (issues 35, 36): finding a Python that imports `bpy` and running
//! the scripts in `tests/blender/`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A Python interpreter that imports `bpy`, or `None` (the caller skips with a note): the one
/// `GCF_BLENDER_PYTHON` names (which must import it), else `python3` when it does.
pub fn python() -> Option<PathBuf> {
    let imports_bpy = |p: &Path| {
        Command::new(p)
            .args(["-c", "import bpy"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if let Some(p) = std::env::var_os("GCF_BLENDER_PYTHON").map(PathBuf::from) {
        assert!(
            imports_bpy(&p),
            "GCF_BLENDER_PYTHON={} cannot import bpy",
            p.display()
        );
        return Some(p);
    }
    let p = PathBuf::from("python3");
    if imports_bpy(&p) {
        return Some(p);
    }
    eprintln!("skipped: no Python with bpy (set GCF_BLENDER_PYTHON or `pip install bpy`)");
    None
}

/// Runs `tests/blender/SCRIPT ARGS` with `python`, in `dir`; its standard output.
pub fn script(python: &Path, dir: &Path, script: &str, args: &[&Path]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/blender")
        .join(script);
    let out = Command::new(python)
        .arg(path)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (super::text(&out.stdout), super::text(&out.stderr));
    assert!(out.status.success(), "{script} failed:\n{stdout}{stderr}");
    stdout
}

/// A path as `&str` (test paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A JSON `[x, y, z]`.
pub fn point(v: &serde_json::Value) -> [f32; 3] {
    let a = v.as_array().unwrap();
    [0, 1, 2].map(|c| a[c].as_f64().unwrap() as f32)
}

/// Largest absolute coordinate of the scene's positions (at least 1), as gx::compare measures.
pub fn extent(s: &gx::scene::Scene) -> f32 {
    s.meshes
        .iter()
        .flat_map(|m| m.positions.iter().flatten())
        .fold(1.0f32, |m, x| m.max(x.abs()))
}

/// Triangles of every mesh of the scene.
pub fn triangle_count(s: &gx::scene::Scene) -> usize {
    s.meshes.iter().map(|m| m.triangles.len()).sum()
}

/// The `.glb` at `p`, read.
pub fn scene(p: &Path) -> gx::scene::Scene {
    gx::scene::Scene::from_glb(&std::fs::read(p).unwrap()).unwrap()
}

/// What the triangle comparison leaves out: each material (by name) keeps its texture,
/// double-sidedness and alpha mode, and the vertex colours are the same set.
pub fn same_looks(a: &gx::scene::Scene, b: &gx::scene::Scene, what: &str) {
    for m in &a.materials {
        let n = b.materials.iter().find(|n| n.name == m.name);
        let n = n.unwrap_or_else(|| panic!("{what}: no material {}", m.name));
        let mode = |m: &gx::scene::Material| std::mem::discriminant(&m.alpha_mode);
        assert_eq!(
            m.texture.is_some(),
            n.texture.is_some(),
            "{what}: {}",
            m.name
        );
        assert_eq!(m.double_sided, n.double_sided, "{what}: {}", m.name);
        assert_eq!(mode(m), mode(n), "{what}: {} {:?}", m.name, n.alpha_mode);
    }
    let colours = |s: &gx::scene::Scene| {
        let mut c: Vec<[u8; 4]> = s
            .meshes
            .iter()
            .flat_map(|m| m.colors.iter().flatten())
            .copied()
            .collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    assert_eq!(colours(a), colours(b), "{what}: vertex colours");
}
