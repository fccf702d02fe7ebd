//! Import: a glTF model ([`gx::scene::Scene`], read by [`gx::scene::Scene::from_glb`]) becomes
//! a `.dat` the game loads: a JObj per node (SRT with Euler XYZ as the runtime composes
//! `T·Rz·Ry·Rx·S`), DObj/MObj/PObj per mesh, TObjs and images per texture, laid out in HAL's
//! compiler order by its rules alone ([`crate::compile::compile_listed`] with the empty texture
//! list), written, read back and validated — any
//! validator error fails the import with the findings.
//!
//! Flags follow seed 003's rules: joints an envelope weights are deformers (SKELETON with an
//! inverse bind matrix), a mesh with envelopes hangs off an owner (ENVELOPE_MODEL) no envelope
//! weights — the recorded owner of our own export, else the root, else a holder joint added
//! under the root — and every mesh owner is OPA, never XLU. A mesh whose vertices all follow
//! one joint is a rigid PObj, unless that joint is a deformer: then seed 003's holder joint, a
//! coincident unweighted child of the deformer, owns it as an envelope mesh weighted 1.0 to
//! the deformer. The others get envelope palettes of at most
//! [`crate::MAX_PALETTE`] slots (split into several PObjs), each vertex stored where the runtime's
//! slot matrix (weight-1.0 short-circuit included) takes it to its glTF position in the bind
//! pose (the glTF inverse bind matrices' where they do not invert the rest pose: a hidden,
//! zero-scale bone).
//!
//! ```no_run
//! let glb = std::fs::read("model.glb")?;
//! let imported = hsd_dat::import::from_glb(&glb, &hsd_dat::import::ImportOptions::default())?;
//! std::fs::write("model.dat", imported.bytes)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod anim;
mod geometry;
pub use geometry::Fitted;
pub mod matanim;
mod material;
mod scene_objects;

use gcio::{Diagnostic, Error, Result, Severity};
use gx::mtx::{IDENTITY, Mtx34, decompose_srt, inverse, mul, srt};
use gx::scene::Scene;
use gx::tex::TexFormat;

use crate::bound_box::{Aabb, BoundBox};
use crate::build::Builder;
use crate::build::parts::{LIGHT_RIG, light, light_set, model_set, scene_data, wobj};
use crate::compile::{Order, TextureList, compile_listed};
use crate::extras::{self, JointAnimExtras, JointExtras};
use crate::field::Word;
use crate::flags::{JointFlags, RObjFlags};
use crate::mesh::{bind_pose, inverts, near};
use crate::model::{Dat, Target};
use crate::roots::RootKind;
use crate::types::{IkHint, Joint, Matrix, RObj};

/// How to import.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportOptions {
    /// The compiler order to lay the file out in (default Colosseum/XD: roots `scene_data`
    /// and `bound_box`; Melee: one `<name>_joint` root).
    pub order: Order,
    /// Root name stem for the Melee layout (`<name>_joint`).
    pub name: String,
    /// Texture format for images without a recorded one (default: chosen per image by
    /// [`gx::tex::choose_format`]).
    pub texture_format: Option<TexFormat>,
    /// Largest error of a fitted animation track at any frame ([`anim::TOLERANCE`]).
    pub tolerance: f32,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            order: Order::ColosseumXd,
            name: "model".into(),
            texture_format: None,
            tolerance: anim::TOLERANCE,
        }
    }
}

/// An imported model.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The compiled archive.
    pub dat: Dat,
    /// Its bytes, read back and validated.
    pub bytes: Vec<u8>,
    /// PObjs written (envelope meshes split to fit the palette limit count once per part).
    pub pobjs: usize,
    /// Holder joints added (one under the root for meshes with envelopes and no unweighted
    /// owner; one under each deformer that a mesh follows 100 %).
    pub holders: usize,
    /// CMPR sub-blocks that could not be re-encoded exactly.
    pub inexact_blocks: usize,
    /// Images stored at another size than the glTF's, as GX samples them (sides at most 1024;
    /// a plain material's, which repeat, powers of two): (scene image, glTF size, stored size).
    pub resized: Vec<(usize, [u32; 2], [u32; 2])>,
    /// Our extras' image indices did not match the document's images (an editor rewrote the
    /// glb): materials were imported from their glTF form, material animations without them.
    pub stale_extras: bool,
    /// How the meshes were fitted when, as given, they needed [`crate::POBJ_WARN`] PObjs or
    /// more.
    pub fitted: Option<Fitted>,
    /// Scene nodes whose rest scale our extras record (not 1) while the node's is 1: what
    /// Blender's re-export does to a bone's rest scale (its edit bones have none) unless its
    /// "Use Rest Position Armature" option is off. The node's scale is imported.
    pub scale_dropped: Vec<usize>,
    /// Validator findings below error level.
    pub findings: Vec<Diagnostic>,
    /// For each scene node, the pre-order index of the joint it became (what the game's body
    /// maps and bone indices count): an added root or holder joints shift the nodes'.
    pub node_joints: Vec<usize>,
}

