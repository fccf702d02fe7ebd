//! The builder: a KCL from triangles, with an octree the way community tools and Nintendo's files
//! do it — a power-of-two root grid of at most 4 cells per axis over the mesh's bounds, each cell
//! split in eight while it lists more than [`Options::max_per_leaf`] prisms and is wider than
//! [`Options::min_cell_shift`], leaf lists sorted and shared, blocks laid out breadth first, and
//! empty leaves pointing at the last list's terminator (all as in the real Galaxy files).
//!
//! A prism goes into every cell its *volume* (the triangle swept `prism_thickness` behind its face)
//! overlaps, tested exactly by separating axes, so point queries through the octree answer the same
//! as testing every prism.

use std::collections::{HashMap, VecDeque};

use gcio::{Error, Result};

use crate::geom::{Vec3, add, axis, cross, dot, length, normalize, scale, sub};
use crate::model::{Header, Kcl, Node, Octree, Prism};

/// Builder settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Prism depth behind each face (every Galaxy file seen uses 40).
    pub prism_thickness: f32,
    /// Split a cell while its list is longer than this.
    pub max_per_leaf: usize,
    /// Never split a cell whose edge is `2^min_cell_shift` or less.
    pub min_cell_shift: u32,
    /// Write Mario Kart Wii's 0x3C-byte header with this sphere radius.
    pub sphere_radius: Option<f32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            prism_thickness: 40.0,
            max_per_leaf: 8,
            min_cell_shift: 3,
            sphere_radius: None,
        }
    }
}

/// The prism fields of triangle `t`: face normal, the three outward edge normals (edges C→A,
/// A→B, B→C, the order the game rebuilds corners in) and the height (corner A to edge B→C).
/// `None` for a degenerate triangle.
pub fn prism_of(t: [Vec3; 3]) -> Option<(Vec3, [Vec3; 3], f32)> {
    let [a, b, c] = t;
    let n = cross(sub(b, a), sub(c, a));
    if length(n).is_nan() || length(n) <= 0.0 || !n.iter().all(|v| v.is_finite()) {
        return None;
    }
    let n = normalize(n);
    let e1 = normalize(cross(n, sub(c, a)));
    let e2 = normalize(cross(sub(b, a), n));
    let e3 = normalize(cross(sub(c, b), n));
    let h = dot(sub(c, a), e3);
    (h > 0.0 && h.is_finite()).then_some((n, [e1, e2, e3], h))
}

/// The six corners of a prism's volume: the triangle and its copy `thickness` behind the face.
fn volume(t: [Vec3; 3], n: Vec3, thickness: f32) -> [Vec3; 6] {
    let back = scale(n, -thickness);
    [
        t[0],
        t[1],
        t[2],
        add(t[0], back),
        add(t[1], back),
        add(t[2], back),
    ]
}

/// A prism volume prepared for cube tests: its bounds and its extent along each separating axis.
struct Solid {
    lo: Vec3,
    hi: Vec3,
    axes: Vec<(Vec3, f32, f32)>,
}

impl Solid {
    fn new(v: &[Vec3; 6], n: Vec3, t: [Vec3; 3]) -> Solid {
        let units = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let edges = [sub(t[1], t[0]), sub(t[2], t[1]), sub(t[0], t[2]), n];
        let mut dirs: Vec<Vec3> = vec![n];
        for e in &edges[..3] {
            dirs.push(cross(*e, n));
        }
        for e in edges {
            for u in units {
                dirs.push(cross(e, u));
            }
        }
        let span = |a: Vec3| {
            v.iter()
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                    let d = dot(*p, a);
                    (lo.min(d), hi.max(d))
                })
        };
        let axes = dirs
            .into_iter()
            .filter(|a| dot(*a, *a) >= 1e-12)
            .map(|a| {
                let (lo, hi) = span(a);
                (a, lo, hi)
            })
            .collect();
        let lo = [0, 1, 2].map(|k| span(units.get(k).copied().unwrap_or_default()).0);
        let hi = [0, 1, 2].map(|k| span(units.get(k).copied().unwrap_or_default()).1);
        Solid { lo, hi, axes }
    }

    /// Separating-axis overlap with the cube `[min, min + size]` (box axes first, by bounds).
    fn overlaps(&self, min: Vec3, size: f32) -> bool {
        let eps = 1e-4 * size.max(1.0);
        for k in 0..3 {
            let m = axis(min, k);
            if axis(self.lo, k) > m + size + eps || axis(self.hi, k) < m - eps {
                return false;
            }
        }
        for &(a, lo, hi) in &self.axes {
            let base = dot(min, a);
            let neg: f32 = a.iter().map(|c| c.min(0.0)).sum();
            let pos: f32 = a.iter().map(|c| c.max(0.0)).sum();
            let (blo, bhi) = (base + size * neg, base + size * pos);
            // A little slack so rounding never drops a prism from a cell it touches.
            let eps = 1e-4 * (bhi - blo).abs().max(1.0);
            if lo > bhi + eps || hi < blo - eps {
                return false;
            }
        }
        true
    }
}

