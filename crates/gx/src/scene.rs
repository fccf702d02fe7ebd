//! A format-neutral model scene and its writers: glTF 2.0 binary (`.glb`) and Wavefront OBJ with a
//! `.mtl` material library. J3D and sysdolphin exporters each build a [`Scene`] (meshes in the rest
//! pose, the joint hierarchy, skin weights, materials, decoded images) and share everything after
//! that, so both formats export the same way.
//!
//! With feature `import`, `Scene::from_glb` reads glTF back into a scene (keyframed animations
//! as [`Clip`]s, which [`Scene::clip_locals`] resamples), the start of model import.
//!
//! Conventions: positions and normals are in model space (the rest pose the formats' skinning
//! gives); texture coordinates keep GX's top-left origin, which is glTF's too (OBJ flips V);
//! every node is a joint, and a skinned scene has one skin over all of them whose inverse bind
//! matrices are each joint's [`Node::inverse_bind`].
//!
//! ```
//! use gx::scene::{Mesh, Node, Scene};
//!
//! let mut scene = Scene::new("example");
//! scene.nodes.push(Node::new("root", None, gx::mtx::IDENTITY));
//! let mut mesh = Mesh::new("triangle");
//! mesh.positions = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
//! mesh.triangles = vec![[0, 1, 2]];
//! mesh.skin = vec![gx::scene::skin_weights(&[(0, 1.0)]); 3];
//! scene.meshes.push(mesh);
//! let glb = scene.to_glb().unwrap();
//! assert_eq!(&glb[..4], b"glTF");
//! assert!(scene.to_obj(Some("example.mtl")).contains("mtllib example.mtl"));
//! ```

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use gcio::{Error, ErrorKind, Result};
use serde_json::{Value, json};

use crate::mtx::{IDENTITY, Mtx34, inverse};
use crate::tex::Image;

mod clip;
#[cfg(feature = "import")]
mod read;

#[cfg(feature = "import")]
pub use read::{edited_glb, embed_external, glb_chunks};

pub use clip::{Channel, Clip, Interpolation, NO_NODE, Target, compose};

/// A joint: its local transform relative to its parent and its inverse bind matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Name (joint name, or one made from an index or offset).
    pub name: String,
    /// Index of the parent in [`Scene::nodes`]; `None` for a root.
    pub parent: Option<usize>,
    /// Local matrix (written as translation, rotation and scale).
    pub local: Mtx34,
    /// Model space → joint space in the rest pose: what skinned vertices are multiplied by before
    /// the joint's world matrix.
    pub inverse_bind: Mtx34,
    /// Application data, written as the glTF node's `extras`.
    pub extras: Option<Value>,
}

impl Node {
    /// A node whose inverse bind matrix is the identity (set it with [`Scene::bind_to_rest_pose`]
    /// or directly).
    pub fn new(name: impl Into<String>, parent: Option<usize>, local: Mtx34) -> Node {
        Node {
            name: name.into(),
            parent,
            local,
            inverse_bind: IDENTITY,
            extras: None,
        }
    }
}

/// A mesh's [`Mesh::layout`]: comparable and hashable, to group meshes that can be joined.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MeshLayout {
    attributes: [bool; 5],
    uvs: Vec<bool>,
    colors: Vec<bool>,
    material: Option<usize>,
}

/// One mesh: a triangle list whose per-vertex attribute lists are empty when absent, else as
/// long as `positions`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Name.
    pub name: String,
    /// Positions in model space.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals in model space.
    pub normals: Vec<[f32; 3]>,
    /// Tangents, written as `TANGENT` (with normals): a unit direction in model space and the
    /// handedness `w` (±1) such that `cross(normal, tangent) · w` points along the binormal.
    pub tangents: Vec<[f32; 4]>,
    /// A format's own binormals where they are not `cross(normal, tangent) · w` (GX NBT
    /// normals are quantised, and sized as the bump strength), written as the
    /// application-specific `_BINORMAL`: empty or as long as `positions`.
    pub binormals: Vec<[f32; 3]>,
    /// A format's own tangents where they are not unit length (GX NBT tangents carry the bump
    /// strength as their length), written as `_TANGENT` beside the unit `TANGENT`: empty or as
    /// long as `positions`.
    pub stored_tangents: Vec<[f32; 3]>,
    /// Texture coordinate sets (origin top-left), written as `TEXCOORD_n`: up to 8, each empty
    /// or as long as `positions`.
    pub uvs: Vec<Vec<[f32; 2]>>,
    /// Vertex colour sets, RGBA8, written as `COLOR_n`: up to 2, each empty or as long as
    /// `positions`.
    pub colors: Vec<Vec<[u8; 4]>>,
    /// Up to four (node index, weight) pairs per vertex, weights summing to 1 (see
    /// [`skin_weights`]).
    pub skin: Vec<[(u16, f32); 4]>,
    /// Triangles as indices into the vertex lists.
    pub triangles: Vec<[u32; 3]>,
    /// Index into [`Scene::materials`].
    pub material: Option<usize>,
    /// The node of [`Scene::nodes`] that instances the mesh in the file it was read from
    /// (informative: the writer places every mesh in model space).
    pub node: Option<usize>,
    /// Application data, written as the glTF mesh's `extras`.
    pub extras: Option<Value>,
}

impl Mesh {
    /// An empty mesh.
    pub fn new(name: impl Into<String>) -> Mesh {
        Mesh {
            name: name.into(),
            ..Mesh::default()
        }
    }

    /// What the mesh holds besides values: which attributes (normals, tangents, stored
    /// tangents and binormals, each coordinate and colour set, a skin) and its material.
    /// Meshes of one layout [`Mesh::append`] to each other keeping every vertex's values.
    pub fn layout(&self) -> MeshLayout {
        let some = |n: usize| n > 0;
        MeshLayout {
            attributes: [
                some(self.normals.len()),
                some(self.tangents.len()),
                some(self.stored_tangents.len()),
                some(self.binormals.len()),
                some(self.skin.len()),
            ],
            uvs: self.uvs.iter().map(|u| some(u.len())).collect(),
            colors: self.colors.iter().map(|c| some(c.len())).collect(),
            material: self.material,
        }
    }

    /// Appends `other`'s vertices and triangles (its indices moved past this mesh's vertices);
    /// both should have one [`Mesh::layout`]. Name, node and extras stay this mesh's.
    pub fn append(&mut self, other: &Mesh) {
        let base = u32::try_from(self.positions.len()).unwrap_or(u32::MAX);
        self.positions.extend_from_slice(&other.positions);
        self.normals.extend_from_slice(&other.normals);
        self.tangents.extend_from_slice(&other.tangents);
        self.stored_tangents
            .extend_from_slice(&other.stored_tangents);
        self.binormals.extend_from_slice(&other.binormals);
        for (a, b) in self.uvs.iter_mut().zip(&other.uvs) {
            a.extend_from_slice(b);
        }
        for (a, b) in self.colors.iter_mut().zip(&other.colors) {
            a.extend_from_slice(b);
        }
        self.skin.extend_from_slice(&other.skin);
        self.triangles.extend(
            other
                .triangles
                .iter()
                .map(|t| t.map(|i| i.saturating_add(base))),
        );
    }

