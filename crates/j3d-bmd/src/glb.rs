//! glTF 2.0 binary export: one mesh per shape (positions in bind space, normals, first UV set),
//! the joint hierarchy as nodes, one skin with joint indices, weights (the four largest pairs,
//! renormalised) and inverse bind matrices, and each shape's material's first texture as a PNG
//! base-colour texture (V flipped like the OBJ export: J3D's origin is top-left).

use gcio::{Error, Result};
use serde_json::{Value, json};

use crate::evp1::Mtx34;
use crate::file::BmdView;
use crate::geometry::{geometry, skeleton, transform};
use crate::inf1::NodeKind;
use crate::mat3::Mat3;
use crate::tex1::Tex1;

/// Sets `key` of a JSON object.
fn set(v: &mut Value, key: &str, x: Value) {
    if let Some(o) = v.as_object_mut() {
        o.insert(key.to_owned(), x);
    }
}

/// Column-major 4×4 of a 3×4 row-major affine matrix.
fn mat4(m: &Mtx34) -> [f32; 16] {
    let mut o = [0.0; 16];
    for (c, col) in o.chunks_exact_mut(4).enumerate() {
        for (r, x) in col.iter_mut().enumerate() {
            *x = match m.get(r) {
                Some(row) => row.get(c).copied().unwrap_or(0.0),
                None => f32::from(u8::from(c == 3)),
            };
        }
    }
    o
}

/// Inverse of an affine 3×4 matrix (identity when singular).
fn inverse(m: &Mtx34) -> Mtx34 {
    gx::mtx::inverse(m).unwrap_or(gx::mtx::IDENTITY)
}

/// Binary buffer with aligned views and accessors.
struct Bin {
    data: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
        let mut v = json!({"buffer": 0, "byteOffset": self.data.len(), "byteLength": bytes.len()});
        if let Some(t) = target {
            set(&mut v, "target", json!(t));
        }
        self.data.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    fn floats(&mut self, v: &[f32], ty: &str, n: usize, bounds: bool) -> usize {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(34962));
        let mut a = json!({"bufferView": view, "componentType": 5126, "count": v.len() / n.max(1), "type": ty});
        if bounds {
            let (mut lo, mut hi) = (vec![f32::MAX; n], vec![f32::MIN; n]);
            for c in v.chunks_exact(n) {
                for (k, x) in c.iter().enumerate() {
                    if let (Some(l), Some(h)) = (lo.get_mut(k), hi.get_mut(k)) {
                        *l = l.min(*x);
                        *h = h.max(*x);
                    }
                }
            }
            set(&mut a, "min", json!(lo));
            set(&mut a, "max", json!(hi));
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn u16s(&mut self, v: &[u16], ty: &str, n: usize) -> usize {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(34962));
        self.accessors.push(
            json!({"bufferView": view, "componentType": 5123, "count": v.len() / n, "type": ty}),
        );
        self.accessors.len() - 1
    }

    fn indices(&mut self, v: &[u32]) -> usize {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(34963));
        self.accessors.push(
            json!({"bufferView": view, "componentType": 5125, "count": v.len(), "type": "SCALAR"}),
        );
        self.accessors.len() - 1
    }
}

fn png(img: &gx::tex::Image) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let err = |e: png::EncodingError| Error::invalid(0, format!("PNG: {e}"));
    let mut enc = png::Encoder::new(&mut out, img.width(), img.height());
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()
        .map_err(err)?
        .write_image_data(img.as_rgba8())
        .map_err(err)?;
    Ok(out)
}