enum Tree {
    Leaf(Vec<u16>),
    Branch(Box<[Tree; 8]>),
}

struct Ctx<'a> {
    solids: &'a [Solid],
    opts: &'a Options,
}

impl Ctx<'_> {
    fn cell(&self, cand: &[u32], min: Vec3, shift: u32, depth: u32) -> Tree {
        let size = 2f32.powi(shift as i32);
        let list: Vec<u32> = cand
            .iter()
            .copied()
            .filter(|&i| {
                self.solids
                    .get(i as usize)
                    .is_some_and(|s| s.overlaps(min, size))
            })
            .collect();
        if list.len() <= self.opts.max_per_leaf || shift <= self.opts.min_cell_shift || depth >= 24
        {
            return Tree::Leaf(list.iter().map(|&i| (i + 1) as u16).collect());
        }
        let half = 2f32.powi(shift as i32 - 1);
        let kids: [Tree; 8] = std::array::from_fn(|k| {
            let m = crate::geom::child_min(min, half, k);
            self.cell(&list, m, shift - 1, depth + 1)
        });
        Tree::Branch(Box::new(kids))
    }
}

/// Builds a KCL from `(triangle, attribute)` pairs. Degenerate triangles (no area) are skipped,
/// since the game cannot represent them; at most 65535 prisms fit (lists hold 1-based u16 indices).
pub fn build(tris: &[([Vec3; 3], u16)], opts: &Options) -> Result<Kcl> {
    let mut positions: Vec<Vec3> = Vec::new();
    let mut normals: Vec<Vec3> = Vec::new();
    let mut pos_ix: HashMap<[u32; 3], u16> = HashMap::new();
    let mut nrm_ix: HashMap<[u32; 3], u16> = HashMap::new();
    let intern = |pool: &mut Vec<Vec3>, ix: &mut HashMap<[u32; 3], u16>, v: Vec3| -> Result<u16> {
        let key = v.map(f32::to_bits);
        if let Some(&i) = ix.get(&key) {
            return Ok(i);
        }
        let i = u16::try_from(pool.len())
            .map_err(|_| Error::message("more than 65536 positions or normals"))?;
        pool.push(v);
        ix.insert(key, i);
        Ok(i)
    };
    let mut prisms = Vec::new();
    let mut kept: Vec<([Vec3; 3], Vec3)> = Vec::new();
    for (t, attr) in tris {
        let Some((n, e, h)) = prism_of(*t) else {
            continue;
        };
        if prisms.len() >= 0xFFFF {
            return Err(Error::message(format!(
                "{} triangles: a KCL holds at most 65535 prisms",
                tris.len()
            )));
        }
        let pos = intern(&mut positions, &mut pos_ix, t[0])?;
        let face_normal = intern(&mut normals, &mut nrm_ix, n)?;
        let edge_normals = [
            intern(&mut normals, &mut nrm_ix, e[0])?,
            intern(&mut normals, &mut nrm_ix, e[1])?,
            intern(&mut normals, &mut nrm_ix, e[2])?,
        ];
        prisms.push(Prism {
            height: h,
            pos,
            face_normal,
            edge_normals,
            attribute: *attr,
        });
        kept.push((*t, n));
    }
    let th = opts.prism_thickness;
    let vols: Vec<[Vec3; 6]> = kept.iter().map(|(t, n)| volume(*t, *n, th)).collect();
    // Area: the volumes' bounds; root cell edge 2^shift with at most 4 cells per axis.
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in vols.iter().flatten() {
        for ((l, h), c) in lo.iter_mut().zip(hi.iter_mut()).zip(p) {
            *l = l.min(*c);
            *h = h.max(*c);
        }
    }
    if vols.is_empty() {
        lo = [0.0; 3];
        hi = [1.0; 3];
    }
    let ext = [0, 1, 2].map(|a| (axis(hi, a) - axis(lo, a)).max(1.0) + 1.0);
    let max_ext = ext[0].max(ext[1]).max(ext[2]);
    let mut shift = (max_ext.log2().ceil() as i32 - 2)
        .max(opts.min_cell_shift as i32)
        .max(0) as u32;
    while 4.0 * 2f32.powi(shift as i32) < max_ext {
        shift += 1;
    }
    if shift > 28 {
        return Err(Error::message(format!(
            "mesh extent {max_ext} is too large for a KCL area"
        )));
    }
    let w = 2f32.powi(shift as i32);
    let counts = ext.map(|e| ((e / w).ceil() as u32).max(1).next_power_of_two());
    let logs = counts.map(u32::trailing_zeros);
    let header = Header {
        prism_thickness: th,
        area_min: lo,
        area_masks: counts.map(|c| !((c << shift) - 1)),
        block_width_shift: shift,
        area_x_blocks_shift: logs[0],
        area_xy_blocks_shift: logs[0] + logs[1],
        sphere_radius: opts.sphere_radius,
    };
    let solids: Vec<Solid> = vols
        .iter()
        .zip(&kept)
        .map(|(v, (t, n))| Solid::new(v, *n, *t))
        .collect();
    let ctx = Ctx {
        solids: &solids,
        opts,
    };
    let all: Vec<u32> = (0..kept.len() as u32).collect();
    let mut roots = Vec::new();
    for z in 0..counts[2] {
        for y in 0..counts[1] {
            for x in 0..counts[0] {
                let min = [
                    lo[0] + x as f32 * w,
                    lo[1] + y as f32 * w,
                    lo[2] + z as f32 * w,
                ];
                roots.push(ctx.cell(&all, min, shift, 0));
            }
        }
    }
    let octree = lay_out(roots);
    Ok(Kcl {
        header,
        positions,
        normals,
        prisms,
        octree,
        tail: None,
    })
}

