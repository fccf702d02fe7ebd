//! Joint bounds (JNT1 0x24..0x3C, J3D-046): each joint's bounding-sphere radius and AABB hold
//! every vertex the joint affects, measured in the joint's own space.
//!
//! Which space is not stated by the format description we started from ("should encapsulate all vertices that the joint
//! affects"). It is pinned here, and by the `joint_bounds_are_in_joint_space` test, as follows:
//! - The AABB is in the joint's local frame: noclip.website frustum-culls each joint by
//!   transforming its stored box with the joint's joint-to-world matrix (EXT, `J3DGraphBase.ts`
//!   `calcView`), which only works for a box given in joint space. The same source notes that a
//!   joint's box does not contain its child joints' geometry, so only the joint's own vertices count.
//! - A rigid vertex (DRW1 joint entry) is stored in its joint's frame already. A skinned vertex
//!   (DRW1 envelope entry) is stored in model bind space; it reaches joint `j`'s frame through
//!   `j`'s EVP1 inverse bind matrix (the matrix the game multiplies with the joint's world matrix
//!   to skin it), or through the inverse of `j`'s world bind matrix when EVP1 has none.
//! - The sphere stores a radius but no centre, so its centre is the one point the joint's frame
//!   gives: the joint's origin.
//!
//! A joint affects a vertex when the vertex's skin gives it a weight above 0.

use gcio::Result;
use gx::mtx::{Mtx34, apply, inverse};

use crate::file::{Bmd, BmdView};
use crate::geometry::{Mesh, geometry, skeleton};

/// A joint's bounds as JNT1 stores them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// Bounding-sphere radius around the joint's origin.
    pub radius: f32,
    /// AABB min XYZ, max XYZ.
    pub bbox: [f32; 6],
}

impl Bounds {
    /// The smallest bounds (sphere about the origin, box) holding `points`; `None` without points.
    pub fn fit(points: impl IntoIterator<Item = [f32; 3]>) -> Option<Self> {
        let mut it = points.into_iter();
        let p = it.next()?;
        let mut b = Bounds {
            radius: length(p),
            bbox: [p[0], p[1], p[2], p[0], p[1], p[2]],
        };
        for p in it {
            b.add(p);
        }
        Some(b)
    }

    /// Grows the bounds to hold `p`.
    pub fn add(&mut self, p: [f32; 3]) {
        self.radius = self.radius.max(length(p));
        for (k, v) in p.iter().enumerate() {
            if let Some(lo) = self.bbox.get_mut(k) {
                *lo = lo.min(*v);
            }
            if let Some(hi) = self.bbox.get_mut(k + 3) {
                *hi = hi.max(*v);
            }
        }
    }

    /// Grows the bounds to hold `other`.
    pub fn merge(&mut self, other: &Bounds) {
        let [x0, y0, z0, x1, y1, z1] = other.bbox;
        self.add([x0, y0, z0]);
        self.add([x1, y1, z1]);
        self.radius = self.radius.max(other.radius);
    }

    /// True when `p` (joint space) lies in both the sphere and the box, allowing a relative error
    /// of 1e-3 of the bounds' largest magnitude (at least 1e-3): tools store bounds computed in
    /// their own precision.
    pub fn contains(&self, p: [f32; 3]) -> bool {
        let scale = self
            .bbox
            .iter()
            .chain([&self.radius])
            .fold(1.0f32, |m, v| m.max(v.abs()));
        let tol = 1e-3 * scale;
        let in_box = p.iter().enumerate().all(|(k, v)| {
            let lo = self.bbox.get(k).copied().unwrap_or(f32::NAN);
            let hi = self.bbox.get(k + 3).copied().unwrap_or(f32::NAN);
            *v >= lo - tol && *v <= hi + tol
        });
        in_box && length(p) <= self.radius + tol
    }
}

fn length(p: [f32; 3]) -> f32 {
    (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt()
}

/// One vertex as one joint that affects it sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointVertex {
    /// The joint (JNT1 index).
    pub joint: u16,
    /// The shape (SHP1 index).
    pub shape: usize,
    /// The vertex's index in its [`MeshShape::vertices`](crate::MeshShape::vertices).
    pub vertex: usize,
    /// The vertex position in the joint's space.
    pub local: [f32; 3],
}