/// The model as a `.glb` file.
pub fn to_glb(view: &BmdView<'_>) -> Result<Vec<u8>> {
    let mesh = geometry(view)?;
    let skel = skeleton(view)?;
    let mut bin = Bin {
        data: Vec::new(),
        views: Vec::new(),
        accessors: Vec::new(),
    };
    // Shape → material from the scene graph (the material node above a shape).
    let mut shape_mat = std::collections::HashMap::new();
    if let Some(Ok(inf)) = view.inf1() {
        let mut current = None;
        for n in inf.nodes().map_while(|n| n.ok()) {
            match n.kind {
                NodeKind::MATERIAL => current = Some(usize::from(n.index)),
                NodeKind::SHAPE => {
                    if let Some(m) = current {
                        shape_mat.insert(usize::from(n.index), m);
                    }
                }
                _ => {}
            }
        }
    }
    let mat3 = view
        .mat3()
        .and_then(|m| m.ok())
        .and_then(|m| Mat3::from_view(&m, crate::Pad::Nintendo, 4).ok());
    let tex1 = view
        .chunk(b"TEX1")
        .and_then(|c| Tex1::parse(c.data, crate::Pad::Nintendo).ok());
    // One glTF texture per TEX1 texture used by a material.
    let mut images = Vec::new();
    let mut textures = Vec::new();
    let mut tex_of = std::collections::HashMap::new();
    let mut materials = Vec::new();
    let mut mat_of = std::collections::HashMap::new();
    if let Some(m) = &mat3 {
        for (i, material) in m.materials().iter().enumerate() {
            let mut pbr = json!({"metallicFactor": 0.0});
            if let (Some(t), Some(tex1)) = (material.textures.iter().flatten().next(), &tex1) {
                let t = usize::from(*t);
                if !tex_of.contains_key(&t)
                    && let Some(img) = tex1.set.decode(t).ok().and_then(|l| l.into_iter().next())
                {
                    let view = bin.view(&png(&img)?, None);
                    images.push(json!({"bufferView": view, "mimeType": "image/png"}));
                    textures.push(json!({"source": images.len() - 1}));
                    tex_of.insert(t, textures.len() - 1);
                }
                if let Some(gt) = tex_of.get(&t) {
                    set(&mut pbr, "baseColorTexture", json!({"index": gt}));
                }
            }
            materials.push(json!({"name": String::from_utf8_lossy(&material.name), "pbrMetallicRoughness": pbr, "doubleSided": material.cull == Some(crate::mat3::cull::NONE)}));
            mat_of.insert(i, materials.len() - 1);
        }
    }
    let joints = skel.world.len();
    let mut meshes = Vec::new();
    for shape in &mesh.shapes {
        let mut pos = Vec::new();
        let mut nrm = Vec::new();
        let mut uv = Vec::new();
        let mut jw_j = Vec::new();
        let mut jw_w = Vec::new();
        let has_n = shape.vertices.iter().any(|v| v.normal.is_some());
        let has_t = shape.vertices.iter().any(|v| v.uvs[0].is_some());
        for v in &shape.vertices {
            let world = v.rigid_joint.and_then(|j| skel.world.get(usize::from(j)));
            let p = world.map_or(v.position, |m| transform(m, v.position));
            pos.extend(p);
            if has_n {
                let n = v.normal.unwrap_or([0.0, 1.0, 0.0]);
                let n = world.map_or(n, |m| {
                    let t = transform(m, n);
                    let o = transform(m, [0.0; 3]);
                    [t[0] - o[0], t[1] - o[1], t[2] - o[2]]
                });
                let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt().max(1e-6);
                nrm.extend(n.map(|x| x / len));
            }
            if has_t {
                let t = v.uvs[0].unwrap_or_default();
                uv.extend([t[0], t[1]]);
            }
            if joints > 0 {
                let mut pairs: Vec<(u16, f32)> = match v.rigid_joint {
                    Some(j) => vec![(j, 1.0)],
                    None => shape.skin(v).to_vec(),
                };
                pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
                pairs.truncate(4);
                let sum: f32 = pairs.iter().map(|p| p.1).sum();
                let mut js = [0u16; 4];
                let mut ws = [0f32; 4];
                for (k, (j, w)) in pairs.iter().enumerate() {
                    if let (Some(js), Some(ws)) = (js.get_mut(k), ws.get_mut(k)) {
                        *js = *j;
                        *ws = if sum > 0.0 { w / sum } else { 0.0 };
                    }
                }
                if sum <= 0.0 {
                    ws[0] = 1.0;
                }
                jw_j.extend(js);
                jw_w.extend(ws);
            }
        }
        let mut attrs = json!({"POSITION": bin.floats(&pos, "VEC3", 3, true)});
        if has_n {
            set(
                &mut attrs,
                "NORMAL",
                json!(bin.floats(&nrm, "VEC3", 3, false)),
            );
        }
        if has_t {
            set(
                &mut attrs,
                "TEXCOORD_0",
                json!(bin.floats(&uv, "VEC2", 2, false)),
            );
        }
        if joints > 0 {
            set(&mut attrs, "JOINTS_0", json!(bin.u16s(&jw_j, "VEC4", 4)));
            set(
                &mut attrs,
                "WEIGHTS_0",
                json!(bin.floats(&jw_w, "VEC4", 4, false)),
            );
        }
        let idx: Vec<u32> = shape.triangles.iter().flatten().copied().collect();
        let mut prim = json!({"attributes": attrs, "indices": bin.indices(&idx), "mode": 4});
        if let Some(m) = shape_mat.get(&shape.index).and_then(|m| mat_of.get(m)) {
            set(&mut prim, "material", json!(m));
        }
        meshes.push(json!({"name": format!("shape_{}", shape.index), "primitives": [prim]}));
    }
    // Nodes: joints first, then one node per mesh.
    let names = view
        .jnt1()
        .and_then(|j| j.ok())
        .and_then(|j| j.names())
        .and_then(|n| n.ok());
    let mut nodes: Vec<Value> = (0..joints)
        .map(|j| {
            let name = names
                .as_ref()
                .and_then(|n| n.name(j))
                .unwrap_or_else(|| format!("joint_{j}"));
            let mut n =
                json!({"name": name, "matrix": mat4(skel.local.get(j).unwrap_or(&[[0.0; 4]; 3]))});
            let kids: Vec<usize> = (0..joints)
                .filter(|&c| skel.parents.get(c).copied().flatten() == Some(j as u16))
                .collect();
            if !kids.is_empty() {
                set(&mut n, "children", json!(kids));
            }
            n
        })
        .collect();
    let mut roots: Vec<usize> = (0..joints)
        .filter(|&j| skel.parents.get(j).copied().flatten().is_none())
        .collect();
    let skins = if joints > 0 {
        let ibm: Vec<f32> = skel.world.iter().flat_map(|w| mat4(&inverse(w))).collect();
        let bytes: Vec<u8> = ibm.iter().flat_map(|x| x.to_le_bytes()).collect();
        let v = bin.view(&bytes, None);
        bin.accessors
            .push(json!({"bufferView": v, "componentType": 5126, "count": joints, "type": "MAT4"}));
        json!([{"joints": (0..joints).collect::<Vec<_>>(), "inverseBindMatrices": bin.accessors.len() - 1, "skeleton": roots.first()}])
    } else {
        json!([])
    };
    for (i, _) in meshes.iter().enumerate() {
        let mut n = json!({"name": format!("mesh_{i}"), "mesh": i});
        if joints > 0 {
            set(&mut n, "skin", json!(0));
        }
        nodes.push(n);
        roots.push(nodes.len() - 1);
    }
    while !bin.data.len().is_multiple_of(4) {
        bin.data.push(0);
    }
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": "gcformats j3d-bmd"},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
        "meshes": meshes,
        "accessors": bin.accessors,
        "bufferViews": bin.views,
        "buffers": [{"byteLength": bin.data.len()}],
    });
    if joints > 0 {
        set(&mut doc, "skins", skins);
    }
    if !materials.is_empty() {
        set(&mut doc, "materials", json!(materials));
    }
    if !images.is_empty() {
        set(&mut doc, "images", json!(images));
        set(&mut doc, "textures", json!(textures));
        set(&mut doc, "samplers", json!([{}]));
    }
    let mut js =
        serde_json::to_vec(&doc).map_err(|e| Error::invalid(0, format!("glTF JSON: {e}")))?;
    while !js.len().is_multiple_of(4) {
        js.push(b' ');
    }
    let total = 12 + 8 + js.len() + 8 + bin.data.len();
    let u = |n: usize| u32::try_from(n).map_err(|_| Error::invalid(0, "glTF over 4 GiB"));
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&u(total)?.to_le_bytes());
    out.extend_from_slice(&u(js.len())?.to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&js);
    out.extend_from_slice(&u(bin.data.len())?.to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin.data);
    Ok(out)
}
