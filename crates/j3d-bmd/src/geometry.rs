//! Geometry: every shape's triangles with decoded attributes and skinning resolved through
//! SHP1 matrix groups, DRW1 and EVP1; and the skeleton's local and world matrices.

use gcio::{Context, Error, Result};
use gx::dl::{DisplayList, matrix_slot};
use gx::vtx::{Attr, Value, VertexArray};

use crate::drw1::{Drw1View, DrwKind};
use crate::evp1::{Evp1View, Mtx34};
use crate::file::BmdView;
use crate::inf1::NodeKind;
use crate::shp1::{ShapeMatrixType, Shp1View};

/// One decoded vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MeshVertex {
    /// Position as stored (joint-local for rigid vertices, bind space for envelopes).
    pub position: [f32; 3],
    /// Normal, when the shape has one.
    pub normal: Option<[f32; 3]>,
    /// Colours 0 and 1 as RGBA8.
    pub colors: [Option<[u8; 4]>; 2],
    /// Texture coordinates 0..7.
    pub uvs: [Option<[f32; 2]>; 8],
    /// The DRW1 entry the vertex uses (`None` when the model has no DRW1).
    pub drw: Option<u16>,
    /// Range of this vertex's (joint, weight) pairs in [`MeshShape::weights`]: start, length.
    pub skin: (u32, u32),
    /// The joint of a rigid (DRW1 joint-type) vertex, whose matrix places it in the model.
    pub rigid_joint: Option<u16>,
}

/// One shape's decoded geometry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshShape {
    /// SHP1 index.
    pub index: usize,
    /// Matrix type (single, billboard, Y billboard, multi).
    pub matrix_type: ShapeMatrixType,
    /// Vertices in primitive order (not deduplicated).
    pub vertices: Vec<MeshVertex>,
    /// Triangles as indices into `vertices` (strips and fans expanded).
    pub triangles: Vec<[u32; 3]>,
    /// (JNT1 index, weight) pairs shared by the vertices' `skin` ranges.
    pub weights: Vec<(u16, f32)>,
}

impl MeshShape {
    /// The skinning (joint, weight) pairs of vertex `v`.
    pub fn skin(&self, v: &MeshVertex) -> &[(u16, f32)] {
        let (s, n) = (v.skin.0 as usize, v.skin.1 as usize);
        self.weights.get(s..s.saturating_add(n)).unwrap_or_default()
    }
}

/// All shapes of a model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Shapes in SHP1 order.
    pub shapes: Vec<MeshShape>,
}

impl Mesh {
    /// Total triangles.
    pub fn triangle_count(&self) -> usize {
        self.shapes.iter().map(|s| s.triangles.len()).sum()
    }

    /// Total vertices.
    pub fn vertex_count(&self) -> usize {
        self.shapes.iter().map(|s| s.vertices.len()).sum()
    }
}

struct Arrays<'a> {
    pos: Option<VertexArray<'a>>,
    nrm: Option<VertexArray<'a>>,
    clr: [Option<VertexArray<'a>>; 2],
    tex: [Option<VertexArray<'a>>; 8],
}

/// Decodes every shape of `view`.
pub fn geometry(view: &BmdView<'_>) -> Result<Mesh> {
    let shp = match view.shp1() {
        Some(s) => s?,
        None => return Ok(Mesh::default()),
    };
    let vtx = view.vtx1().transpose()?;
    let arr = |a: Attr| -> Result<Option<VertexArray<'_>>> {
        vtx.as_ref().and_then(|v| v.array(a)).transpose()
    };
    let arrays = Arrays {
        pos: arr(Attr::POS)?,
        nrm: arr(Attr::NRM)?,
        clr: [arr(Attr::CLR0)?, arr(Attr::CLR1)?],
        tex: [0, 1, 2, 3, 4, 5, 6, 7].map(|i| arr(Attr::tex(i)).ok().flatten()),
    };
    let drw = view.drw1().transpose()?;
    let evp = view.evp1().transpose()?;
    let mut shapes = Vec::with_capacity(shp.len().min(0x10000));
    // Output stays proportional to the input: all shapes together decode at most twice the SHP1
    // chunk's size in primitive bytes, however their groups overlap.
    let mut budget = 2 * shp.reader().len();
    for i in 0..shp.len() {
        shapes.push(
            shape(&shp, i, &arrays, drw.as_ref(), evp.as_ref(), &mut budget)
                .with_context(|| format!("SHP1 > shape {i}"))?,
        );
    }
    Ok(Mesh { shapes })
}

