//! Triangle stripification: turns an indexed triangle list into GX draw commands (triangle strips,
//! plus one triangle list for what no strip takes), e.g. for importing models into J3D or HSD.
//!
//! Winding follows GX's strip decoding ([`dl::triangles`]): triangle `k` of a strip is
//! `(s[k], s[k+1], s[k+2])` when `k` is even and `(s[k+1], s[k], s[k+2])` when odd, so every
//! triangle keeps the facing it had in the input. Strips never use swaps or degenerate triangles:
//! decoding the output gives back each input triangle exactly once (as a rotation of itself) and
//! nothing else.
//!
//! Algorithm (greedy, in the spirit of the classic SGI/NvTriStrip builders):
//! 1. Degenerate triangles (a repeated index) are dropped and counted.
//! 2. Every directed edge `a→b` of every triangle goes into one table sorted by `(a, b)`; a strip
//!    that ends in `…, u, v` continues with a triangle holding the edge `u→v` or `v→u` (by the
//!    parity of its position), found by binary search: O(n log n) overall.
//! 3. A strip starts at the unused triangle with the fewest edges still shared with unused,
//!    consistently wound neighbours (a heap with lazy updates), so strips start at borders and
//!    leave no islands behind. From it, strips are grown forward, then backward, for each of its
//!    three rotations; the longest is kept. A backward extension ending at an odd position drops
//!    its first triangle, so the strip starts with GX's even winding.
//! 4. Among several candidates for the next triangle (non-manifold edges, duplicates), the one
//!    with the fewest unused neighbours wins, as in step 3.
//! 5. Strips longer than the vertex limit (the draw command's u16 count) are cut at an even
//!    vertex, overlapping by two vertices, so winding survives the cut.
//! 6. Strips of a single triangle are gathered into ONE `TRIANGLES` command (3 vertices each,
//!    split at the limit) rather than 3-vertex strips: the same vertex bytes with 3 bytes less of
//!    command header per triangle. Nintendo's J3D tools mostly emit lone triangles as 3-vertex
//!    strips (the measurement below), though some SMG2 models have triangle lists; the game
//!    draws both.
//!
//! Measured on 19 J3D models of the corpus (`tests/strip.rs` prints the figures; table in the
//! crate README): 3,938 commands and 38,528 vertices where Nintendo's display lists have 6,131
//! and 40,792 for the same 28,338 triangles, and no model above Nintendo's counts.
//!
//! ```
//! use gx::dl::Opcode;
//! use gx::strip::stripify;
//!
//! // Two triangles of a quad, wound the same way: one strip of 4 vertices.
//! let prims = stripify(&[[0, 1, 2], [2, 1, 3]]);
//! assert_eq!(prims.len(), 1);
//! assert_eq!(prims[0].op, Opcode::TRIANGLE_STRIP);
//! assert_eq!(prims[0].triangles().collect::<Vec<_>>(), [[0, 1, 2], [2, 1, 3]]);
//! ```

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::dl::{self, Opcode};

/// Most vertices one draw command holds (its count is a u16).
pub const MAX_VERTICES: usize = u16::MAX as usize;

/// One draw command of the output: a primitive type and its vertex indices.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Primitive {
    /// [`Opcode::TRIANGLE_STRIP`] or [`Opcode::TRIANGLES`] (VAT 0: the caller sets its VAT).
    pub op: Opcode,
    /// Vertex indices in draw order.
    pub indices: Vec<u32>,
}

impl Primitive {
    /// The triangles this command draws, as GX decodes them.
    pub fn triangles(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        dl::triangles(self.op, self.indices.len()).filter_map(|t| {
            let at = |k: usize| self.indices.get(k).copied();
            Some([at(t[0])?, at(t[1])?, at(t[2])?])
        })
    }
}

/// The result of [`stripify_with`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Strips {
    /// Strips first, then the triangle list of lone triangles (if any).
    pub primitives: Vec<Primitive>,
    /// Input triangles dropped because they repeat an index.
    pub degenerate: usize,
}

impl Strips {
    /// Vertices over all commands (what the display list stores).
    pub fn vertex_count(&self) -> usize {
        self.primitives.iter().map(|p| p.indices.len()).sum()
    }
}

/// Strips for `triangles` with commands of at most [`MAX_VERTICES`] vertices (see the module
/// docs); degenerate triangles are dropped.
pub fn stripify(triangles: &[[u32; 3]]) -> Vec<Primitive> {
    stripify_with(triangles, MAX_VERTICES).primitives
}

