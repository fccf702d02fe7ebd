//! Whether two scenes hold the same model, the way a modder would judge a round trip: the same
//! triangles (as a multiset, positions within a tolerance relative to the model's extent, any
//! vertex order within a triangle that keeps its winding), node names, material count and
//! image pixels — however differently the files split meshes, order vertices or share values.

use std::collections::HashMap;

use crate::scene::Scene;

/// What differs between two scenes (all empty or equal when they hold the same model).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Difference {
    /// Triangles of the first scene without a partner in the second.
    pub missing: usize,
    /// Triangles of the second scene without a partner in the first.
    pub extra: usize,
    /// Triangle counts of both.
    pub triangles: (usize, usize),
    /// Node names differ (in order).
    pub names: bool,
    /// Material counts of both.
    pub materials: (usize, usize),
    /// Images of the first scene whose pixels no image of the second has.
    pub images: usize,
}

impl Difference {
    /// True when both scenes hold the same model.
    pub fn is_same(&self) -> bool {
        self.missing == 0
            && self.extra == 0
            && !self.names
            && self.materials.0 == self.materials.1
            && self.images == 0
    }
}

type Tri = [[f32; 3]; 3];

/// The triangles of `s` in model space.
fn triangles(s: &Scene) -> Vec<Tri> {
    let mut out = Vec::new();
    for m in &s.meshes {
        for t in &m.triangles {
            out.push(t.map(|i| m.positions.get(i as usize).copied().unwrap_or_default()));
        }
    }
    out
}

/// Largest absolute coordinate of `s`'s positions (at least 1).
fn extent(s: &Scene) -> f32 {
    s.meshes
        .iter()
        .flat_map(|m| m.positions.iter().flatten())
        .fold(1.0f32, |m, x| m.max(x.abs()))
}

/// Compares `a` and `b`; positions match within `tol × extent of a`.
pub fn compare(a: &Scene, b: &Scene, tol: f32) -> Difference {
    let eps = tol * extent(a);
    let (ta, tb) = (triangles(a), triangles(b));
    let cell = |t: &Tri| {
        let [p, q, r] = *t;
        let c = [p[0] + q[0] + r[0], p[1] + q[1] + r[1], p[2] + q[2] + r[2]].map(|x| x / 3.0);
        c.map(|x| (x / (eps * 4.0)).floor() as i64)
    };
    let mut grid: HashMap<[i64; 3], Vec<usize>> = HashMap::new();
    for (i, t) in tb.iter().enumerate() {
        grid.entry(cell(t)).or_default().push(i);
    }
    let mut used = vec![false; tb.len()];
    // Largest coordinate difference over the rotation of `q` that fits `p` best (winding kept).
    let dist = |p: &Tri, q: &Tri| {
        (0..3)
            .map(|r| {
                (0..3)
                    .flat_map(|k| {
                        let (a, b) = (p.get(k), q.get((k + r) % 3));
                        (0..3).map(move |c| {
                            let x = a.and_then(|v| v.get(c)).copied().unwrap_or(0.0);
                            let y = b.and_then(|v| v.get(c)).copied().unwrap_or(0.0);
                            (x - y).abs()
                        })
                    })
                    .fold(0.0f32, f32::max)
            })
            .fold(f32::INFINITY, f32::min)
    };
    // Each triangle takes the closest unused partner within `eps` (closest, not first: in a
    // large model `eps` spans several neighbouring triangles).
    let mut missing = 0;
    for t in &ta {
        let c = cell(t);
        let mut best: Option<(f32, usize)> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let key = [c[0] + dx, c[1] + dy, c[2] + dz];
                    for &j in grid.get(&key).map_or(&[][..], Vec::as_slice) {
                        if used.get(j).copied().unwrap_or(true) {
                            continue;
                        }
                        let d = tb.get(j).map_or(f32::INFINITY, |q| dist(t, q));
                        if d <= eps && best.is_none_or(|b| d < b.0) {
                            best = Some((d, j));
                        }
                    }
                }
            }
        }
        match best.and_then(|(_, j)| used.get_mut(j)) {
            Some(u) => *u = true,
            None => missing += 1,
        }
    }
    let names = a
        .nodes
        .iter()
        .map(|n| &n.name)
        .ne(b.nodes.iter().map(|n| &n.name));
    let images = a
        .images()
        .iter()
        .filter(|i| !b.images().contains(i))
        .count();
    Difference {
        missing,
        extra: used.iter().filter(|u| !**u).count(),
        triangles: (ta.len(), tb.len()),
        names,
        materials: (a.materials.len(), b.materials.len()),
        images,
    }
}