    /// The mesh as parts of consecutive triangles, each with at most `max_vertices` vertices
    /// (at least 3) and `max_triangles` triangles (at least 1), for formats whose indices or
    /// command lists are bounded (GX's 16-bit array indices, a display list's length): each
    /// part keeps the vertices its triangles use, in the mesh's vertex order, and everything
    /// else (name, material, node, extras). A mesh within both bounds is returned whole,
    /// borrowed. An index past the vertex lists stays past the part's (the largest are
    /// renumbered last).
    pub fn split(&self, max_vertices: usize, max_triangles: usize) -> Vec<Cow<'_, Mesh>> {
        let (max, most) = (max_vertices.max(3), max_triangles.max(1));
        if self.positions.len() <= max && self.triangles.len() <= most {
            return vec![Cow::Borrowed(self)];
        }
        let mut parts = Vec::new();
        let mut used = std::collections::BTreeSet::new();
        let mut start = 0;
        for (k, t) in self.triangles.iter().enumerate() {
            let fresh = t.iter().filter(|i| !used.contains(*i)).count();
            if used.len() + fresh > max || k - start == most {
                let part = self.part(self.triangles.get(start..k).unwrap_or_default(), &used);
                parts.push(Cow::Owned(part));
                used.clear();
                start = k;
            }
            used.extend(t.iter().copied());
        }
        let part = self.part(self.triangles.get(start..).unwrap_or_default(), &used);
        parts.push(Cow::Owned(part));
        parts
    }

    /// `triangles` over the vertices `used` (ascending), renumbered.
    fn part(&self, triangles: &[[u32; 3]], used: &std::collections::BTreeSet<u32>) -> Mesh {
        fn take<T: Copy>(v: &[T], keep: &[usize]) -> Vec<T> {
            if v.is_empty() {
                return Vec::new();
            }
            keep.iter().filter_map(|&i| v.get(i).copied()).collect()
        }
        let keep: Vec<usize> = used.iter().map(|&i| i as usize).collect();
        Mesh {
            name: self.name.clone(),
            positions: take(&self.positions, &keep),
            normals: take(&self.normals, &keep),
            tangents: take(&self.tangents, &keep),
            binormals: take(&self.binormals, &keep),
            stored_tangents: take(&self.stored_tangents, &keep),
            uvs: self.uvs.iter().map(|set| take(set, &keep)).collect(),
            colors: self.colors.iter().map(|set| take(set, &keep)).collect(),
            skin: take(&self.skin, &keep),
            triangles: triangles
                .iter()
                .map(|t| t.map(|i| keep.partition_point(|&k| k < i as usize) as u32))
                .collect(),
            material: self.material,
            node: self.node,
            extras: self.extras.clone(),
        }
    }
}

/// How a material's alpha is used (glTF `alphaMode`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum AlphaMode {
    /// Alpha ignored: fully opaque.
    #[default]
    Opaque,
    /// Alpha tested: drawn where alpha ≥ the cutoff, discarded elsewhere.
    Mask(f32),
    /// Alpha blended over what is behind.
    Blend,
}

/// How a texture coordinate outside 0–1 samples (a glTF sampler's `wrapS`/`wrapT`; GX's
/// `GX_CLAMP`, `GX_REPEAT`, `GX_MIRROR`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Wrap {
    /// Tiled (glTF `REPEAT`).
    #[default]
    Repeat,
    /// The edge texel continues (glTF `CLAMP_TO_EDGE`).
    Clamp,
    /// Tiled, every other tile mirrored (glTF `MIRRORED_REPEAT`).
    Mirror,
}

impl Wrap {
    /// The glTF sampler code.
    pub fn gltf(self) -> u32 {
        match self {
            Wrap::Repeat => 10497,
            Wrap::Clamp => 33071,
            Wrap::Mirror => 33648,
        }
    }

    /// The GX wrap mode (`GX_CLAMP` 0, `GX_REPEAT` 1, `GX_MIRROR` 2), as TObjs and BTI
    /// headers store it.
    pub fn gx(self) -> u8 {
        match self {
            Wrap::Clamp => 0,
            Wrap::Repeat => 1,
            Wrap::Mirror => 2,
        }
    }

    /// The mode of a stored GX wrap value (any value but clamp and mirror repeats, GX's
    /// default).
    pub fn from_gx(w: u32) -> Wrap {
        match w {
            0 => Wrap::Clamp,
            2 => Wrap::Mirror,
            _ => Wrap::Repeat,
        }
    }

    /// The mode of a glTF sampler code (`None` for an unknown code).
    pub fn from_gltf(code: u64) -> Option<Wrap> {
        match code {
            10497 => Some(Wrap::Repeat),
            33071 => Some(Wrap::Clamp),
            33648 => Some(Wrap::Mirror),
            _ => None,
        }
    }
}

/// A material: a base colour and optionally a texture.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// Name.
    pub name: String,
    /// Base colour (linear RGBA factors, multiplied with the texture).
    pub color: [f32; 4],
    /// Index into [`Scene::images`].
    pub texture: Option<usize>,
    /// The texture coordinate set ([`Mesh::uvs`] index) the texture is mapped with.
    pub texcoord: usize,
    /// How the texture wraps along S and T (its glTF sampler).
    pub wrap: [Wrap; 2],
    /// Drawn without back-face culling.
    pub double_sided: bool,
    /// How alpha is used.
    pub alpha_mode: AlphaMode,
    /// Drawn without lighting (`KHR_materials_unlit`): GX materials whose colour channels do not
    /// light.
    pub unlit: bool,
    /// Application data, written as the glTF material's `extras`.
    pub extras: Option<Value>,
}

impl Material {
    /// A white, opaque, lit, single-sided material mapped with the first texture coordinate set.
    pub fn new(name: impl Into<String>, texture: Option<usize>) -> Material {
        Material {
            name: name.into(),
            color: [1.0; 4],
            texture,
            texcoord: 0,
            wrap: [Wrap::Repeat; 2],
            double_sided: false,
            alpha_mode: AlphaMode::Opaque,
            unlit: false,
            extras: None,
        }
    }
}

/// A perspective camera (glTF `cameras`) on a node of its own, which it looks down the −Z axis
/// of, +Y up.
#[derive(Debug, Clone, PartialEq)]
pub struct Camera {
    /// Name.
    pub name: String,
    /// The camera node's world matrix.
    pub matrix: Mtx34,
    /// Vertical field of view, radians.
    pub yfov: f32,
    /// Width over height (`None`: the viewport's).
    pub aspect: Option<f32>,
    /// Near plane distance.
    pub znear: f32,
    /// Far plane distance (`None`: infinite).
    pub zfar: Option<f32>,
    /// Application data, written as the glTF camera's `extras`.
    pub extras: Option<Value>,
}

/// What a [`Light`] is (`KHR_lights_punctual`'s types).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LightKind {
    /// Parallel light down its node's −Z.
    Directional,
    /// Light from its node's origin in every direction.
    Point,
    /// A cone down its node's −Z: full within `inner`, none past `outer` (radians from the axis).
    Spot {
        /// Inner cone angle.
        inner: f32,
        /// Outer cone angle.
        outer: f32,
    },
}

/// A punctual light (`KHR_lights_punctual`) on a node of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct Light {
    /// Name.
    pub name: String,
    /// The light node's world matrix.
    pub matrix: Mtx34,
    /// Type.
    pub kind: LightKind,
    /// Linear RGB colour.
    pub color: [f32; 3],
    /// Brightness (lux for directional lights, candela for the others).
    pub intensity: f32,
    /// Distance where it ends (`None`: none).
    pub range: Option<f32>,
    /// Application data, written as the glTF light's `extras`.
    pub extras: Option<Value>,
}

/// A node's sampled motion: its local matrix at each of the animation's times.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// Index into [`Scene::nodes`].
    pub node: usize,
    /// Local matrix per time (as long as [`Animation::times`]); written as translation, rotation
    /// and scale channels.
    pub local: Vec<Mtx34>,
}