/// Strips for `triangles` with commands of at most `max_vertices` vertices (clamped to
/// 4..=[`MAX_VERTICES`]; strips are cut at an even count, triangle lists at a multiple of 3).
pub fn stripify_with(triangles: &[[u32; 3]], max_vertices: usize) -> Strips {
    let max = max_vertices.clamp(4, MAX_VERTICES);
    let tris: Vec<[u32; 3]> = triangles
        .iter()
        .copied()
        .filter(|&[a, b, c]| a != b && b != c && a != c)
        .collect();
    let mut out = Strips {
        degenerate: triangles.len() - tris.len(),
        ..Strips::default()
    };
    let mut builder = Builder::new(&tris);
    let mut singles = Vec::new();
    for strip in std::iter::from_fn(|| builder.next_strip()) {
        if strip.len() == 3 {
            singles.extend(strip);
        } else {
            push_strip(&mut out.primitives, &strip, max);
        }
    }
    for chunk in singles.chunks(max / 3 * 3) {
        out.primitives.push(Primitive {
            op: Opcode::TRIANGLES,
            indices: chunk.to_vec(),
        });
    }
    out
}

/// Appends `strip` as commands of at most `max` (≥ 4) vertices: each cut starts at an even vertex
/// of the whole strip and repeats the two before it, so every triangle keeps its parity.
fn push_strip(out: &mut Vec<Primitive>, strip: &[u32], max: usize) {
    let step = (max & !1) - 2;
    let mut start = 0;
    while let Some(rest) = strip.get(start..) {
        let chunk = rest.get(..max & !1).unwrap_or(rest);
        out.push(Primitive {
            op: Opcode::TRIANGLE_STRIP,
            indices: chunk.to_vec(),
        });
        if chunk.len() == rest.len() {
            break;
        }
        start += step;
    }
}

/// A directed edge `a→b`, edge `k` (0..3) of triangle `tri`, whose third vertex is `c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    a: u32,
    b: u32,
    c: u32,
    tri: u32,
    k: u8,
}

/// Triangle state: free, taken by the trial strip with this stamp, or [`USED`] by a kept strip.
const USED: u32 = u32::MAX;
/// Candidates compared when several free triangles continue a strip.
const LOOK: usize = 4;

/// The greedy strip builder's state over the non-degenerate triangles.
struct Builder {
    tris: Vec<[u32; 3]>,
    /// All directed edges, sorted: a bucket is the run of one `(a, b)`, named by its first entry.
    edges: Vec<Edge>,
    /// Per triangle, per edge: the bucket of the reversed edge (its strip neighbours), if any.
    rev: Vec<[Option<u32>; 3]>,
    /// Per triangle, per edge: the bucket of the edge itself.
    own: Vec<[u32; 3]>,
    /// Per bucket (indexed by its first entry): triangles not yet in a kept strip.
    free_in: Vec<u32>,
    /// Per bucket: the first entry that may still be free.
    cursor: Vec<u32>,
    /// Per triangle: 0 or an old stamp = free, the current stamp = in this trial, [`USED`].
    state: Vec<u32>,
    /// The current trial strip's stamp.
    stamp: u32,
    /// Start candidates by (degree when pushed, triangle); degrees only fall, so stale entries
    /// are re-pushed when popped.
    heap: BinaryHeap<Reverse<(u8, u32)>>,
}

impl Builder {
    fn new(tris: &[[u32; 3]]) -> Self {
        let mut edges: Vec<Edge> = tris
            .iter()
            .enumerate()
            .flat_map(|(t, &[a, b, c])| {
                let tri = t as u32;
                [(a, b, c, 0), (b, c, a, 1), (c, a, b, 2)].map(|(a, b, c, k)| Edge {
                    a,
                    b,
                    c,
                    tri,
                    k,
                })
            })
            .collect();
        edges.sort_unstable();
        let mut own = vec![[0u32; 3]; tris.len()];
        let mut start = 0u32;
        for (i, e) in edges.iter().enumerate() {
            if edges
                .get(start as usize)
                .is_none_or(|s| (s.a, s.b) != (e.a, e.b))
            {
                start = i as u32;
            }
            if let Some(slot) = own
                .get_mut(e.tri as usize)
                .and_then(|o| o.get_mut(usize::from(e.k)))
            {
                *slot = start;
            }
        }
        let mut b = Builder {
            tris: tris.to_vec(),
            rev: Vec::new(),
            own,
            free_in: vec![0; edges.len()],
            cursor: Vec::new(),
            state: vec![0; tris.len()],
            stamp: 0,
            heap: BinaryHeap::new(),
            edges,
        };
        b.cursor = (0..b.edges.len() as u32).collect();
        for o in &b.own {
            for &k in o {
                if let Some(n) = b.free_in.get_mut(k as usize) {
                    *n += 1;
                }
            }
        }
        b.rev = tris
            .iter()
            .map(|&[x, y, z]| [(y, x), (z, y), (x, z)].map(|(p, q)| bucket_of(&b.edges, p, q)))
            .collect();
        b.heap = (0..tris.len() as u32)
            .map(|t| Reverse((b.degree(t), t)))
            .collect();
        b
    }

