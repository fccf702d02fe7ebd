//! Reading glTF 2.0 into a [`Scene`], the way model importers want it: meshes in model space at
//! rest with their skin weights, the joint hierarchy, materials, decoded images and keyframed
//! clips ([`Scene::from_glb`] says what is read and what is dropped).

use gcio::{Error, ErrorKind, Limits, Result};
use serde_json::Value;

use super::clip::{Channel, Clip, Interpolation, NO_NODE, Target, compose};
use super::{
    AlphaMode, Camera, Light, LightKind, MESH_NODE, Material, Mesh, Node, SKELETON, Scene, Wrap,
    skin_weights,
};
use crate::mtx::{IDENTITY, Mtx34, apply, inverse, mul};

/// Extensions a file may require: what they add is read, or is safe to leave out.
const UNDERSTOOD: [&str; 7] = [
    "KHR_materials_unlit",
    "KHR_materials_pbrSpecularGlossiness",
    "KHR_lights_punctual",
    "KHR_texture_transform",
    "KHR_animation_pointer",
    "KHR_node_visibility",
    "KHR_mesh_quantization",
];

/// Texture coordinate and colour sets read per primitive.
const UV_SETS: usize = 8;
const COLOR_SETS: usize = 2;

impl Scene {
    /// Reads a `.glb` or a self-contained `.gltf` into a scene for model import.
    ///
    /// Read: `.glb`, and `.gltf` JSON whose buffers and images are embedded `data:` URIs; the
    /// default scene's nodes (TRS or matrix); triangle, strip and fan primitives (strips and fans
    /// become triangle lists keeping their winding); every `TEXCOORD_n` (up to 8) and `COLOR_n` (up
    /// to 2) set, floats or normalised integers; `JOINTS_0/1` with `WEIGHTS_0/1`, skinned at rest
    /// (through a joint whose rest matrix is singular, a hidden bone, at its bind pose instead:
    /// the inverse of its inverse bind matrix, where its vertices are still apart);
    /// sparse accessors; PNG and JPEG images (by their signature); metallic-roughness base
    /// colour (else `KHR_materials_pbrSpecularGlossiness`' diffuse colour), alpha mode, `KHR_materials_unlit`, `doubleSided`, the base-colour texture's static
    /// `KHR_texture_transform` (applied to the coordinates it reads, unless a clip animates it);
    /// translation, rotation, scale and
    /// `KHR_animation_pointer` channels; perspective cameras and `KHR_lights_punctual` lights
    /// on childless nodes without mesh (those nodes are no scene nodes: each camera and light
    /// keeps its node's world matrix); `extras` of the document, nodes, meshes, materials,
    /// cameras, lights and animations.
    ///
    /// Dropped, each with a note ([`Scene::read_glb`]): point and line primitives, morph targets
    /// (added to the positions, normals and tangents at the node's or mesh's default `weights`
    /// first) and their `weights` channels, a vertex's weights past its 4 heaviest, channels of nodes outside the default scene, sets past the
    /// limits above, textures without a PNG source other than the core one. Dropped silently:
    /// orthographic cameras, cameras and lights on nodes with children or a mesh, PBR
    /// properties and textures other than the base colour, static visibility,
    /// the skin's `skeleton`. The nodes a writer adds for glTF's sake
    /// are not scene nodes: one marked `extras: {"gx": "skeleton"}` (its children become roots),
    /// and a childless node that instances a skinned mesh (glTF ignores its transform) or is marked
    /// `extras: {"gx": "mesh"}`. Refused with an error: external files, images neither PNG nor
    /// JPEG, a required extension other than `KHR_materials_unlit`,
    /// `KHR_materials_pbrSpecularGlossiness`, `KHR_texture_transform`,
    /// `KHR_animation_pointer`, `KHR_node_visibility` and `KHR_mesh_quantization` (Draco, meshopt,
    /// Basis), malformed or out-of-range references, and anything past [`gcio::Limits::default`]
    /// (elements per accessor, nodes, bytes read in total).
    pub fn from_glb(data: &[u8]) -> Result<Scene> {
        Scene::read_glb(data).map(|(scene, _)| scene)
    }

    /// [`Scene::from_glb`], with a note for each thing dropped (which primitive, channel or
    /// texture, and why), for an importer to show.
    pub fn read_glb(data: &[u8]) -> Result<(Scene, Vec<String>)> {
        let (json, bin) = glb_chunks(data)?;
        let root: Value =
            serde_json::from_slice(json).map_err(|e| invalid(format!("JSON: {e}")))?;
        for x in list(&root, "extensionsRequired")? {
            let x = x.as_str().unwrap_or_default();
            if !UNDERSTOOD.contains(&x) {
                return Err(invalid(format!(
                    "the file requires {x:?}, which is not read"
                )));
            }
        }
        let mut r = Reader {
            root: &root,
            buffers: Vec::new(),
            budget: Limits::default().max_alloc_bytes,
            notes: Vec::new(),
            transforms: Vec::new(),
        };
        r.buffers = r.load_buffers(bin)?;
        let scene = r.scene()?;
        Ok((scene, r.notes))
    }
}

/// A `.gltf` document whose buffers and images name external files (Blender's "glTF
/// Separate" export: `model.bin`, `texture.png`) made self-contained for [`Scene::from_glb`]:
/// each such `uri`, a relative reference, is percent-decoded and given to `resolve`, and the
/// bytes it returns replace it as a `data:` URI. A GLB, or a document without external files,
/// comes back unchanged; a `uri` with a scheme (`http:`, `file:`) or an absolute path is refused.
pub fn embed_external(
    data: &[u8],
    mut resolve: impl FnMut(&str) -> Result<Vec<u8>>,
) -> Result<Vec<u8>> {
    let (json, bin) = glb_chunks(data)?;
    if bin.is_some() || data.starts_with(b"glTF") {
        return Ok(data.to_vec());
    }
    let mut root: Value =
        serde_json::from_slice(json).map_err(|e| invalid(format!("JSON: {e}")))?;
    let mut changed = false;
    for key in ["buffers", "images"] {
        let Some(items) = root.get_mut(key).and_then(Value::as_array_mut) else {
            continue;
        };
        for (i, item) in items.iter_mut().enumerate() {
            let Some(uri) = item.get("uri").and_then(Value::as_str) else {
                continue;
            };
            if uri.starts_with("data:") {
                continue;
            }
            let what = format!("{key}[{i}]");
            let scheme = uri.split('/').next().is_some_and(|s| s.contains(':'));
            if scheme || uri.starts_with('/') || uri.starts_with('\\') {
                return Err(invalid(format!(
                    "{what} refers to {uri:?}: only relative file names are read"
                )));
            }
            let path = percent_decoded(uri)
                .ok_or_else(|| invalid(format!("{what}: bad percent-encoding in {uri:?}")))?;
            let bytes = resolve(&path).map_err(|e| e.context(format!("{what} ({path})")))?;
            let embedded = format!(
                "data:application/octet-stream;base64,{}",
                base64_encoded(&bytes)
            );
            if let Some(slot) = item.get_mut("uri") {
                *slot = Value::String(embedded);
                changed = true;
            }
        }
    }
    if !changed {
        return Ok(data.to_vec());
    }
    serde_json::to_vec(&root).map_err(|e| invalid(format!("JSON: {e}")))
}

/// A URI reference with its `%XX` escapes decoded (UTF-8); `None` on a bad escape.
fn percent_decoded(uri: &str) -> Option<String> {
    let mut out = Vec::with_capacity(uri.len());
    let mut bytes = uri.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex = [bytes.next()?, bytes.next()?];
            out.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
        } else {
            out.push(b);
        }
    }
    String::from_utf8(out).ok()
}