/// A material or mesh property an animation drives beside node transforms, written as a
/// `KHR_animation_pointer` channel (the texture transform through `KHR_texture_transform` on the
/// material's base-colour texture, visibility through `KHR_node_visibility` on the mesh's node).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Property {
    /// Base colour factor of material `n` (linear RGBA, 4 values per sample).
    BaseColor(usize),
    /// Base-colour texture offset of material `n` (u, v).
    TextureOffset(usize),
    /// Base-colour texture rotation of material `n` (radians, 1 value).
    TextureRotation(usize),
    /// Base-colour texture scale of material `n` (u, v).
    TextureScale(usize),
    /// Visibility of mesh `n` (1 value: 0 hidden, else shown; stepped, not interpolated).
    Visible(usize),
}

impl Property {
    /// Values per sample.
    pub fn width(self) -> usize {
        match self {
            Property::BaseColor(_) => 4,
            Property::TextureOffset(_) | Property::TextureScale(_) => 2,
            Property::TextureRotation(_) | Property::Visible(_) => 1,
        }
    }
}

/// A property's samples: [`Property::width`] values per time of the animation.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyTrack {
    /// What is animated.
    pub property: Property,
    /// The samples, flat.
    pub values: Vec<f32>,
}

/// An animation sampled at common times: node transforms written as glTF channels with linear
/// interpolation (rotations as unit quaternions, which glTF interpolates spherically), material
/// and mesh properties as `KHR_animation_pointer` channels, and what maps onto neither as
/// `extras`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Animation {
    /// Name.
    pub name: String,
    /// Sample times in seconds, strictly increasing.
    pub times: Vec<f32>,
    /// Animated nodes.
    pub tracks: Vec<Track>,
    /// Animated material and mesh properties.
    pub properties: Vec<PropertyTrack>,
    /// Anything else, written as the animation's `extras` (or, for an animation without any
    /// channel, an entry of the document's `extras.animations`).
    pub extras: Option<Value>,
}

/// A model ready to be written: joints, meshes, materials and distinct images.
#[derive(Debug, Clone, Default)]
pub struct Scene {
    /// Written as glTF `asset.generator` and the OBJ's first comment.
    pub generator: String,
    /// Joints; parents may come before or after their children.
    pub nodes: Vec<Node>,
    /// Meshes (those without triangles are left out of the output).
    pub meshes: Vec<Mesh>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Animations of the nodes, sampled (what exporters build and the writer writes).
    pub animations: Vec<Animation>,
    /// Keyframed animations as a glTF file has them (what `Scene::from_glb` reads; the writer
    /// does not write them).
    pub clips: Vec<Clip>,
    /// Application data, written as the glTF document's `extras` (an object gets the
    /// `animations` entry of animations without channels merged in).
    pub extras: Option<Value>,
    /// Cameras, each on a node of its own at the scene's top level.
    pub cameras: Vec<Camera>,
    /// Lights (`KHR_lights_punctual`), each on a node of its own at the scene's top level.
    pub lights: Vec<Light>,
    images: Vec<Image>,
    by_content: HashMap<u64, Vec<usize>>,
}

/// A vertex's skin from any number of (node, weight) pairs, the way glTF wants it: pairs of the
/// same node merged, negative weights dropped, the four largest kept and renormalised to sum to 1
/// (a vertex without weight goes to its first node, or node 0). Unused slots have weight 0.
pub fn skin_weights(pairs: &[(u16, f32)]) -> [(u16, f32); 4] {
    let mut merged: Vec<(u16, f32)> = Vec::with_capacity(pairs.len());
    for &(j, w) in pairs {
        let w = if w.is_finite() { w.max(0.0) } else { 0.0 };
        match merged.iter_mut().find(|p| p.0 == j) {
            Some(p) => p.1 += w,
            None => merged.push((j, w)),
        }
    }
    merged.sort_by(|a, b| b.1.total_cmp(&a.1));
    merged.truncate(4);
    let sum: f32 = merged.iter().map(|p| p.1).sum();
    let mut out = [(0, 0.0); 4];
    for (o, (j, w)) in out.iter_mut().zip(&merged) {
        *o = (*j, if sum > 0.0 { w / sum } else { 0.0 });
    }
    if sum <= 0.0 {
        out[0] = (pairs.first().map_or(0, |p| p.0), 1.0);
    }
    out
}

impl Scene {
    /// An empty scene.
    pub fn new(generator: impl Into<String>) -> Scene {
        Scene {
            generator: generator.into(),
            ..Scene::default()
        }
    }

    /// Adds an image unless the same pixels are already there; returns its index either way, so
    /// textures shared under several names or descriptors are written once.
    pub fn add_image(&mut self, img: Image) -> usize {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (img.width(), img.height(), img.as_rgba8()).hash(&mut h);
        let bucket = self.by_content.entry(h.finish()).or_default();
        if let Some(&i) = bucket.iter().find(|&&i| self.images.get(i) == Some(&img)) {
            return i;
        }
        bucket.push(self.images.len());
        self.images.push(img);
        self.images.len() - 1
    }

    /// Adds `img` as an image of its own, whatever the others hold: for a file that stores the
    /// same pixels twice (HAL's compiler keeps a source's duplicate textures), so that a
    /// round trip stores them twice again. Returns its index.
    pub fn push_image(&mut self, img: Image) -> usize {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (img.width(), img.height(), img.as_rgba8()).hash(&mut h);
        self.by_content
            .entry(h.finish())
            .or_default()
            .push(self.images.len());
        self.images.push(img);
        self.images.len() - 1
    }

    /// The images, in the order they were added.
    pub fn images(&self) -> &[Image] {
        &self.images
    }

    /// World matrices of the nodes (a node whose parent chain loops or dangles is placed by the
    /// part of the chain that resolves).
    pub fn world_matrices(&self) -> Vec<Mtx34> {
        let mut world: Vec<Option<Mtx34>> = vec![None; self.nodes.len()];
        for i in 0..self.nodes.len() {
            let mut chain = vec![i];
            let mut at = self.nodes.get(i).and_then(|n| n.parent);
            while let Some(p) = at {
                if chain.len() > self.nodes.len() || world.get(p).is_none_or(Option::is_some) {
                    break;
                }
                chain.push(p);
                at = self.nodes.get(p).and_then(|n| n.parent);
            }
            for &n in chain.iter().rev() {
                let node = match self.nodes.get(n) {
                    Some(node) => node,
                    None => continue,
                };
                let parent = node
                    .parent
                    .and_then(|p| world.get(p).copied().flatten())
                    .unwrap_or(IDENTITY);
                if let Some(w) = world.get_mut(n) {
                    *w = Some(crate::mtx::mul(&parent, &node.local));
                }
            }
        }
        world.into_iter().map(|w| w.unwrap_or(IDENTITY)).collect()
    }

    /// Sets every node's inverse bind matrix to the inverse of its rest-pose world matrix, for
    /// meshes whose positions are given in the rest pose (identity where singular).
    pub fn bind_to_rest_pose(&mut self) {
        let world = self.world_matrices();
        for (n, w) in self.nodes.iter_mut().zip(world) {
            n.inverse_bind = inverse(&w).unwrap_or(IDENTITY);
        }
    }

    fn skinned(&self) -> bool {
        !self.nodes.is_empty() && self.meshes.iter().any(|m| !m.skin.is_empty())
    }

    fn drawn(&self) -> impl Iterator<Item = &Mesh> {
        self.meshes
            .iter()
            .filter(|m| !m.triangles.is_empty() && !m.positions.is_empty())
    }

