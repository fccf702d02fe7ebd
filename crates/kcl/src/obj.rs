//! Wavefront OBJ in and out: the triangles a KCL's prisms stand for, with the attribute as the
//! material name (`usemtl attr_N`, N the `.pa` row).

use std::collections::HashMap;
use std::fmt::Write as _;

use gcio::{Error, ErrorKind, Result};

use crate::geom::Vec3;
use crate::model::Kcl;

/// The prisms' triangles as OBJ text: shared corners written once, one `usemtl attr_N` per run of
/// equal attributes, faces in prism order.
pub fn to_obj(k: &Kcl) -> String {
    let mut verts: Vec<Vec3> = Vec::new();
    let mut index: HashMap<[u32; 3], usize> = HashMap::new();
    let mut faces = Vec::new();
    for (t, attr) in k.triangles() {
        let ids = t.map(|v| {
            *index.entry(v.map(f32::to_bits)).or_insert_with(|| {
                verts.push(v);
                verts.len()
            })
        });
        faces.push((ids, attr));
    }
    let mut s =
        String::from("# KCL collision triangles (gcformats); usemtl attr_N = attribute N\n");
    for v in &verts {
        let _ = writeln!(s, "v {} {} {}", v[0], v[1], v[2]);
    }
    let mut cur = None;
    for (ids, attr) in faces {
        if cur != Some(attr) {
            let _ = writeln!(s, "usemtl attr_{attr}");
            cur = Some(attr);
        }
        let _ = writeln!(s, "f {} {} {}", ids[0], ids[1], ids[2]);
    }
    s
}

/// Triangles and attributes from OBJ text. Polygons are split into fans; `usemtl` names ending in
/// digits give the attribute (other names give 0); `v/vt/vn` and negative indices are accepted.
pub fn from_obj(text: &str) -> Result<Vec<([Vec3; 3], u16)>> {
    let bad = |line: usize, m: String| {
        Error::without_offset(ErrorKind::Invalid(format!("OBJ line {}: {m}", line + 1)))
    };
    let mut verts: Vec<Vec3> = Vec::new();
    let mut attr = 0u16;
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let mut c = [0f32; 3];
                for v in &mut c {
                    *v = it
                        .next()
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(|| bad(ln, "vertex needs three numbers".into()))?;
                }
                verts.push(c);
            }
            Some("usemtl") => {
                let name = it.next().unwrap_or("");
                let digits: String = name
                    .chars()
                    .rev()
                    .take_while(char::is_ascii_digit)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                attr = digits.parse().unwrap_or(0);
            }
            Some("f") => {
                let ids = it
                    .map(|s| {
                        let i: i64 = s
                            .split('/')
                            .next()
                            .and_then(|s| s.parse().ok())
                            .ok_or_else(|| bad(ln, format!("bad face index {s:?}")))?;
                        let n = verts.len() as i64;
                        let k = if i < 0 { n + i } else { i - 1 };
                        verts
                            .get(
                                usize::try_from(k)
                                    .map_err(|_| bad(ln, format!("index {i} out of range")))?,
                            )
                            .copied()
                            .ok_or_else(|| bad(ln, format!("index {i} out of range")))
                    })
                    .collect::<Result<Vec<Vec3>>>()?;
                let Some((&first, rest)) = ids.split_first() else {
                    return Err(bad(ln, "face without corners".into()));
                };
                if rest.len() < 2 {
                    return Err(bad(ln, "face with fewer than 3 corners".into()));
                }
                for w in rest.windows(2) {
                    if let [b, c] = w {
                        out.push(([first, *b, *c], attr));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(out)
}
