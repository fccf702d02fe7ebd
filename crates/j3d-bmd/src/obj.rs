//! Wavefront OBJ export: positions (rigid vertices placed by their joint's world matrix), normals,
//! texture coordinates (V flipped: J3D's origin is top-left) and one group per shape.

use std::fmt::Write;

use gcio::Result;

use crate::file::BmdView;
use crate::geometry::{geometry, skeleton, transform};

/// The model as OBJ text.
pub fn to_obj(view: &BmdView<'_>) -> Result<String> {
    let mesh = geometry(view)?;
    let skel = skeleton(view)?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# J3D model: {} shapes, {} triangles",
        mesh.shapes.len(),
        mesh.triangle_count()
    );
    let mut base = 1usize;
    for shape in &mesh.shapes {
        let _ = writeln!(s, "g shape_{}", shape.index);
        for v in &shape.vertices {
            let p = match v.rigid_joint.and_then(|j| skel.world.get(usize::from(j))) {
                Some(m) => transform(m, v.position),
                None => v.position,
            };
            let _ = writeln!(s, "v {} {} {}", p[0], p[1], p[2]);
        }
        let has_n = shape.vertices.iter().any(|v| v.normal.is_some());
        let has_t = shape.vertices.iter().any(|v| v.uvs[0].is_some());
        for v in shape.vertices.iter().filter(|_| has_n) {
            let n = v.normal.unwrap_or_default();
            let _ = writeln!(s, "vn {} {} {}", n[0], n[1], n[2]);
        }
        for v in shape.vertices.iter().filter(|_| has_t) {
            let t = v.uvs[0].unwrap_or_default();
            let _ = writeln!(s, "vt {} {}", t[0], 1.0 - t[1]);
        }
        for t in &shape.triangles {
            let _ = write!(s, "f");
            for i in t {
                let i = base + *i as usize;
                let _ = match (has_t, has_n) {
                    (true, true) => write!(s, " {i}/{i}/{i}"),
                    (true, false) => write!(s, " {i}/{i}"),
                    (false, true) => write!(s, " {i}//{i}"),
                    (false, false) => write!(s, " {i}"),
                };
            }
            let _ = writeln!(s);
        }
        base += shape.vertices.len();
    }
    Ok(s)
}