/// Reads a `.glb` / `.gltf` and imports it (see [`import`]).
pub fn from_glb(data: &[u8], opts: &ImportOptions) -> Result<Imported> {
    import(&Scene::from_glb(data)?, opts)
}

/// Imports `scene` (see the module documentation).
pub fn import(scene: &Scene, opts: &ImportOptions) -> Result<Imported> {
    // Melee's archives hold several models side by side (its menus: 57 joint trees, each
    // with its own animations); Colosseum/XD's is one model.
    let mut skel = Skeleton::new(scene, opts.order == Order::Melee);
    // Meshes and weights as they are, unless they need too many PObjs: then joined, and
    // rounded if need be (seed 003's prep script joins meshes and rounds to 10 %).
    let fitted = geometry::fit(scene, &skel);
    let mut b = Builder::new();
    let joints: Vec<Target> = (0..skel.parent.len())
        .map(|_| b.slot::<Joint<Target>>())
        .collect();
    let mut mats = material::Materials::new(scene, opts);
    let geo = geometry::geometry(
        &mut b,
        scene,
        &mut skel,
        &joints,
        &mut mats,
        fitted.as_ref(),
    )?;
    // Holders may have been added: slots for them too.
    let mut joints = joints;
    while joints.len() < skel.parent.len() {
        joints.push(b.slot::<Joint<Target>>());
    }
    let flags = skel.flags(&geo.owners, opts.order);
    // Each joint's node (holders and an added root have none), for its RObj chain: the first
    // mapped to it (an extra node of the export's scale inheritance maps to its joint too).
    let mut node_of = vec![None; skel.parent.len()];
    for (i, &j) in skel.node_joint.iter().enumerate() {
        if let Some(slot) = node_of.get_mut(j).filter(|s| s.is_none()) {
            *slot = Some(i);
        }
    }
    for j in 0..skel.parent.len() {
        let (rotation, scale, translation) = skel.srt.get(j).copied().unwrap_or_default();
        let parent_of = |k: usize| skel.parent.get(k).copied().flatten();
        let first_child = (j + 1..skel.parent.len()).find(|&c| parent_of(c) == Some(j));
        let next = (j + 1..skel.parent.len())
            .find(|&s| parent_of(s) == parent_of(j) && parent_of(j).is_some());
        let f = flags.get(j).copied().unwrap_or(JointFlags::empty());
        let inverse_bind = if f.contains(JointFlags::SKELETON) {
            let m = skel.inverse_bind(j).unwrap_or(IDENTITY);
            Some(b.put(&Matrix { m }))
        } else {
            None
        };
        let joint = Joint {
            class_name: None,
            flags: f,
            child: first_child.and_then(|c| joints.get(c).copied()),
            next: next.and_then(|s| joints.get(s).copied()),
            data: geo.dobjs.get(j).copied().flatten(),
            rotation,
            scale,
            translation,
            inverse_bind,
            robj: robjs(
                &mut b,
                scene,
                &skel,
                &joints,
                node_of.get(j).copied().flatten(),
            ),
        };
        if let Some(&at) = joints.get(j) {
            b.set(at, &joint);
        }
    }
    // Each joint tree (one but in Melee order: Skeleton::new) with its animation trees: all of
    // a single tree's, a forest tree's that animate it.
    let tops = skel.tops();
    if tops.is_empty() {
        return Err(Error::message("no joint"));
    }
    let tol = opts.tolerance.max(1e-7);
    let material_anims = matanim::animations(&mut b, scene, &skel, &geo.materials, &mut mats, tol)?;
    let frames = mats.loose(&mut b)?;
    let anims = anim::animations(&mut b, scene, &skel, tol)?;
    let of_tree = |roots: &anim::Roots, k: usize| roots.get(k).copied().flatten();
    // Per tree: its joint, material animation trees and (AnimJoint tree, last frame).
    let trees: Vec<Model> = tops
        .iter()
        .enumerate()
        .filter_map(|(k, &t)| {
            let joint = *joints.get(t)?;
            let mat = material_anims
                .iter()
                .filter_map(|(r, _)| of_tree(r, k))
                .collect();
            let an = anims
                .iter()
                .filter_map(|(r, end)| Some((of_tree(r, k)?, *end)))
                .collect();
            Some((joint, mat, an))
        })
        .collect();
    let dat = match opts.order {
        Order::ColosseumXd => {
            let mut lights = Vec::new();
            for (ty, grey, dir) in LIGHT_RIG {
                let position = (ty == 1).then(|| b.put(&wobj(dir)));
                let l = b.put(&light(ty, grey, position));
                lights.push(b.put(&light_set(l)));
            }
            // One model (seed 003): Skeleton::new made one tree.
            let anims = trees.first().map_or(&[][..], |t| t.2.as_slice());
            let models = model_sets(&mut b, &trees, frames);
            let lights = b.ptr_array(&lights);
            let scene_root = b.put(&scene_data(models, None, Some(lights)));
            // One box per frame of each animation (HSD-026): the rest pose's.
            let aabb = rest_box(scene);
            let bound = BoundBox {
                pad: 0,
                sets: anims
                    .iter()
                    .map(|&(_, end)| vec![aabb; end as usize + 1])
                    .collect(),
            };
            b.finish_xd(scene_root, &bound)?
        }
        Order::Melee => match scene_objects::build(&mut b, scene) {
            Some((camera, lights)) => {
                // A scene with a camera or lights is a `scene_data` root (cb_plug's), its
                // ModelSet listing the animations.
                let models = model_sets(&mut b, &trees, frames);
                let lights = (!lights.is_empty()).then(|| b.ptr_array(&lights));
                let scene_root = b.put(&scene_data(models, camera, lights));
                b.root("scene_data", scene_root);
                b.finish()
            }
            None => {
                // Tree K's roots share a stem, which the export pairs them by: the names our
                // export recorded (the game looks models up by them), else `opts.name`'s.
                let mut names = Names::default();
                let anim_names: Vec<Option<String>> = scene
                    .clips
                    .iter()
                    .map(|c| extras::read::<JointAnimExtras>(c.extras.as_ref())?.root)
                    .collect();
                let joint_tops = tops.iter().filter(|&&t| joints.get(t).is_some());
                for (k, (&top, (joint, _, _))) in joint_tops.zip(&trees).enumerate() {
                    let generated = match k {
                        0 => opts.name.clone(),
                        k => format!("{}_t{k}", opts.name),
                    };
                    let recorded = (0..scene.nodes.len())
                        .filter(|&i| skel.of_node(i) == top)
                        .find_map(|i| {
                            let x = scene.nodes.get(i)?.extras.as_ref();
                            extras::read::<JointExtras>(x)?.root
                        });
                    let name =
                        names.pick(recorded, RootKind::Joint, || format!("{generated}_joint"));
                    let stem = name.strip_suffix("_joint").unwrap_or(&generated).to_owned();
                    b.root(&name, *joint);
                    let mats = material_anims
                        .iter()
                        .filter_map(|(r, n)| Some((of_tree(r, k)?, n.clone())));
                    for (i, (tree, recorded)) in mats.enumerate() {
                        let name = names.pick(recorded, RootKind::MatAnimJoint, || {
                            format!("{stem}_{i}_matanim_joint")
                        });
                        b.root(&name, tree);
                    }
                    let trees = anims
                        .iter()
                        .zip(&anim_names)
                        .filter_map(|((r, _), n)| Some((of_tree(r, k)?, n.clone())));
                    for (i, (tree, recorded)) in trees.enumerate() {
                        let name = names.pick(recorded, RootKind::AnimJoint, || {
                            format!("{stem}_{i}_animjoint")
                        });
                        b.root(&name, tree);
                    }
                }
                if let Some(f) = frames {
                    b.root(&format!("{}_matanim_joint", opts.name), f);
                }
                b.finish()
            }
        },
    };
    // The rules alone place the textures: the order the builder encoded them in is no texture
    // list HAL's tool had (a glTF records none), and would be taken for one.
    let dat = compile_listed(&dat, opts.order, &TextureList::default())?;
    let bytes = dat.write()?;
    // What we wrote must read back and check without errors.
    let a = crate::parse(&bytes)?;
    let (errors, findings): (Vec<_>, Vec<_>) = crate::validate_view(&a)
        .into_iter()
        .partition(|d| d.severity == Severity::Error);
    if !errors.is_empty() {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        return Err(Error::message(format!(
            "the imported model has validator errors:\n{}",
            list.join("\n")
        )));
    }
    Ok(Imported {
        dat,
        bytes,
        pobjs: geo.pobjs,
        holders: skel.parent.len().saturating_sub(skel.node_joints_end),
        inexact_blocks: mats.inexact_blocks,
        resized: mats.resized.clone(),
        stale_extras: !mats.trusted,
        fitted,
        scale_dropped: skel.scale_dropped.clone(),
        findings,
        node_joints: {
            let pos = preorder(&skel.parent);
            (0..scene.nodes.len())
                .map(|i| pos.get(skel.of_node(i)).copied().unwrap_or(0))
                .collect()
        },
    })
}