    /// The scene as a glTF 2.0 binary: one glTF mesh per drawn mesh (one primitive with
    /// POSITION, NORMAL, every TEXCOORD_n and COLOR_n set, JOINTS_0/WEIGHTS_0 as present) on a
    /// node of its own marked `extras: {"gx": "mesh"}`, nodes for the joints (translation,
    /// rotation, scale; several roots under one added node marked `extras: {"gx": "skeleton"}`),
    /// one skin over all joints, materials (alpha mode, `KHR_materials_unlit`, texture
    /// coordinate set), PNG images embedded in the binary chunk, one texture per image, cameras
    /// and `KHR_lights_punctual` lights on top-level nodes of their own, and `extras` where the
    /// scene has them.
    pub fn to_glb(&self) -> Result<Vec<u8>> {
        let mut bin = Bin::default();
        let skinned = self.skinned();
        let joints = self.nodes.len();
        let drawn: Vec<&Mesh> = self.drawn().collect();
        let mut materials: Vec<Material> = self.materials.clone();
        // A textured material on a mesh without its texture coordinate set (a GX texgen from
        // normals or positions) is drawn untextured: glTF needs TEXCOORD_n for a texture.
        let mut untextured: HashMap<usize, usize> = HashMap::new();
        let mut meshes = Vec::new();
        for m in &drawn {
            let mut material = m.material.filter(|&i| i < materials.len());
            if let Some(i) = material
                && let Some(x) = materials.get(i)
                && x.texture.is_some()
                && m.uvs
                    .get(x.texcoord)
                    .is_none_or(|s| s.len() != m.positions.len())
            {
                material = Some(*untextured.entry(i).or_insert_with(|| {
                    let mut plain = materials
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| Material::new("", None));
                    plain.name.push_str(" (untextured)");
                    plain.texture = None;
                    materials.push(plain);
                    materials.len() - 1
                }));
            }
            meshes.push(mesh_json(m, material, &mut bin, skinned, joints)?);
        }
        let mut nodes: Vec<Value> = self.nodes.iter().map(node_json).collect();
        for (i, n) in self.nodes.iter().enumerate() {
            if let Some(p) = n.parent.filter(|&p| p < joints && p != i)
                && let Some(o) = nodes.get_mut(p).and_then(Value::as_object_mut)
            {
                let kids = o.entry("children").or_insert_with(|| json!([]));
                if let Some(k) = kids.as_array_mut() {
                    k.push(json!(i));
                }
            }
        }
        // One common root for the skeleton (glTF requires the joints of a skin to share one).
        let mut roots: Vec<usize> = (0..joints)
            .filter(|&i| {
                self.nodes
                    .get(i)
                    .and_then(|n| n.parent)
                    .is_none_or(|p| p >= joints || p == i)
            })
            .collect();
        if roots.len() > 1 {
            nodes.push(json!({"name": "skeleton", "children": roots, "extras": {"gx": SKELETON}}));
            roots = vec![nodes.len() - 1];
        }
        let mut doc = json!({"asset": {"version": "2.0", "generator": self.generator}});
        if skinned {
            let ibm: Vec<f32> = self
                .nodes
                .iter()
                .flat_map(|n| column_major(&n.inverse_bind))
                .collect();
            let a = bin.floats(&ibm, "MAT4", 16, false, None)?;
            set(
                &mut doc,
                "skins",
                json!([{"joints": (0..joints).collect::<Vec<_>>(), "inverseBindMatrices": a}]),
            );
        }
        let used = self.animated();
        let mut targets = Targets::default();
        for (i, m) in drawn.iter().enumerate() {
            let mut n = json!({"name": m.name, "mesh": i, "extras": {"gx": MESH_NODE}});
            if skinned {
                set(&mut n, "skin", json!(0));
            }
            let scene_index = self.meshes.iter().position(|x| std::ptr::eq(x, *m));
            if let Some(k) = scene_index.filter(|k| used.contains(&Property::Visible(*k))) {
                set(
                    &mut n,
                    "extensions",
                    json!({"KHR_node_visibility": {"visible": true}}),
                );
                targets.mesh_node.insert(k, nodes.len());
            }
            nodes.push(n);
            roots.push(nodes.len() - 1);
        }
        let placed = |name: &str, matrix: &Mtx34| node_json(&Node::new(name, None, *matrix));
        for (k, c) in self.cameras.iter().enumerate() {
            let mut n = placed(&c.name, &c.matrix);
            set(&mut n, "camera", json!(k));
            nodes.push(n);
            roots.push(nodes.len() - 1);
        }
        for (k, l) in self.lights.iter().enumerate() {
            let mut n = placed(&l.name, &l.matrix);
            set(
                &mut n,
                "extensions",
                json!({"KHR_lights_punctual": {"light": k}}),
            );
            nodes.push(n);
            roots.push(nodes.len() - 1);
        }
        if !self.cameras.is_empty() {
            let cameras: Vec<Value> = self.cameras.iter().map(camera_json).collect();
            set(&mut doc, "cameras", json!(cameras));
        }
        if !self.lights.is_empty() {
            let lights: Vec<Value> = self.lights.iter().map(light_json).collect();
            set(
                &mut doc,
                "extensions",
                json!({"KHR_lights_punctual": {"lights": lights}}),
            );
        }
        // One texture per image, sampled as the first material using it wraps; another for an
        // image a material wraps otherwise.
        let mut textures: Vec<(usize, Option<[Wrap; 2]>)> =
            (0..self.images.len()).map(|i| (i, None)).collect();
        let texture_of: Vec<Option<usize>> =
            materials
                .iter()
                .map(|m| {
                    let t = m.texture.filter(|&t| t < self.images.len())?;
                    let w = Some(m.wrap);
                    match textures.get_mut(t) {
                        Some(first) if first.1.is_none() || first.1 == w => {
                            first.1 = w;
                            Some(t)
                        }
                        _ => Some(textures.iter().position(|&x| x == (t, w)).unwrap_or_else(
                            || {
                                textures.push((t, w));
                                textures.len() - 1
                            },
                        )),
                    }
                })
                .collect();
        let mut unlit = false;
        let materials: Vec<Value> = materials.iter().enumerate().map(|(i, m)| {
            let mut pbr =
                json!({"baseColorFactor": m.color, "metallicFactor": 0.0, "roughnessFactor": 1.0});
            targets.materials += 1;
            if let Some(t) = texture_of.get(i).copied().flatten() {
                let mut info = json!({"index": t});
                if m.texcoord != 0 {
                    set(&mut info, "texCoord", json!(m.texcoord));
                }
                if [Property::TextureOffset(i), Property::TextureRotation(i), Property::TextureScale(i)]
                    .iter()
                    .any(|p| used.contains(p))
                {
                    set(&mut info, "extensions", json!({"KHR_texture_transform": {}}));
                    targets.transformed.push(i);
                }
                set(&mut pbr, "baseColorTexture", info);
            }
            let mut mat = json!({"name": m.name, "pbrMetallicRoughness": pbr});
            if m.double_sided {
                set(&mut mat, "doubleSided", json!(true));
            }
            match m.alpha_mode {
                AlphaMode::Opaque => {}
                AlphaMode::Mask(cutoff) => {
                    set(&mut mat, "alphaMode", json!("MASK"));
                    set(&mut mat, "alphaCutoff", json!(if cutoff.is_finite() { cutoff.max(0.0) } else { 0.5 }));
                }
                AlphaMode::Blend => set(&mut mat, "alphaMode", json!("BLEND")),
            }
            if m.unlit {
                set(&mut mat, "extensions", json!({"KHR_materials_unlit": {}}));
                unlit = true;
            }
            if let Some(x) = &m.extras {
                set(&mut mat, "extras", x.clone());
            }
            mat
        }).collect();
        let mut images = Vec::new();
        for img in &self.images {
            let view = bin.view(&crate::png::encode(img)?, None)?;
            images.push(json!({"bufferView": view, "mimeType": "image/png"}));
        }
        let mut animations = Vec::new();
        let mut unwritten = Vec::new();
        let mut pointers = false;
        for a in &self.animations {
            match animation_json(a, joints, &targets, &mut bin)? {
                Some((v, p)) => {
                    animations.push(v);
                    pointers |= p;
                }
                None => {
                    if let Some(x) = &a.extras {
                        unwritten.push(json!({"name": a.name, "extras": x}));
                    }
                }
            }
        }
        if let Some(x) = document_extras(self.extras.as_ref(), unwritten) {
            set(&mut doc, "extras", x);
        }
        let mut extensions = Vec::new();
        if unlit {
            extensions.push("KHR_materials_unlit");
        }
        if pointers {
            extensions.push("KHR_animation_pointer");
        }
        if !targets.transformed.is_empty() {
            extensions.push("KHR_texture_transform");
        }
        if !targets.mesh_node.is_empty() {
            extensions.push("KHR_node_visibility");
        }
        if !self.lights.is_empty() {
            extensions.push("KHR_lights_punctual");
        }
        if !extensions.is_empty() {
            set(&mut doc, "extensionsUsed", json!(extensions));
        }
        bin.pad();
        if !roots.is_empty() {
            set(&mut doc, "scene", json!(0));
            set(&mut doc, "scenes", json!([{"nodes": roots}]));
        }
        for (key, list) in [
            ("nodes", nodes),
            ("meshes", meshes),
            ("materials", materials),
            ("animations", animations),
        ] {
            if !list.is_empty() {
                set(&mut doc, key, json!(list));
            }
        }
        if !images.is_empty() {
            // Sampler 0 repeats (glTF's default, no keys); the other modes follow.
            let mut wraps = vec![[Wrap::Repeat; 2]];
            let textures: Vec<Value> = textures
                .iter()
                .map(|&(image, w)| {
                    let w = w.unwrap_or_default();
                    let k = wraps.iter().position(|&x| x == w).unwrap_or_else(|| {
                        wraps.push(w);
                        wraps.len() - 1
                    });
                    json!({"sampler": k, "source": image})
                })
                .collect();
            let samplers: Vec<Value> = wraps
                .iter()
                .map(|[s, t]| match (s, t) {
                    (Wrap::Repeat, Wrap::Repeat) => json!({}),
                    _ => json!({"wrapS": s.gltf(), "wrapT": t.gltf()}),
                })
                .collect();
            set(&mut doc, "images", json!(images));
            set(&mut doc, "textures", json!(textures));
            set(&mut doc, "samplers", json!(samplers));
        }
        if !bin.accessors.is_empty() {
            set(&mut doc, "accessors", json!(bin.accessors));
        }
        if !bin.data.is_empty() {
            set(&mut doc, "bufferViews", json!(bin.views));
            set(&mut doc, "buffers", json!([{"byteLength": bin.data.len()}]));
        }
        glb(&doc, &bin.data)
    }

    /// The scene as OBJ text: one group per drawn mesh with positions, normals, texture
    /// coordinates (V flipped: OBJ's origin is bottom-left) and, when `mtllib` names the material
    /// library written by [`Scene::to_mtl`], `mtllib` and `usemtl` lines.
    pub fn to_obj(&self, mtllib: Option<&str>) -> String {
        let mut s = String::new();
        let tris: usize = self.drawn().map(|m| m.triangles.len()).sum();
        let _ = writeln!(
            s,
            "# {}: {} meshes, {} triangles",
            self.generator,
            self.drawn().count(),
            tris
        );
        if let Some(lib) = mtllib {
            let _ = writeln!(s, "mtllib {lib}");
        }
        let names = self.material_names();
        let mut base = 1usize;
        for m in self.drawn() {
            let _ = writeln!(s, "g {}", obj_name(&m.name));
            for p in &m.positions {
                let _ = writeln!(s, "v {} {} {}", p[0], p[1], p[2]);
            }
            let uvs = m.uvs.first().filter(|s| s.len() == m.positions.len());
            let (has_n, has_t) = (m.normals.len() == m.positions.len(), uvs.is_some());
            for n in m.normals.iter().filter(|_| has_n) {
                let _ = writeln!(s, "vn {} {} {}", n[0], n[1], n[2]);
            }
            for t in uvs.into_iter().flatten() {
                let _ = writeln!(s, "vt {} {}", t[0], 1.0 - t[1]);
            }
            if mtllib.is_some()
                && let Some(name) = m.material.and_then(|i| names.get(i))
            {
                let _ = writeln!(s, "usemtl {name}");
            }
            for t in &m.triangles {
                s.push('f');
                for &i in t {
                    let i = base + i as usize;
                    let _ = match (has_t, has_n) {
                        (true, true) => write!(s, " {i}/{i}/{i}"),
                        (true, false) => write!(s, " {i}/{i}"),
                        (false, true) => write!(s, " {i}//{i}"),
                        (false, false) => write!(s, " {i}"),
                    };
                }
                s.push('\n');
            }
            base += m.positions.len();
        }
        s
    }

    /// The material library for [`Scene::to_obj`]: diffuse colour, opacity and, for a textured
    /// material, `map_Kd` naming the file `image_file(index)` that holds [`Scene::images`]`[index]`.
    pub fn to_mtl(&self, image_file: impl Fn(usize) -> String) -> String {
        let mut s = format!("# {}\n", self.generator);
        for (m, name) in self.materials.iter().zip(self.material_names()) {
            let [r, g, b, a] = m.color;
            let _ = writeln!(s, "\nnewmtl {name}\nKd {r} {g} {b}\nd {a}");
            if let Some(t) = m.texture.filter(|&t| t < self.images.len()) {
                let _ = writeln!(s, "map_Kd {}", image_file(t));
            }
        }
        s
    }

    /// Material names made unique and free of spaces (OBJ/MTL names end at white space).
    fn material_names(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        self.materials
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mut n = obj_name(&m.name);
                if !seen.insert(n.clone()) {
                    n = format!("{n}_{i}");
                    seen.insert(n.clone());
                }
                n
            })
            .collect()
    }
}