/// Standard base64 with padding.
fn base64_encoded(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
        for k in 0..4 {
            if k <= chunk.len() {
                let sextet = (n >> (18 - 6 * k)) & 0x3F;
                out.push(char::from(
                    ALPHABET.get(sextet as usize).copied().unwrap_or(b'A'),
                ));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn invalid(what: impl Into<String>) -> Error {
    Error::without_offset(ErrorKind::Invalid(format!("glTF: {}", what.into())))
}

/// The JSON and the BIN chunk of a GLB (the first of each), or the whole input as JSON (a
/// `.gltf`, its byte-order mark dropped): what [`Scene::from_glb`] reads, for a tool that edits
/// the JSON and writes the container back with [`super::glb_container`].
pub fn glb_chunks(data: &[u8]) -> Result<(&[u8], Option<&[u8]>)> {
    if !data.starts_with(b"glTF") {
        return Ok((data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data), None));
    }
    let word = |at: usize| {
        data.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
            .ok_or_else(|| Error::invalid(at as u64, "GLB truncated"))
    };
    if word(4)? != 2 {
        return Err(Error::invalid(4, "GLB version is not 2"));
    }
    let length = word(8)? as usize;
    let data = data.get(..length).ok_or_else(|| {
        Error::invalid(
            8,
            format!("GLB length {length} past the {} bytes given", data.len()),
        )
    })?;
    let (mut json, mut bin, mut at) = (None, None, 12usize);
    while at + 8 <= data.len() {
        let len = word(at)? as usize;
        let body = data
            .get(at + 8..)
            .and_then(|d| d.get(..len))
            .ok_or_else(|| {
                Error::invalid(at as u64, format!("GLB chunk of {len} bytes past the end"))
            })?;
        match data.get(at + 4..at + 8) {
            Some(b"JSON") if json.is_none() => json = Some(body),
            Some(b"BIN\0") if bin.is_none() => bin = Some(body),
            _ => {}
        }
        at += 8 + len;
    }
    Ok((
        json.ok_or_else(|| Error::invalid(12, "GLB without a JSON chunk"))?,
        bin,
    ))
}

/// A glb made from a fuzz input, for structure-aware fuzzing of an import (random bytes
/// almost never form a glb): byte 0 of `data` picks one of `templates` (glbs), and the rest
/// edits it — with byte 1 even, its JSON chunk through [`gcio::mutate_text`] (counts, indices,
/// offsets and extras turned huge, negative, fractional or malformed), else bytes of its BIN
/// chunk (3-byte groups: a position scaled to the chunk, a value) — positions, weights,
/// indices, pixels. `None` for an input under 2 bytes or a template that is no glb.
pub fn edited_glb(templates: &[Vec<u8>], data: &[u8]) -> Option<Vec<u8>> {
    let (&pick, &mode, edits) = (data.first()?, data.get(1)?, data.get(2..)?);
    let template = templates.get(usize::from(pick) % templates.len().max(1))?;
    let (json, bin) = glb_chunks(template).ok()?;
    let (json, mut bin) = (
        String::from_utf8_lossy(json),
        bin.unwrap_or_default().to_vec(),
    );
    let json = if mode.is_multiple_of(2) {
        gcio::mutate_text(&json, edits)
    } else {
        for e in edits.chunks_exact(3) {
            if let [hi, lo, value] = *e {
                let at = usize::from(u16::from_be_bytes([hi, lo])) * bin.len() / 0x1_0000;
                if let Some(b) = bin.get_mut(at) {
                    *b = value;
                }
            }
        }
        json.into_owned()
    };
    super::glb_container(json.as_bytes(), &bin).ok()
}

/// Decodes base64 (standard or URL-safe alphabet, padding optional); `None` on a foreign byte.
fn base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3 + 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// The bytes of a `data:` URI; an error naming `what` for any other URI.
fn data_uri(uri: &str, what: &str) -> Result<Vec<u8>> {
    let Some(rest) = uri.strip_prefix("data:") else {
        return Err(invalid(format!(
            "{what} refers to the external file {uri:?}: only .glb and .gltf with data: URIs are read"
        )));
    };
    let payload = rest
        .split_once(";base64,")
        .map(|(_, p)| p)
        .ok_or_else(|| invalid(format!("{what}: a data: URI that is not base64")))?;
    base64(payload).ok_or_else(|| invalid(format!("{what}: bad base64 in its data: URI")))
}

/// An accessor's elements as numbers (integers exact), with what is needed to convert them.
struct Accessor {
    width: usize,
    count: usize,
    component: u32,
    normalized: bool,
    values: Vec<f64>,
}

impl Accessor {
    /// The values as floats, normalised integers mapped to [0, 1] or [-1, 1].
    fn floats(&self) -> Vec<f32> {
        let scale = match (self.normalized, self.component) {
            (true, 5120) => 127.0,
            (true, 5121) => 255.0,
            (true, 5122) => 32767.0,
            (true, 5123) => 65535.0,
            _ => 1.0,
        };
        self.values
            .iter()
            .map(|&v| {
                if scale == 1.0 {
                    v as f32
                } else {
                    (v / scale).max(-1.0) as f32
                }
            })
            .collect()
    }

    /// The elements as RGBA8 colours (VEC3 gets alpha 255).
    fn colors(&self, what: &str) -> Result<Vec<[u8; 4]>> {
        let to8 = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
        let f = self.floats();
        let at = |c: &[f32], i: usize| c.get(i).copied().map_or(255, to8);
        match self.width {
            3 => Ok(f
                .chunks_exact(3)
                .map(|c| [at(c, 0), at(c, 1), at(c, 2), 255])
                .collect()),
            4 => Ok(f
                .chunks_exact(4)
                .map(|c| [at(c, 0), at(c, 1), at(c, 2), at(c, 3)])
                .collect()),
            w => Err(invalid(format!("{what} has {w} components"))),
        }
    }

    /// The elements as arrays of `N` floats (after [`Accessor::floats`]).
    fn vectors<const N: usize>(&self, what: &str) -> Result<Vec<[f32; N]>> {
        if self.width != N {
            return Err(invalid(format!(
                "{what} has {} components, not {N}",
                self.width
            )));
        }
        Ok(self
            .floats()
            .chunks_exact(N)
            .map(|c| std::array::from_fn(|i| c.get(i).copied().unwrap_or(0.0)))
            .collect())
    }
}

/// The document being read: its JSON, its buffers' bytes, what may still be allocated and the
/// notes on what was dropped.
struct Reader<'a> {
    root: &'a Value,
    buffers: Vec<Vec<u8>>,
    /// Bytes the reader may still allocate for what it reads.
    budget: u64,
    notes: Vec<String>,
    /// Per material: the static `KHR_texture_transform` of its base-colour texture, as the
    /// affine map `[[a, b, c], [d, e, f]]` of texture coordinates, when it is not identity.
    transforms: Vec<Option<[[f32; 3]; 2]>>,
}

/// The affine map of a `KHR_texture_transform` object (`uv' = T · R · S · uv`), `None` when it
/// is identity or absent.
fn texture_transform(tt: &Value, what: &str) -> Result<Option<[[f32; 3]; 2]>> {
    let offset = numbers::<2>(tt, "offset", what)?.unwrap_or([0.0; 2]);
    let scale = numbers::<2>(tt, "scale", what)?.unwrap_or([1.0; 2]);
    let rotation = number(tt, "rotation", 0.0, what)? as f32;
    if offset == [0.0; 2] && scale == [1.0; 2] && rotation == 0.0 {
        return Ok(None);
    }
    let (sin, cos) = rotation.sin_cos();
    Ok(Some([
        [cos * scale[0], sin * scale[1], offset[0]],
        [-sin * scale[0], cos * scale[1], offset[1]],
    ]))
}

/// A top-level array of the document (empty when absent).
fn list<'v>(v: &'v Value, key: &str) -> Result<&'v [Value]> {
    match v.get(key) {
        None => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(invalid(format!("{key} is not an array"))),
    }
}

/// Element `i` of the top-level array `key`.
fn item<'v>(root: &'v Value, key: &str, i: usize) -> Result<&'v Value> {
    list(root, key)?
        .get(i)
        .ok_or_else(|| invalid(format!("{key}[{i}] does not exist")))
}

/// An optional non-negative integer property.
fn index(v: &Value, key: &str, what: &str) -> Result<Option<usize>> {
    match v.get(key) {
        None => Ok(None),
        Some(x) => x
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| invalid(format!("{what}.{key} is not an index"))),
    }
}

/// An optional number property.
fn number(v: &Value, key: &str, default: f64, what: &str) -> Result<f64> {
    match v.get(key) {
        None => Ok(default),
        Some(x) => x
            .as_f64()
            .ok_or_else(|| invalid(format!("{what}.{key} is not a number"))),
    }
}