    /// Edges of `t` shared with a free, consistently wound neighbour (0..=3).
    fn degree(&self, t: u32) -> u8 {
        self.rev
            .get(t as usize)
            .map_or(0, |r| {
                r.iter()
                    .flatten()
                    .filter(|&&k| self.free_in.get(k as usize).is_some_and(|&n| n > 0))
                    .count()
            })
            .min(3) as u8
    }

    fn is_free(&self, t: u32) -> bool {
        self.state
            .get(t as usize)
            .is_some_and(|&s| s != USED && s != self.stamp)
    }

    /// A free triangle holding the directed edge `a→b` and its third vertex; marks it taken by
    /// the current trial.
    fn take(&mut self, a: u32, b: u32) -> Option<(u32, u32)> {
        let bucket = bucket_of(&self.edges, a, b)? as usize;
        let mut i = self.cursor.get(bucket).copied()? as usize;
        while let Some(e) = self.edges.get(i)
            && (e.a, e.b) == (a, b)
            && self.state.get(e.tri as usize) == Some(&USED)
        {
            i += 1;
        }
        if let Some(c) = self.cursor.get_mut(bucket) {
            *c = i as u32;
        }
        let best = self
            .edges
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|e| (e.a, e.b) == (a, b))
            // Bounded: entries this trial took are skipped, at most a few of them.
            .take(4 * LOOK)
            .filter(|e| self.is_free(e.tri))
            .take(LOOK)
            .min_by_key(|e| self.degree(e.tri))
            .copied()?;
        if let Some(s) = self.state.get_mut(best.tri as usize) {
            *s = self.stamp;
        }
        Some((best.tri, best.c))
    }

    /// [`take`](Self::take) for a triangle on strip vertices `u, w` at an odd (`w→u`) or even
    /// (`u→w`) position.
    fn take_after(&mut self, u: u32, w: u32, odd: bool) -> Option<(u32, u32)> {
        if odd {
            self.take(w, u)
        } else {
            self.take(u, w)
        }
    }

    /// Grows a trial strip from `tri` rotated to start at `v`: forward, then backward.
    fn grow(&mut self, tri: u32, v: [u32; 3]) -> (VecDeque<u32>, VecDeque<u32>) {
        self.stamp += 1;
        if let Some(s) = self.state.get_mut(tri as usize) {
            *s = self.stamp;
        }
        let mut strip = VecDeque::from(v);
        let mut ids = VecDeque::from([tri]);
        // Forward: the new triangle's position is that of strip[n - 2], strip[0] being at 0.
        while let (Some(&u), Some(&w)) = (strip.get(strip.len() - 2), strip.back())
            && let Some((t, x)) = self.take_after(u, w, strip.len() % 2 == 1)
        {
            strip.push_back(x);
            ids.push_back(t);
        }
        // Backward: the new triangle's position is one before strip[0].
        let mut front_odd = false;
        while let (Some(&s0), Some(&s1)) = (strip.front(), strip.get(1))
            && let Some((t, x)) = self.take_after(s0, s1, !front_odd)
        {
            strip.push_front(x);
            ids.push_front(t);
            front_odd = !front_odd;
        }
        if front_odd {
            // Starting at an odd position would flip every triangle: give the first one back.
            strip.pop_front();
            if let Some(t) = ids.pop_front()
                && let Some(s) = self.state.get_mut(t as usize)
            {
                *s = 0;
            }
        }
        (strip, ids)
    }

    fn next_strip(&mut self) -> Option<Vec<u32>> {
        let start = loop {
            let Reverse((d, t)) = self.heap.pop()?;
            if self.state.get(t as usize) == Some(&USED) {
                continue;
            }
            let now = self.degree(t);
            if now < d {
                self.heap.push(Reverse((now, t)));
                continue;
            }
            break t;
        };
        let [a, b, c] = self.tris.get(start as usize).copied()?;
        let mut best: Option<(VecDeque<u32>, VecDeque<u32>)> = None;
        for v in [[a, b, c], [b, c, a], [c, a, b]] {
            let trial = self.grow(start, v);
            if best.as_ref().is_none_or(|b| trial.1.len() > b.1.len()) {
                best = Some(trial);
            }
        }
        let (strip, ids) = best?;
        for t in ids {
            if let Some(s) = self.state.get_mut(t as usize) {
                *s = USED;
            }
            for k in self.own.get(t as usize).copied().unwrap_or_default() {
                if let Some(n) = self.free_in.get_mut(k as usize) {
                    *n = n.saturating_sub(1);
                }
            }
        }
        Some(strip.into())
    }
}