/// A name without white space (OBJ names end at the first space).
fn obj_name(name: &str) -> String {
    let n: String = name
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    if n.is_empty() { "unnamed".into() } else { n }
}

fn set(v: &mut Value, key: &str, x: Value) {
    if let Some(o) = v.as_object_mut() {
        o.insert(key.to_owned(), x);
    }
}

fn too_large() -> Error {
    Error::without_offset(ErrorKind::Overflow("glTF binary chunk over 4 GiB"))
}

/// Column-major 4×4 of a 3×4 row-major affine matrix.
fn column_major(m: &Mtx34) -> [f32; 16] {
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

/// Translation, rotation (unit quaternion x, y, z, w) and scale of an affine matrix; a shear it
/// may hold is dropped (glTF nodes that joints animate must be TRS).
pub fn decompose(m: &Mtx34) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let t = m.map(|r| r[3]);
    let (s, [x, y, z]) = crate::mtx::split_scale(m);
    // Rotation matrix R = [x y z] (columns) to a quaternion (Shepperd's method).
    let (m00, m11, m22) = (x[0], y[1], z[2]);
    let trace = m00 + m11 + m22;
    let q = if trace > 0.0 {
        let k = (trace + 1.0).sqrt() * 2.0;
        [
            (y[2] - z[1]) / k,
            (z[0] - x[2]) / k,
            (x[1] - y[0]) / k,
            k / 4.0,
        ]
    } else if m00 > m11 && m00 > m22 {
        let k = (1.0 + m00 - m11 - m22).max(0.0).sqrt() * 2.0;
        [
            k / 4.0,
            (y[0] + x[1]) / k,
            (z[0] + x[2]) / k,
            (y[2] - z[1]) / k,
        ]
    } else if m11 > m22 {
        let k = (1.0 + m11 - m00 - m22).max(0.0).sqrt() * 2.0;
        [
            (y[0] + x[1]) / k,
            k / 4.0,
            (z[1] + y[2]) / k,
            (z[0] - x[2]) / k,
        ]
    } else {
        let k = (1.0 + m22 - m00 - m11).max(0.0).sqrt() * 2.0;
        [
            (z[0] + x[2]) / k,
            (z[1] + y[2]) / k,
            k / 4.0,
            (x[1] - y[0]) / k,
        ]
    };
    let n = q.iter().map(|v| v * v).sum::<f32>().sqrt();
    let q = if n.is_finite() && n > 1e-12 {
        q.map(|v| v / n)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    };
    (t, q, s)
}