/// An optional array of numbers of length `N`.
fn numbers<const N: usize>(v: &Value, key: &str, what: &str) -> Result<Option<[f32; N]>> {
    let Some(x) = v.get(key) else { return Ok(None) };
    let a = x
        .as_array()
        .filter(|a| a.len() == N)
        .ok_or_else(|| invalid(format!("{what}.{key} is not {N} numbers")))?;
    let mut out = [0.0; N];
    for (o, x) in out.iter_mut().zip(a) {
        *o = x
            .as_f64()
            .ok_or_else(|| invalid(format!("{what}.{key} is not {N} numbers")))?
            as f32;
    }
    Ok(Some(out))
}

fn name(v: &Value, fallback: impl FnOnce() -> String) -> String {
    v.get("name")
        .and_then(Value::as_str)
        .map_or_else(fallback, str::to_owned)
}

/// `extras.gx` is `marker`.
fn marked(v: &Value, marker: &str) -> bool {
    v.get("extras")
        .and_then(|x| x.get("gx"))
        .and_then(Value::as_str)
        == Some(marker)
}

/// A column-major 4×4 as a 3×4 (the last row dropped).
fn from_column_major(m: &[f32; 16]) -> Mtx34 {
    std::array::from_fn(|r| std::array::from_fn(|c| m.get(c * 4 + r).copied().unwrap_or(0.0)))
}

/// The matrix normals go through: the inverse transpose of the linear part (the linear part
/// itself when singular).
fn normal_matrix(m: &Mtx34) -> Mtx34 {
    match inverse(m) {
        Some(inv) => std::array::from_fn(|r| {
            std::array::from_fn(|c| {
                if c == 3 {
                    0.0
                } else {
                    inv.get(c)
                        .and_then(|row| row.get(r))
                        .copied()
                        .unwrap_or(0.0)
                }
            })
        }),
        None => m.map(|[a, b, c, _]| [a, b, c, 0.0]),
    }
}

/// `m`'s linear part (directions carry no translation).
fn linear(m: &Mtx34) -> Mtx34 {
    m.map(|[a, b, c, _]| [a, b, c, 0.0])
}

/// Moves vertex `v`'s tangent and binormal through `m` (a linear part): `TANGENT`'s direction
/// renormalised (its `w` kept), `_TANGENT` and `_BINORMAL` as they come (their length is data).
fn directions(out: &mut Mesh, v: usize, m: &Mtx34) {
    if let Some(t) = out.tangents.get_mut(v) {
        let [x, y, z] = unit(apply(m, [t[0], t[1], t[2]]));
        let [.., w] = *t;
        *t = [x, y, z, w];
    }
    for d in [out.binormals.get_mut(v), out.stored_tangents.get_mut(v)]
        .into_iter()
        .flatten()
    {
        *d = apply(m, *d);
    }
}

fn unit(v: [f32; 3]) -> [f32; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if n > 1e-12 && n.is_finite() {
        v.map(|x| x / n)
    } else {
        v
    }
}

/// A glTF node as read, before the scene's nodes are chosen.
struct Raw<'a> {
    json: &'a Value,
    local: Mtx34,
    children: Vec<usize>,
    mesh: Option<usize>,
    skin: Option<usize>,
}

/// A skin: its joints (file node indices) and their inverse bind matrices.
struct Skin {
    joints: Vec<usize>,
    ibm: Vec<Mtx34>,
}

/// Node indices listed under `key` (each below `nodes`).
fn node_list(v: &Value, key: &str, nodes: usize, what: &str) -> Result<Vec<usize>> {
    list(v, key)?
        .iter()
        .map(|c| {
            c.as_u64()
                .and_then(|c| usize::try_from(c).ok())
                .filter(|&c| c < nodes)
                .ok_or_else(|| invalid(format!("{what}.{key}: {c} is no node")))
        })
        .collect()
}

/// The file's nodes and the default scene's tree over them: which nodes it reaches, from
/// which parent, their rest world matrices, and which become scene nodes under which index.
struct Tree<'a> {
    raw: Vec<Raw<'a>>,
    /// Rest world matrix of each node of the default scene.
    world: Vec<Option<Mtx34>>,
    /// Index in [`Scene::nodes`] of each node kept.
    new_index: Vec<Option<usize>>,
    /// Each node's nearest kept ancestor (scene index) and its local matrix relative to it.
    anchor: Vec<(Option<usize>, Mtx34)>,
}

impl<'a> Tree<'a> {
    fn new(root: &'a Value) -> Result<Tree<'a>> {
        let nodes = list(root, "nodes")?;
        if nodes.len() as u64 > Limits::default().max_nodes {
            return Err(invalid(format!("{} nodes past the limit", nodes.len())));
        }
        let mut raw = Vec::with_capacity(nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            let what = format!("nodes[{i}]");
            let local = match numbers::<16>(n, "matrix", &what)? {
                Some(m) => from_column_major(&m),
                None => compose(
                    numbers(n, "translation", &what)?.unwrap_or([0.0; 3]),
                    numbers(n, "rotation", &what)?.unwrap_or([0.0, 0.0, 0.0, 1.0]),
                    numbers(n, "scale", &what)?.unwrap_or([1.0; 3]),
                ),
            };
            raw.push(Raw {
                json: n,
                local,
                children: node_list(n, "children", nodes.len(), &what)?,
                mesh: index(n, "mesh", &what)?,
                skin: index(n, "skin", &what)?,
            });
        }
        let roots = if list(root, "scenes")?.is_empty() {
            // No scene: every node that is nobody's child.
            let mut child = vec![false; raw.len()];
            for c in raw.iter().flat_map(|r| &r.children) {
                if let Some(x) = child.get_mut(*c) {
                    *x = true;
                }
            }
            (0..raw.len())
                .filter(|&i| child.get(i) == Some(&false))
                .collect()
        } else {
            let s = index(root, "scene", "document")?.unwrap_or(0);
            node_list(
                item(root, "scenes", s)?,
                "nodes",
                raw.len(),
                &format!("scenes[{s}]"),
            )?
        };
        // Depth-first from the roots: a node reached twice (two parents, a cycle) keeps the
        // first path.
        let mut parent: Vec<Option<usize>> = vec![None; raw.len()];
        let mut world: Vec<Option<Mtx34>> = vec![None; raw.len()];
        let mut stack: Vec<(usize, Option<usize>)> =
            roots.iter().rev().map(|&r| (r, None)).collect();
        let mut order = Vec::new();
        while let Some((i, p)) = stack.pop() {
            let (Some(None), Some(r)) = (world.get(i), raw.get(i)) else {
                continue;
            };
            order.push(i);
            let pw = p
                .and_then(|p| world.get(p).copied().flatten())
                .unwrap_or(IDENTITY);
            if let (Some(w), Some(pp)) = (world.get_mut(i), parent.get_mut(i)) {
                *w = Some(mul(&pw, &r.local));
                *pp = p;
            }
            stack.extend(r.children.iter().rev().map(|&c| (c, Some(i))));
        }
        // The nodes a writer adds for glTF's sake are no scene nodes.
        let mut count = 0;
        let new_index: Vec<Option<usize>> = raw
            .iter()
            .zip(&world)
            .map(|(r, w)| {
                let added = marked(r.json, SKELETON)
                    || (r.children.is_empty()
                        && r.mesh.is_some()
                        && (r.skin.is_some() || marked(r.json, MESH_NODE)))
                    || placed(r);
                (w.is_some() && !added).then(|| {
                    count += 1;
                    count - 1
                })
            })
            .collect();
        // Parents come before their children in the walk's order.
        let mut anchor: Vec<(Option<usize>, Mtx34)> = vec![(None, IDENTITY); raw.len()];
        for i in order {
            let local = raw.get(i).map_or(IDENTITY, |r| r.local);
            let a = match parent.get(i).copied().flatten() {
                None => (None, local),
                Some(p) => match new_index.get(p).copied().flatten() {
                    Some(n) => (Some(n), local),
                    None => {
                        let (k, m) = anchor.get(p).copied().unwrap_or((None, IDENTITY));
                        (k, mul(&m, &local))
                    }
                },
            };
            if let Some(x) = anchor.get_mut(i) {
                *x = a;
            }
        }
        Ok(Tree {
            raw,
            world,
            new_index,
            anchor,
        })
    }

    fn in_scene(&self, i: usize) -> bool {
        self.world.get(i).is_some_and(Option::is_some)
    }

    fn world(&self, i: usize) -> Mtx34 {
        self.world.get(i).copied().flatten().unwrap_or(IDENTITY)
    }

    fn new_index(&self, i: usize) -> Option<usize> {
        self.new_index.get(i).copied().flatten()
    }

    /// The nearest kept ancestor's scene index, and the local matrix relative to it.
    fn kept_parent(&self, i: usize) -> (Option<usize>, Mtx34) {
        self.anchor.get(i).copied().unwrap_or((None, IDENTITY))
    }

    /// The scene's nodes, in file order: inverse bind matrices from the first skin that has
    /// the node as a joint, else the inverse of the rest world matrix.
    fn nodes(&self, skins: &[Skin]) -> Vec<Node> {
        let mut bind: Vec<Option<Mtx34>> = vec![None; self.raw.len()];
        for skin in skins {
            for (k, &j) in skin.joints.iter().enumerate() {
                if let Some(b) = bind.get_mut(j).filter(|b| b.is_none()) {
                    *b = Some(skin.ibm.get(k).copied().unwrap_or(IDENTITY));
                }
            }
        }
        let mut out = Vec::new();
        for (i, r) in self.raw.iter().enumerate() {
            if self.new_index(i).is_none() {
                continue;
            }
            let (parent, local) = self.kept_parent(i);
            out.push(Node {
                name: name(r.json, || format!("node_{i}")),
                parent,
                local,
                inverse_bind: bind
                    .get(i)
                    .copied()
                    .flatten()
                    .unwrap_or_else(|| inverse(&self.world(i)).unwrap_or(IDENTITY)),
                extras: r.json.get("extras").cloned(),
            });
        }
        out
    }
}

/// Whether a node only places a camera or a light: childless, without mesh, with a `camera` or
/// a `KHR_lights_punctual` light (what exporters write for them; no joint of the scene).
fn placed(r: &Raw<'_>) -> bool {
    r.children.is_empty()
        && r.mesh.is_none()
        && (r.json.get("camera").is_some()
            || r.json
                .get("extensions")
                .and_then(|x| x.get("KHR_lights_punctual"))
                .is_some())
}

/// Triangles of an index list drawn as a list (mode 4), a strip (5) or a fan (6), each in
/// the winding glTF specifies.
fn triangles(mode: usize, indices: &[u32]) -> Vec<[u32; 3]> {
    let at = |t: &[u32], k: usize| t.get(k).copied().unwrap_or(0);
    match mode {
        4 => indices
            .chunks_exact(3)
            .map(|t| [at(t, 0), at(t, 1), at(t, 2)])
            .collect(),
        5 => indices
            .windows(3)
            .enumerate()
            .map(|(k, t)| {
                if k % 2 == 0 {
                    [at(t, 0), at(t, 1), at(t, 2)]
                } else {
                    [at(t, 0), at(t, 2), at(t, 1)]
                }
            })
            .collect(),
        _ => {
            let first = indices.first().copied().unwrap_or(0);
            indices
                .get(1..)
                .unwrap_or_default()
                .windows(2)
                .map(|t| [at(t, 0), at(t, 1), first])
                .collect()
        }
    }
}

impl<'a> Reader<'a> {
    /// Takes `bytes` from the budget for `what`, or refuses it.
    fn spend(&mut self, bytes: u64, what: &str) -> Result<()> {
        self.budget = self.budget.checked_sub(bytes).ok_or_else(|| {
            Error::without_offset(ErrorKind::Invalid(format!(
                "glTF: {what} goes past the limit on bytes read ({} in total)",
                Limits::default().max_alloc_bytes
            )))
        })?;
        Ok(())
    }

