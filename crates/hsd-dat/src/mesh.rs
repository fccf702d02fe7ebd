//! Meshes: a PObj's display list decoded through `gx` into triangles with attributes and each
//! vertex's skin, joint world matrices (`T·Rz·Ry·Rx·S`, the runtime's `HSD_MtxSRT` order), the
//! runtime's envelope matrix with its weight-1.0 short-circuit (OBJ and glTF export are in
//! [`crate::export`]).

use gcio::{Context, Error, Result};
use gx::dl::{DisplayList, matrix_slot};
use gx::vtx::{Attr, AttrType, Value, VertexArray, VertexFormat};

use crate::field::Struct;
use crate::flags::{JointFlags, PObjKind};
use crate::graph::{Graph, PObjRef};
use crate::types::{Envelope, Matrix};
use crate::view::Archive;

/// A 3×4 row-major affine matrix (shared with J3D through `gx::mtx`).
pub use gx::mtx::Mtx34 as Mtx;
/// Matrix helpers shared with J3D: identity, `a · b`, `m · p`, and the joint local matrix
/// `T · Rz · Ry · Rx · S` (X rotation applied first), the runtime's order.
pub use gx::mtx::{IDENTITY, apply, mul, srt};

/// How one vertex is skinned.
#[derive(Debug, Clone, PartialEq)]
pub enum Skin {
    /// Drawn with one joint's matrix (the PObj's bound joint, or its owner when NULL).
    Rigid(usize),
    /// Blended from the (joint index, weight) pairs of this slot of [`Mesh::palette`].
    Envelope(usize),
    /// Shape animation (vertices blended by a ShapeSet; drawn with the owner's matrix).
    ShapeAnim(usize),
}

/// One decoded vertex.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Vertex {
    /// Position as stored (bind space for enveloped meshes).
    pub position: [f32; 3],
    /// Normal.
    pub normal: Option<[f32; 3]>,
    /// Binormal and tangent of an NBT normal (GX_VA_NBT, or NRM with the NBT count), as
    /// stored: not unit length (their length is the emboss bump's strength).
    pub nbt: Option<[[f32; 3]; 2]>,
    /// Texture coordinate sets TEX0..TEX7 (`None` where the descriptor has no such set).
    pub uvs: [Option<[f32; 2]>; 8],
    /// CLR0.
    pub color: Option<[u8; 4]>,
    /// PNMTXIDX value (slot × 3).
    pub pnmtxidx: Option<u32>,
    /// Index into each indexed attribute's array, in descriptor order (POS first): where the
    /// vertex's values stand in the model's arrays, which HAL filled in the source mesh's order.
    pub indices: Vec<u32>,
}

/// A PObj's geometry.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// Data offset of the PObj.
    pub pobj: u32,
    /// Owning joint (index into [`Graph::joints`]).
    pub joint: usize,
    /// Vertices in display-list order.
    pub vertices: Vec<Vertex>,
    /// Triangles as vertex indices.
    pub triangles: Vec<[u32; 3]>,
    /// Envelope palette: per slot, (joint index, weight).
    pub palette: Vec<Vec<(usize, f32)>>,
    /// Skin of each vertex.
    pub skins: Vec<Skin>,
    /// The format of the NBT normals' array, when the descriptor has one.
    pub nbt: Option<VertexFormat>,
}

/// Most entries read from one envelope array.
const MAX_ENVELOPE: usize = 1024;