/// The document's `extras`: the scene's, with the animations written without channels as its
/// `animations` entry (appended to an array already there; a scene value that is no object is
/// kept under `value`).
fn document_extras(scene: Option<&Value>, unwritten: Vec<Value>) -> Option<Value> {
    if unwritten.is_empty() {
        return scene.cloned();
    }
    let mut x = match scene {
        Some(Value::Object(o)) => Value::Object(o.clone()),
        Some(v) => json!({"value": v}),
        None => json!({}),
    };
    if let Some(o) = x.as_object_mut() {
        match o.get_mut("animations").and_then(Value::as_array_mut) {
            Some(a) => a.extend(unwritten),
            None => {
                o.insert("animations".into(), json!(unwritten));
            }
        }
    }
    Some(x)
}

/// `extras.gx` of the node the writer adds as the common root of several root joints: a reader
/// drops it and makes its children roots.
pub(crate) const SKELETON: &str = "skeleton";

/// `extras.gx` of the nodes the writer adds to instance the meshes (in model space, at the
/// origin): a reader drops them.
pub(crate) const MESH_NODE: &str = "mesh";

/// A glTF perspective camera.
fn camera_json(c: &Camera) -> Value {
    let mut p = json!({"yfov": c.yfov, "znear": c.znear});
    if let Some(a) = c.aspect {
        set(&mut p, "aspectRatio", json!(a));
    }
    if let Some(f) = c.zfar {
        set(&mut p, "zfar", json!(f));
    }
    let mut o = json!({"name": c.name, "type": "perspective", "perspective": p});
    if let Some(x) = &c.extras {
        set(&mut o, "extras", x.clone());
    }
    o
}

/// A `KHR_lights_punctual` light.
fn light_json(l: &Light) -> Value {
    let kind = match l.kind {
        LightKind::Directional => "directional",
        LightKind::Point => "point",
        LightKind::Spot { .. } => "spot",
    };
    let mut o = json!({"name": l.name, "type": kind, "color": l.color, "intensity": l.intensity});
    if let LightKind::Spot { inner, outer } = l.kind {
        set(
            &mut o,
            "spot",
            json!({"innerConeAngle": inner, "outerConeAngle": outer}),
        );
    }
    if let Some(r) = l.range.filter(|_| l.kind != LightKind::Directional) {
        set(&mut o, "range", json!(r));
    }
    if let Some(x) = &l.extras {
        set(&mut o, "extras", x.clone());
    }
    o
}

fn node_json(n: &Node) -> Value {
    let (t, r, s) = decompose(&n.local);
    let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
    let mut o = json!({"name": n.name});
    if let Some(x) = &n.extras {
        set(&mut o, "extras", x.clone());
    }
    if finite(&t) && t != [0.0; 3] {
        set(&mut o, "translation", json!(t));
    }
    if finite(&r) && r != [0.0, 0.0, 0.0, 1.0] {
        set(&mut o, "rotation", json!(r));
    }
    if finite(&s) && s != [1.0; 3] {
        set(&mut o, "scale", json!(s));
    }
    o
}

/// Where property channels may point: materials written, the textured ones carrying
/// `KHR_texture_transform`, and the node of each mesh whose visibility is animated.
#[derive(Default)]
struct Targets {
    materials: usize,
    transformed: Vec<usize>,
    mesh_node: HashMap<usize, usize>,
}

impl Targets {
    /// The JSON pointer of `p`, when its target was written.
    fn pointer(&self, p: Property) -> Option<String> {
        let tt = "pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform";
        let tex = |m: usize, what: &str| {
            self.transformed
                .contains(&m)
                .then(|| format!("/materials/{m}/{tt}/{what}"))
        };
        match p {
            Property::BaseColor(m) => (m < self.materials)
                .then(|| format!("/materials/{m}/pbrMetallicRoughness/baseColorFactor")),
            Property::TextureOffset(m) => tex(m, "offset"),
            Property::TextureRotation(m) => tex(m, "rotation"),
            Property::TextureScale(m) => tex(m, "scale"),
            Property::Visible(k) => self
                .mesh_node
                .get(&k)
                .map(|n| format!("/nodes/{n}/extensions/KHR_node_visibility/visible")),
        }
    }
}

impl Scene {
    /// Every property some animation drives.
    fn animated(&self) -> Vec<Property> {
        self.animations
            .iter()
            .flat_map(|a| a.properties.iter().map(|p| p.property))
            .collect()
    }
}

/// A glTF animation: one shared time accessor, three linear samplers and channels per track
/// (tracks of unknown nodes or with a sample count other than the times' are left out) and one
/// `KHR_animation_pointer` channel per property track whose target was written (visibility as
/// unsigned bytes, stepped), with whether any pointer channel was written; `None` when no
/// channel remains. Consecutive quaternions are kept in one hemisphere so that linear playback
/// takes the short way round.
fn animation_json(
    a: &Animation,
    joints: usize,
    targets: &Targets,
    bin: &mut Bin,
) -> Result<Option<(Value, bool)>> {
    let n = a.times.len();
    let increasing = a
        .times
        .iter()
        .zip(a.times.iter().skip(1))
        .all(|(x, y)| x < y);
    let tracks: Vec<&Track> = a
        .tracks
        .iter()
        .filter(|t| t.node < joints && t.local.len() == n)
        .collect();
    let properties: Vec<(&PropertyTrack, String)> = a
        .properties
        .iter()
        .filter(|p| p.values.len() == n * p.property.width())
        .filter_map(|p| Some((p, targets.pointer(p.property)?)))
        .collect();
    if n == 0
        || !increasing
        || !a.times.iter().all(|t| t.is_finite())
        || (tracks.is_empty() && properties.is_empty())
    {
        return Ok(None);
    }
    let input = bin.floats(&a.times, "SCALAR", 1, true, None)?;
    let (mut samplers, mut channels) = (Vec::new(), Vec::new());
    for t in tracks {
        let (mut tr, mut rot, mut sc) = (
            Vec::with_capacity(3 * n),
            Vec::with_capacity(4 * n),
            Vec::with_capacity(3 * n),
        );
        let mut last = [0.0, 0.0, 0.0, 1.0];
        for m in &t.local {
            let (t, mut q, s) = decompose(m);
            if q.iter().zip(&last).map(|(a, b)| a * b).sum::<f32>() < 0.0 {
                q = q.map(|v| -v);
            }
            last = q;
            tr.extend(t);
            rot.extend(q);
            sc.extend(s);
        }
        for (path, values, ty, k) in [
            ("translation", tr, "VEC3", 3),
            ("rotation", rot, "VEC4", 4),
            ("scale", sc, "VEC3", 3),
        ] {
            let output = bin.floats(&values, ty, k, false, None)?;
            channels
                .push(json!({"sampler": samplers.len(), "target": {"node": t.node, "path": path}}));
            samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
        }
    }
    let pointers = !properties.is_empty();
    for (p, pointer) in properties {
        let (output, interpolation) = if let Property::Visible(_) = p.property {
            let bytes: Vec<u8> = p.values.iter().map(|&v| u8::from(v != 0.0)).collect();
            let view = bin.view(&bytes, None)?;
            let acc = bin.accessor(
                json!({"bufferView": view, "componentType": 5121, "count": n, "type": "SCALAR"}),
            );
            (acc, "STEP")
        } else {
            let ty = ["SCALAR", "VEC2", "VEC3", "VEC4"]
                .get(p.property.width() - 1)
                .copied()
                .unwrap_or("SCALAR");
            (
                bin.floats(&p.values, ty, p.property.width(), false, None)?,
                "LINEAR",
            )
        };
        let target = json!({"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": pointer}}});
        channels.push(json!({"sampler": samplers.len(), "target": target}));
        samplers.push(json!({"input": input, "output": output, "interpolation": interpolation}));
    }
    let mut out = json!({"name": a.name, "samplers": samplers, "channels": channels});
    if let Some(x) = &a.extras {
        set(&mut out, "extras", x.clone());
    }
    Ok(Some((out, pointers)))
}