    /// Every buffer's bytes: the BIN chunk or a `data:` URI.
    fn load_buffers(&mut self, bin: Option<&[u8]>) -> Result<Vec<Vec<u8>>> {
        let mut out = Vec::new();
        for (i, b) in list(self.root, "buffers")?.iter().enumerate() {
            let what = format!("buffers[{i}]");
            let data = match b.get("uri").and_then(Value::as_str) {
                Some(uri) => data_uri(uri, &what)?,
                None => bin
                    .ok_or_else(|| invalid(format!("{what} has no uri and there is no BIN chunk")))?
                    .to_vec(),
            };
            self.spend(data.len() as u64, &what)?;
            let len = index(b, "byteLength", &what)?.unwrap_or(0);
            if data.len() < len {
                return Err(invalid(format!(
                    "{what}: byteLength {len} but {} bytes present",
                    data.len()
                )));
            }
            out.push(data);
        }
        Ok(out)
    }

    /// The bytes of buffer view `v`.
    fn view(&self, v: usize) -> Result<(&[u8], Option<usize>)> {
        let what = format!("bufferViews[{v}]");
        let view = item(self.root, "bufferViews", v)?;
        let b = index(view, "buffer", &what)?
            .ok_or_else(|| invalid(format!("{what} has no buffer")))?;
        let buffer = self
            .buffers
            .get(b)
            .ok_or_else(|| invalid(format!("{what}.buffer {b} does not exist")))?;
        let offset = index(view, "byteOffset", &what)?.unwrap_or(0);
        let len = index(view, "byteLength", &what)?.unwrap_or(0);
        let bytes = buffer
            .get(offset..)
            .and_then(|d| d.get(..len))
            .ok_or_else(|| {
                invalid(format!(
                    "{what}: bytes {offset}+{len} past buffer {b} of {} bytes",
                    buffer.len()
                ))
            })?;
        Ok((bytes, index(view, "byteStride", &what)?))
    }

