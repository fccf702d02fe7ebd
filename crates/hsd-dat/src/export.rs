//! Export: an archive's models as a [`gx::scene::Scene`], written by the glTF and OBJ writers
//! J3D shares. Every joint of the typed graph becomes a node (local `T·Rz·Ry·Rx·S`), every PObj
//! with triangles a mesh in the rest pose the runtime draws (each vertex through its rigid joint
//! or its envelope matrix, [`crate::mesh::envelope_matrix`]) with normals, UVs and colours, and a
//! skin: rigid vertices weigh 1 on their joint, envelope vertices carry their palette slot's
//! weights (normalised), inverse bind matrices are the inverse rest-pose world matrices. Each
//! MObj becomes a material whose texture is its diffuse TObj's image (the first mapped by UV
//! that lights the diffuse channel, else the first mapped by UV) decoded with its palette;
//! every other texture of the archive (texture-animation frames) is added too, and images with
//! the same pixels are stored once. Every AnimJoint tree becomes a glTF animation sampled at
//! every frame by the runtime's curve evaluation. Typed `extras.hsd` carry what glTF has no
//! place for ([`crate::extras`]). An archive with no joint and no mesh (fighter data,
//! effects) has no model to export ([`require_model`]).

use std::collections::HashMap;

use gcio::{Error, Result};
use gx::mtx::{IDENTITY, Mtx34, apply};
use gx::scene::{Material, Mesh, Node, Scene, skin_weights};

use crate::anim::{AnimNode, TreeKind};
use crate::extras::{
    self, ImageExtras, JointExtras, MaterialExtras, MeshExtras, ModelExtras, TevExtras,
    TextureExtras,
};
use crate::flags::{PObjFlags, TObjFlags};
use crate::graph::{Graph, Kind};
use crate::image::TextureRef;
use crate::mesh::{Skin, envelope_coord, envelope_matrix, srt};
use crate::roots::RootKind;
use crate::types::{
    Image, MObj, Material as MaterialColors, ModelSet, Palette, PixelEngine, TObj, Tev,
};
use crate::view::Archive;

/// A scene and what could not be exported into it (a mesh or texture that failed to decode is
/// left out; the rest is still there).
#[derive(Debug, Clone, Default)]
pub struct Export {
    /// The exported scene.
    pub scene: Scene,
    /// Meshes and textures left out, with why.
    pub problems: Vec<Error>,
}