impl Archive<'_> {
    /// The envelope palette of a PObj's union: per slot, (joint offset, weight).
    pub fn envelope_palette(&self, list: u32) -> Result<Vec<Vec<(u32, f32)>>> {
        let mut out = Vec::new();
        let mut at = list;
        while let Some(arr) = self.pointer(at).context("envelope list")? {
            if out.len() >= MAX_ENVELOPE {
                return Err(Error::invalid(
                    self.data().abs(list as usize),
                    "runaway envelope list",
                ));
            }
            let mut entries = Vec::new();
            for i in 0..=MAX_ENVELOPE {
                let e: Envelope =
                    self.read(arr.wrapping_add((i * Envelope::<u32>::SIZE) as u32))?;
                match e.joint {
                    Some(j) => entries.push((j, e.weight)),
                    None => break,
                }
                if i == MAX_ENVELOPE {
                    return Err(Error::invalid(
                        self.data().abs(arr as usize),
                        "runaway envelope array",
                    ));
                }
            }
            out.push(entries);
            at += 4;
        }
        Ok(out)
    }

    /// Decodes a mesh.
    pub fn mesh(&self, g: &Graph, p: &PObjRef) -> Result<Mesh> {
        let index = &g.joint_index;
        let joint_index = |off: u32| {
            index.get(&off).copied().ok_or_else(|| {
                Error::invalid(
                    self.data().abs(off as usize),
                    "envelope or bind joint is not in the joint tree",
                )
            })
        };
        let kind = p.pobj.flags.kind();
        let mut palette = Vec::new();
        if kind == PObjKind::Envelope
            && let Some(l) = p.pobj.link
        {
            for slot in self.envelope_palette(l)? {
                palette.push(
                    slot.into_iter()
                        .map(|(j, w)| joint_index(j).map(|i| (i, w)))
                        .collect::<Result<Vec<_>>>()?,
                );
            }
        }
        let rigid = match (kind, p.pobj.link) {
            (PObjKind::Rigid, Some(j)) => joint_index(j)?,
            _ => p.joint,
        };
        let mut mesh = Mesh {
            pobj: p.offset,
            joint: p.joint,
            vertices: Vec::new(),
            triangles: Vec::new(),
            palette,
            skins: Vec::new(),
            nbt: None,
        };
        let (Some(v), Some(dl)) = (p.pobj.vtx_desc, p.pobj.display_list) else {
            return Ok(mesh);
        };
        let (desc, attrs) = self.vertex_desc(v)?;
        mesh.nbt = attrs
            .iter()
            .map(|a| a.1)
            .find(|f| f.components() == Some(9));
        let mut arrays = Vec::with_capacity(attrs.len());
        for (d, f) in &attrs {
            let a = match d.array {
                Some(a) if AttrType(d.attr_type).index_size().is_some() => {
                    let stride = if d.stride == 0 {
                        f.element_size().unwrap_or(1)
                    } else {
                        usize::from(d.stride)
                    };
                    Some(VertexArray::with_stride(
                        *f,
                        self.data().sub_from(a as usize)?,
                        stride,
                    )?)
                }
                _ => None,
            };
            arrays.push((*f, a));
        }
        let len = usize::from(p.pobj.n_display) * 32;
        let avail = (self.data_size() as usize).saturating_sub(dl as usize);
        let r = self.data().sub(dl as usize, len.min(avail))?;
        let limits = self.limits();
        for prim in DisplayList::new(r, &desc) {
            let prim = prim?;
            let base = mesh.vertices.len() as u32;
            limits.check_elements((mesh.vertices.len() + prim.len()) as u64, prim.offset())?;
            for vtx in prim.vertices() {
                let mut out = Vertex::default();
                for ((e, raw), (format, array)) in vtx.fields().zip(&arrays) {
                    let value = match array {
                        Some(a) => {
                            let i = vtx.index(e.attr).unwrap_or(0);
                            out.indices.push(i);
                            Some(a.get(i as usize)?)
                        }
                        None if e.attr.is_matrix_index() => {
                            if e.attr == Attr::PNMTXIDX {
                                out.pnmtxidx = raw.first().map(|&b| u32::from(b));
                            }
                            None
                        }
                        None if e.attr.is_color() => format.decode_color(raw).map(Value::Color),
                        None => format.decode(raw).map(Value::Float),
                    };
                    match (e.attr, value) {
                        (Attr::POS, Some(Value::Float(c))) => {
                            out.position = [c.get(0), c.get(1), c.get(2)]
                        }
                        (Attr::NRM | Attr::NBT, Some(Value::Float(c))) => {
                            out.normal = Some([c.get(0), c.get(1), c.get(2)]);
                            if c.as_slice().len() == 9 {
                                out.nbt = Some([
                                    [c.get(3), c.get(4), c.get(5)],
                                    [c.get(6), c.get(7), c.get(8)],
                                ]);
                            }
                        }
                        (Attr::CLR0, Some(Value::Color(c))) => out.color = Some(c),
                        (a, Some(Value::Float(c)))
                            if (Attr::TEX0.0..=Attr::TEX7.0).contains(&a.0) =>
                        {
                            if let Some(uv) = out.uvs.get_mut((a.0 - Attr::TEX0.0) as usize) {
                                *uv = Some([c.get(0), c.get(1)]);
                            }
                        }
                        _ => {}
                    }
                }
                let skin = match kind {
                    PObjKind::Envelope => {
                        let slot = out.pnmtxidx.and_then(matrix_slot).unwrap_or(0) as usize;
                        Skin::Envelope(slot)
                    }
                    PObjKind::ShapeAnim => Skin::ShapeAnim(p.joint),
                    _ => Skin::Rigid(rigid),
                };
                mesh.skins.push(skin);
                mesh.vertices.push(out);
            }
            mesh.triangles
                .extend(prim.triangles().map(|t| t.map(|i| base + i as u32)));
        }
        Ok(mesh)
    }

    /// World matrices of every joint of the graph (parents before children) as the runtime
    /// builds them, with its scale inheritance ([`crate::pose`]).
    pub fn world_matrices(&self, g: &Graph) -> Vec<Mtx> {
        self.rest_pose(g).world
    }

    /// The rest pose of every joint of the graph: world matrices and accumulated scales.
    pub fn rest_pose(&self, g: &Graph) -> crate::pose::Pose {
        let mut pose = crate::pose::Pose::default();
        for j in &g.joints {
            let k = &j.joint;
            let classical = k.flags.contains(JointFlags::CLASSICAL_SCALE);
            pose.push(j.parent, [k.rotation, k.scale, k.translation], classical);
        }
        pose
    }

    /// Inverse bind matrices of every joint of the graph.
    pub fn inverse_binds(&self, g: &Graph) -> Vec<Option<Mtx>> {
        g.joints
            .iter()
            .map(|j| {
                j.joint
                    .inverse_bind
                    .and_then(|m| self.read::<Matrix>(m).ok())
                    .map(|m| m.m)
            })
            .collect()
    }
}

