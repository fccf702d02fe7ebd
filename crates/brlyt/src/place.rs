//! Where the panes land on the screen: each pane's quad in screen coordinates (y up, origin
//! at the screen centre as the game draws a centred layout), its visibility and alpha as the
//! game derives them from its ancestors (NW4R `Pane::CalculateMtx`, `GetVtxPos`): the local
//! matrix is translation × rotation about z × scale, the quad sits relative to the pane's
//! origin by its base position, a hidden pane hides its subtree, and a pane with flag bit 1
//! multiplies its descendants' alpha by its own. Rotations about x and y (3D panes) are left out.

use crate::model::{Brlyt, Pane};
use crate::tree::Tree;

/// A pane placed on the screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The pane (index into [`Tree::panes`]).
    pub pane: usize,
    /// Corners: top left, top right, bottom left, bottom right (screen units, y up).
    pub corners: [[f32; 2]; 4],
    /// Drawn: itself and every ancestor visible.
    pub visible: bool,
    /// Alpha after the ancestors that pass theirs on (0–255).
    pub alpha: f32,
    /// The pane's matrix onto the screen: rows (a, b, tx) and (c, d, ty), local y up. Drawing
    /// anything else in the pane's frame (window frames, glyphs) goes through it.
    pub matrix: Mtx,
}

impl Placed {
    /// The axis-aligned box around the corners: min x, min y, max x, max y.
    pub fn bounds(&self) -> [f32; 4] {
        let xs = self.corners.map(|c| c[0]);
        let ys = self.corners.map(|c| c[1]);
        let min = |v: [f32; 4]| v.into_iter().fold(f32::INFINITY, f32::min);
        let max = |v: [f32; 4]| v.into_iter().fold(f32::NEG_INFINITY, f32::max);
        [min(xs), min(ys), max(xs), max(ys)]
    }
}

/// A 2×3 affine matrix, rows (a, b, tx) and (c, d, ty).
pub type Mtx = [[f32; 3]; 2];

fn mul(p: &Mtx, l: &Mtx) -> Mtx {
    let row = |r: &[f32; 3]| {
        [
            r[0] * l[0][0] + r[1] * l[1][0],
            r[0] * l[0][1] + r[1] * l[1][1],
            r[0] * l[0][2] + r[1] * l[1][2] + r[2],
        ]
    };
    [row(&p[0]), row(&p[1])]
}

fn local(p: &Pane) -> Mtx {
    let (s, c) = p.rotate[2].get().to_radians().sin_cos();
    let (sx, sy) = (p.scale[0].get(), p.scale[1].get());
    [
        [c * sx, -s * sy, p.translate[0].get()],
        [s * sx, c * sy, p.translate[1].get()],
    ]
}

/// `m` applied to the point (`x`, `y`).
pub fn apply(m: &Mtx, x: f32, y: f32) -> [f32; 2] {
    [
        m[0][0] * x + m[0][1] * y + m[0][2],
        m[1][0] * x + m[1][1] * y + m[1][2],
    ]
}

impl Brlyt {
    /// Every pane of `tree` placed on the screen, in drawing order (depth first from each
    /// top-level pane).
    pub fn place(&self, tree: &Tree) -> Vec<Placed> {
        const ID: Mtx = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let mut out = Vec::with_capacity(tree.panes.len());
        // (pane, parent matrix, parent visible, parent alpha passed on)
        let mut todo: Vec<(usize, Mtx, bool, f32)> = tree
            .roots()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|r| (r, ID, true, 255.0))
            .collect();
        while let Some((i, parent, shown, inherited)) = todo.pop() {
            let Some(node) = tree.panes.get(i) else {
                continue;
            };
            let Some(p) = self.pane_of(node) else {
                continue;
            };
            let m = mul(&parent, &local(p));
            let (w, h) = (p.size[0].get(), p.size[1].get());
            let x = match p.origin % 3 {
                1 => -w / 2.0,
                2 => -w,
                _ => 0.0,
            };
            let y = match p.origin / 3 {
                1 => h / 2.0,
                2 => h,
                _ => 0.0,
            };
            let visible = shown && p.visible();
            let alpha = inherited * f32::from(p.alpha) / 255.0;
            out.push(Placed {
                pane: i,
                corners: [
                    apply(&m, x, y),
                    apply(&m, x + w, y),
                    apply(&m, x, y - h),
                    apply(&m, x + w, y - h),
                ],
                visible,
                alpha,
                matrix: m,
            });
            // Bit 1 scales what the descendants inherit; without it they inherit what this pane did.
            let pass = if p.flags & 2 != 0 { alpha } else { inherited };
            for &c in node.children.iter().rev() {
                todo.push((c, m, visible, pass));
            }
        }
        out
    }
}
