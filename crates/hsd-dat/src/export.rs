//! Export: an archive's models as a [`gx::scene::Scene`], written by the glTF and OBJ writers
//! J3D shares. Every joint of the typed graph becomes a node (local `T·Rz·Ry·Rx·S`, with one more
//! node where the runtime's scale inheritance needs it: `inherit`), every PObj
//! with triangles a mesh in its bind pose — the rest pose the runtime draws, unless a stored
//! inverse bind matrix binds a joint elsewhere (a zero rest scale) — (each vertex through its
//! rigid joint or its envelope matrix, [`crate::mesh::envelope_matrix`]) with normals, UVs and
//! colours, and a skin: rigid vertices weigh 1 on their joint, envelope vertices carry their
//! palette slot's weights (normalised), inverse bind matrices are the file's own where
//! invertible, else the inverse bind-pose world matrices. Each MObj becomes a material whose texture is its diffuse TObj's image (the first mapped by UV
//! that lights the diffuse channel, else the first mapped by UV) decoded with its palette;
//! every other texture of the archive (texture-animation frames) is added too, and images with
//! the same pixels are stored once. Every AnimJoint tree becomes a glTF animation sampled at
//! every frame by the runtime's curve evaluation. Typed `extras.hsd` carry what glTF has no
//! place for ([`crate::extras`]). A `scene_data` root's perspective camera and lights become a
//! glTF camera and `KHR_lights_punctual` lights (`scene_objects`). An archive with no joint and no mesh (fighter data,
//! effects) has no model to export ([`require_model`]).

mod inherit;
mod scene_objects;

use std::collections::{HashMap, HashSet};

use gcio::{Error, Result};
use gx::mtx::{IDENTITY, Mtx34, apply};
use gx::scene::{Material, Mesh, Node, Property, PropertyTrack, Scene, Wrap, skin_weights};
use gx::vtx::{AttrType, VertexFormat};