/// The pre-order position of each joint of the tree `parent` describes (children in index
/// order, as the written JObj tree links them); a joint the tree does not reach gets its index.
fn preorder(parent: &[Option<usize>]) -> Vec<usize> {
    let n = parent.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (j, p) in parent.iter().enumerate() {
        if let Some(list) = p.filter(|&p| p < j).and_then(|p| children.get_mut(p)) {
            list.push(j);
        }
    }
    let mut pos: Vec<usize> = (0..n).collect();
    // Every tree's top, first tree first.
    let mut stack: Vec<usize> = (0..n)
        .filter(|&j| parent.get(j).copied().flatten().is_none())
        .rev()
        .collect();
    let mut next = 0;
    while let Some(j) = stack.pop() {
        if let Some(p) = pos.get_mut(j) {
            *p = next;
        }
        next += 1;
        if let Some(c) = children.get(j) {
            stack.extend(c.iter().rev());
        }
    }
    pos
}

/// The box around every mesh position of `scene` (zero without any).
fn rest_box(scene: &Scene) -> Aabb {
    let mut it = scene.meshes.iter().flat_map(|m| m.positions.iter());
    let Some(first) = it.next() else {
        return Aabb::default();
    };
    it.fold(
        Aabb {
            min: *first,
            max: *first,
        },
        |mut b, p| {
            for k in 0..3 {
                if let (Some(lo), Some(hi), Some(v)) =
                    (b.min.get_mut(k), b.max.get_mut(k), p.get(k))
                {
                    *lo = lo.min(*v);
                    *hi = hi.max(*v);
                }
            }
            b
        },
    )
}