/// Blocks breadth first, lists in order of first reference, identical lists shared, empty leaves
/// on the last terminator.
fn lay_out(roots: Vec<Tree>) -> Octree {
    let mut oct = Octree::default();
    let mut shared: HashMap<Vec<u16>, u32> = HashMap::new();
    let mut empties: Vec<(Option<usize>, usize)> = Vec::new();
    let mut leaf = |list: Vec<u16>, oct: &mut Octree, at: (Option<usize>, usize)| -> Node {
        if list.is_empty() {
            empties.push(at);
            return Node::Leaf(0);
        }
        let next = oct.lists.len() as u32;
        let i = *shared.entry(list.clone()).or_insert_with(|| {
            oct.lists.extend_from_slice(&list);
            oct.lists.push(0);
            next
        });
        Node::Leaf(i)
    };
    let mut queue: VecDeque<(Option<usize>, usize, Tree)> = VecDeque::new();
    for (i, t) in roots.into_iter().enumerate() {
        queue.push_back((None, i, t));
    }
    oct.root = vec![Node::Leaf(0); queue.len()];
    while let Some((parent, slot, t)) = queue.pop_front() {
        let node = match t {
            Tree::Leaf(list) => leaf(list, &mut oct, (parent, slot)),
            Tree::Branch(kids) => {
                let b = oct.blocks.len();
                oct.blocks.push([Node::Leaf(0); 8]);
                for (k, kid) in kids.into_iter().enumerate() {
                    queue.push_back((Some(b), k, kid));
                }
                Node::Branch(b as u32)
            }
        };
        set(&mut oct, parent, slot, node);
    }
    if !empties.is_empty() {
        let at = match oct.lists.len() {
            0 => {
                oct.lists.push(0);
                0
            }
            n => (n - 1) as u32,
        };
        for (parent, slot) in empties {
            set(&mut oct, parent, slot, Node::Leaf(at));
        }
    }
    oct
}

fn set(oct: &mut Octree, parent: Option<usize>, slot: usize, node: Node) {
    let target = match parent {
        None => oct.root.get_mut(slot),
        Some(b) => oct.blocks.get_mut(b).and_then(|blk| blk.get_mut(slot)),
    };
    if let Some(t) = target {
        *t = node;
    }
}

/// A small sample: a 200×200 floor of 8 triangles plus a ramp, attributes 0 and 1.
pub fn sample_triangles() -> Vec<([Vec3; 3], u16)> {
    let mut out = Vec::new();
    for i in 0..2 {
        for j in 0..2 {
            let (x, z) = (i as f32 * 100.0 - 100.0, j as f32 * 100.0 - 100.0);
            out.push(([[x, 0.0, z], [x, 0.0, z + 100.0], [x + 100.0, 0.0, z]], 0));
            out.push((
                [
                    [x + 100.0, 0.0, z],
                    [x, 0.0, z + 100.0],
                    [x + 100.0, 0.0, z + 100.0],
                ],
                0,
            ));
        }
    }
    out.push(([[0.0, 0.0, 0.0], [0.0, 50.0, 50.0], [50.0, 0.0, 0.0]], 1));
    out
}

/// Sample files for `samples/kcl/` (name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    build(&sample_triangles(), &Options::default())
        .and_then(|k| k.write())
        .map(|b| vec![("floor.kcl".to_owned(), b)])
        .unwrap_or_default()
}