fn get<'a>(a: &Option<VertexArray<'a>>, idx: Option<u32>, what: &str) -> Result<Option<Value>> {
    match (a, idx) {
        (Some(a), Some(i)) => a
            .get(i as usize)
            .map(Some)
            .with_context(|| format!("{what} index {i}")),
        (None, Some(i)) => Err(Error::invalid(
            0,
            format!("{what} index {i} without a VTX1 buffer"),
        )),
        _ => Ok(None),
    }
}

fn floats<const N: usize>(v: Option<Value>) -> Option<[f32; N]> {
    match v? {
        Value::Float(c) => {
            let mut out = [0.0; N];
            for (k, o) in out.iter_mut().enumerate() {
                *o = c.get(k);
            }
            Some(out)
        }
        Value::Color(_) => None,
    }
}

fn color(v: Option<Value>) -> Option<[u8; 4]> {
    match v? {
        Value::Color(c) => Some(c),
        Value::Float(_) => None,
    }
}

fn shape(
    shp: &Shp1View<'_>,
    i: usize,
    a: &Arrays<'_>,
    drw: Option<&Drw1View<'_>>,
    evp: Option<&Evp1View<'_>>,
    budget: &mut usize,
) -> Result<MeshShape> {
    let s = shp.shape(i)?;
    let desc = shp.shape_desc(i)?;
    let mut out = MeshShape {
        index: i,
        matrix_type: ShapeMatrixType(s.matrix_type),
        ..MeshShape::default()
    };
    // Skin cache per DRW1 index: (start, len) in out.weights.
    let mut cache: Vec<Option<(u32, u32)>> = vec![None; drw.map_or(0, |d| d.len())];
    let evp_starts = match evp {
        Some(e) if !e.is_empty() => e.starts()?,
        _ => Vec::new(),
    };
    let mut slots = [u16::MAX; 10];
    // Texture coordinates past the last one the shape indexes need no look-ups.
    let tex_used = (0..8u8)
        .rev()
        .find(|&n| desc.has(Attr::tex(n)))
        .map_or(0, |n| usize::from(n) + 1);
    for k in 0..usize::from(s.group_count.get()) {
        let g = shp.group(i, k)?;
        for (n, slot) in slots.iter_mut().enumerate().take(usize::from(g.data.count)) {
            let w = shp.weight(g.data.start as usize + n)?;
            if w != 0xFFFF {
                *slot = w;
            }
        }
        // Each group costs its bytes plus its two 8-byte table entries, which the chunk also holds.
        *budget = budget.checked_sub(g.prims.len() + 16).ok_or_else(|| {
            Error::new(
                gcio::ErrorKind::Limit {
                    what: "decoded primitive bytes",
                    requested: g.prims.len() as u64,
                    max: *budget as u64,
                },
                g.prims.base(),
            )
        })?;
        out.vertices
            .reserve(g.prims.len() / desc.vertex_size().max(1));
        for p in DisplayList::new(g.prims, &desc) {
            let p = p.with_context(|| format!("matrix group {k}"))?;
            let base = u32::try_from(out.vertices.len())
                .map_err(|_| Error::invalid(p.offset(), "too many vertices"))?;
            for v in p.vertices() {
                let drw_index = match v.index(Attr::PNMTXIDX) {
                    Some(m) => {
                        let slot = matrix_slot(m).ok_or_else(|| {
                            Error::invalid(
                                p.offset(),
                                format!("PNMTXIDX {m} is not a multiple of 3"),
                            )
                        })?;
                        Some(*slots.get(slot as usize).ok_or_else(|| {
                            Error::invalid(p.offset(), format!("matrix slot {slot} past 10"))
                        })?)
                    }
                    None if s.matrix_type == ShapeMatrixType::MULTI.0 => slots.first().copied(),
                    None => Some(g.data.drw),
                };
                let mut mv = MeshVertex {
                    position: floats(get(&a.pos, v.index(Attr::POS), "position")?)
                        .unwrap_or_default(),
                    normal: floats(get(&a.nrm, v.index(Attr::NRM), "normal")?),
                    ..MeshVertex::default()
                };
                for ((c, arr), at) in mv
                    .colors
                    .iter_mut()
                    .zip(&a.clr)
                    .zip([Attr::CLR0, Attr::CLR1])
                {
                    *c = color(get(arr, v.index(at), "colour")?);
                }
                for (t, (arr, n)) in mv
                    .uvs
                    .iter_mut()
                    .zip(a.tex.iter().zip(0u8..))
                    .take(tex_used)
                {
                    *t = floats(get(arr, v.index(Attr::tex(n)), "texcoord")?);
                }
                if let (Some(d), Some(di)) = (drw, drw_index.filter(|&d| d != u16::MAX)) {
                    mv.drw = Some(di);
                    let e = d.get(usize::from(di))?;
                    if e.kind == DrwKind::JOINT {
                        mv.rigid_joint = Some(e.id);
                    }
                    let cached = cache.get(usize::from(di)).copied().flatten();
                    mv.skin = match cached {
                        Some(r) => r,
                        None => {
                            let start = out.weights.len() as u32;
                            if e.kind == DrwKind::ENVELOPE {
                                let evp = evp.ok_or_else(|| {
                                    Error::invalid(p.offset(), "envelope entry without EVP1")
                                })?;
                                let id = usize::from(e.id);
                                let first = evp_starts.get(id).copied().ok_or_else(|| {
                                    Error::invalid(p.offset(), format!("envelope {id} past EVP1"))
                                })?;
                                let n = evp.sizes()?.get(id).copied().unwrap_or(0);
                                for pair in evp.pairs(first, usize::from(n)) {
                                    out.weights.push(pair?);
                                }
                            } else {
                                out.weights.push((e.id, 1.0));
                            }
                            let r = (start, out.weights.len() as u32 - start);
                            if let Some(c) = cache.get_mut(usize::from(di)) {
                                *c = Some(r);
                            }
                            r
                        }
                    };
                }
                out.vertices.push(mv);
            }
            out.triangles
                .extend(p.triangles().map(|t| t.map(|x| base + x as u32)));
        }
    }
    Ok(out)
}