/// The RObj chain our export recorded on `node` ([`JointExtras::robj`]), built: JOBJ targets
/// the joint of the node it names (left out when that node is no joint), LIMIT its value, IKHINT
/// an IK-hint struct. `None` without entries.
fn robjs(
    b: &mut Builder,
    scene: &Scene,
    skel: &Skeleton,
    joints: &[Target],
    node: Option<usize>,
) -> Option<Target> {
    let x = node
        .and_then(|i| scene.nodes.get(i))
        .and_then(|n| extras::read::<JointExtras>(n.extras.as_ref()))?;
    let mut next = None;
    for r in x.robj.iter().rev() {
        let value = if let Some(i) = r.joint {
            let j = (i < skel.from_nodes).then(|| skel.of_node(i));
            let Some(&target) = j.and_then(|j| joints.get(j)) else {
                continue;
            };
            Word::Ptr(target)
        } else if let Some(v) = r.limit {
            Word::Value(v.to_bits())
        } else if let Some([bone_length, rotate_x]) = r.ik {
            Word::Ptr(b.put(&IkHint {
                bone_length,
                rotate_x,
            }))
        } else {
            continue;
        };
        next = Some(b.put(&RObj {
            next,
            flags: RObjFlags::from_bits_retain(r.flags),
            value,
        }));
    }
    next
}

/// One model of the archive: its joint tree, material animation trees and (AnimJoint tree,
/// last frame) per clip.
type Model = (Target, Vec<Target>, Vec<(Target, f32)>);

/// Root names given so far.
#[derive(Default)]
struct Names(std::collections::HashSet<String>);

impl Names {
    /// `recorded` when it names a root of `kind` and is not taken, else `fallback`'s.
    fn pick(
        &mut self,
        recorded: Option<String>,
        kind: RootKind,
        fallback: impl FnOnce() -> String,
    ) -> String {
        let name = recorded
            .filter(|n| RootKind::from_name(n.as_bytes()) == kind && !self.0.contains(n))
            .unwrap_or_else(fallback);
        self.0.insert(name.clone());
        name
    }
}