    /// Reads accessor `a` (for `what`).
    fn accessor(&mut self, a: usize, what: &str) -> Result<Accessor> {
        let what = format!("{what}: accessors[{a}]");
        let acc = item(self.root, "accessors", a)?;
        let component = index(acc, "componentType", &what)?.unwrap_or(0);
        let size = match component {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            5125 | 5126 => 4,
            _ => return Err(invalid(format!("{what}: componentType {component}"))),
        };
        let width = match acc.get("type").and_then(Value::as_str) {
            Some("SCALAR") => 1,
            Some("VEC2") => 2,
            Some("VEC3") => 3,
            Some("VEC4") => 4,
            Some("MAT2") if size == 4 => 4,
            Some("MAT3") if size == 4 => 9,
            Some("MAT4") if size == 4 => 16,
            t => {
                return Err(invalid(format!(
                    "{what}: type {t:?} with {size}-byte components"
                )));
            }
        };
        let count = index(acc, "count", &what)?.unwrap_or(0);
        let total = count
            .checked_mul(width)
            .filter(|&n| n as u64 <= Limits::default().max_elements)
            .ok_or_else(|| invalid(format!("{what}: {count} elements past the limit")))?;
        self.spend(total as u64 * 8, &what)?;
        let mut values = vec![0.0f64; total];
        let read = |bytes: &[u8], at: usize| -> Option<f64> {
            let b = bytes.get(at..at + size)?;
            Some(match component {
                5120 => f64::from(b.first().copied()? as i8),
                5121 => f64::from(b.first().copied()?),
                5122 => f64::from(i16::from_le_bytes(b.try_into().ok()?)),
                5123 => f64::from(u16::from_le_bytes(b.try_into().ok()?)),
                5125 => f64::from(u32::from_le_bytes(b.try_into().ok()?)),
                _ => f64::from(f32::from_le_bytes(b.try_into().ok()?)),
            })
        };
        let elem = width * size;
        let offset = index(acc, "byteOffset", &what)?.unwrap_or(0);
        if let Some(v) = index(acc, "bufferView", &what)? {
            let (bytes, stride) = self.view(v)?;
            let stride = stride.unwrap_or(elem);
            let end = count
                .checked_sub(1)
                .map_or(Some(0), |last| {
                    last.checked_mul(stride)?
                        .checked_add(offset)?
                        .checked_add(elem)
                })
                .filter(|&end| end <= bytes.len() && stride >= elem);
            if end.is_none() {
                return Err(invalid(format!(
                    "{what}: {count} elements of {elem} bytes (stride {stride}) from {offset} past bufferViews[{v}] of {} bytes",
                    bytes.len()
                )));
            }
            for (e, out) in values.chunks_exact_mut(width).enumerate() {
                for (c, o) in out.iter_mut().enumerate() {
                    *o = read(bytes, offset + e * stride + c * size).unwrap_or(0.0);
                }
            }
        }
        if let Some(sparse) = acc.get("sparse") {
            let what = format!("{what}.sparse");
            let n = index(sparse, "count", &what)?.unwrap_or(0);
            let part = |key: &str| -> Result<(&Value, usize)> {
                let p = sparse
                    .get(key)
                    .ok_or_else(|| invalid(format!("{what} has no {key}")))?;
                let v = index(p, "bufferView", &what)?
                    .ok_or_else(|| invalid(format!("{what}.{key} has no bufferView")))?;
                Ok((p, v))
            };
            let ((ip, iv), (vp, vv)) = (part("indices")?, part("values")?);
            let ic = index(ip, "componentType", &what)?.unwrap_or(0);
            let isize = match ic {
                5121 => 1,
                5123 => 2,
                5125 => 4,
                _ => return Err(invalid(format!("{what}: index componentType {ic}"))),
            };
            let (ibytes, _) = self.view(iv)?;
            let (vbytes, _) = self.view(vv)?;
            let io = index(ip, "byteOffset", &what)?.unwrap_or(0);
            let vo = index(vp, "byteOffset", &what)?.unwrap_or(0);
            // Bounded so that the offsets below cannot overflow and the loop is short.
            if n > count || io > ibytes.len() || vo > vbytes.len() {
                return Err(invalid(format!(
                    "{what}: {n} values (at {io} and {vo}) for {count} elements"
                )));
            }
            for k in 0..n {
                let at = io + k * isize;
                let i = ibytes
                    .get(at..at + isize)
                    .map(|b| {
                        b.iter()
                            .rev()
                            .fold(0usize, |acc, &x| acc << 8 | usize::from(x))
                    })
                    .ok_or_else(|| invalid(format!("{what}: index {k} past its bufferView")))?;
                let out = values
                    .get_mut(i * width..i * width + width)
                    .ok_or_else(|| invalid(format!("{what}: index {i} past count {count}")))?;
                for (c, o) in out.iter_mut().enumerate() {
                    *o = read(vbytes, vo + (k * width + c) * size)
                        .ok_or_else(|| invalid(format!("{what}: value {k} past its bufferView")))?;
                }
            }
        }
        let normalized = acc.get("normalized").and_then(Value::as_bool) == Some(true);
        Ok(Accessor {
            width,
            count,
            component: component as u32,
            normalized,
            values,
        })
    }

    fn scene(&mut self) -> Result<Scene> {
        let root = self.root;
        let mut scene = Scene::new(
            root.get("asset")
                .and_then(|a| a.get("generator"))
                .and_then(Value::as_str)
                .unwrap_or_default(),
        );
        scene.extras = root.get("extras").cloned();
        let tree = Tree::new(root)?;
        let skins = self.skins(&tree)?;
        scene.nodes = tree.nodes(&skins);
        self.materials(&mut scene)?;
        // One mesh per primitive per instancing node of the default scene.
        for (i, r) in tree.raw.iter().enumerate() {
            let Some(m) = r.mesh.filter(|_| tree.in_scene(i)) else {
                continue;
            };
            let skin = match r.skin {
                Some(s) => Some(
                    skins
                        .get(s)
                        .ok_or_else(|| invalid(format!("nodes[{i}].skin {s} does not exist")))?,
                ),
                None => None,
            };
            let mesh = item(root, "meshes", m)?;
            for (p, prim) in list(mesh, "primitives")?.iter().enumerate() {
                let what = format!("meshes[{m}].primitives[{p}]");
                // A node's morph weights replace its mesh's (glTF's default pose).
                let morph = item(root, "nodes", i)?
                    .get("weights")
                    .or_else(|| mesh.get("weights"));
                let Some(mut out) = self.primitive(prim, scene.materials.len(), morph, &what)?
                else {
                    continue;
                };
                out.name = name(mesh, || format!("mesh_{m}"));
                out.extras = mesh.get("extras").cloned();
                out.node = tree.new_index(i);
                self.place(&mut out, prim, &tree, i, skin, &what)?;
                scene.meshes.push(out);
            }
        }
        for (a, anim) in list(root, "animations")?.iter().enumerate() {
            let clip = self.clip(anim, a, &tree)?;
            scene.clips.push(clip);
        }
        self.cameras_and_lights(&mut scene, &tree)?;
        self.apply_texture_transforms(&mut scene);
        fold_untextured_twins(&mut scene);
        Ok(scene)
    }

    /// Applies each material's static `KHR_texture_transform` to the texture coordinates of
    /// its meshes (the set its texture reads), which then sample as the transform did. A
    /// transform a clip animates is left as it is, with a note: the animated values replace
    /// the static ones.
    fn apply_texture_transforms(&mut self, scene: &mut Scene) {
        for (m, t) in self.transforms.iter().enumerate() {
            let Some([[a, b, c], [d, e, f]]) = *t else {
                continue;
            };
            let prefix = format!("/materials/{m}/pbrMetallicRoughness/baseColorTexture/");
            let animated = scene
                .clips
                .iter()
                .flat_map(|x| &x.channels)
                .any(|ch| matches!(&ch.target, Target::Pointer(p) if p.starts_with(&prefix)));
            if animated {
                self.notes.push(format!(
                    "materials[{m}]: static texture transform left out (a clip animates it)"
                ));
                continue;
            }
            let Some(set) = scene.materials.get(m).map(|x| x.texcoord) else {
                continue;
            };
            for mesh in scene.meshes.iter_mut().filter(|x| x.material == Some(m)) {
                if let Some(uvs) = mesh.uvs.get_mut(set) {
                    for uv in uvs.iter_mut() {
                        let [u, v] = *uv;
                        *uv = [a * u + b * v + c, d * u + e * v + f];
                    }
                }
            }
        }
    }

    /// The cameras and lights of the nodes that only place one ([`placed`]), in node order.
    fn cameras_and_lights(&self, scene: &mut Scene, tree: &Tree) -> Result<()> {
        let root = self.root;
        let lights = root
            .get("extensions")
            .and_then(|x| x.get("KHR_lights_punctual"))
            .unwrap_or(&Value::Null);
        for (i, r) in tree.raw.iter().enumerate() {
            if !tree.in_scene(i) || !placed(r) {
                continue;
            }
            let matrix = tree.world(i);
            let what = format!("nodes[{i}]");
            let num = |v: &Value, key: &str| v.get(key).and_then(Value::as_f64).map(|x| x as f32);
            if let Some(k) = index(r.json, "camera", &what)? {
                let c = item(root, "cameras", k)?;
                let Some(p) = c.get("perspective") else {
                    continue;
                };
                scene.cameras.push(Camera {
                    name: name(c, || format!("camera_{k}")),
                    matrix,
                    yfov: num(p, "yfov").unwrap_or(std::f32::consts::FRAC_PI_4),
                    aspect: num(p, "aspectRatio"),
                    znear: num(p, "znear").unwrap_or(0.1),
                    zfar: num(p, "zfar"),
                    extras: c.get("extras").cloned(),
                });
            }
            let ext = r
                .json
                .get("extensions")
                .and_then(|x| x.get("KHR_lights_punctual"));
            if let Some(k) = ext.map(|x| index(x, "light", &what)).transpose()?.flatten() {
                let l = item(lights, "lights", k)?;
                let spot = l.get("spot").unwrap_or(&Value::Null);
                let kind = match l.get("type").and_then(Value::as_str) {
                    Some("directional") => LightKind::Directional,
                    Some("spot") => LightKind::Spot {
                        inner: num(spot, "innerConeAngle").unwrap_or(0.0),
                        outer: num(spot, "outerConeAngle").unwrap_or(std::f32::consts::FRAC_PI_4),
                    },
                    _ => LightKind::Point,
                };
                let color = l.get("color").and_then(Value::as_array);
                let channel = |c: usize| {
                    color
                        .and_then(|v| v.get(c))
                        .and_then(Value::as_f64)
                        .map_or(1.0, |x| x as f32)
                };
                scene.lights.push(Light {
                    name: name(l, || format!("light_{k}")),
                    matrix,
                    kind,
                    color: [channel(0), channel(1), channel(2)],
                    intensity: num(l, "intensity").unwrap_or(1.0),
                    range: num(l, "range"),
                    extras: l.get("extras").cloned(),
                });
            }
        }
        Ok(())
    }