/// Calls `visit` for every (joint, vertex) pair of `mesh` in which the joint affects the vertex,
/// with the vertex in the joint's space (see the module doc). `visit` returns `false` to stop.
/// Joint matrices come from `view`'s EVP1, else its skeleton; a pair whose joint has neither is
/// skipped.
pub fn joint_vertices(
    view: &BmdView<'_>,
    mesh: &Mesh,
    mut visit: impl FnMut(JointVertex) -> bool,
) -> Result<()> {
    let evp = view.evp1().transpose()?;
    let world = skeleton(view).map(|s| s.world).unwrap_or_default();
    // Bind space → joint space, per joint, computed on first use.
    let mut to_joint: Vec<Option<Option<Mtx34>>> = vec![
        None;
        view.jnt1().map_or(0, |j| {
            j.map(|j| j.len()).unwrap_or(0)
        })
    ];
    let mut matrix = |j: u16| -> Option<Mtx34> {
        let slot = to_joint.get_mut(usize::from(j))?;
        *slot.get_or_insert_with(|| {
            evp.as_ref()
                .filter(|e| usize::from(j) < e.ibm_capacity())
                .and_then(|e| e.ibm(usize::from(j)).ok())
                .or_else(|| world.get(usize::from(j)).and_then(inverse))
        })
    };
    for s in &mesh.shapes {
        for (i, v) in s.vertices.iter().enumerate() {
            for &(joint, weight) in s.skin(v) {
                if weight.is_nan() || weight <= 0.0 {
                    continue;
                }
                let local = if v.rigid_joint.is_some() {
                    v.position
                } else {
                    match matrix(joint) {
                        Some(m) => apply(&m, v.position),
                        None => continue,
                    }
                };
                let go_on = visit(JointVertex {
                    joint,
                    shape: s.index,
                    vertex: i,
                    local,
                });
                if !go_on {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// The bounds each joint's vertices need (`None` for a joint that affects no vertex).
pub fn fit_joint_bounds(view: &BmdView<'_>) -> Result<Vec<Option<Bounds>>> {
    let n = view.jnt1().transpose()?.map_or(0, |j| j.len());
    let mut out: Vec<Option<Bounds>> = vec![None; n];
    let mesh = geometry(view)?;
    joint_vertices(view, &mesh, |jv| {
        if let Some(b) = out.get_mut(usize::from(jv.joint)) {
            match b {
                Some(b) => b.add(jv.local),
                None => *b = Bounds::fit([jv.local]),
            }
        }
        true
    })?;
    Ok(out)
}

impl Bmd {
    /// Recomputes every joint's radius and AABB from the vertices it affects (J3D-046), as the
    /// format derives them; joints that affect no vertex keep their stored bounds. Needs typed
    /// JNT1 (a raw one is left alone); the model is written and re-read to decode its geometry.
    pub fn fit_joint_bounds(&mut self) -> Result<()> {
        let bytes = self.write()?;
        let view = crate::parse(&bytes)?;
        let fitted = fit_joint_bounds(&view)?;
        let Some(jnt) = self.jnt1_mut() else {
            return Ok(());
        };
        // Joints sharing a data entry through the remap table share its bounds.
        let mut per_entry: Vec<Option<Bounds>> = vec![None; jnt.joints.len()];
        for (b, &e) in fitted.iter().zip(&jnt.remap) {
            let (Some(b), Some(slot)) = (b, per_entry.get_mut(usize::from(e))) else {
                continue;
            };
            match slot {
                Some(s) => s.merge(b),
                None => *slot = Some(*b),
            }
        }
        for (j, b) in jnt.joints.iter_mut().zip(per_entry) {
            if let Some(b) = b {
                j.radius = b.radius;
                j.bbox = b.bbox;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_and_contains() {
        let b = Bounds::fit([[1.0, 0.0, 0.0], [-2.0, 3.0, 0.5]]).unwrap();
        assert_eq!(b.bbox, [-2.0, 0.0, 0.0, 1.0, 3.0, 0.5]);
        assert!((b.radius - (4.0f32 + 9.0 + 0.25).sqrt()).abs() < 1e-6);
        assert!(b.contains([0.0, 1.0, 0.25]));
        assert!(b.contains([-2.0, 3.0, 0.5]));
        // Inside the box but outside the sphere about the origin.
        let unit = Bounds::fit([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]).unwrap();
        assert!(!unit.contains([1.0, 1.0, 0.0]));
        let mut merged = unit;
        merged.merge(&b);
        assert_eq!(merged, b);
        // Outside the box by more than the tolerance, inside by less.
        assert!(!b.contains([1.1, 0.0, 0.0]));
        assert!(b.contains([1.0 + 1e-4, 0.0, 0.0]));
        assert!(Bounds::fit(std::iter::empty()).is_none());
    }
}