/// A `scene_data` root's model list: a ModelSet per model with its joint animations and
/// material animations (the first model's followed by the loose images' `frames`).
fn model_sets(b: &mut Builder, trees: &[Model], frames: Option<Target>) -> Target {
    let mut models = Vec::with_capacity(trees.len());
    for (k, (root, material_anims, anims)) in trees.iter().enumerate() {
        // The loose image frames go with the first model.
        let loose = frames.filter(|_| k == 0);
        let material: Vec<Target> = material_anims.iter().copied().chain(loose).collect();
        let matanims = (!material.is_empty()).then(|| b.ptr_array(&material));
        let list: Vec<Target> = anims.iter().map(|a| a.0).collect();
        let list = (!list.is_empty()).then(|| b.ptr_array(&list));
        models.push(b.put(&model_set(*root, list, matanims)));
    }
    b.ptr_array(&models)
}

/// A joint's rotation (Euler XYZ), scale and translation.
type Srt = ([f32; 3], [f32; 3], [f32; 3]);

/// A node's rotation (Euler XYZ), scale and translation: the JObj's as our export recorded them
/// ([`JointExtras::srt`]) where they compose to the node's matrix within 1e-4 (the TRS's
/// quaternion rounds; a zero scale drops the rotation), else decomposed from the matrix — an
/// edited node wins over its extras. Under an extra node of the export's scale inheritance
/// (`inherit`: the parent's accumulated scale `P`), the node's matrix is `TRS(P∘t, R, P∘s)`.
/// The flag says whether the recorded values were taken.
fn local_srt(
    node: &gx::scene::Node,
    recorded: Option<[[f32; 3]; 3]>,
    inherit: Option<[f32; 3]>,
) -> (Srt, bool) {
    let p = inherit.unwrap_or([1.0; 3]);
    if let Some([r, s, t]) = recorded {
        let reach = t
            .iter()
            .zip(&p)
            .fold(1.0f32, |m, (x, k)| m.max((x * k).abs()));
        let local = match inherit {
            Some(p) => crate::pose::scaled_local([r, s, t], p),
            None => srt(r, s, t),
        };
        if near(&local, &node.local, 1e-4, reach) {
            return ((r, s, t), true);
        }
    }
    let (s, r, t) = decompose_srt(&node.local, [0.0; 3]);
    let [px, py, pz] = p;
    let s = [s[0] / px, s[1] / py, s[2] / pz];
    let t = [t[0] / px, t[1] / py, t[2] / pz];
    ((r, s, t), false)
}

/// The parent's accumulated scale `P` an extra node of the export's scale inheritance holds as
/// `Scale(1/P)` (`None` for any other node).
pub(crate) fn inherited_scale(node: &gx::scene::Node) -> Option<[f32; 3]> {
    extras::read::<JointExtras>(node.extras.as_ref())
        .filter(|x| x.inherited_scale)
        .map(|_| inherit_of(&node.local))
}

/// `P` of an extra node's local matrix `Scale(1/P)` (`[1, 1, 1]` where that is no normal
/// number: an edited node scaled to zero would divide by it).
pub(crate) fn inherit_of(m: &Mtx34) -> [f32; 3] {
    let [r0, r1, r2] = m;
    crate::pose::inherited(Some([1.0 / r0[0], 1.0 / r1[1], 1.0 / r2[2]]))
}

/// Whether node `i` with rest scale `rest` needs `JOBJ_CLASSICAL_SCALE` for its children to
/// pose as glTF composes them: its scale, at rest or at any key of a clip, is not uniform (or
/// is zero), so the runtime's scale inheritance would apply it along each child's own axes
/// ([`crate::pose`]).
fn scales_unevenly(scene: &Scene, i: usize, rest: [f32; 3]) -> bool {
    let keys = scene
        .clips
        .iter()
        .flat_map(|c| &c.channels)
        .filter(|c| c.node == i && c.target == gx::scene::Target::Scale)
        .flat_map(|c| {
            // A cubic spline's keys hold in-tangent, value, out-tangent: the values only.
            let (step, skip) = match c.interpolation {
                gx::scene::Interpolation::CubicSpline => (9, 3),
                _ => (3, 0),
            };
            c.values
                .chunks(step)
                .filter_map(move |k| k.get(skip..skip + 3))
        });
    !crate::pose::uniform(rest)
        || keys
            .filter_map(|k| <[f32; 3]>::try_from(k).ok())
            .any(|k| !crate::pose::uniform(k))
}