    /// The skins: joint nodes (file indices) and their inverse bind matrices.
    fn skins(&mut self, tree: &Tree) -> Result<Vec<Skin>> {
        let mut skins = Vec::new();
        for (s, skin) in list(self.root, "skins")?.iter().enumerate() {
            let what = format!("skins[{s}]");
            let joints = node_list(skin, "joints", tree.raw.len(), &what)?;
            let ibm = match index(skin, "inverseBindMatrices", &what)? {
                Some(a) => self
                    .accessor(a, &what)?
                    .vectors::<16>(&format!("{what}.inverseBindMatrices"))?
                    .iter()
                    .map(from_column_major)
                    .collect(),
                None => Vec::new(),
            };
            skins.push(Skin { joints, ibm });
        }
        Ok(skins)
    }

    /// A primitive's triangles and vertex attributes as the file has them (positions and
    /// normals in the node's space, morph targets applied at their `weights`); `None` with a
    /// note for a primitive that draws no triangles.
    fn primitive(
        &mut self,
        prim: &Value,
        materials: usize,
        weights: Option<&Value>,
        what: &str,
    ) -> Result<Option<Mesh>> {
        let mode = index(prim, "mode", what)?.unwrap_or(4);
        if !(4..=6).contains(&mode) {
            self.notes
                .push(format!("{what}: mode {mode} (points or lines) skipped"));
            return Ok(None);
        }
        let mut out = Mesh::new("");
        out.material = index(prim, "material", what)?;
        if let Some(x) = out.material.filter(|&x| x >= materials) {
            return Err(invalid(format!("{what}.material {x} does not exist")));
        }
        let attrs = prim.get("attributes").unwrap_or(&Value::Null);
        let attr = |key: &str| index(attrs, key, what);
        let Some(pa) = attr("POSITION")? else {
            self.notes.push(format!("{what}: no POSITION, skipped"));
            return Ok(None);
        };
        out.positions = self
            .accessor(pa, what)?
            .vectors(&format!("{what} POSITION"))?;
        let n = out.positions.len();
        let same = |len: usize, key: &str| {
            if len == n {
                Ok(())
            } else {
                Err(invalid(format!(
                    "{what}: {key} has {len} elements, POSITION {n}"
                )))
            }
        };
        if let Some(a) = attr("NORMAL")? {
            out.normals = self.accessor(a, what)?.vectors(&format!("{what} NORMAL"))?;
            same(out.normals.len(), "NORMAL")?;
            if let Some(a) = attr("TANGENT")? {
                out.tangents = self
                    .accessor(a, what)?
                    .vectors(&format!("{what} TANGENT"))?;
                same(out.tangents.len(), "TANGENT")?;
            }
        }
        for key in ["_BINORMAL", "_TANGENT"] {
            if let Some(a) = attr(key)? {
                let v: Vec<[f32; 3]> = self.accessor(a, what)?.vectors(&format!("{what} {key}"))?;
                same(v.len(), key)?;
                if key == "_BINORMAL" {
                    out.binormals = v;
                } else {
                    out.stored_tangents = v;
                }
            }
        }
        for k in 0.. {
            let key = format!("TEXCOORD_{k}");
            let Some(a) = attr(&key)? else { break };
            if k >= UV_SETS {
                self.notes
                    .push(format!("{what}: {key} and later sets dropped"));
                break;
            }
            let v: Vec<[f32; 2]> = self.accessor(a, what)?.vectors(&format!("{what} {key}"))?;
            same(v.len(), &key)?;
            out.uvs.push(v);
        }
        for k in 0.. {
            let key = format!("COLOR_{k}");
            let Some(a) = attr(&key)? else { break };
            if k >= COLOR_SETS {
                self.notes
                    .push(format!("{what}: {key} and later sets dropped"));
                break;
            }
            let acc = self.accessor(a, what)?;
            same(acc.count, &key)?;
            out.colors.push(acc.colors(&format!("{what} {key}"))?);
        }
        self.morph(&mut out, prim, weights, what)?;
        let indices: Vec<u32> = match index(prim, "indices", what)? {
            Some(a) => {
                let acc = self.accessor(a, what)?;
                if acc.width != 1 || ![5121, 5123, 5125].contains(&acc.component) {
                    return Err(invalid(format!(
                        "{what}: indices are not unsigned integers"
                    )));
                }
                acc.values.iter().map(|&v| v as u32).collect()
            }
            None => (0..u32::try_from(n).unwrap_or(u32::MAX)).collect(),
        };
        if let Some(bad) = indices.iter().find(|&&x| x as usize >= n) {
            return Err(invalid(format!("{what}: index {bad} past {n} vertices")));
        }
        out.triangles = triangles(mode, &indices);
        self.spend(
            (n * (24 + 8 * out.uvs.len() + 4 * out.colors.len() + 32)
                + 16 * out.tangents.len()
                + 12 * (out.binormals.len() + out.stored_tangents.len())
                + out.triangles.len() * 12) as u64,
            what,
        )?;
        Ok(Some(out))
    }

    /// Adds a primitive's morph targets to its positions, normals and tangents at the default
    /// `weights` (the shape a viewer draws when no clip plays: what the game gets, having no
    /// morphs); the targets and their `weights` channels are then dropped, with a note.
    fn morph(
        &mut self,
        out: &mut Mesh,
        prim: &Value,
        weights: Option<&Value>,
        what: &str,
    ) -> Result<()> {
        let targets = list(prim, "targets")?;
        if targets.is_empty() {
            return Ok(());
        }
        let weights: Vec<f32> = weights
            .and_then(Value::as_array)
            .map(|w| w.iter().map(|x| x.as_f64().unwrap_or(0.0) as f32).collect())
            .unwrap_or_default();
        let mut applied = 0;
        for (t, target) in targets.iter().enumerate() {
            let w = weights.get(t).copied().unwrap_or(0.0);
            if w == 0.0 || !w.is_finite() {
                continue;
            }
            applied += 1;
            let n = out.positions.len();
            let mut add = |key: &str, to: &mut Vec<[f32; 3]>| -> Result<()> {
                let Some(a) = index(target, key, what)? else {
                    return Ok(());
                };
                let d: Vec<[f32; 3]> = self
                    .accessor(a, what)?
                    .vectors(&format!("{what} targets[{t}].{key}"))?;
                if d.len() != n {
                    return Err(invalid(format!(
                        "{what}: targets[{t}].{key} has {} elements, POSITION {n}",
                        d.len()
                    )));
                }
                for (v, d) in to.iter_mut().zip(d) {
                    for (x, y) in v.iter_mut().zip(d) {
                        *x += w * y;
                    }
                }
                Ok(())
            };
            add("POSITION", &mut out.positions)?;
            add("NORMAL", &mut out.normals)?;
            let mut xyz: Vec<[f32; 3]> =
                out.tangents.iter().map(|&[x, y, z, _]| [x, y, z]).collect();
            add("TANGENT", &mut xyz)?;
            for (t, [x, y, z]) in out.tangents.iter_mut().zip(xyz) {
                let [.., w] = *t;
                *t = [x, y, z, w];
            }
        }
        if applied > 0 {
            for v in &mut out.normals {
                *v = unit(*v);
            }
        }
        self.notes.push(format!(
            "{what}: {} morph targets dropped ({applied} applied at their default weight)",
            targets.len()
        ));
        Ok(())
    }