/// The archive as a scene (see the module documentation).
pub fn to_scene(a: &Archive<'_>) -> Export {
    let g = a.graph();
    let mut out = Export {
        scene: Scene::new("gcformats hsd-dat"),
        problems: Vec::new(),
    };
    let world = a.world_matrices(&g);
    for (j, w) in g.joints.iter().zip(&world) {
        let local = srt(j.joint.rotation, j.joint.scale, j.joint.translation);
        // Named by pre-order index: an import writes the joints in that order, so the names
        // survive a round trip (offsets do not).
        let mut node = Node::new(format!("joint_{}", out.scene.nodes.len()), j.parent, local);
        node.inverse_bind = gx::mtx::inverse(w).unwrap_or(IDENTITY);
        node.extras = extras::write(&JointExtras {
            flags: j.joint.flags.bits(),
        });
        out.scene.nodes.push(node);
    }
    let mut images = Images::default();
    let mut materials: HashMap<u32, usize> = HashMap::new();
    let ibm = a.inverse_binds(&g);
    let mut dobjs: HashMap<u32, usize> = HashMap::new();
    for p in &g.pobjs {
        let next = dobjs.len();
        let dobj = *dobjs.entry(p.dobj).or_insert(next);
        let material = p.mobj.map(|m| {
            *materials
                .entry(m)
                .or_insert_with(|| material(a, m, &mut images, &mut out))
        });
        match a.mesh(&g, p) {
            Ok(m) => {
                let mut mesh = mesh(&g, &m, &world, &ibm);
                mesh.material = material;
                let vtx = p
                    .pobj
                    .vtx_desc
                    .and_then(|v| a.vertex_desc(v).ok())
                    .map(|(_, attrs)| {
                        attrs
                            .iter()
                            .map(|(d, _)| {
                                [
                                    d.attr,
                                    d.attr_type,
                                    d.comp_cnt,
                                    d.comp_type,
                                    u32::from(d.frac),
                                ]
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                mesh.extras = extras::write(&MeshExtras {
                    joint: Some(p.joint),
                    cull: (p.pobj.flags & (PObjFlags::CULLFRONT | PObjFlags::CULLBACK)).bits(),
                    dobj: Some(dobj),
                    palette: m.palette.clone(),
                    vtx,
                });
                out.scene.meshes.push(mesh);
            }
            Err(e) => out
                .problems
                .push(e.context(format!("PObj at {:#x}", p.offset))),
        }
    }
    for t in a.textures(&g) {
        images.get(a, &t, &mut out);
    }
    animations(a, &g, &mut out);
    out.scene.extras = extras::write(&ModelExtras {
        version: extras::VERSION,
        images: images.1,
    });
    out
}

/// Every AnimJoint tree with the joint tree it poses — a ModelSet's `anims` with its joint, an
/// `*_animjoint` root with the archive's first joint tree — as a glTF animation sampled at
/// every frame from 0 to the tree's last `end_frame` (60 frames per second), by the runtime's
/// curve evaluation ([`crate::anim::JointAnimation::locals`]). Only joints with tracks get
/// channels; a tree whose joints are not the scene's first ones, or that does not decode, is a
/// problem and left out.
fn animations(a: &Archive<'_>, g: &Graph, out: &mut Export) {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for n in g.nodes.iter().filter(|n| n.kind == Kind::ModelSet) {
        let Ok(ms) = a.read::<ModelSet>(n.offset) else {
            continue;
        };
        let (Some(joint), Some(list)) = (ms.joint, ms.anims) else {
            continue;
        };
        let mut at = list;
        while let Ok(Some(anim)) = a.pointer(at) {
            pairs.push((joint, anim));
            at = at.wrapping_add(4);
            if pairs.len() > 4096 {
                break;
            }
        }
    }
    let first_joint = a
        .roots()
        .find(|r| r.kind() == RootKind::Joint)
        .map(|r| r.offset);
    for r in a.roots().filter(|r| r.kind() == RootKind::AnimJoint) {
        if let Some(j) = first_joint {
            pairs.push((j, r.offset));
        }
    }
    let base = |joint: u32| g.joints.iter().position(|j| j.offset == joint);
    for (k, (joint, anim)) in pairs.into_iter().enumerate() {
        let what = || format!("AnimJoint tree at {anim:#x}");
        let tree = match a.anim_tree(anim, TreeKind::Joint) {
            Ok(t) => t,
            Err(e) => {
                out.problems.push(e.context(what()));
                continue;
            }
        };
        let end = end_frame(&tree).clamp(0.0, 100_000.0);
        let ja = match a.joint_animation(joint, Some(anim)) {
            Ok(ja) => ja,
            Err(e) => {
                out.problems.push(e.context(what()));
                continue;
            }
        };
        let Some(first) = base(joint) else { continue };
        let frames: Vec<f32> = (0..=end.ceil() as u32).map(|f| f as f32).collect();
        let poses: Vec<Vec<Mtx34>> = frames.iter().map(|&f| ja.locals(f)).collect();
        let mut anim_out = gx::scene::Animation {
            name: format!("anim_{k}"),
            times: frames.iter().map(|f| f / 60.0).collect(),
            ..gx::scene::Animation::default()
        };
        for (i, j) in ja.joints.iter().enumerate() {
            if j.channels.is_empty() {
                continue;
            }
            let node = first + i;
            if g.joints.get(node).is_none_or(|x| x.offset != j.offset) {
                continue;
            }
            anim_out.tracks.push(gx::scene::Track {
                node,
                local: poses
                    .iter()
                    .map(|p| p.get(i).copied().unwrap_or(IDENTITY))
                    .collect(),
            });
        }
        out.scene.animations.push(anim_out);
    }
}

/// The largest `end_frame` of a decoded animation tree.
fn end_frame(nodes: &[AnimNode]) -> f32 {
    nodes.iter().fold(0.0f32, |m, n| {
        let own = n
            .slots
            .iter()
            .filter_map(|s| s.animation.as_ref().map(|x| x.end_frame))
            .fold(m, f32::max);
        own.max(end_frame(&n.children))
    })
}

/// An error when `scene` (the [`to_scene`] of `a`) holds no joint and no mesh: fighter data,
/// effects and animation-only files have no model, and an empty `.glb` or `.obj` is no
/// conversion of them. The error names the archive's roots.
pub fn require_model(a: &Archive<'_>, scene: &Scene) -> Result<()> {
    if !scene.nodes.is_empty() || !scene.meshes.is_empty() {
        return Ok(());
    }
    let roots: Vec<String> = a
        .roots()
        .map(|r| gcio::text::Encoding::ShiftJis.to_text(r.name))
        .collect();
    Err(Error::message(format!(
        "no model in this file: no joint or mesh under its roots ({})",
        roots.join(", ")
    )))
}

/// The archive as a `.glb` file (see [`to_scene`]); an archive without a model
/// ([`require_model`]) or the first problem, if any, is the error.
pub fn to_glb(a: &Archive<'_>) -> Result<Vec<u8>> {
    let e = to_scene(a);
    require_model(a, &e.scene)?;
    match e.problems.into_iter().next() {
        Some(p) => Err(p),
        None => e.scene.to_glb(),
    }
}

/// Every mesh of the archive as OBJ text without a material library (one group per PObj,
/// rest pose); [`to_scene`] and [`gx::scene::Scene::to_obj`] give one with `mtllib`.
pub fn to_obj(a: &Archive<'_>) -> Result<String> {
    let e = to_scene(a);
    match e.problems.into_iter().next() {
        Some(p) => Err(p),
        None => Ok(e.scene.to_obj(None)),
    }
}

/// Decoded textures by reference, each decoded once, and how each scene image was stored
/// first (the document's `extras.hsd.images`).
#[derive(Default)]
struct Images(HashMap<TextureRef, Option<usize>>, Vec<Option<ImageExtras>>);

impl Images {
    fn get(&mut self, a: &Archive<'_>, t: &TextureRef, out: &mut Export) -> Option<usize> {
        let (seen, stored_as) = (&mut self.0, &mut self.1);
        *seen.entry(*t).or_insert_with(|| match a.decode_texture(t) {
            Ok(img) => {
                let i = out.scene.add_image(img);
                if stored_as.len() <= i {
                    stored_as.resize(i + 1, None);
                }
                if let Some(s) = stored_as.get_mut(i).filter(|s| s.is_none()) {
                    *s = Some(stored(a, t.image, t.palette));
                }
                Some(i)
            }
            Err(e) => {
                out.problems.push(e);
                None
            }
        })
    }
}

/// How the image at `image` (with `palette`) is stored.
fn stored(a: &Archive<'_>, image: u32, palette: Option<u32>) -> ImageExtras {
    let mut e = ImageExtras::default();
    if let Ok(h) = a.read::<Image>(image) {
        e.format = h.format;
        e.mipmap = h.mipmap;
        e.lod = [h.min_lod, h.max_lod];
    }
    e.palette = palette
        .and_then(|p| a.read::<Palette>(p).ok())
        .map(|p| (p.format, p.n_entries));
    e
}

/// The material of the MObj at `m`: its diffuse texture (the first TObj that lights the diffuse
/// channel, else the first) and, without one, its diffuse colour.
fn material(a: &Archive<'_>, m: u32, images: &mut Images, out: &mut Export) -> usize {
    let mobj = a.read::<MObj>(m).ok();
    let mut tobjs = Vec::new();
    let mut at = mobj.as_ref().and_then(|m| m.tobj);
    while let Some(t) = at.filter(|_| tobjs.len() < 8) {
        match a.read::<TObj>(t) {
            Ok(tobj) => {
                at = tobj.next;
                tobjs.push(tobj);
            }
            Err(_) => break,
        }
    }
    // Texture coordinates come from a UV set only when the TObj's coord mode is UV (0): the
    // others (reflection, highlight, shadow, toon, gradation) are generated at draw time.
    let uv = |t: &&TObj| (t.flags & TObjFlags::COORD).bits() == 0;
    let diffuse = tobjs
        .iter()
        .filter(uv)
        .find(|t| t.flags.contains(TObjFlags::LIGHTMAP_DIFFUSE))
        .or_else(|| tobjs.iter().find(uv))
        .or(tobjs.first());
    let texture = diffuse.and_then(|t| {
        let r = TextureRef {
            image: t.image?,
            palette: t.palette,
        };
        images.get(a, &r, out)
    });
    let mut mat = Material::new(format!("mobj_{m:x}"), texture);
    // The coordinate set the texture reads (`GX_TEXCOORDn` + 4) as the glTF `texCoord`.
    mat.texcoord = diffuse
        .filter(uv)
        .map_or(0, |t| t.src.saturating_sub(4).min(7) as usize);
    let colors = mobj
        .as_ref()
        .and_then(|m| m.material)
        .and_then(|c| a.read::<MaterialColors>(c).ok());
    let pe = mobj
        .as_ref()
        .and_then(|m| m.pe)
        .and_then(|p| a.read::<PixelEngine>(p).ok());
    let mut x = MaterialExtras::new(
        mobj.as_ref().map_or(0, |m| m.render_mode.bits()),
        colors.as_ref(),
        pe.as_ref(),
    );
    for t in &tobjs {
        let image = t.image.and_then(|i| {
            let r = TextureRef {
                image: i,
                palette: t.palette,
            };
            images.get(a, &r, out)
        });
        let mut e = TextureExtras::new(t, image);
        if let Some(i) = t.image {
            e.stored = stored(a, i, t.palette);
        }
        e.tev = t
            .tev
            .and_then(|at| a.read::<Tev>(at).ok())
            .map(|x| TevExtras::new(&x));
        x.textures.push(e);
    }
    mat.extras = extras::write(&x);
    if texture.is_none()
        && let Some(c) = colors
    {
        let [r, g, b, _] = c.diffuse.0.map(|x| f32::from(x) / 255.0);
        let alpha = if c.alpha.is_finite() {
            c.alpha.clamp(0.0, 1.0)
        } else {
            1.0
        };
        mat.color = [r, g, b, alpha];
    }
    out.scene.materials.push(mat);
    out.scene.materials.len() - 1
}

/// One PObj's mesh in the rest pose with its skin.
fn mesh(g: &Graph, m: &crate::mesh::Mesh, world: &[Mtx34], ibm: &[Option<Mtx34>]) -> Mesh {
    let coord = envelope_coord(g, world, m.joint);
    let slots: Vec<Mtx34> = m
        .palette
        .iter()
        .map(|e| envelope_matrix(e, world, ibm, coord.as_ref()))
        .collect();
    let joint = |j: usize| u16::try_from(j).unwrap_or(0);
    let mut out = Mesh::new(format!("pobj_{:x}", m.pobj));
    let has_n = m.vertices.iter().any(|v| v.normal.is_some());
    // Every TEXn set any vertex carries, as TEXCOORD_n (glTF fills a gap before a set with zeros).
    let sets = (0..8)
        .rposition(|k| {
            m.vertices
                .iter()
                .any(|v| v.uvs.get(k).is_some_and(Option::is_some))
        })
        .map_or(0, |k| k + 1);
    let has_c = m.vertices.iter().any(|v| v.color.is_some());
    let (mut uvs, mut colors) = (vec![Vec::new(); sets], Vec::new());
    for (v, s) in m.vertices.iter().zip(&m.skins) {
        let (mtx, skin) = match s {
            Skin::Rigid(j) | Skin::ShapeAnim(j) => (
                world.get(*j).copied().unwrap_or(IDENTITY),
                skin_weights(&[(joint(*j), 1.0)]),
            ),
            Skin::Envelope(slot) => {
                let pairs: Vec<(u16, f32)> = m
                    .palette
                    .get(*slot)
                    .map(|e| e.iter().map(|&(j, w)| (joint(j), w)).collect())
                    .unwrap_or_default();
                (
                    slots.get(*slot).copied().unwrap_or(IDENTITY),
                    skin_weights(&pairs),
                )
            }
        };
        out.positions.push(apply(&mtx, v.position));
        if has_n {
            let n = v.normal.unwrap_or([0.0, 1.0, 0.0]);
            out.normals.push(crate::mesh::normal(&mtx, n));
        }
        for (set, uv) in uvs.iter_mut().zip(&v.uvs) {
            set.push(uv.unwrap_or_default());
        }
        if has_c {
            colors.push(v.color.unwrap_or([0xFF; 4]));
        }
        if !world.is_empty() {
            out.skin.push(skin);
        }
    }
    out.uvs = uvs;
    if has_c {
        out.colors.push(colors);
    }
    out.triangles.clone_from(&m.triangles);
    out
}