/// The joint tree being built: scene nodes in pre-order (after an added root when the scene
/// needs one), then holder joints.
pub(crate) struct Skeleton {
    /// Parent of each joint.
    pub parent: Vec<Option<usize>>,
    /// Rotation, scale, translation of each joint.
    pub srt: Vec<([f32; 3], [f32; 3], [f32; 3])>,
    /// World matrices from the stored SRT, as the runtime composes them ([`crate::pose`]).
    pub world: Vec<Mtx34>,
    /// Accumulated scale of each joint (the runtime's `scl`).
    pub scl: Vec<Option<[f32; 3]>>,
    /// Whether each joint passes its parent's accumulated scale on unchanged
    /// (`JOBJ_CLASSICAL_SCALE`): as recorded for a node our export wrote and nobody edited,
    /// else where [`scales_unevenly`] says the node's children need it.
    pub classical: Vec<bool>,
    /// World matrices of the bind pose, which skinned vertices are stored against and
    /// inverse bind matrices invert: the rest pose's ([`Skeleton::world`]), except for a node
    /// whose glTF inverse bind matrix is no inverse of its rest pose (a zero or near-zero rest
    /// scale hiding it until an animation shows it, or a mesh bound in another pose): glTF
    /// skins by that matrix, so its inverse is the bind pose. Added joints follow their
    /// parent's.
    pub bind: Vec<Mtx34>,
    /// The glTF inverse bind matrix of each joint made from a node (`None` for added joints).
    pub gltf_bind: Vec<Option<Mtx34>>,
    /// Flags recorded by our export (or empty).
    pub recorded: Vec<Option<JointFlags>>,
    /// Scene nodes.
    pub from_nodes: usize,
    /// Joints made from nodes (and an added root) end here; holder joints follow.
    pub node_joints_end: usize,
    /// Joints an envelope weights.
    pub deformer: Vec<bool>,
    /// The joint of each scene node.
    pub node_joint: Vec<usize>,
    /// Scene nodes whose recorded rest scale the node lost ([`Imported::scale_dropped`]).
    pub scale_dropped: Vec<usize>,
}

