//! Queries: which prisms contain a point, which a ray crosses — through the octree the way the
//! game looks cells up, and by brute force over every prism (the reference the tests compare with).

use crate::geom::{Vec3, dot, ray_box, ray_triangle, sub};
use crate::model::{Kcl, Node};

/// One octree leaf with its cube.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// The cube's smallest corner.
    pub min: Vec3,
    /// Edge length.
    pub size: f32,
    /// Depth below the root grid (0 = a root cell).
    pub depth: u32,
    /// Where its list starts in [`crate::Octree::lists`].
    pub list: u32,
}

impl Kcl {
    /// Every leaf of the octree with its cube, root cells in file order, children depth first.
    /// Branch cycles cannot occur in a parsed file (children always lie further on); the walk also
    /// stops below depth 32.
    pub fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::new();
        for (n, min, size) in self.roots() {
            self.collect(n, min, size, 0, &mut out);
        }
        out
    }

    /// The root cells in file order with their cubes (none when the header's grid is unusable).
    fn roots(&self) -> impl Iterator<Item = (Node, Vec3, f32)> + '_ {
        let h = &self.header;
        let size = 2f32.powi(h.block_width_shift.min(127) as i32);
        let grid = h.root_counts();
        grid.into_iter().flat_map(move |[nx, ny, _]| {
            self.octree.root.iter().enumerate().map(move |(i, n)| {
                let i = i as u32;
                let (x, y, z) = (i % nx, (i / nx) % ny, i / (nx.max(1) * ny.max(1)));
                let min = [
                    h.area_min[0] + x as f32 * size,
                    h.area_min[1] + y as f32 * size,
                    h.area_min[2] + z as f32 * size,
                ];
                (*n, min, size)
            })
        })
    }

    /// The eight children of branch `b` (cube at `min`, edge `size`, at `depth`) with their cubes;
    /// none for a missing block or at depth 32, which bounds every walk.
    fn children(
        &self,
        b: u32,
        min: Vec3,
        size: f32,
        depth: u32,
    ) -> impl Iterator<Item = (Node, Vec3, f32)> + '_ {
        let half = size * 0.5;
        let block = self.octree.blocks.get(b as usize).filter(|_| depth < 32);
        block.into_iter().flat_map(move |block| {
            block
                .iter()
                .enumerate()
                .map(move |(k, c)| (*c, crate::geom::child_min(min, half, k), half))
        })
    }

    fn collect(&self, n: Node, min: Vec3, size: f32, depth: u32, out: &mut Vec<Cell>) {
        match n {
            Node::Leaf(list) => out.push(Cell {
                min,
                size,
                depth,
                list,
            }),
            Node::Branch(b) => {
                for (c, m, half) in self.children(b, min, size, depth) {
                    self.collect(c, m, half, depth + 1, out);
                }
            }
        }
    }

    /// The leaf list (0-based prism indices) of the cell holding `p`, looked up the game's way:
    /// integer offsets from the area corner, masks, then one bit per level. `None` outside the area.
    pub fn leaf_at(&self, p: Vec3) -> Option<Vec<u16>> {
        let h = &self.header;
        let mut c = [0u32; 3];
        for ((c, (&p, &m)), &mask) in c
            .iter_mut()
            .zip(p.iter().zip(&h.area_min))
            .zip(&h.area_masks)
        {
            let d = p - m;
            if !(0.0..4_294_967_296.0).contains(&d) {
                return None;
            }
            *c = d as u32;
            if *c & mask != 0 {
                return None;
            }
        }
        let mut shift = h.block_width_shift;
        let idx = c[2]
            .checked_shr(shift)?
            .checked_shl(h.area_xy_blocks_shift)?
            | c[1]
                .checked_shr(shift)?
                .checked_shl(h.area_x_blocks_shift)?
            | c[0].checked_shr(shift)?;
        let mut node = *self.octree.root.get(idx as usize)?;
        loop {
            match node {
                Node::Leaf(list) => return Some(self.leaf_list(list)),
                Node::Branch(b) => {
                    shift = shift.checked_sub(1)?;
                    let k = ((c[2] >> shift) & 1) << 2
                        | ((c[1] >> shift) & 1) << 1
                        | (c[0] >> shift) & 1;
                    node = *self.octree.blocks.get(b as usize)?.get(k as usize)?;
                }
            }
        }
    }

    /// Whether `p` is inside prism `i`'s volume: within its three edge planes and between its face
    /// and `prism_thickness` behind it.
    pub fn prism_contains(&self, i: usize, p: Vec3) -> bool {
        let Some(pr) = self.prisms.get(i) else {
            return false;
        };
        let get = |k: u16| self.normals.get(usize::from(k)).copied();
        let (Some(a), Some(n), Some(e1), Some(e2), Some(e3)) = (
            self.positions.get(usize::from(pr.pos)).copied(),
            get(pr.face_normal),
            get(pr.edge_normals[0]),
            get(pr.edge_normals[1]),
            get(pr.edge_normals[2]),
        ) else {
            return false;
        };
        let d = sub(p, a);
        let depth = dot(d, n);
        dot(d, e1) <= 0.0
            && dot(d, e2) <= 0.0
            && dot(d, e3) <= pr.height
            && depth <= 0.0
            && depth >= -self.header.prism_thickness
    }

    /// Prisms (0-based, ascending) whose volume holds `p`, through the octree.
    pub fn query_point(&self, p: Vec3) -> Vec<u16> {
        let mut out: Vec<u16> = self
            .leaf_at(p)
            .unwrap_or_default()
            .into_iter()
            .filter(|&i| self.prism_contains(usize::from(i), p))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Prisms (0-based, ascending) whose volume holds `p`, testing every prism.
    pub fn query_point_brute(&self, p: Vec3) -> Vec<u16> {
        (0..self.prisms.len())
            .filter(|&i| self.prism_contains(i, p))
            .filter_map(|i| u16::try_from(i).ok())
            .collect()
    }

    /// Prisms (0-based, ascending) whose triangle the ray `origin + t·dir`, `0 ≤ t ≤ max_t`, crosses,
    /// descending only into the octree cells the ray passes through.
    pub fn query_ray(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Vec<u16> {
        let mut cand: Vec<u16> = Vec::new();
        for (n, min, size) in self.roots() {
            self.ray_cells(n, min, size, 0, (origin, dir, max_t), &mut cand);
        }
        cand.sort_unstable();
        cand.dedup();
        cand.retain(|&i| self.ray_hits(usize::from(i), origin, dir, max_t));
        cand
    }

    fn ray_cells(
        &self,
        n: Node,
        min: Vec3,
        size: f32,
        depth: u32,
        ray: (Vec3, Vec3, f32),
        out: &mut Vec<u16>,
    ) {
        let (origin, dir, max_t) = ray;
        match ray_box(origin, dir, min, [size; 3]) {
            Some((t0, t1)) if t1 >= 0.0 && t0 <= max_t => {}
            _ => return,
        }
        match n {
            Node::Leaf(list) => out.extend(self.leaf_list(list)),
            Node::Branch(b) => {
                for (c, m, half) in self.children(b, min, size, depth) {
                    self.ray_cells(c, m, half, depth + 1, ray, out);
                }
            }
        }
    }

    /// [`Kcl::query_ray`] testing every prism.
    pub fn query_ray_brute(&self, origin: Vec3, dir: Vec3, max_t: f32) -> Vec<u16> {
        (0..self.prisms.len())
            .filter(|&i| self.ray_hits(i, origin, dir, max_t))
            .filter_map(|i| u16::try_from(i).ok())
            .collect()
    }

    fn ray_hits(&self, i: usize, origin: Vec3, dir: Vec3, max_t: f32) -> bool {
        self.triangle(i)
            .and_then(|t| ray_triangle(origin, dir, t))
            .is_some_and(|t| t <= max_t)
    }
}