use crate::anim::{AnimNode, TreeKind};
use crate::extras::{
    self, ImageExtras, JointAnimExtras, JointCurves, JointExtras, LodExtras, MaterialExtras,
    MeshExtras, ModelExtras, StoredAObj, TevExtras, TextureExtras,
};
use crate::field::Word;
use crate::flags::{PObjFlags, TObjFlags};
use crate::graph::{Graph, Kind};
use crate::image::TextureRef;
use crate::matanim::{
    self, AnimatedMaterial, AnimatedTexture, TextureSrt, TrackCurve, mobj_track, tobj_track,
};
use crate::mesh::{Skin, bind_matrices, cross, direction, envelope_coord, envelope_matrix, srt};
use crate::roots::RootKind;
use crate::types::{
    IkHint, Image, MObj, Material as MaterialColors, ModelSet, Palette, PixelEngine, RObj, TObj,
    Tev, TexLod, VtxDesc,
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
    let rest = a.rest_pose(&g);
    let ibm = a.inverse_binds(&g);
    let bind = bind_matrices(&g, &rest, &ibm);
    let world = rest.world.clone();
    for (k, j) in g.joints.iter().enumerate() {
        let local = srt(j.joint.rotation, j.joint.scale, j.joint.translation);
        // Named by pre-order index: an import writes the joints in that order, so the names
        // survive a round trip (offsets do not).
        let mut node = Node::new(format!("joint_{}", out.scene.nodes.len()), j.parent, local);
        // The file's own inverse bind matrix where it has an invertible one, else the inverse
        // of the bind pose (the meshes' positions are in the bind pose).
        node.inverse_bind = ibm
            .get(k)
            .copied()
            .flatten()
            .filter(|m| gx::mtx::inverse(m).is_some())
            .or_else(|| bind.get(k).and_then(gx::mtx::inverse))
            .unwrap_or(IDENTITY);
        let joint = &j.joint;
        let stored = [joint.rotation, joint.scale, joint.translation];
        node.extras = extras::write(&JointExtras {
            flags: joint.flags.bits(),
            srt: stored
                .iter()
                .flatten()
                .all(|x| x.is_finite())
                .then_some(stored),
            robj: robjs(a, &g, joint.robj),
            inherited_scale: false,
            root: root_name(a, j.offset, RootKind::Joint),
        });
        out.scene.nodes.push(node);
    }
    // The inverse bind matrices glTF skins the joints with (the nodes' own, before any extra
    // node of the scale inheritance).
    let skin_ibm: Vec<Mtx34> = out.scene.nodes.iter().map(|n| n.inverse_bind).collect();
    let values = rest_values(&g);
    let mut extra = HashMap::new();
    for (k, scl) in rest.scl.iter().enumerate() {
        let p = crate::pose::inherited(*scl);
        if !crate::pose::uniform(p) && g.joints.iter().any(|j| j.parent == Some(k)) {
            inherit::ensure(&mut out.scene, &mut extra, k, p, &values);
        }
    }
    let mut images = Images::default();
    let mut materials: HashMap<u32, usize> = HashMap::new();
    let mut dobjs: HashMap<u32, usize> = HashMap::new();
    let meshes: Vec<Result<crate::mesh::Mesh>> = g.pobjs.iter().map(|p| a.mesh(&g, p)).collect();
    // Each PObj's descriptor entries, read once (its extras and `own_values` use them).
    let descs: Vec<Vec<(VtxDesc, VertexFormat)>> = g
        .pobjs
        .iter()
        .map(|p| {
            p.pobj
                .vtx_desc
                .and_then(|v| a.vertex_desc(v).ok())
                .map(|(_, attrs)| attrs)
                .unwrap_or_default()
        })
        .collect();
    let own = own_values(&g, &descs, &meshes);
    for (((p, m), own), attrs) in g.pobjs.iter().zip(meshes).zip(&own).zip(&descs) {
        let next = dobjs.len();
        let dobj = *dobjs.entry(p.dobj).or_insert(next);
        let material = p.mobj.map(|m| {
            *materials
                .entry(m)
                .or_insert_with(|| material(a, m, &mut images, &mut out))
        });
        match m {
            Ok(m) => {
                let mut mesh = mesh(&g, &m, &world, &bind, &ibm, &skin_ibm, own);
                mesh.material = material;
                let vtx = attrs
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
                    .collect();
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
    material_animations(a, &g, &materials, &mut images, &mut out);
    let ambient = scene_objects::add(a, &mut out);
    out.scene.extras = extras::write(&ModelExtras {
        version: extras::VERSION,
        images: images.1,
        ambient,
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
    let pairs = tree_pairs(a, g, |ms| ms.anims, RootKind::AnimJoint);
    for (k, (joint, anim)) in pairs.into_iter().enumerate() {
        match animation(&mut out.scene, a, g, joint, a, anim, format!("anim_{k}")) {
            Ok(Some(x)) => out.scene.animations.push(x),
            Ok(None) => {}
            Err(e) => out
                .problems
                .push(e.context(format!("AnimJoint tree at {anim:#x}"))),
        }
    }
}

/// The AnimJoint trees of `source`, an animation-only archive (a character's motion file),
/// posing the first joint tree of `model`, added to `scene` (the [`to_scene`] of `model`) as
/// glTF animations named `name` (`name_K` for the K-th when there are several), sampled as
/// [`to_scene`] samples the model's own. An error when `source` has no AnimJoint root, when a
/// tree does not decode, or when its node count differs from the joint tree's (the trees are
/// walked in parallel, so another skeleton's motion would pose the wrong joints); returns how
/// many were added.
pub fn add_animations_from(
    scene: &mut Scene,
    model: &Archive<'_>,
    source: &Archive<'_>,
    name: &str,
) -> Result<usize> {
    let g = model.graph();
    let joint = model
        .roots()
        .find(|r| r.kind() == RootKind::Joint)
        .map(|r| r.offset)
        .ok_or_else(|| Error::message("the model has no joint tree to animate"))?;
    let joints = model.joint_animation(joint, None)?.joints.len();
    let anims: Vec<u32> = source
        .roots()
        .filter(|r| r.kind() == RootKind::AnimJoint)
        .map(|r| r.offset)
        .collect();
    if anims.is_empty() {
        return Err(Error::message("no AnimJoint tree in the animation file"));
    }
    let what = |anim: u32| format!("AnimJoint tree at {anim:#x}");
    // Every tree's shape checked before any is added.
    for &anim in &anims {
        let tree = source
            .anim_tree(anim, TreeKind::Joint)
            .map_err(|e| e.context(what(anim)))?;
        let nodes = count_nodes(&tree);
        if nodes != joints {
            return Err(Error::message(format!(
                "{}: {nodes} animated joints for a skeleton of {joints}",
                what(anim)
            )));
        }
    }
    // Added as they are made: a tree that needs an extra scale node mends the animations
    // before it (`inherit::ensure`). A tree that fails takes the ones added with it back out.
    let before = scene.animations.len();
    for (k, &anim) in anims.iter().enumerate() {
        let label = if anims.len() == 1 {
            name.to_owned()
        } else {
            format!("{name}_{k}")
        };
        match animation(scene, model, &g, joint, source, anim, label) {
            Ok(Some(x)) => scene.animations.push(x),
            Ok(None) => {}
            Err(e) => {
                scene.animations.truncate(before);
                return Err(e.context(what(anim)));
            }
        }
    }
    Ok(scene.animations.len() - before)
}

/// Nodes of a decoded animation tree.
fn count_nodes(nodes: &[AnimNode]) -> usize {
    nodes.iter().map(|n| 1 + count_nodes(&n.children)).sum()
}

/// The AnimJoint tree at `anim` of `source` posing the joint tree at `joint` of `a`, sampled
/// at every frame from 0 to its last `end_frame` (60 per second) by the runtime's curve
/// evaluation; `None` when the joint tree is not among the scene's nodes. Joints with tracks
/// get channels, and so does every node the runtime's scale inheritance moves (`inherit`:
/// extra nodes are added to `scene` where an inherited scale turns non-uniform).
fn animation(
    scene: &mut Scene,
    a: &Archive<'_>,
    g: &Graph,
    joint: u32,
    source: &Archive<'_>,
    anim: u32,
    name: String,
) -> Result<Option<gx::scene::Animation>> {
    let tree = source.anim_tree(anim, TreeKind::Joint)?;
    let end = end_frame(&tree).clamp(0.0, MAX_FRAMES);
    let ja = a.joint_animation_from(joint, source, Some(anim))?;
    let Some(first) = g.joints.iter().position(|j| j.offset == joint) else {
        return Ok(None);
    };
    let frames: Vec<f32> = (0..=end.ceil() as u32).map(|f| f as f32).collect();
    // Per frame: each joint's values and the accumulated scale its children compose with.
    let mut values = Vec::with_capacity(frames.len());
    let mut scl = Vec::with_capacity(frames.len());
    for &f in &frames {
        let v = ja.values(f);
        scl.push(
            ja.pose(&v)
                .scl
                .into_iter()
                .map(crate::pose::inherited)
                .collect::<Vec<_>>(),
        );
        values.push(v);
    }
    let rest_scl = a.rest_pose(g).scl;
    let rest = rest_values(g);
    let parents: Vec<Option<usize>> = ja.joints.iter().map(|j| j.parent).collect();
    let mut extras = inherit::extra_nodes(scene);
    for c in 0..ja.joints.len() {
        let moved = scl
            .iter()
            .any(|s| s.get(c).is_some_and(|p| !crate::pose::uniform(*p)));
        if moved && parents.contains(&Some(c)) {
            let p = crate::pose::inherited(rest_scl.get(first + c).copied().flatten());
            inherit::ensure(scene, &mut extras, first + c, p, &rest);
        }
    }
    let extra: Vec<Option<usize>> = (0..ja.joints.len())
        .map(|c| extras.get(&(first + c)).copied())
        .collect();
    let flags: Vec<[u32; 2]> = ja
        .joints
        .iter()
        .enumerate()
        .filter_map(|(i, j)| {
            let f = j.anim_flags?;
            Some([u32::try_from(first + i).ok()?, f])
        })
        .collect();
    // Each posed joint's AObj as stored, for an import of the unedited clip.
    let curves: Vec<JointCurves> = ja
        .joints
        .iter()
        .enumerate()
        .filter(|&(i, j)| {
            g.joints
                .get(first + i)
                .is_some_and(|x| x.offset == j.offset)
        })
        .filter_map(|(i, j)| {
            let anim = source.animation(j.aobj?).ok()?;
            Some(JointCurves {
                node: first + i,
                aobj: StoredAObj::of(&anim),
            })
        })
        .collect();
    let recorded = JointAnimExtras {
        anim_joint_flags: flags,
        curves,
        root: root_name(source, anim, RootKind::AnimJoint),
    };
    let mut out = gx::scene::Animation {
        name,
        times: frames.iter().map(|f| f / 60.0).collect(),
        extras: (recorded != JointAnimExtras::default())
            .then(|| extras::write(&recorded))
            .flatten(),
        ..gx::scene::Animation::default()
    };
    let frame_scl = |k: usize, c: usize| {
        scl.get(k)
            .and_then(|s| s.get(c))
            .copied()
            .unwrap_or([1.0; 3])
    };
    for (i, j) in ja.joints.iter().enumerate() {
        let node = first + i;
        if g.joints.get(node).is_none_or(|x| x.offset != j.offset) {
            continue;
        }
        let under = j
            .parent
            .filter(|&c| extra.get(c).copied().flatten().is_some());
        let local: Vec<Mtx34> = values
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let x = v.get(i).copied().unwrap_or(j.rest);
                match under {
                    Some(c) => crate::pose::scaled_local(x, frame_scl(k, c)),
                    None => srt(x[0], x[1], x[2]),
                }
            })
            .collect();
        if !j.channels.is_empty() || moves(scene, node, &local) {
            out.tracks.push(gx::scene::Track { node, local });
        }
    }
    for (c, node) in extra.iter().enumerate() {
        let Some(node) = *node else { continue };
        let local: Vec<Mtx34> = (0..frames.len())
            .map(|k| crate::pose::inverse_scale(frame_scl(k, c)))
            .collect();
        if moves(scene, node, &local) {
            out.tracks.push(gx::scene::Track { node, local });
        }
    }
    Ok(Some(out))
}

/// Whether `local` leaves node `node`'s rest matrix at some frame.
fn moves(scene: &Scene, node: usize, local: &[Mtx34]) -> bool {
    let rest = scene.nodes.get(node).map_or(IDENTITY, |n| n.local);
    local.iter().any(|m| *m != rest)
}

/// Every joint's stored rotation, scale and translation, in graph order.
fn rest_values(g: &Graph) -> Vec<[[f32; 3]; 3]> {
    g.joints
        .iter()
        .map(|j| [j.joint.rotation, j.joint.scale, j.joint.translation])
        .collect()
}

/// Every animation tree of one kind with the joint tree it binds to: a ModelSet's list
/// (`list` of it) with its joint (a stage GObj's too), then each root of kind `kind` with the
/// joint root its name names ([`bound_joint`]); as (joint, tree) offsets.
fn tree_pairs(
    a: &Archive<'_>,
    g: &Graph,
    list: fn(&ModelSet) -> Option<u32>,
    kind: RootKind,
) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let sets = g.nodes.iter().flat_map(|n| match n.kind {
        Kind::ModelSet => a.read::<ModelSet>(n.offset).into_iter().collect(),
        Kind::MapHead => a
            .map_gobjs(n.offset)
            .unwrap_or_default()
            .into_iter()
            .map(|(_, m)| m.model_set())
            .collect(),
        _ => Vec::new(),
    });
    for ms in sets {
        let (Some(joint), Some(list)) = (ms.joint, list(&ms)) else {
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
    let joints: Vec<(&[u8], u32)> = a
        .roots()
        .filter(|r| r.kind() == RootKind::Joint)
        .filter_map(|r| Some((r.name.strip_suffix(b"_joint")?, r.offset)))
        .collect();
    for r in a.roots().filter(|r| r.kind() == kind) {
        if let Some(j) = bound_joint(&joints, r.name) {
            pairs.push((j, r.offset));
        }
    }
    pairs
}

/// The joint tree an animation root named `name` poses: HAL names a model's trees alike
/// (Melee's main menu pairs `MenMainBack_Top_animjoint` with `MenMainBack_Top_joint` among
/// 57 trees), so the `*_joint` root (`joints`: name without the suffix, offset) whose name is
/// the longest prefix of `name` ending at a `_`; else the archive's first joint tree.
fn bound_joint(joints: &[(&[u8], u32)], name: &[u8]) -> Option<u32> {
    joints
        .iter()
        .filter(|(stem, _)| name.starts_with(stem) && name.get(stem.len()) == Some(&b'_'))
        .max_by_key(|(stem, _)| stem.len())
        .or(joints.first())
        .map(|&(_, at)| at)
}

/// The name of the first root of `kind` at data offset `at`, when it is UTF-8 (JSON text).
fn root_name(a: &Archive<'_>, at: u32, kind: RootKind) -> Option<String> {
    a.roots()
        .find(|r| r.offset == at && r.kind() == kind)
        .and_then(|r| String::from_utf8(r.name.to_vec()).ok())
}

/// Most frames an exported animation is sampled at.
const MAX_FRAMES: f32 = 100_000.0;

/// Most values (frames × tracks, four per material and texture for their channels) one
/// exported material animation may sample: a hostile tree of many animated materials could
/// otherwise ask for gigabytes. Real ones need a few thousand.
const MAX_SAMPLES: usize = 1 << 22;

/// Every MatAnimJoint tree with the joint tree it binds to — a ModelSet's `matanims` with its
/// joint, a `*matanim_joint` root with the archive's first joint tree — as a glTF animation
/// `matanim_K` sampled at every frame from 0 to the tree's last `end_frame` (60 per second) by
/// the runtime's curve evaluation ([`crate::matanim`]), for the MObjs the scene has materials
/// of: the diffuse colour (untextured materials) and alpha as the material's
/// `baseColorFactor`, the SRT of its base-colour TObj as `KHR_texture_transform` offset,
/// rotation and scale (`KHR_animation_pointer`), and in `extras.hsd`
/// ([`extras::MatAnimExtras`]) which tracks those channels carry exactly, every other track
/// sampled, and image swaps with their images. A tree that does not decode is a problem and
/// left out.
fn material_animations(
    a: &Archive<'_>,
    g: &Graph,
    materials: &HashMap<u32, usize>,
    images: &mut Images,
    out: &mut Export,
) {
    let pairs = tree_pairs(a, g, |ms| ms.matanims, RootKind::MatAnimJoint);
    for (k, (joint, tree)) in pairs.into_iter().enumerate() {
        let ma = match a.material_animation(joint, tree) {
            Ok(ma) => ma,
            Err(e) => {
                out.problems
                    .push(e.context(format!("MatAnimJoint tree at {tree:#x}")));
                continue;
            }
        };
        let last = ma.end_frame().clamp(0.0, MAX_FRAMES).ceil() as u32;
        let tracks: usize = ma
            .materials
            .iter()
            .map(|m| {
                4 + m.tracks.len() + m.textures.iter().map(|t| 4 + t.tracks.len()).sum::<usize>()
            })
            .sum();
        let samples = tracks.saturating_mul(last as usize + 1);
        if samples > MAX_SAMPLES {
            out.problems
                .push(Error::without_offset(gcio::ErrorKind::Limit {
                    what: "material animation samples (frames x tracks)",
                    requested: samples as u64,
                    max: MAX_SAMPLES as u64,
                }));
            continue;
        }
        let mut anim = gx::scene::Animation {
            name: format!("matanim_{k}"),
            times: (0..=last).map(|f| f as f32 / 60.0).collect(),
            ..gx::scene::Animation::default()
        };
        let mut x = extras::MatAnimExtras {
            version: extras::VERSION,
            root: root_name(a, tree, RootKind::MatAnimJoint),
            frames: last + 1,
            materials: Vec::new(),
        };
        for m in &ma.materials {
            let Some(&index) = materials.get(&m.mobj) else {
                continue;
            };
            x.materials.push(material_animation(
                a, m, index, last, images, &mut anim, out,
            ));
        }
        // A tree that animates nothing (the import's tree keeping images no material draws)
        // is no animation: its images are exported all the same.
        let moves = |t: &extras::TextureAnimExtras| {
            !(t.channels.is_empty() && t.tracks.is_empty() && t.image.is_empty())
        };
        let animates = x.materials.iter().any(|m| {
            !(m.channels.is_empty() && m.tracks.is_empty()) || m.textures.iter().any(moves)
        });
        if !animates {
            continue;
        }
        anim.extras = extras::write(&x);
        out.scene.animations.push(anim);
    }
}

/// Track `track` of `tracks` at every frame `0..=last`, when animated.
fn sampled(tracks: &[TrackCurve], track: u8, last: u32) -> Option<Vec<f32>> {
    (0..=last)
        .map(|f| matanim::value(tracks, track, f as f32))
        .collect()
}

/// Distinct track ids in list order.
fn track_ids(tracks: &[TrackCurve]) -> Vec<u8> {
    let mut ids: Vec<u8> = Vec::new();
    for t in tracks {
        if !ids.contains(&t.0) {
            ids.push(t.0);
        }
    }
    ids
}

/// One animated MObj as glTF material `index`: its channels added to `anim`, its extras
/// returned.
fn material_animation(
    a: &Archive<'_>,
    m: &AnimatedMaterial,
    index: usize,
    last: u32,
    images: &mut Images,
    anim: &mut gx::scene::Animation,
    out: &mut Export,
) -> extras::MaterialAnimExtras {
    let stored = |aobj: Option<u32>| Some(StoredAObj::of(&a.animation(aobj?).ok()?));
    let mut e = extras::MaterialAnimExtras {
        material: index,
        aobj_flags: (!m.tracks.is_empty()).then_some(m.flags.bits()),
        stored: stored(m.aobj),
        ..Default::default()
    };
    let textured = out
        .scene
        .materials
        .get(index)
        .is_some_and(|x| x.texture.is_some());
    let linked = textured
        || out
            .scene
            .meshes
            .iter()
            .any(|x| x.material == Some(index) && !x.colors.is_empty());
    let colors = a
        .read::<MObj>(m.mobj)
        .ok()
        .and_then(|o| o.material)
        .and_then(|c| a.read::<MaterialColors>(c).ok());
    // baseColorFactor per frame: rest values, the tracked ones replaced.
    let rest = match (&colors, textured) {
        (Some(c), false) => {
            let [r, g, b, _] = c.diffuse.0.map(|x| f32::from(x) / 255.0);
            [r, g, b, c.alpha]
        }
        (Some(c), true) => [1.0, 1.0, 1.0, c.alpha],
        (None, _) => [1.0; 4],
    };
    let mut color = vec![rest; last as usize + 1];
    let mut any_color = false;
    for id in track_ids(&m.tracks) {
        let Some(v) = sampled(&m.tracks, id, last) else {
            continue;
        };
        // The factor of a textured or vertex-coloured material stays still: Blender 5.0's
        // glTF importer fails on a `baseColorFactor` pointer channel of a material whose Base
        // Color input is linked (its animation_pointer.py reads `.links` off the wrapper), and
        // with it the whole file (Melee's title and menus animate such materials' alpha). Its
        // tracks are kept in the extras.
        let component = match id {
            _ if linked => None,
            mobj_track::ALPHA => Some(3),
            4..=6 => Some(usize::from(id - 4)),
            _ => None,
        };
        if let Some(c) = component {
            any_color = true;
            let to = |x: f32| if c == 3 { 1.0 - x } else { x };
            for (rgba, x) in color.iter_mut().zip(&v) {
                if let Some(slot) = rgba.get_mut(c) {
                    *slot = to(*x);
                }
            }
            if v.iter().all(|x| (0.0..=1.0).contains(&to(*x))) {
                e.channels.push(id);
                continue;
            }
        }
        e.tracks.push(extras::TrackSamples {
            track: id,
            values: v,
        });
    }
    if any_color {
        anim.properties.push(PropertyTrack {
            property: Property::BaseColor(index),
            values: color.iter().flatten().map(|x| x.clamp(0.0, 1.0)).collect(),
        });
    }
    let chain = tobj_chain(a, m.mobj);
    let base = base_texture(&chain).and_then(|i| chain.get(i)).map(|t| t.0);
    for t in &m.textures {
        let Some(tobj) = chain.iter().find(|c| c.0 == t.tobj).map(|c| c.1) else {
            continue;
        };
        let mut te = extras::TextureAnimExtras {
            id: t.id,
            aobj_flags: Some(t.flags.bits()),
            stored: stored(t.aobj),
            ..Default::default()
        };
        let ids = track_ids(&t.tracks);
        if textured && base == Some(t.tobj) {
            texture_transform(t, &tobj, index, last, &mut te, anim);
        }
        for id in ids {
            if [tobj_track::TIMG, tobj_track::TCLT].contains(&id) || te.channels.contains(&id) {
                continue;
            }
            if let Some(values) = sampled(&t.tracks, id, last) {
                te.tracks.push(extras::TrackSamples { track: id, values });
            }
        }
        if t.tracks.iter().any(|x| x.0 == tobj_track::TIMG) {
            image_swap(a, t, &tobj, last, images, &mut te, out);
        }
        e.textures.push(te);
    }
    e
}

/// The base-colour texture's transform channels of an animated TObj with SRT tracks, and
/// which of them they carry exactly.
fn texture_transform(
    t: &AnimatedTexture,
    tobj: &TObj,
    index: usize,
    last: u32,
    te: &mut extras::TextureAnimExtras,
    anim: &mut gx::scene::Animation,
) {
    // Translation, scale and rotation (2–8).
    let srt_ids: Vec<u8> = track_ids(&t.tracks)
        .into_iter()
        .filter(|id| (tobj_track::TRANSLATE[0]..=tobj_track::ROTATE[2]).contains(id))
        .collect();
    if srt_ids.is_empty() {
        return;
    }
    let rest = TextureSrt::of(tobj);
    let (mut off, mut rot, mut sc) = (Vec::new(), Vec::new(), Vec::new());
    let mut exact = true;
    for f in 0..=last {
        let srt = srt_ids.iter().fold(rest, |s, &id| {
            matanim::value(&t.tracks, id, f as f32).map_or(s, |v| s.with(id, v))
        });
        let ((o, r, s), ok) = srt.to_gltf();
        exact &= ok;
        off.extend(o);
        rot.push(r);
        sc.extend(s);
    }
    for (property, values) in [
        (Property::TextureOffset(index), off),
        (Property::TextureRotation(index), rot),
        (Property::TextureScale(index), sc),
    ] {
        anim.properties.push(PropertyTrack { property, values });
    }
    if exact {
        te.channels = srt_ids;
    }
}

/// An image swap (`TIMG`, with `TCLT` choosing palettes): the image table's images (entry
/// `i` with palette `i`, or the last palette, or the TObj's), then what each frame draws — the
/// selected image with the selected palette, or the TObj's own.
fn image_swap(
    a: &Archive<'_>,
    t: &AnimatedTexture,
    tobj: &TObj,
    last: u32,
    images: &mut Images,
    te: &mut extras::TextureAnimExtras,
    out: &mut Export,
) {
    let table_palette = |i: usize| {
        t.palettes
            .get(i.min(t.palettes.len().saturating_sub(1)))
            .copied()
            .flatten()
            .or(tobj.palette)
    };
    for (i, img) in t.images.iter().enumerate() {
        let Some(image) = img else { continue };
        let r = TextureRef {
            image: *image,
            palette: table_palette(i),
        };
        if let Some(g) = images.get(a, &r, out)
            && !te.images.contains(&g)
        {
            te.images.push(g);
        }
    }
    let chosen = t.image_indices(last);
    for (f, pick) in (0..=last).zip(chosen) {
        let image = pick.and_then(|i| t.images.get(i).copied().flatten());
        let palette = t
            .palette_index(f)
            .and_then(|p| t.palettes.get(p).copied().flatten())
            .or(tobj.palette);
        let drawn = image
            .or(tobj.image)
            .and_then(|image| images.get(a, &TextureRef { image, palette }, out));
        let Some(g) = drawn else {
            // Without pixels for a frame there is no swap to describe.
            te.image.clear();
            return;
        };
        let at = te.images.iter().position(|&x| x == g).unwrap_or_else(|| {
            te.images.push(g);
            te.images.len() - 1
        });
        te.image.push(u32::try_from(at).unwrap_or(0));
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

/// The RObj chain at `first` as extras: JOBJ targets as node (pre-order joint) indices, LIMIT
/// values, IK hints; expression RObjs (EXP, BYTECODE) and entries whose value does not read
/// are left out. The walk stops at a repeated RObj.
fn robjs(a: &Archive<'_>, g: &Graph, first: Option<u32>) -> Vec<extras::RObjExtras> {
    let mut out = Vec::new();
    let mut seen = gcio::Visited::new(a.limits());
    let mut next = first;
    while let Some(o) = next {
        if !seen.visit(u64::from(o)).unwrap_or(false) {
            break;
        }
        let Ok(r) = a.read::<RObj>(o) else { break };
        next = r.next;
        let mut e = extras::RObjExtras {
            flags: r.flags.bits(),
            ..Default::default()
        };
        match (r.flags.robj_type(), r.value) {
            (1, Word::Ptr(p)) => e.joint = g.joints.iter().position(|j| j.offset == p),
            (2, Word::Value(bits)) => e.limit = Some(f32::from_bits(bits)),
            (4, Word::Ptr(p)) => {
                e.ik = a
                    .read::<IkHint>(p)
                    .ok()
                    .map(|h| [h.bone_length, h.rotate_x]);
            }
            _ => {}
        }
        if e.joint.is_some() || e.limit.is_some() || e.ik.is_some() {
            out.push(e);
        }
    }
    out
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
/// first (the document's `extras.hsd.images`). One scene image per texture the file stores
/// (pixel block, palette block, format and size): Image structs over the same pixels share
/// it, while equal pixels stored twice (HSD-028: HAL keeps a source's duplicates) stay two.
#[derive(Default)]
struct Images(
    HashMap<TextureRef, Option<usize>>,
    Vec<Option<ImageExtras>>,
    HashMap<(u32, u32, u16, u16, Option<u32>), usize>,
);

impl Images {
    fn get(&mut self, a: &Archive<'_>, t: &TextureRef, out: &mut Export) -> Option<usize> {
        let (seen, stored_as, blocks) = (&mut self.0, &mut self.1, &mut self.2);
        *seen.entry(*t).or_insert_with(|| match a.decode_texture(t) {
            Ok(img) => {
                let block = a.read::<Image>(t.image).ok().map(|h| {
                    // A direct format reads no palette, whatever its TObj points at.
                    let indexed =
                        u8::try_from(h.format).is_ok_and(|f| gx::tex::TexFormat(f).is_indexed());
                    let lut = t
                        .palette
                        .filter(|_| indexed)
                        .and_then(|p| a.read::<Palette>(p).ok())
                        .and_then(|p| p.data);
                    (h.data.unwrap_or(t.image), h.format, h.width, h.height, lut)
                });
                let i = match block {
                    Some(k) => *blocks.entry(k).or_insert_with(|| out.scene.push_image(img)),
                    None => out.scene.add_image(img),
                };
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
        let cmpr = gx::tex::TexFormat::CMPR;
        if h.format == u32::from(cmpr.0)
            && let Some(d) = h.data
            && let Ok(n) = gx::tex::level_size(cmpr, h.width.into(), h.height.into())
            && let Ok(bytes) = a.data().bytes(d as usize, n)
        {
            e.cmpr_flat = gx::tex::cmpr::flat_form(bytes)
                .filter(|&f| f != gx::tex::cmpr::Flat::Hal)
                .map(|f| f.name().to_owned());
        }
    }
    e.palette = palette
        .and_then(|p| a.read::<Palette>(p).ok())
        .map(|p| (p.format, p.n_entries));
    e
}

/// The TObj chain of the MObj at `mobj` (offset and TObj), at most eight.
fn tobj_chain(a: &Archive<'_>, mobj: u32) -> Vec<(u32, TObj)> {
    let mut out = Vec::new();
    let mut at = a.read::<MObj>(mobj).ok().and_then(|m| m.tobj);
    while let Some(t) = at.filter(|_| out.len() < 8) {
        match a.read::<TObj>(t) {
            Ok(tobj) => {
                at = tobj.next;
                out.push((t, tobj));
            }
            Err(_) => break,
        }
    }
    out
}

/// Which TObj of a chain is the glTF material's texture: the first mapped by UV that lights
/// the diffuse channel, else the first mapped by UV, else the first. Texture coordinates come
/// from a UV set only when the TObj's coord mode is UV (0): the others (reflection, highlight,
/// shadow, toon, gradation) are generated at draw time.
fn base_texture(chain: &[(u32, TObj)]) -> Option<usize> {
    let uv = |t: &(u32, TObj)| (t.1.flags & TObjFlags::COORD).bits() == 0;
    chain
        .iter()
        .position(|t| uv(t) && t.1.flags.contains(TObjFlags::LIGHTMAP_DIFFUSE))
        .or_else(|| chain.iter().position(uv))
        .or((!chain.is_empty()).then_some(0))
}

/// The material of the MObj at `m`: its diffuse texture ([`base_texture`]) and, without one,
/// its diffuse colour.
fn material(a: &Archive<'_>, m: u32, images: &mut Images, out: &mut Export) -> usize {
    let mobj = a.read::<MObj>(m).ok();
    let chain = tobj_chain(a, m);
    let tobjs: Vec<TObj> = chain.iter().map(|t| t.1).collect();
    let diffuse = base_texture(&chain).and_then(|i| tobjs.get(i));
    let texture = diffuse.and_then(|t| {
        let r = TextureRef {
            image: t.image?,
            palette: t.palette,
        };
        images.get(a, &r, out)
    });
    let mut mat = Material::new(format!("mobj_{m:x}"), texture);
    // The TObj's wrap modes as the glTF sampler's (GX_CLAMP 0, GX_REPEAT 1, GX_MIRROR 2).
    if let Some(t) = diffuse {
        mat.wrap = [t.wrap_s, t.wrap_t].map(Wrap::from_gx);
    }
    // The coordinate set the texture reads (`GX_TEXCOORDn` + 4) as the glTF `texCoord`.
    mat.texcoord = diffuse
        .filter(|t| (t.flags & TObjFlags::COORD).bits() == 0)
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
        e.lod = t
            .lod
            .and_then(|at| a.read::<TexLod>(at).ok())
            .map(|x| LodExtras::new(&x));
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

/// A vertex with an NBT normal: its matrix, normal, binormal and tangent as stored.
type Frame = (Mtx34, [f32; 3], [[f32; 3]; 2]);

/// `TANGENT` of each vertex of `out` from its NBT normal (`frames`: matrix, normal, binormal,
/// tangent as stored in format `f`): the tangent's direction, with `w` the sign that makes
/// `cross(N, T) · w` point along the binormal. `_TANGENT` and `_BINORMAL` carry the stored
/// vectors only when the import could not rebuild them in `f` from what glTF says: HAL's
/// tangents are not unit length (their length is the emboss bump's strength: about 0.01 in
/// TyBancho, some zero), and its binormals, though `N × T` within 2e-4, mostly differ from
/// `N × T` of the stored values rounded (28 of TyBancho's 222 non-zero ones agree).
fn tangents(out: &mut Mesh, frames: &[Frame], f: VertexFormat) {
    let encode = |n: [f32; 3], b: [f32; 3], t: [f32; 3]| {
        let mut bytes = Vec::new();
        let _ = f.encode(&[n, b, t].concat(), &mut bytes);
        bytes
    };
    let mut rebuilt = Vec::with_capacity(frames.len());
    let (mut own_t, mut own_b) = (false, false);
    for &(_, n, [b, t]) in frames {
        let unit_t = unit_or_across(t, n);
        let c = cross(n, t);
        let w = if c.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>() < 0.0 {
            -1.0
        } else {
            1.0
        };
        own_t |= encode(n, b, unit_t) != encode(n, b, t);
        rebuilt.push((unit_t, w));
    }
    for (&(_, n, [b, t]), &(unit_t, w)) in frames.iter().zip(&rebuilt) {
        let t = if own_t { t } else { unit_t };
        own_b |= encode(n, cross(n, t).map(|x| x * w), t) != encode(n, b, t);
    }
    for (&(mtx, _, [b, t]), &(unit_t, w)) in frames.iter().zip(&rebuilt) {
        let [x, y, z] = crate::mesh::normal(&mtx, unit_t);
        out.tangents.push([x, y, z, w]);
        if own_t {
            out.stored_tangents.push(direction(&mtx, t));
        }
        if own_b {
            out.binormals.push(direction(&mtx, b));
        }
    }
}

/// `t` as a unit vector, or (a zero tangent) a unit vector across `n`: glTF's `TANGENT` must
/// be unit length.
fn unit_or_across(t: [f32; 3], n: [f32; 3]) -> [f32; 3] {
    let len = |v: [f32; 3]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if len(t) > 1e-12 {
        return t.map(|x| x / len(t));
    }
    let axis = if n[0].abs() < 0.9 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let c = cross(n, axis);
    if len(c) > 1e-12 {
        c.map(|x| x / len(c))
    } else {
        [1.0, 0.0, 0.0]
    }
}

/// Per PObj and indexed descriptor entry, the array indices it uses that an importer filling
/// the arrays as ours does meets first there: meshes by owner joint last to first, each owner's
/// in order (the forward numbering of [`crate::import`]'s backward walk), entries in list
/// order. The rest are values of another PObj's run, which its vertex order does not place.
fn own_values(
    g: &Graph,
    descs: &[Vec<(VtxDesc, VertexFormat)>],
    meshes: &[Result<crate::mesh::Mesh>],
) -> Vec<Vec<HashSet<u32>>> {
    // Each indexed entry's array, as `Archive::mesh` reads them.
    let arrays: Vec<Vec<u32>> = descs
        .iter()
        .map(|attrs| {
            attrs
                .iter()
                .filter_map(|(d, _)| {
                    d.array
                        .filter(|_| AttrType(d.attr_type).index_size().is_some())
                })
                .collect()
        })
        .collect();
    let mut fill: Vec<usize> = (0..g.pobjs.len())
        .filter(|&i| meshes.get(i).is_some_and(Result::is_ok))
        .collect();
    fill.sort_by_key(|&i| (std::cmp::Reverse(g.pobjs.get(i).map_or(0, |p| p.joint)), i));
    let mut seen: HashMap<u32, HashSet<u32>> = HashMap::new();
    let mut out = vec![Vec::new(); g.pobjs.len()];
    for i in fill {
        let (Some(Ok(m)), Some(arrays)) = (meshes.get(i), arrays.get(i)) else {
            continue;
        };
        let mut own = Vec::with_capacity(arrays.len());
        for (k, at) in arrays.iter().enumerate() {
            let seen = seen.entry(*at).or_default();
            let mine: HashSet<u32> = m
                .vertices
                .iter()
                .filter_map(|v| v.indices.get(k).copied())
                .filter(|x| !seen.contains(x))
                .collect();
            seen.extend(&mine);
            own.push(mine);
        }
        if let Some(o) = out.get_mut(i) {
            *o = own;
        }
    }
    out
}

/// One PObj's mesh with its skin, each vertex placed where glTF's skinning (by `skin_ibm`, the
/// nodes' inverse bind matrices) draws at rest what the runtime draws: the runtime's slot
/// matrix at rest (the owner's coord taken at rest as the runtime takes it), undone by glTF's.
/// The two differ where a file's inverse bind matrix does not invert the rest pose (20XX's
/// TyMew2 binds a bone 1° off its rest): a weight-1.0 slot skips the matrix at run time, glTF
/// never does. Where a joint's rest matrix is singular (a zero scale hides it) the vertex is
/// positioned in the bind pose (`bind`), so that it keeps its shape. `own` as [`own_values`]
/// gives them.
fn mesh(
    g: &Graph,
    m: &crate::mesh::Mesh,
    world: &[Mtx34],
    bind: &[Mtx34],
    ibm: &[Option<Mtx34>],
    skin_ibm: &[Mtx34],
    own: &[HashSet<u32>],
) -> Mesh {
    let coord = envelope_coord(g, world, m.joint);
    let placed = |entries: &[(usize, f32)], runtime: Mtx34, in_bind: Mtx34| -> Mtx34 {
        let shown = |j: usize| world.get(j).filter(|r| gx::mtx::inverse(r).is_some());
        if !entries.iter().all(|e| shown(e.0).is_some()) {
            return in_bind;
        }
        let skin = gx::mtx::blend(entries.iter().filter_map(|&(j, w)| {
            Some((
                w,
                gx::mtx::mul(shown(j)?, skin_ibm.get(j).unwrap_or(&IDENTITY)),
            ))
        }));
        gx::mtx::inverse(&skin).map_or(in_bind, |s| gx::mtx::mul(&s, &runtime))
    };
    let slots: Vec<Mtx34> = m
        .palette
        .iter()
        .map(|e| {
            placed(
                e,
                envelope_matrix(e, world, ibm, coord.as_ref()),
                envelope_matrix(e, bind, ibm, coord.as_ref()),
            )
        })
        .collect();
    // A rigid joint's matrix, once per joint.
    let mut rigid: HashMap<usize, Mtx34> = HashMap::new();
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
    // Vertices in an order whose first uses of each attribute's values follow the file's
    // arrays: HAL filled the arrays in its source mesh's vertex order, and a glTF mesh's vertex
    // order is where an importer finds that order again.
    let indices: Vec<&[u32]> = m.vertices.iter().map(|v| v.indices.as_slice()).collect();
    let order: Vec<(usize, (&crate::mesh::Vertex, &Skin))> =
        crate::vorder::array_order(&indices, own)
            .into_iter()
            .filter_map(|i| Some((i, (m.vertices.get(i)?, m.skins.get(i)?))))
            .collect();
    let mut new_index = vec![0u32; order.len()];
    for (new, (old, _)) in order.iter().enumerate() {
        if let Some(n) = new_index.get_mut(*old) {
            *n = new as u32;
        }
    }
    let mut frames: Vec<Frame> = Vec::new();
    for (_, (v, s)) in order {
        let (mtx, skin) = match s {
            Skin::Rigid(j) | Skin::ShapeAnim(j) => (
                *rigid.entry(*j).or_insert_with(|| {
                    placed(
                        &[(*j, 1.0)],
                        world.get(*j).copied().unwrap_or(IDENTITY),
                        bind.get(*j).copied().unwrap_or(IDENTITY),
                    )
                }),
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
            if m.nbt.is_some() {
                frames.push((mtx, n, v.nbt.unwrap_or_default()));
            }
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
    if let Some(f) = m.nbt {
        tangents(&mut out, &frames, f);
    }
    out.uvs = uvs;
    if has_c {
        out.colors.push(colors);
    }
    out.triangles = m
        .triangles
        .iter()
        .map(|t| t.map(|i| new_index.get(i as usize).copied().unwrap_or(i)))
        .collect();
    out
}