impl Skeleton {
    /// The scene's nodes as joints in the node tree's pre-order (children in file order, so a
    /// glTF file may list children before parents, as Blender does), under an added identity
    /// root when the scene has no root, several, or one the game would turn (HSD-021: a root's
    /// rotation must be identity) — except that with `forest` (Melee order) the roots our
    /// export recorded as joints stay as the archive held them: several trees, or a turned one.
    fn new(scene: &Scene, forest: bool) -> Skeleton {
        let n = scene.nodes.len();
        let parent_of = |i: usize| {
            scene
                .nodes
                .get(i)
                .and_then(|x| x.parent)
                .filter(|&p| p < n && p != i)
        };
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for i in 0..n {
            match parent_of(i).and_then(|p| children.get_mut(p)) {
                Some(list) => list.push(i),
                None => roots.push(i),
            }
        }
        // Pre-order from the roots; nodes no root reaches (a parent cycle) follow, under the
        // added root.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        for &r in &roots {
            let mut stack = vec![r];
            while let Some(i) = stack.pop() {
                if seen.get_mut(i).is_none_or(|v| std::mem::replace(v, true)) {
                    continue;
                }
                order.push(i);
                stack.extend(children.get(i).into_iter().flatten().rev());
            }
        }
        let reached = order.len();
        order.extend((0..n).filter(|&i| !seen.get(i).copied().unwrap_or(true)));
        let root_rotated = order
            .first()
            .and_then(|&i| scene.nodes.get(i))
            .is_some_and(|x| {
                let recorded = extras::read::<JointExtras>(x.extras.as_ref()).and_then(|e| e.srt);
                local_srt(x, recorded, None)
                    .0
                    .0
                    .iter()
                    .any(|r| r.abs() > crate::ROTATION_EPSILON)
            });
        let recorded = |i: &usize| {
            scene
                .nodes
                .get(*i)
                .is_some_and(|x| extras::read::<JointExtras>(x.extras.as_ref()).is_some())
        };
        // Melee order keeps the trees our export recorded as they were: several roots, or one
        // the archive turns (HSD-021 is Colosseum/XD's rule; Melee's main menu turns a root).
        let keep = forest && n > 0 && reached == n && roots.iter().all(recorded);
        let first =
            usize::from(!keep && (n == 0 || roots.len() != 1 || root_rotated || reached < n));
        let mut s = Skeleton {
            parent: Vec::new(),
            srt: Vec::new(),
            world: Vec::new(),
            scl: Vec::new(),
            classical: Vec::new(),
            bind: Vec::new(),
            gltf_bind: Vec::new(),
            recorded: Vec::new(),
            from_nodes: n,
            node_joints_end: 0,
            deformer: Vec::new(),
            node_joint: vec![0; n],
            scale_dropped: Vec::new(),
        };
        if first == 1 {
            s.push(None, ([0.0; 3], [1.0; 3], [0.0; 3]), None, false);
        }
        for (k, &i) in order.iter().enumerate() {
            let Some(node) = scene.nodes.get(i) else {
                continue;
            };
            let parent = parent_of(i)
                .filter(|_| k < reached)
                .and_then(|p| s.node_joint.get(p).copied())
                .or((first == 1).then_some(0));
            // An extra node of the export's scale inheritance is no joint: what hangs below
            // it belongs to its parent's joint.
            if let (Some(_), Some(p)) = (inherited_scale(node), parent) {
                if let Some(slot) = s.node_joint.get_mut(i) {
                    *slot = p;
                }
                continue;
            }
            let inherit = parent_of(i)
                .and_then(|p| scene.nodes.get(p))
                .and_then(inherited_scale);
            let x = extras::read::<JointExtras>(node.extras.as_ref());
            let flags = x.as_ref().map(|x| JointFlags::from_bits_retain(x.flags));
            let recorded = x.and_then(|x| x.srt);
            let (parts, as_recorded) = local_srt(node, recorded, inherit);
            let unit = |v: [f32; 3]| v.iter().all(|x| (x - 1.0).abs() <= 1e-4);
            if !as_recorded && unit(parts.1) && recorded.is_some_and(|[_, sc, _]| !unit(sc)) {
                s.scale_dropped.push(i);
            }
            let classical = match flags {
                Some(f) if as_recorded => f.contains(JointFlags::CLASSICAL_SCALE),
                _ => {
                    children.get(i).is_some_and(|c| !c.is_empty())
                        && scales_unevenly(scene, i, parts.1)
                }
            };
            let j = s.push(parent, parts, flags, classical);
            if let Some(slot) = s.node_joint.get_mut(i) {
                *slot = j;
            }
            if let (Some(w), Some(b)) = (s.world.get(j), s.bind.get_mut(j)) {
                *b = bind_pose(w, &node.inverse_bind);
            }
            if let Some(slot) = s.gltf_bind.get_mut(j) {
                *slot = Some(node.inverse_bind);
            }
        }
        s.node_joints_end = s.parent.len();
        s
    }

    /// Appends a joint; returns its index.
    pub fn push(
        &mut self,
        parent: Option<usize>,
        srt_parts: ([f32; 3], [f32; 3], [f32; 3]),
        recorded: Option<JointFlags>,
        classical: bool,
    ) -> usize {
        let (r, sc, t) = srt_parts;
        let parent_scl = parent.and_then(|p| self.scl.get(p).copied().flatten());
        let local = crate::pose::local(r, sc, t, parent_scl);
        let (world, bind) = match parent.and_then(|p| Some((self.world.get(p)?, self.bind.get(p)?)))
        {
            Some((pw, pb)) => (mul(pw, &local), mul(pb, &local)),
            None => (local, local),
        };
        self.parent.push(parent);
        self.srt.push(srt_parts);
        self.world.push(world);
        self.scl
            .push(crate::pose::passed_on(sc, parent_scl, classical));
        self.classical.push(classical);
        self.bind.push(bind);
        self.gltf_bind.push(None);
        self.recorded.push(recorded);
        self.deformer.push(false);
        self.parent.len() - 1
    }

    /// World matrices of the pose a scene's skinned positions are at, which the import
    /// stores them against: the rest pose, where glTF skins them
    /// ([`gx::scene::Scene::from_glb`]), even where a joint's inverse bind matrix is no
    /// inverse of it (an exporter that binds in another pose: Blender's edit bones drop a
    /// bone's scale, its pose keeps it); the bind pose where the rest matrix is singular (a
    /// hidden bone, whose vertices only its bind pose holds apart).
    pub fn drawn(&self) -> Vec<Mtx34> {
        self.world
            .iter()
            .zip(&self.bind)
            .map(|(w, b)| if inverse(w).is_some() { *w } else { *b })
            .collect()
    }

    /// The top-level joints (roots of the trees), in order.
    pub fn tops(&self) -> Vec<usize> {
        (0..self.parent.len())
            .filter(|&j| self.parent.get(j).copied().flatten().is_none())
            .collect()
    }

    /// The top-level joint above joint `j` (itself when top-level).
    pub fn top_of(&self, j: usize) -> usize {
        let mut at = j;
        for _ in 0..self.parent.len() {
            match self.parent.get(at).copied().flatten() {
                Some(p) => at = p,
                None => break,
            }
        }
        at
    }

    /// The inverse bind matrix joint `j` stores: its glTF inverse bind matrix where that inverts
    /// its bind-pose world matrix (within 1e-3) — our export's copy of the file's, bit for
    /// bit — else the inverse of the bind-pose world matrix (`None` when singular).
    pub fn inverse_bind(&self, j: usize) -> Option<Mtx34> {
        let bind = self.bind.get(j)?;
        match self.gltf_bind.get(j).copied().flatten() {
            Some(m) if inverts(&m, bind) => Some(m),
            _ => inverse(bind),
        }
    }

    /// The joint of scene node `i` (joint 0 for an index past the nodes).
    pub fn of_node(&self, i: usize) -> usize {
        self.node_joint.get(i).copied().unwrap_or(0)
    }

    /// Flags: recorded bits other than the ones derived here kept; SKELETON for deformers;
    /// ENVELOPE_MODEL for owners of envelope meshes; OPA for mesh owners; ROOT_OPA where a
    /// strict descendant (or a top-level joint itself) is OPA; SKELETON_ROOT on the root of a
    /// tree with deformers; CLASSICAL_SCALE as [`Skeleton::classical`]. The translucent passes' bits (XLU, TEXEDGE and their ROOT_ bits)
    /// are never set for Colosseum/XD (seed 003: its translucent pass draws nothing), and kept
    /// as recorded for Melee, whose XLU pass is the only one that draws a joint's translucent
    /// materials (TyBSword's beam).
    fn flags(&self, owners: &[Option<bool>], order: Order) -> Vec<JointFlags> {
        let translucent =
            JointFlags::XLU | JointFlags::TEXEDGE | JointFlags::ROOT_XLU | JointFlags::ROOT_TEXEDGE;
        let mut derived = JointFlags::SKELETON
            | JointFlags::SKELETON_ROOT
            | JointFlags::ENVELOPE_MODEL
            | JointFlags::OPA
            | JointFlags::ROOT_OPA
            | JointFlags::CLASSICAL_SCALE
            | JointFlags::USE_QUATERNION
            | JointFlags::PTCL
            | JointFlags::SPLINE
            | JointFlags::INSTANCE;
        if order == Order::ColosseumXd {
            derived |= translucent;
        }
        let n = self.parent.len();
        let mut f: Vec<JointFlags> = (0..n)
            .map(|j| {
                let recorded = self.recorded.get(j).copied().flatten();
                let mut x = recorded.map_or(JointFlags::empty(), |r| r - derived);
                if self.deformer.get(j).copied().unwrap_or(false) {
                    x |= JointFlags::SKELETON;
                }
                if self.classical.get(j).copied().unwrap_or(false) {
                    x |= JointFlags::CLASSICAL_SCALE;
                }
                if let Some(envelope) = owners.get(j).copied().flatten() {
                    x |= JointFlags::OPA;
                    if recorded.is_none() {
                        x |= JointFlags::LIGHTING;
                    }
                    if envelope {
                        x |= JointFlags::ENVELOPE_MODEL;
                    }
                }
                x
            })
            .collect();
        // Children come after their parents: walk backwards to push OPA up.
        let mut below = vec![false; n];
        for j in (0..n).rev() {
            let up = f.get(j).is_some_and(|x| x.contains(JointFlags::OPA))
                || below.get(j).copied().unwrap_or(false);
            if let Some(p) = self.parent.get(j).copied().flatten()
                && let Some(b) = below.get_mut(p)
            {
                *b |= up;
            }
        }
        // SKELETON_ROOT on the top of each tree with deformers.
        let mut skinned = vec![false; n];
        for j in (0..n).filter(|&j| self.deformer.get(j).copied().unwrap_or(false)) {
            if let Some(t) = skinned.get_mut(self.top_of(j)) {
                *t = true;
            }
        }
        for (j, x) in f.iter_mut().enumerate() {
            let top = self.parent.get(j).copied().flatten().is_none();
            if below.get(j).copied().unwrap_or(false) || (top && x.contains(JointFlags::OPA)) {
                *x |= JointFlags::ROOT_OPA;
            }
            if top && skinned.get(j).copied().unwrap_or(false) {
                *x |= JointFlags::SKELETON_ROOT;
            }
        }
        f
    }
}