/// The bucket (first entry) of edge `a→b`, if any triangle has it.
fn bucket_of(edges: &[Edge], a: u32, b: u32) -> Option<u32> {
    let i = edges.partition_point(|e| (e.a, e.b) < (a, b));
    edges
        .get(i)
        .filter(|e| (e.a, e.b) == (a, b))
        .map(|_| i as u32)
}

/// Draw commands re-formed from a triangle sequence, keeping its order: a triangle continues the
/// current strip when it is the strip's next triangle in GX's decoding (at an even position
/// `(s[k], s[k+1], x)`, at an odd one `(s[k+1], s[k], x)`); two triangles `(a, b, c), (a, c, d)`
/// are a quad (consecutive quads one `QUADS` command); any other triangle starts a strip, and
/// runs of two or more strips of one triangle become one `TRIANGLES` command. A sequence decoded
/// from such commands (an export writing triangles in display-list order) gives them back —
/// except a run of one-triangle strips, which comes back as a list. Degenerate triangles are
/// dropped.
pub fn in_order(triangles: &[[u32; 3]]) -> Vec<Primitive> {
    let tris: Vec<[u32; 3]> = triangles
        .iter()
        .copied()
        .filter(|&[a, b, c]| a != b && b != c && a != c)
        .collect();
    let mut out: Vec<Primitive> = Vec::new();
    let mut i = 0;
    while let Some(&[a, b, c]) = tris.get(i) {
        i += 1;
        if let Some(s) = out.last_mut().filter(|s| s.op == Opcode::TRIANGLE_STRIP)
            && let [.., p, q] = s.indices[..]
        {
            // The strip's triangle count is its length − 2: even → (p, q, x), odd → (q, p, x).
            let next = if s.indices.len() % 2 == 0 {
                [p, q]
            } else {
                [q, p]
            };
            if [a, b] == next && s.indices.len() < MAX_VERTICES {
                s.indices.push(c);
                continue;
            }
        }
        if let Some(&[a2, c2, d]) = tris.get(i)
            && [a2, c2] == [a, c]
            && d != b
        {
            i += 1;
            match out.last_mut().filter(|s| s.op == Opcode::QUADS) {
                Some(q) if q.indices.len() + 4 <= MAX_VERTICES => {
                    q.indices.extend([a, b, c, d]);
                }
                _ => out.push(Primitive {
                    op: Opcode::QUADS,
                    indices: vec![a, b, c, d],
                }),
            }
            continue;
        }
        out.push(Primitive {
            op: Opcode::TRIANGLE_STRIP,
            indices: vec![a, b, c],
        });
    }
    // Runs of one-triangle strips as one triangle list.
    let lone = |p: &Primitive| p.op == Opcode::TRIANGLE_STRIP && p.indices.len() == 3;
    let mut merged: Vec<Primitive> = Vec::with_capacity(out.len());
    let mut k = 0;
    while k < out.len() {
        let run = out
            .get(k..)
            .map_or(0, |r| r.iter().take_while(|p| lone(p)).count());
        if run >= 2 {
            let indices: Vec<u32> = out
                .get(k..k + run)
                .into_iter()
                .flatten()
                .flat_map(|p| p.indices.iter().copied())
                .collect();
            for chunk in indices.chunks(MAX_VERTICES / 3 * 3) {
                merged.push(Primitive {
                    op: Opcode::TRIANGLES,
                    indices: chunk.to_vec(),
                });
            }
            k += run;
        } else {
            merged.extend(out.get(k).cloned());
            k += 1;
        }
    }
    merged
}