fn mesh_json(
    m: &Mesh,
    material: Option<usize>,
    bin: &mut Bin,
    skinned: bool,
    joints: usize,
) -> Result<Value> {
    let n = m.positions.len();
    let flat = |v: &[[f32; 3]]| v.iter().flatten().copied().collect::<Vec<f32>>();
    let mut attrs =
        json!({"POSITION": bin.floats(&flat(&m.positions), "VEC3", 3, true, Some(ARRAY))?});
    if m.normals.len() == n {
        let a = bin.floats(&flat(&m.normals), "VEC3", 3, false, Some(ARRAY))?;
        set(&mut attrs, "NORMAL", json!(a));
        if m.tangents.len() == n {
            let t: Vec<f32> = m.tangents.iter().flatten().copied().collect();
            let a = bin.floats(&t, "VEC4", 4, false, Some(ARRAY))?;
            set(&mut attrs, "TANGENT", json!(a));
        }
    }
    for (key, v) in [
        ("_BINORMAL", &m.binormals),
        ("_TANGENT", &m.stored_tangents),
    ] {
        if v.len() == n {
            let a = bin.floats(&flat(v), "VEC3", 3, false, Some(ARRAY))?;
            set(&mut attrs, key, json!(a));
        }
    }
    // glTF numbers sets without gaps: a missing set before a present one is written as zeros.
    let sets = |len: Vec<usize>| len.iter().rposition(|&l| l == n).map_or(0, |k| k + 1);
    for k in 0..sets(m.uvs.iter().map(Vec::len).collect()) {
        let uv: Vec<f32> = match m.uvs.get(k).filter(|s| s.len() == n) {
            Some(s) => s.iter().flatten().copied().collect(),
            None => vec![0.0; 2 * n],
        };
        let a = bin.floats(&uv, "VEC2", 2, false, Some(ARRAY))?;
        set(&mut attrs, &format!("TEXCOORD_{k}"), json!(a));
    }
    for k in 0..sets(m.colors.iter().map(Vec::len).collect()) {
        let bytes: Vec<u8> = match m.colors.get(k).filter(|s| s.len() == n) {
            Some(s) => s.iter().flatten().copied().collect(),
            None => vec![0; 4 * n],
        };
        let view = bin.view(&bytes, Some(ARRAY))?;
        let a = bin.accessor(json!({"bufferView": view, "componentType": 5121, "normalized": true, "count": n, "type": "VEC4"}));
        set(&mut attrs, &format!("COLOR_{k}"), json!(a));
    }
    if skinned {
        let max = u16::try_from(joints.saturating_sub(1)).unwrap_or(u16::MAX);
        let fallback = [(0u16, 1.0f32), (0, 0.0), (0, 0.0), (0, 0.0)];
        let skin = (0..n).map(|i| m.skin.get(i).unwrap_or(&fallback));
        let mut js = Vec::with_capacity(n * 8);
        let mut ws = Vec::with_capacity(n * 4);
        for s in skin {
            for &(j, w) in s {
                let j = if j > max { 0 } else { j };
                js.extend_from_slice(&j.to_le_bytes());
                ws.push(w);
            }
        }
        let view = bin.view(&js, Some(ARRAY))?;
        let j = bin.accessor(
            json!({"bufferView": view, "componentType": 5123, "count": n, "type": "VEC4"}),
        );
        set(&mut attrs, "JOINTS_0", json!(j));
        let w = bin.floats(&ws, "VEC4", 4, false, Some(ARRAY))?;
        set(&mut attrs, "WEIGHTS_0", json!(w));
    }
    let idx: Vec<u8> = m
        .triangles
        .iter()
        .flatten()
        .map(|&i| if (i as usize) < n { i } else { 0 })
        .flat_map(u32::to_le_bytes)
        .collect();
    let view = bin.view(&idx, Some(ELEMENT_ARRAY))?;
    let indices = bin.accessor(json!({"bufferView": view, "componentType": 5125, "count": m.triangles.len() * 3, "type": "SCALAR"}));
    let mut prim = json!({"attributes": attrs, "indices": indices, "mode": 4});
    if let Some(mat) = material {
        set(&mut prim, "material", json!(mat));
    }
    let mut mesh = json!({"name": m.name, "primitives": [prim]});
    if let Some(x) = &m.extras {
        set(&mut mesh, "extras", x.clone());
    }
    Ok(mesh)
}

/// bufferView targets.
const ARRAY: u32 = 34962;
const ELEMENT_ARRAY: u32 = 34963;

/// The binary chunk under construction: 4-aligned buffer views and their accessors.
#[derive(Default)]
struct Bin {
    data: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    fn pad(&mut self) {
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
    }

    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> Result<usize> {
        self.pad();
        if self.data.len().saturating_add(bytes.len()) > u32::MAX as usize {
            return Err(too_large());
        }
        let mut v = json!({"buffer": 0, "byteOffset": self.data.len(), "byteLength": bytes.len()});
        if let Some(t) = target {
            set(&mut v, "target", json!(t));
        }
        self.data.extend_from_slice(bytes);
        self.views.push(v);
        Ok(self.views.len() - 1)
    }