    /// Moves a primitive read from node `i` into model space at rest and sets its skin: linear
    /// blend skinning through the node's skin when the primitive has joints and weights, else
    /// the node's world matrix with every vertex on the node (or its nearest scene ancestor).
    fn place(
        &mut self,
        out: &mut Mesh,
        prim: &Value,
        tree: &Tree,
        i: usize,
        skin: Option<&Skin>,
        what: &str,
    ) -> Result<()> {
        let attrs = prim.get("attributes").unwrap_or(&Value::Null);
        let attr = |key: &str| index(attrs, key, what);
        let n = out.positions.len();
        let node_world = tree.world(i);
        let first = match (skin, attr("JOINTS_0")?, attr("WEIGHTS_0")?) {
            (Some(_), Some(j), Some(w)) => self.weights(j, w, n, what)?,
            _ => {
                let nm = normal_matrix(&node_world);
                for p in &mut out.positions {
                    *p = apply(&node_world, *p);
                }
                for v in &mut out.normals {
                    *v = unit(apply(&nm, *v));
                }
                let lin = linear(&node_world);
                for v in 0..n {
                    directions(out, v, &lin);
                }
                let owner = tree.new_index(i).or_else(|| tree.kept_parent(i).0);
                if let Some(o) = owner {
                    let o = u16::try_from(o).map_err(|_| {
                        invalid(format!(
                            "{what}: node {o} past the 65536 a skin weight names"
                        ))
                    })?;
                    out.skin = vec![skin_weights(&[(o, 1.0)]); n];
                }
                return Ok(());
            }
        };
        let second = match (attr("JOINTS_1")?, attr("WEIGHTS_1")?) {
            (Some(j), Some(w)) => self.weights(j, w, n, what)?,
            _ => Vec::new(),
        };
        let skin = skin.ok_or_else(|| invalid(format!("{what}: skin vanished")))?;
        // Per joint: the skinning matrix and its normal matrix, and the scene node it is.
        let joints: Vec<(Mtx34, Mtx34, Option<u16>)> = skin
            .joints
            .iter()
            .enumerate()
            .map(|(k, &j)| {
                let ibm = skin.ibm.get(k).copied().unwrap_or(IDENTITY);
                // A joint whose rest matrix is singular (a hidden bone, scaled to zero until
                // a clip shows it) would collapse its vertices: they stay at its bind pose.
                let rest = tree.world(j);
                let m = if inverse(&rest).is_none() && inverse(&ibm).is_some() {
                    IDENTITY
                } else {
                    mul(&rest, &ibm)
                };
                let node = tree.new_index(j).and_then(|x| u16::try_from(x).ok());
                (m, normal_matrix(&m), node)
            })
            .collect();
        // Vertices weighted to more joints than a skin weight holds.
        let mut over = 0usize;
        for v in 0..n {
            let pairs = first.get(v).into_iter().chain(second.get(v)).flatten();
            let (mut pos, mut nrm, mut total) = ([0.0f32; 3], [0.0f32; 3], 0.0);
            let mut weights = Vec::with_capacity(8);
            let (p0, n0) = (
                out.positions.get(v).copied().unwrap_or_default(),
                out.normals.get(v).copied().unwrap_or_default(),
            );
            for &(j, w) in pairs.filter(|p| p.1 != 0.0) {
                let (m, nm, node) = joints.get(j).ok_or_else(|| {
                    invalid(format!(
                        "{what}: joint {j} past the skin's {} joints",
                        joints.len()
                    ))
                })?;
                for (acc, x) in pos.iter_mut().zip(apply(m, p0)) {
                    *acc += w * x;
                }
                for (acc, x) in nrm.iter_mut().zip(apply(nm, n0)) {
                    *acc += w * x;
                }
                total += w;
                weights.extend(node.map(|node| (node, w)));
            }
            if total == 0.0 {
                // No weight: glTF leaves it undefined; the node's transform places it.
                pos = apply(&node_world, p0);
                nrm = apply(&normal_matrix(&node_world), n0);
            }
            if let Some(p) = out.positions.get_mut(v) {
                *p = pos;
            }
            if let Some(x) = out.normals.get_mut(v) {
                *x = unit(nrm);
            }
            let distinct = weights
                .iter()
                .enumerate()
                .filter(|&(i, p)| p.1 > 0.0 && weights.iter().take(i).all(|q| q.0 != p.0))
                .count();
            over += usize::from(distinct > 4);
            out.skin.push(skin_weights(&weights));
            // Tangents and binormals go through the blended linear part.
            let mut blend = [[0.0f32; 4]; 3];
            let pairs = first.get(v).into_iter().chain(second.get(v)).flatten();
            for &(j, w) in pairs.filter(|p| p.1 != 0.0) {
                if let Some((m, _, _)) = joints.get(j) {
                    for (row, mrow) in blend.iter_mut().zip(linear(m)) {
                        for (x, y) in row.iter_mut().zip(mrow) {
                            *x += w * y;
                        }
                    }
                }
            }
            if total == 0.0 {
                blend = linear(&node_world);
            }
            directions(out, v, &blend);
        }
        if over > 0 {
            self.notes.push(format!(
                "{what}: {over} vertices weighted to more than 4 joints: the 4 heaviest kept, \
                 renormalised (GX models skin with at most 4)"
            ));
        }
        Ok(())
    }

    /// An animation's channels of the scene's nodes (and pointer channels).
    fn clip(&mut self, anim: &Value, a: usize, tree: &Tree) -> Result<Clip> {
        let what = format!("animations[{a}]");
        let mut clip = Clip {
            name: name(anim, || format!("animation_{a}")),
            channels: Vec::new(),
            extras: anim.get("extras").cloned(),
        };
        let samplers = list(anim, "samplers")?;
        for (c, ch) in list(anim, "channels")?.iter().enumerate() {
            let what = format!("{what}.channels[{c}]");
            let target = ch.get("target").unwrap_or(&Value::Null);
            let (target, node) = match target.get("path").and_then(Value::as_str) {
                Some("translation") => (Target::Translation, index(target, "node", &what)?),
                Some("rotation") => (Target::Rotation, index(target, "node", &what)?),
                Some("scale") => (Target::Scale, index(target, "node", &what)?),
                Some("pointer") => {
                    let p = target
                        .get("extensions")
                        .and_then(|e| e.get("KHR_animation_pointer"))
                        .and_then(|e| e.get("pointer"))
                        .and_then(Value::as_str)
                        .ok_or_else(|| {
                            invalid(format!("{what}: pointer channel without a pointer"))
                        })?;
                    let node = p
                        .strip_prefix("/nodes/")
                        .and_then(|r| r.split('/').next())
                        .and_then(|n| n.parse::<usize>().ok())
                        .and_then(|n| tree.new_index(n))
                        .unwrap_or(NO_NODE);
                    let ch = self.channel(samplers, ch, &what, Target::Pointer(p.to_owned()))?;
                    clip.channels.extend(ch.map(|c| Channel { node, ..c }));
                    continue;
                }
                path => {
                    self.notes.push(format!("{what}: path {path:?} dropped"));
                    continue;
                }
            };
            let Some(node) = node.and_then(|n| tree.new_index(n)) else {
                self.notes
                    .push(format!("{what}: its node is not a scene node, dropped"));
                continue;
            };
            let ch = self.channel(samplers, ch, &what, target)?;
            clip.channels.extend(ch.map(|c| Channel { node, ..c }));
        }
        Ok(clip)
    }

    /// Per vertex, the (joint, weight) pairs of a JOINTS_n / WEIGHTS_n pair.
    fn weights(
        &mut self,
        j: usize,
        w: usize,
        n: usize,
        what: &str,
    ) -> Result<Vec<[(usize, f32); 4]>> {
        let joints = self.accessor(j, what)?;
        if joints.width != 4 || joints.count != n || joints.component == 5126 {
            return Err(invalid(format!(
                "{what}: JOINTS are not {n} unsigned integer VEC4"
            )));
        }
        let weights: Vec<[f32; 4]> = self
            .accessor(w, what)?
            .vectors(&format!("{what} WEIGHTS"))?;
        if weights.len() != n {
            return Err(invalid(format!(
                "{what}: WEIGHTS has {} elements, POSITION {n}",
                weights.len()
            )));
        }
        Ok(joints
            .values
            .chunks_exact(4)
            .zip(weights)
            .map(|(j, w)| {
                std::array::from_fn(|k| {
                    (
                        j.get(k).copied().unwrap_or(0.0) as usize,
                        w.get(k).copied().unwrap_or(0.0),
                    )
                })
            })
            .collect())
    }