/// Joint hierarchy with matrices.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skeleton {
    /// Parent joint of each joint (from the INF1 hierarchy).
    pub parents: Vec<Option<u16>>,
    /// Local matrices (scale, rotation, translation).
    pub local: Vec<Mtx34>,
    /// World matrices (parent world × local).
    pub world: Vec<Mtx34>,
}

use gx::mtx::IDENTITY;
/// Multiplies two 3×4 affine matrices (shared with HSD via `gx::mtx`).
pub use gx::mtx::mul;

/// The skeleton of `view`: parents from the INF1 joint nodes, local matrices from JNT1, world
/// matrices composed top-down in hierarchy order (parents precede children in the node list).
pub fn skeleton(view: &BmdView<'_>) -> Result<Skeleton> {
    let Some(jnt) = view.jnt1().transpose()? else {
        return Ok(Skeleton::default());
    };
    let n = jnt.len();
    let local = (0..n)
        .map(|i| jnt.joint(i).map(|j| j.local_matrix()))
        .collect::<Result<Vec<_>>>()?;
    let mut world = local.clone();
    let mut parents = vec![None; n];
    if let Some(inf) = view.inf1().transpose()? {
        let mut stack: Vec<Option<u16>> = vec![None];
        let mut last: Option<u16> = None;
        for node in inf.nodes() {
            let node = node?;
            match node.kind {
                NodeKind::OPEN => {
                    stack.push(last);
                    view.limits()
                        .check_depth(stack.len() as u32, inf.reader().base())?;
                }
                NodeKind::CLOSE => {
                    stack.pop();
                    last = stack.last().copied().flatten();
                }
                NodeKind::JOINT if usize::from(node.index) < n => {
                    let parent = stack.last().copied().flatten();
                    let j = usize::from(node.index);
                    if let (Some(slot), Some(l)) = (parents.get_mut(j), local.get(j)) {
                        *slot = parent;
                        let pw = parent
                            .and_then(|p| world.get(usize::from(p)))
                            .copied()
                            .unwrap_or(IDENTITY);
                        if let Some(w) = world.get_mut(j) {
                            *w = mul(&pw, l);
                        }
                    }
                    last = Some(node.index);
                }
                _ => last = stack.last().copied().flatten(),
            }
        }
    }
    Ok(Skeleton {
        parents,
        local,
        world,
    })
}
