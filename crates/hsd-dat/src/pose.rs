//! Joint matrices as the runtime builds them (`HSD_JObjMakeMatrix`, sysdolphin `jobj.c`).
//!
//! Each joint keeps an accumulated scale `scl`: its own scale times its parent's `scl`, or
//! the parent's unchanged for a joint with `JOBJ_CLASSICAL_SCALE` (flag 8; an AnimJoint's flag
//! bit 0 sets or clears it when its animation is added). The local matrix is
//! `HSD_MtxSRT(scale, rotate, translate, parent scl)`: entry `[r][c]` of `T·Rz·Ry·Rx·S` times
//! `P[c] / P[r]`, that is `T · P⁻¹·R·P · S` for the parent's accumulated scale `P`. A
//! non-uniform `P` therefore applies along the child's own axes (Blender's *Aligned* scale
//! inheritance), not through the parent's matrix as glTF composes; where `P` is uniform, or
//! every joint is classical, both agree.

use crate::mesh::{Mtx, mul, srt};

/// A joint's local matrix under a parent whose accumulated scale is `parent_scl` (`None` at a
/// root and under classical joints with no scaled ancestor). A `parent_scl` with a zero,
/// subnormal or non-finite component is ignored: the runtime divides by it, its matrix is NaN
/// and the subtree is not drawn; composed without it, the subtree collapses with its parent.
pub fn local(
    rotation: [f32; 3],
    scale: [f32; 3],
    translation: [f32; 3],
    parent_scl: Option<[f32; 3]>,
) -> Mtx {
    let mut m = srt(rotation, scale, translation);
    if let Some(p) = parent_scl.filter(|p| p.iter().all(|x| x.is_normal())) {
        for (row, &pr) in m.iter_mut().zip(&p) {
            let inv = 1.0 / pr;
            for (x, &pc) in row.iter_mut().zip(&p) {
                *x *= pc * inv;
            }
        }
    }
    m
}

/// The accumulated scale a joint passes to its children: its parent's for a classical joint,
/// else its scale times its parent's.
pub fn passed_on(
    scale: [f32; 3],
    parent_scl: Option<[f32; 3]>,
    classical: bool,
) -> Option<[f32; 3]> {
    if classical {
        return parent_scl;
    }
    Some(match parent_scl {
        Some([px, py, pz]) => [scale[0] * px, scale[1] * py, scale[2] * pz],
        None => scale,
    })
}

/// The accumulated scale a joint's children compose with: `scl` where every component is a
/// normal number, else `[1, 1, 1]` (the runtime divides by it; [`local`] leaves it out).
pub fn inherited(scl: Option<[f32; 3]>) -> [f32; 3] {
    scl.filter(|p| p.iter().all(|x| x.is_normal()))
        .unwrap_or([1.0; 3])
}

/// `TRS(P∘t, R, P∘s)`: with [`inverse_scale`] in front, a joint's [`local`] matrix under the
/// inherited scale `p` as two matrices glTF nodes can hold (no shear):
/// `local(r, s, t, P) = inverse_scale(P) · scaled_local([r, s, t], P)`.
pub fn scaled_local([r, s, t]: [[f32; 3]; 3], p: [f32; 3]) -> Mtx {
    let [px, py, pz] = p;
    srt(
        r,
        [s[0] * px, s[1] * py, s[2] * pz],
        [t[0] * px, t[1] * py, t[2] * pz],
    )
}

/// `Scale(1/P)` (see [`scaled_local`]).
pub fn inverse_scale(p: [f32; 3]) -> Mtx {
    let [px, py, pz] = p;
    [
        [1.0 / px, 0.0, 0.0, 0.0],
        [0.0, 1.0 / py, 0.0, 0.0],
        [0.0, 0.0, 1.0 / pz, 0.0],
    ]
}

/// World matrices of a joint tree built joint by joint, parents first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pose {
    /// World matrix of each joint pushed.
    pub world: Vec<Mtx>,
    /// Accumulated scale of each joint pushed.
    pub scl: Vec<Option<[f32; 3]>>,
}

impl Pose {
    /// The local matrix of a joint under `parent` (see [`local`]).
    pub fn local(&self, parent: Option<usize>, [r, s, t]: [[f32; 3]; 3]) -> Mtx {
        local(r, s, t, self.parent_scl(parent))
    }

    /// Appends a joint (rotation, scale, translation) under `parent` (an earlier joint; a
    /// missing one is a root) and returns its world matrix.
    pub fn push(&mut self, parent: Option<usize>, srt: [[f32; 3]; 3], classical: bool) -> Mtx {
        let local = self.local(parent, srt);
        let world = match parent.and_then(|p| self.world.get(p)) {
            Some(w) => mul(w, &local),
            None => local,
        };
        let scl = passed_on(srt[1], self.parent_scl(parent), classical);
        self.world.push(world);
        self.scl.push(scl);
        world
    }