    fn accessor(&mut self, a: Value) -> usize {
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    /// `v` as `n`-component float elements; `bounds` adds min/max (required for POSITION).
    fn floats(
        &mut self,
        v: &[f32],
        ty: &str,
        n: usize,
        bounds: bool,
        target: Option<u32>,
    ) -> Result<usize> {
        // Non-finite values are invalid glTF; they become 0.
        let clean = |x: f32| if x.is_finite() { x } else { 0.0 };
        let bytes: Vec<u8> = v.iter().flat_map(|x| clean(*x).to_le_bytes()).collect();
        let view = self.view(&bytes, target)?;
        let mut a = json!({"bufferView": view, "componentType": 5126, "count": v.len() / n.max(1), "type": ty});
        if bounds {
            let (mut lo, mut hi) = (vec![f32::MAX; n], vec![f32::MIN; n]);
            for c in v.chunks_exact(n.max(1)) {
                for ((l, h), x) in lo.iter_mut().zip(hi.iter_mut()).zip(c) {
                    *l = l.min(clean(*x));
                    *h = h.max(clean(*x));
                }
            }
            set(&mut a, "min", json!(lo));
            set(&mut a, "max", json!(hi));
        }
        Ok(self.accessor(a))
    }
}

/// The GLB container of `doc` and `bin`.
fn glb(doc: &Value, bin: &[u8]) -> Result<Vec<u8>> {
    let js = serde_json::to_vec(doc)
        .map_err(|e| Error::without_offset(ErrorKind::Invalid(format!("glTF JSON: {e}"))))?;
    glb_container(&js, bin)
}

/// A GLB container: the header, `json` as its JSON chunk (space-padded to 4 bytes) and, when
/// not empty, `bin` as its BIN chunk (zero-padded); the inverse of `glb_chunks`. Fails only
/// past 4 GiB.
pub fn glb_container(json: &[u8], bin: &[u8]) -> Result<Vec<u8>> {
    let mut js = json.to_vec();
    while !js.len().is_multiple_of(4) {
        js.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let has_bin = !bin.is_empty();
    let total = 12 + 8 + js.len() + if has_bin { 8 + bin.len() } else { 0 };
    let u = |n: usize| u32::try_from(n).map_err(|_| too_large());
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&u(total)?.to_le_bytes());
    out.extend_from_slice(&u(js.len())?.to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&js);
    if has_bin {
        out.extend_from_slice(&u(bin.len())?.to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::mtx::{mul, srt};

    #[test]
    fn weights_merge_sort_and_normalise() {
        let w = skin_weights(&[(3, 0.2), (1, 0.1), (3, 0.2), (2, 0.5), (4, 0.05), (5, 0.05)]);
        assert_eq!(w.map(|p| p.0), [2, 3, 1, 4]);
        assert!((w.iter().map(|p| p.1).sum::<f32>() - 1.0).abs() < 1e-6);
        assert_eq!(
            skin_weights(&[(7, 0.0)]),
            [(7, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)]
        );
        assert_eq!(skin_weights(&[]), [(0, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)]);
        assert_eq!(skin_weights(&[(1, -1.0), (2, 2.0)])[0], (2, 1.0));
    }

    #[test]
    fn decompose_recovers_srt() {
        for (r, s, t) in [
            ([0.3, -1.2, 2.0], [2.0, 0.5, 1.5], [1.0, -2.0, 3.0]),
            ([3.1, 0.0, 0.0], [1.0; 3], [0.0; 3]),
            ([0.0, 3.1, 0.0], [1.0, -1.0, 1.0], [0.0; 3]),
            ([0.0, 0.0, -3.1], [1.0; 3], [5.0; 3]),
        ] {
            let m = srt(r, s, t);
            let (tt, q, ss) = decompose(&m);
            // Rebuild from the quaternion and compare.
            let back = crate::mtx::from_trs(tt, q, ss);
            for (a, b) in m.iter().flatten().zip(back.iter().flatten()) {
                assert!((a - b).abs() < 1e-4, "{m:?} vs {back:?}");
            }
        }
    }

    fn two_joint_scene() -> Scene {
        let mut s = Scene::new("test");
        s.nodes.push(Node::new(
            "a",
            None,
            srt([0.0, 0.5, 0.0], [1.0; 3], [1.0, 0.0, 0.0]),
        ));
        s.nodes.push(Node::new(
            "b",
            Some(0),
            srt([0.0; 3], [1.0; 3], [0.0, 2.0, 0.0]),
        ));
        s.nodes.push(Node::new("c", None, IDENTITY));
        s.bind_to_rest_pose();
        let img = Image::test_pattern(8, 8, false).unwrap();
        let t = s.add_image(img.clone());
        assert_eq!(s.add_image(img), t);
        s.add_image(Image::test_pattern(4, 4, true).unwrap());
        s.materials.push(Material::new("with texture", Some(t)));
        s.materials.push(Material::new("with texture", None));
        for (i, mat) in [Some(0), Some(1), None].into_iter().enumerate() {
            let mut m = Mesh::new(format!("m{i}"));
            m.positions = vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
            m.normals = vec![[0.0, 0.0, 1.0]; 3];
            m.uvs = vec![vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]];
            m.colors = vec![vec![[255, 0, 0, 255]; 3]];
            m.skin = vec![skin_weights(&[(1, 0.5), (0, 0.5)]); 3];
            m.triangles = vec![[0, 1, 2]];
            m.material = mat;
            s.meshes.push(m);
        }
        let mut no_uv = s.meshes[0].clone();
        no_uv.name = "no uv".into();
        no_uv.uvs.clear();
        s.meshes.push(no_uv);
        s.meshes.push(Mesh::new("empty"));
        s
    }

    #[test]
    fn glb_reads_back() {
        let s = two_joint_scene();
        let glb = s.to_glb().unwrap();
        let g = gltf::Gltf::from_slice(&glb).unwrap();
        assert_eq!(g.meshes().count(), 4);
        assert_eq!(g.images().count(), 2);
        assert_eq!(g.textures().count(), 2);
        // The textured material on the mesh without UVs gets an untextured twin.
        assert_eq!(g.materials().count(), 3);
        let twin = g
            .meshes()
            .nth(3)
            .unwrap()
            .primitives()
            .next()
            .unwrap()
            .material();
        assert_eq!(twin.index(), Some(2));
        assert!(twin.pbr_metallic_roughness().base_color_texture().is_none());
        let skin = g.skins().next().unwrap();
        assert_eq!(skin.joints().count(), 3);
        // Two root joints get one common parent.
        assert_eq!(g.nodes().count(), 3 + 1 + 4);
        let b = g.nodes().nth(1).unwrap();
        let (t, _, _) = b.transform().decomposed();
        assert!((t[1] - 2.0).abs() < 1e-6);
        let p = g.meshes().next().unwrap().primitives().next().unwrap();
        for sem in [
            gltf::Semantic::Positions,
            gltf::Semantic::Normals,
            gltf::Semantic::TexCoords(0),
            gltf::Semantic::Colors(0),
            gltf::Semantic::Joints(0),
            gltf::Semantic::Weights(0),
        ] {
            assert!(p.get(&sem).is_some(), "{sem:?}");
        }
        let w = s.world_matrices();
        assert_eq!(w[1], mul(&w[0], &s.nodes[1].local));
        // An empty scene is just the asset.
        let empty = gltf::Gltf::from_slice(&Scene::new("x").to_glb().unwrap()).unwrap();
        assert_eq!(empty.scenes().count(), 0);
    }

    #[test]
    fn obj_and_mtl() {
        let s = two_joint_scene();
        let obj = s.to_obj(Some("x.mtl"));
        assert!(obj.contains("mtllib x.mtl\n"));
        assert!(obj.contains("usemtl with_texture\n"));
        assert!(obj.contains("usemtl with_texture_1\n"));
        assert!(obj.contains("f 4/4/4 5/5/5 6/6/6\n"));
        assert!(obj.contains("vt 0 0\n"), "V flipped");
        assert!(!obj.contains("g empty"));
        let mtl = s.to_mtl(|i| format!("x_{i}.png"));
        assert!(mtl.contains("newmtl with_texture\nKd 1 1 1\nd 1\nmap_Kd x_0.png\n"));
        assert!(mtl.contains("newmtl with_texture_1\n"));
        assert_eq!(mtl.matches("map_Kd").count(), 1);
        assert!(!s.to_obj(None).contains("usemtl"));
    }
}