/// Whether `a` and `b` agree within `tol`: each linear entry within `tol` times the largest
/// linear entry of either (at least 1), each translation within `tol` times `reach` (at least
/// 1) — float noise, not an edit.
#[cfg(feature = "export")]
pub(crate) fn near(a: &Mtx, b: &Mtx, tol: f32, reach: f32) -> bool {
    let size = a.iter().chain(b).fold(1.0f32, |m, r| {
        r.iter().take(3).fold(m, |m, x| m.max(x.abs()))
    });
    a.iter().zip(b).all(|(ra, rb)| {
        ra.iter().zip(rb).enumerate().all(|(c, (x, y))| {
            let scale = if c == 3 { reach.max(1.0) } else { size };
            (x - y).abs() <= tol * scale
        })
    })
}

/// Whether `ibm` inverts the invertible `world` within 1e-3 (translation relative to the larger
/// of 1 and `world`'s translation).
#[cfg(feature = "export")]
pub(crate) fn inverts(ibm: &Mtx, world: &Mtx) -> bool {
    let reach = world
        .iter()
        .fold(1.0f32, |m, r| m.max(r.get(3).copied().unwrap_or(0.0).abs()));
    invert(world).is_some() && near(&mul(ibm, world), &IDENTITY, 1e-3, reach)
}

/// A joint's bind-pose world matrix: its rest world matrix `world` when its inverse bind
/// matrix `ibm` inverts it ([`inverts`]), else `ibm`'s inverse — seed 003's rebind of a
/// near-zero rest scale to a visible one — or `world` when `ibm` is singular too.
#[cfg(feature = "export")]
pub(crate) fn bind_pose(world: &Mtx, ibm: &Mtx) -> Mtx {
    if inverts(ibm, world) {
        *world
    } else {
        invert(ibm).unwrap_or(*world)
    }
}

/// The bind-pose world matrix of every joint of the graph, which its skinned vertices are
/// stored against: [`bind_pose`] of its rest world matrix (in `pose`) and its inverse bind matrix
/// (`ibm`) where it has one, else its parent's bind matrix times its local matrix — the rest
/// pose's world matrix, bit for bit, unless a joint above binds elsewhere.
#[cfg(feature = "export")]
pub(crate) fn bind_matrices(g: &Graph, pose: &crate::pose::Pose, ibm: &[Option<Mtx>]) -> Vec<Mtx> {
    let world = &pose.world;
    let mut out: Vec<Mtx> = Vec::with_capacity(g.joints.len());
    for (k, j) in g.joints.iter().enumerate() {
        let rest = world.get(k).copied().unwrap_or(IDENTITY);
        let m = match ibm.get(k).copied().flatten() {
            Some(b) => bind_pose(&rest, &b),
            None => match j.parent.filter(|&p| out.get(p) != world.get(p)) {
                Some(p) => {
                    let k = &j.joint;
                    let local = pose.local(j.parent, [k.rotation, k.scale, k.translation]);
                    mul(out.get(p).unwrap_or(&IDENTITY), &local)
                }
                None => rest,
            },
        };
        out.push(m);
    }
    out
}