    fn parent_scl(&self, parent: Option<usize>) -> Option<[f32; 3]> {
        parent.and_then(|p| self.scl.get(p).copied().flatten())
    }
}

/// Whether a scale passes on as glTF composes it: uniform and not zero, so `P⁻¹·R·P` is
/// `R` for every child.
pub fn uniform(scale: [f32; 3]) -> bool {
    let [x, y, z] = scale;
    x.is_normal() && (x - y).abs() <= 1e-6 * x.abs() && (x - z).abs() <= 1e-6 * x.abs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::{IDENTITY, apply};

    #[test]
    fn uniform_parent_scale_composes_as_matrices() {
        let mut p = Pose::default();
        p.push(None, [[0.3, -0.2, 0.1], [2.0; 3], [1.0, 2.0, 3.0]], false);
        let child = [[0.5, 0.4, -1.0], [1.0, 0.5, 3.0], [0.0, 1.0, 0.0]];
        let w = p.push(Some(0), child, false);
        let [r, s, t] = child;
        let want = mul(&p.world[0], &srt(r, s, t));
        for (a, b) in w.iter().flatten().zip(want.iter().flatten()) {
            assert!((a - b).abs() < 1e-5, "{w:?} {want:?}");
        }
    }

    /// Hand-worked: a parent scaled (2, 1, 1) and a child turned 90° about Z. The runtime scales
    /// the child along its own X (Aligned): its +X axis lands on world +Y, 2 long; composed as
    /// matrices it would be 1 long and its +Y axis 2 long instead.
    #[test]
    fn non_uniform_parent_scale_follows_the_child() {
        let mut p = Pose::default();
        p.push(None, [[0.0; 3], [2.0, 1.0, 1.0], [0.0; 3]], false);
        let turn = [0.0, 0.0, std::f32::consts::FRAC_PI_2];
        let w = p.push(Some(0), [turn, [1.0; 3], [1.0, 0.0, 0.0]], false);
        let x = apply(&w, [1.0, 0.0, 0.0]);
        let y = apply(&w, [0.0, 1.0, 0.0]);
        let near = |a: [f32; 3], b: [f32; 3]| a.iter().zip(&b).all(|(u, v)| (u - v).abs() < 1e-6);
        assert!(near(x, [2.0, 2.0, 0.0]), "{x:?}");
        assert!(near(y, [1.0, 0.0, 0.0]), "{y:?}");
        assert_eq!(p.scl[1], Some([2.0, 1.0, 1.0]));
        // Classical: the parent's scale stops here; its children compose as matrices.
        p.push(Some(1), [turn, [1.0; 3], [0.0; 3]], true);
        assert_eq!(p.scl[2], Some([2.0, 1.0, 1.0]));
        let q = p.push(Some(0), [turn, [3.0, 1.0, 1.0], [0.0; 3]], true);
        assert_eq!(p.scl[3], Some([2.0, 1.0, 1.0]));
        assert!(near(apply(&q, [1.0, 0.0, 0.0]), [0.0, 6.0, 0.0]));
        // A zero parent scale is ignored rather than dividing by it.
        let mut z = Pose::default();
        z.push(None, [[0.0; 3], [0.0, 1.0, 1.0], [0.0; 3]], false);
        let w = z.push(Some(0), [turn, [1.0; 3], [0.0; 3]], false);
        assert!(w.iter().flatten().all(|x| x.is_finite()));
        assert_eq!(IDENTITY, local([0.0; 3], [1.0; 3], [0.0; 3], None));
    }

    /// The split glTF export writes is the runtime's matrix.
    #[test]
    fn inverse_scale_times_scaled_local_is_the_local() {
        let v = [[0.4, -1.1, 2.5], [1.5, -0.5, 2.0], [1.0, -2.0, 0.5]];
        for p in [[2.0, 0.5, 1.0], [-1.0, 3.0, 0.25], [1.0; 3]] {
            let want = local(v[0], v[1], v[2], Some(p));
            let got = mul(&inverse_scale(p), &scaled_local(v, p));
            for (a, b) in want.iter().flatten().zip(got.iter().flatten()) {
                assert!((a - b).abs() < 1e-5, "{p:?}: {want:?} {got:?}");
            }
        }
        assert_eq!(inherited(Some([0.0, 1.0, 2.0])), [1.0; 3]);
        assert_eq!(inherited(Some([3.0, 1.0, 2.0])), [3.0, 1.0, 2.0]);
    }
}