    /// A channel from its sampler (its node set by the caller), or `None` with a note when its
    /// keys are unusable.
    fn channel(
        &mut self,
        samplers: &[Value],
        ch: &Value,
        what: &str,
        target: Target,
    ) -> Result<Option<Channel>> {
        let s =
            index(ch, "sampler", what)?.ok_or_else(|| invalid(format!("{what} has no sampler")))?;
        let sampler = samplers
            .get(s)
            .ok_or_else(|| invalid(format!("{what}: sampler {s} does not exist")))?;
        let interpolation = match sampler.get("interpolation").and_then(Value::as_str) {
            None | Some("LINEAR") => Interpolation::Linear,
            Some("STEP") => Interpolation::Step,
            Some("CUBICSPLINE") => Interpolation::CubicSpline,
            Some(x) => return Err(invalid(format!("{what}: interpolation {x:?}"))),
        };
        let input = index(sampler, "input", what)?
            .ok_or_else(|| invalid(format!("{what}: sampler without input")))?;
        let output = index(sampler, "output", what)?
            .ok_or_else(|| invalid(format!("{what}: sampler without output")))?;
        let times = self.accessor(input, what)?;
        if times.width != 1 {
            return Err(invalid(format!("{what}: input is not scalar")));
        }
        let times = times.floats();
        let values = self.accessor(output, what)?.floats();
        let per_key = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        let width = match target {
            Target::Translation | Target::Scale => Some(3),
            Target::Rotation => Some(4),
            Target::Pointer(_) => None,
        };
        let keys = times.len() * per_key;
        let fits = keys > 0
            && values.len() % keys == 0
            && width.is_none_or(|w| values.len() == keys * w)
            && times.iter().all(|t| t.is_finite())
            && times.windows(2).all(|w| w.first() <= w.get(1));
        if !fits {
            self.notes.push(format!(
                "{what}: keys unusable (count, width or times), dropped"
            ));
            return Ok(None);
        }
        Ok(Some(Channel {
            node: NO_NODE,
            target,
            interpolation,
            times,
            values,
        }))
    }

    /// Materials and the images they use.
    fn materials(&mut self, scene: &mut Scene) -> Result<()> {
        let root = self.root;
        let mut image_of = Vec::new();
        for (i, img) in list(root, "images")?.iter().enumerate() {
            let what = format!("images[{i}]");
            let bytes: Vec<u8> = match (
                index(img, "bufferView", &what)?,
                img.get("uri").and_then(Value::as_str),
            ) {
                (Some(v), _) => self.view(v)?.0.to_vec(),
                (None, Some(uri)) => data_uri(uri, &what)?,
                (None, None) => {
                    return Err(invalid(format!("{what} has neither bufferView nor uri")));
                }
            };
            let decoded = if bytes.starts_with(&[0xFF, 0xD8]) {
                crate::jpeg::decode(&bytes)
            } else {
                crate::png::decode(&bytes)
            }
            .map_err(|e| e.context(what.clone()))?;
            self.spend(
                u64::from(decoded.width()) * u64::from(decoded.height()) * 4,
                &what,
            )?;
            // Each document image stays one: equal images are a file's to keep (our export
            // writes a texture HAL stored twice twice), and extras count them.
            image_of.push(scene.push_image(decoded));
        }
        let textures = list(root, "textures")?;
        let samplers = list(root, "samplers")?;
        for (m, mat) in list(root, "materials")?.iter().enumerate() {
            let what = format!("materials[{m}]");
            let pbr = mat.get("pbrMetallicRoughness").unwrap_or(&Value::Null);
            // The older specular-glossiness model (rippers' exporters still write it): its
            // diffuse colour and texture are the base colour, where the core model has none.
            let sg = mat
                .get("extensions")
                .and_then(|e| e.get("KHR_materials_pbrSpecularGlossiness"))
                .filter(|_| {
                    pbr.get("baseColorFactor")
                        .or(pbr.get("baseColorTexture"))
                        .is_none()
                });
            let (base, factor, texture) = match sg {
                Some(sg) => (sg, "diffuseFactor", "diffuseTexture"),
                None => (pbr, "baseColorFactor", "baseColorTexture"),
            };
            let mut out = Material::new(name(mat, || format!("material_{m}")), None);
            out.color = numbers(base, factor, &what)?.unwrap_or([1.0; 4]);
            if let Some(info) = base.get(texture) {
                let t = index(info, "index", &what)?
                    .ok_or_else(|| invalid(format!("{what}: texture without index")))?;
                let tex = textures
                    .get(t)
                    .ok_or_else(|| invalid(format!("{what}: textures[{t}] does not exist")))?;
                out.texcoord = index(info, "texCoord", &what)?.unwrap_or(0);
                if let Some(k) = index(tex, "sampler", &what)? {
                    let sampler = samplers.get(k).ok_or_else(|| {
                        invalid(format!("textures[{t}].sampler {k} does not exist"))
                    })?;
                    for (axis, key) in out.wrap.iter_mut().zip(["wrapS", "wrapT"]) {
                        let Some(code) = sampler.get(key).and_then(Value::as_u64) else {
                            continue;
                        };
                        match Wrap::from_gltf(code) {
                            Some(w) => *axis = w,
                            None => self.notes.push(format!(
                                "samplers[{k}].{key} {code} is no wrap mode: repeats"
                            )),
                        }
                    }
                }
                let tt = info
                    .get("extensions")
                    .and_then(|x| x.get("KHR_texture_transform"))
                    .unwrap_or(&Value::Null);
                if let Some(set) = index(tt, "texCoord", &what)? {
                    out.texcoord = set;
                }
                self.transforms.resize(m, None);
                self.transforms.push(texture_transform(tt, &what)?);
                match index(tex, "source", &what)? {
                    Some(s) => {
                        out.texture = Some(*image_of.get(s).ok_or_else(|| {
                            invalid(format!("textures[{t}].source {s} does not exist"))
                        })?);
                    }
                    None => self
                        .notes
                        .push(format!("textures[{t}]: no PNG source, {what} untextured")),
                }
            }
            out.alpha_mode = match mat.get("alphaMode").and_then(Value::as_str) {
                None | Some("OPAQUE") => AlphaMode::Opaque,
                Some("MASK") => AlphaMode::Mask(number(mat, "alphaCutoff", 0.5, &what)? as f32),
                Some("BLEND") => AlphaMode::Blend,
                Some(x) => return Err(invalid(format!("{what}.alphaMode {x:?}"))),
            };
            out.double_sided = mat.get("doubleSided").and_then(Value::as_bool) == Some(true);
            out.unlit = mat
                .get("extensions")
                .and_then(|e| e.get("KHR_materials_unlit"))
                .is_some();
            out.extras = mat.get("extras").cloned();
            scene.materials.push(out);
        }
        Ok(())
    }
}

/// Folds the writer's untextured twins back into their materials: [`Scene::to_glb`] draws a
/// mesh without the coordinate set of its textured material with a copy named
/// `"<name> (untextured)"`, the texture left out, appended after every other material. A
/// trailing run of materials that are such copies of another (same name but the suffix, same
/// colour, modes and extras, no texture where it has one) is removed and its meshes take the
/// source again, so the scene reads as written and a clip animating the source (by material
/// index) still animates what those meshes draw.
fn fold_untextured_twins(scene: &mut Scene) {
    let twin_of = |t: usize| -> Option<usize> {
        let m = scene.materials.get(t)?;
        let base = m.name.strip_suffix(" (untextured)")?;
        if m.texture.is_some() {
            return None;
        }
        scene.materials.iter().position(|s| {
            s.name == base
                && s.texture.is_some()
                && s.color == m.color
                && s.double_sided == m.double_sided
                && s.alpha_mode == m.alpha_mode
                && s.unlit == m.unlit
                && s.extras == m.extras
        })
    };
    let n = scene.materials.len();
    let mut first = n;
    while first > 0 && twin_of(first - 1).is_some_and(|s| s < first - 1) {
        first -= 1;
    }
    let sources: Vec<Option<usize>> = (first..n).map(twin_of).collect();
    if sources.is_empty() || sources.iter().any(|s| s.is_none_or(|s| s >= first)) {
        return;
    }
    for mesh in &mut scene.meshes {
        if let Some(t) = mesh.material.filter(|&t| t >= first) {
            mesh.material = sources.get(t - first).copied().flatten();
        }
    }
    scene.materials.truncate(first);
}