/// The matrix the runtime (`_modelParseLoadEnvelopeMatrix`) uses for one palette slot:
/// - one entry with weight ≥ 1.0: `world · IBM · coord`, or just `world` (IBM omitted) when the mesh
///   has no coord (it hangs off SKELETON_ROOT): the weight-1.0 short-circuit (HSD-031);
/// - otherwise `Σ wᵢ · worldᵢ · IBMᵢ`, then `· coord` when present.
pub fn envelope_matrix(
    entries: &[(usize, f32)],
    world: &[Mtx],
    ibm: &[Option<Mtx>],
    coord: Option<&Mtx>,
) -> Mtx {
    let w = |j: usize| world.get(j).copied().unwrap_or(IDENTITY);
    let b = |j: usize| ibm.get(j).copied().flatten().unwrap_or(IDENTITY);
    if let [(j, weight)] = entries
        && *weight >= 1.0
    {
        return match coord {
            Some(c) => mul(&mul(&w(*j), &b(*j)), c),
            None => w(*j),
        };
    }
    let sum = gx::mtx::blend(
        entries
            .iter()
            .map(|&(j, weight)| (weight, mul(&w(j), &b(j)))),
    );
    match coord {
        Some(c) => mul(&sum, c),
        None => sum,
    }
}

/// The mesh's envelope coord: `None` when its owner hangs off the skeleton root (no SKELETON
/// ancestor), else the owner's matrix relative to its nearest SKELETON ancestor (the documented reading: the
/// runtime resolves the coord by walking from the owner to that ancestor).
pub fn envelope_coord(g: &Graph, world: &[Mtx], owner: usize) -> Option<Mtx> {
    coord_in(
        |j| g.joints.get(j).and_then(|j| j.parent),
        |j| {
            g.joints
                .get(j)
                .is_some_and(|j| j.joint.flags.contains(JointFlags::SKELETON))
        },
        world,
        owner,
    )
}

/// [`envelope_coord`] over any joint tree: `parent` and `skeleton` (whether a joint has
/// SKELETON) per joint index (the import asks it of the tree it is building).
pub(crate) fn coord_in(
    parent: impl Fn(usize) -> Option<usize>,
    skeleton: impl Fn(usize) -> bool,
    world: &[Mtx],
    owner: usize,
) -> Option<Mtx> {
    let mut at = parent(owner);
    let mut steps = 0;
    while let Some(p) = at.filter(|_| steps <= world.len()) {
        if skeleton(p) {
            let inv = invert(world.get(p)?)?;
            return Some(mul(&inv, world.get(owner)?));
        }
        at = parent(p);
        steps += 1;
    }
    None
}

/// Normal `n` through `m`'s linear part (no translation added and taken away, which would
/// round), as a unit vector: unchanged when already unit length within f32 noise, so a normal
/// a rotation-free matrix passes keeps its bits through export and import; `[0, 1, 0]` when
/// zero.
#[cfg(feature = "export")]
pub(crate) fn normal(m: &Mtx, n: [f32; 3]) -> [f32; 3] {
    let n = m.map(|r| r[0] * n[0] + r[1] * n[1] + r[2] * n[2]);
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if (len - 1.0).abs() < 1e-5 {
        n
    } else if len > 1e-12 {
        n.map(|x| x / len)
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// Direction `d` through `m`'s linear part, its length kept (GX NBT binormals and tangents
/// are sized as the bump strength).
#[cfg(feature = "export")]
pub(crate) fn direction(m: &Mtx, d: [f32; 3]) -> [f32; 3] {
    m.map(|r| r[0] * d[0] + r[1] * d[1] + r[2] * d[2])
}

/// `a × b`.
#[cfg(feature = "export")]
pub(crate) fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Inverse of an affine matrix (`None` when singular).
pub use gx::mtx::inverse as invert;

impl Mesh {
    /// Vertex positions in world space (rest pose), through each vertex's skin.
    pub fn world_positions(&self, g: &Graph, world: &[Mtx], ibm: &[Option<Mtx>]) -> Vec<[f32; 3]> {
        let coord = envelope_coord(g, world, self.joint);
        let slots: Vec<Mtx> = self
            .palette
            .iter()
            .map(|e| envelope_matrix(e, world, ibm, coord.as_ref()))
            .collect();
        self.vertices
            .iter()
            .zip(&self.skins)
            .map(|(v, s)| {
                let m = match s {
                    Skin::Rigid(j) | Skin::ShapeAnim(j) => {
                        world.get(*j).copied().unwrap_or(IDENTITY)
                    }
                    Skin::Envelope(s) => slots.get(*s).copied().unwrap_or(IDENTITY),
                };
                apply(&m, v.position)
            })
            .collect()
    }
}
