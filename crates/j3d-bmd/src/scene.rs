//! Export: the model as a [`gx::scene::Scene`] — one mesh per shape in the rest pose (rigid
//! vertices placed by their joint's world matrix, envelope vertices as stored in bind space),
//! normals, first UV set and colour, the joint hierarchy as nodes, skin weights from DRW1/EVP1
//! with inverse bind matrices from the joints' world matrices, and per material its first TEX1
//! texture — written by the shared glTF and OBJ writers.

use std::collections::HashMap;

use gcio::Result;
use gx::mtx::{IDENTITY, inverse};
use gx::scene::{Material, Mesh, Node, Scene, skin_weights};

use crate::file::BmdView;
use crate::geometry::{geometry, skeleton};
use crate::inf1::NodeKind;
use crate::mat3::Mat3;
use crate::tex1::Tex1;
use gx::mtx::apply as transform;

/// The model as a format-neutral scene.
pub fn to_scene(view: &BmdView<'_>) -> Result<Scene> {
    let mesh = geometry(view)?;
    let skel = skeleton(view)?;
    let mut scene = Scene::new("gcformats j3d-bmd");
    let names = view
        .jnt1()
        .and_then(|j| j.ok())
        .and_then(|j| j.names())
        .and_then(|n| n.ok());
    for (j, local) in skel.local.iter().enumerate() {
        let name = names
            .as_ref()
            .and_then(|n| n.name(j))
            .unwrap_or_else(|| format!("joint_{j}"));
        let parent = skel.parents.get(j).copied().flatten().map(usize::from);
        let mut node = Node::new(name, parent, *local);
        node.inverse_bind = skel.world.get(j).and_then(inverse).unwrap_or(IDENTITY);
        scene.nodes.push(node);
    }
    // Shape → material from the scene graph (the material node above a shape).
    let mut shape_mat = HashMap::new();
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
        .and_then(|c| Tex1::parse_with(c.data, crate::Pad::Nintendo, view.limits()).ok());
    // Every texture's level 0, decoded once (the materials' base colours and the extras' TEX1
    // list both refer to these images).
    let image_of: Vec<Option<usize>> = tex1.as_ref().map_or_else(Vec::new, |t| {
        (0..t.set.textures.len())
            .map(|i| {
                t.set
                    .decode(i)
                    .ok()
                    .and_then(|l| l.into_iter().next())
                    .map(|img| scene.add_image(img))
            })
            .collect()
    });
    if let Some(m) = &mat3 {
        for material in m.materials() {
            let first = material
                .textures
                .iter()
                .flatten()
                .next()
                .map(|&t| usize::from(t));
            let texture = first.and_then(|t| image_of.get(t).copied().flatten());
            let mut mat = Material::new(
                gcio::text::Encoding::ShiftJis.to_text(&material.name),
                texture,
            );
            // The texture's wrap modes as the glTF sampler's (GX_CLAMP 0, GX_REPEAT 1,
            // GX_MIRROR 2).
            if let Some(h) = first.and_then(|t| tex1.as_ref()?.set.textures.get(t)) {
                mat.wrap =
                    [h.header.wrap_s, h.header.wrap_t].map(|w| gx::scene::Wrap::from_gx(w.into()));
            }
            mat.double_sided = material.cull == Some(crate::mat3::cull::NONE);
            // Pixel-engine mode 2 tests alpha against the compare's first reference, 4 blends.
            mat.alpha_mode = match material.mode {
                2 => gx::scene::AlphaMode::Mask(
                    material
                        .alpha_compare
                        .map_or(0.5, |a| f32::from(a.ref0) / 255.0),
                ),
                4 => gx::scene::AlphaMode::Blend,
                _ => gx::scene::AlphaMode::Opaque,
            };
            scene.materials.push(mat);
        }
    }
    let joints = skel.world.len();
    for shape in &mesh.shapes {
        let mut m = Mesh::new(format!("shape_{}", shape.index));
        let has_n = shape.vertices.iter().any(|v| v.normal.is_some());
        // Every texture coordinate and colour set some vertex has, up to the last one present.
        let present = |has: &dyn Fn(&crate::geometry::MeshVertex, usize) -> bool, sets: usize| {
            (0..sets)
                .rposition(|k| shape.vertices.iter().any(|v| has(v, k)))
                .map_or(0, |k| k + 1)
        };
        let uv_sets = present(&|v, k| v.uvs.get(k).is_some_and(Option::is_some), 8);
        let color_sets = present(&|v, k| v.colors.get(k).is_some_and(Option::is_some), 2);
        m.uvs = vec![Vec::with_capacity(shape.vertices.len()); uv_sets];
        m.colors = vec![Vec::with_capacity(shape.vertices.len()); color_sets];
        for v in &shape.vertices {
            let world = v.rigid_joint.and_then(|j| skel.world.get(usize::from(j)));
            m.positions
                .push(world.map_or(v.position, |w| transform(w, v.position)));
            if has_n {
                let n = v.normal.unwrap_or([0.0, 1.0, 0.0]);
                let n = world.map_or(n, |w| {
                    let (t, o) = (transform(w, n), transform(w, [0.0; 3]));
                    [t[0] - o[0], t[1] - o[1], t[2] - o[2]]
                });
                let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt().max(1e-6);
                m.normals.push(n.map(|x| x / len));
            }
            for (set, uv) in m.uvs.iter_mut().zip(&v.uvs) {
                set.push(uv.unwrap_or_default());
            }
            for (set, c) in m.colors.iter_mut().zip(&v.colors) {
                set.push(c.unwrap_or([0xFF; 4]));
            }
            if joints > 0 {
                m.skin.push(match v.rigid_joint {
                    Some(j) => skin_weights(&[(j, 1.0)]),
                    None => skin_weights(shape.skin(v)),
                });
            }
        }
        m.triangles.clone_from(&shape.triangles);
        m.material = shape_mat.get(&shape.index).copied();
        scene.meshes.push(m);
    }
    crate::extras::annotate(&mut scene, view, mat3.as_ref(), tex1.as_ref(), &image_of)?;
    Ok(scene)
}

/// The model as a `.glb` file (see [`to_scene`]).
pub fn to_glb(view: &BmdView<'_>) -> Result<Vec<u8>> {
    to_scene(view)?.to_glb()
}

/// The model as OBJ text without a material library (see [`to_scene`] and
/// [`gx::scene::Scene::to_obj`] for one with `mtllib`).
pub fn to_obj(view: &BmdView<'_>) -> Result<String> {
    Ok(to_scene(view)?.to_obj(None))
}
