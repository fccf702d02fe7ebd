//! The validator: rule ids KCL-001… (catalogued in `docs/rules/kcl.md`).

use gcio::{Diagnostic, Limits};

use crate::geom::{axis, length, tri_box_overlap};
use crate::model::Kcl;

/// Tolerance on a normal's length.
pub const UNIT_TOLERANCE: f32 = 1e-3;

/// Validates a file's bytes: KCL-001 when it does not parse, otherwise [`validate_model`].
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `KCL-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match Kcl::parse_with(data, limits) {
        Ok(k) => validate_model(&k),
        Err(e) => vec![Diagnostic::error("KCL-001", e.offset(), e.to_string())],
    }
}

/// Validates the model.
pub fn validate_model(k: &Kcl) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let h = &k.header;
    let prism_off =
        |i: usize| Some((h.size() + (k.positions.len() + k.normals.len()) * 12 + i * 16) as u64);
    let mut checked_normals = vec![false; k.normals.len()];
    for (i, p) in k.prisms.iter().enumerate() {
        if usize::from(p.pos) >= k.positions.len() {
            out.push(Diagnostic::error(
                "KCL-002",
                prism_off(i),
                format!(
                    "prism {i}: position index {} past the {} positions",
                    p.pos,
                    k.positions.len()
                ),
            ));
        }
        for n in std::iter::once(p.face_normal).chain(p.edge_normals) {
            match k.normals.get(usize::from(n)) {
                None => out.push(Diagnostic::error(
                    "KCL-003",
                    prism_off(i),
                    format!(
                        "prism {i}: normal index {n} past the {} normals",
                        k.normals.len()
                    ),
                )),
                Some(v) => {
                    let seen = checked_normals.get_mut(usize::from(n));
                    if seen.as_deref() == Some(&false)
                        && ((length(*v) - 1.0).abs() > UNIT_TOLERANCE || length(*v).is_nan())
                    {
                        out.push(Diagnostic::warning(
                            "KCL-004",
                            Some((h.size() + k.positions.len() * 12 + usize::from(n) * 12) as u64),
                            format!("normal {n} has length {} (prism {i} uses it)", length(*v)),
                        ));
                    }
                    if let Some(s) = seen {
                        *s = true;
                    }
                }
            }
        }
        if !(p.height.is_finite() && p.height > 0.0) {
            out.push(Diagnostic::warning(
                "KCL-012",
                prism_off(i),
                format!("prism {i}: height {} is not a positive number", p.height),
            ));
        }
    }
    // Area: masks of the form !(2^k - 1) with k >= block shift, root shifts matching the grid.
    let mut counts_ok = true;
    let mut logs = [0u32; 3];
    for (a, m) in h.area_masks.iter().enumerate() {
        let low = !m;
        let pow2 = low.wrapping_add(1).is_power_of_two() || low == u32::MAX;
        let k_bits = low.count_ones();
        if !pow2 || k_bits < h.block_width_shift {
            counts_ok = false;
            out.push(Diagnostic::error(
                "KCL-007",
                Some(0x20 + a as u64 * 4),
                format!(
                    "area mask {m:#010x} is not !(2^k - 1) with k >= the block shift {}",
                    h.block_width_shift
                ),
            ));
        } else if let Some(l) = logs.get_mut(a) {
            *l = k_bits - h.block_width_shift;
        }
    }
    if counts_ok
        && (h.area_x_blocks_shift != logs[0] || h.area_xy_blocks_shift != logs[0] + logs[1])
    {
        out.push(Diagnostic::error(
            "KCL-007",
            Some(0x30),
            format!(
                "root shifts x {} / xy {} do not match the grid (expected {} / {})",
                h.area_x_blocks_shift,
                h.area_xy_blocks_shift,
                logs[0],
                logs[0] + logs[1]
            ),
        ));
    }
    let cells = k.cells();
    let mut in_leaf = vec![false; k.prisms.len()];
    let tris: Vec<Option<[[f32; 3]; 3]>> = (0..k.prisms.len()).map(|i| k.triangle(i)).collect();
    // Each finite triangle's bounds, to skip the overlap test for cells far from it.
    let boxes: Vec<Option<([f32; 3], [f32; 3])>> = tris
        .iter()
        .map(|t| {
            let t = t.as_ref()?;
            if !t.iter().flatten().all(|v| v.is_finite()) {
                return None;
            }
            let lo = [0, 1, 2].map(|a| t.iter().map(|v| axis(*v, a)).fold(f32::INFINITY, f32::min));
            let hi = [0, 1, 2].map(|a| {
                t.iter()
                    .map(|v| axis(*v, a))
                    .fold(f32::NEG_INFINITY, f32::max)
            });
            Some((lo, hi))
        })
        .collect();
    let mut deep_reported = false;
    for c in &cells {
        if c.depth > h.block_width_shift && !deep_reported {
            deep_reported = true;
            out.push(Diagnostic::error(
                "KCL-008",
                Some(k.octree_offset() as u64),
                format!(
                    "a leaf at depth {} is deeper than the block shift {} allows (cell edge below 1)",
                    c.depth, h.block_width_shift
                ),
            ));
        }
        let list = k.leaf_list(c.list);
        for &i in &list {
            match in_leaf.get_mut(usize::from(i)) {
                Some(s) => *s = true,
                None => out.push(Diagnostic::error(
                    "KCL-005",
                    Some(k.octree_offset() as u64),
                    format!(
                        "a leaf lists prism {} of {}",
                        u32::from(i) + 1,
                        k.prisms.len()
                    ),
                )),
            }
        }
        // A triangle overlapping the cube (shrunk slightly against rounding) must be listed.
        let shrink = -(c.size * 1e-3).max(1e-3);
        for (i, (t, bb)) in tris.iter().zip(&boxes).enumerate() {
            let (Some(t), Some((lo, hi))) = (t, bb) else {
                continue;
            };
            let apart = (0..3)
                .any(|a| axis(*lo, a) > axis(c.min, a) + c.size || axis(*hi, a) < axis(c.min, a));
            if apart {
                continue;
            }
            if tri_box_overlap(*t, c.min, c.size, shrink)
                && !list.iter().any(|&l| usize::from(l) == i)
            {
                out.push(Diagnostic::warning(
                    "KCL-006",
                    Some(k.octree_offset() as u64),
                    format!(
                        "prism {i} touches the cell at {:?} (edge {}) but is not in its list",
                        c.min, c.size
                    ),
                ));
            }
        }
    }
    for (i, seen) in in_leaf.iter().enumerate() {
        if !seen {
            out.push(Diagnostic::warning(
                "KCL-009",
                prism_off(i),
                format!("prism {i} is in no leaf list (the game never tests it)"),
            ));
        }
    }
    if let Some(counts) = h.root_counts() {
        let size = 2f64.powi(h.block_width_shift.min(127) as i32);
        // Corners rebuilt from normals carry rounding: allow a hair of the area's extent.
        let extent = counts
            .iter()
            .map(|&c| f64::from(c) * size)
            .fold(0.0, f64::max);
        let tol = (extent * 5e-5).max(1e-3);
        for (i, t) in tris.iter().enumerate() {
            let Some(t) = t else { continue };
            let outside = t.iter().any(|v| {
                (0..3).any(|a| {
                    let d = f64::from(axis(*v, a)) - f64::from(axis(h.area_min, a));
                    let n = f64::from(counts.get(a).copied().unwrap_or(0));
                    d.is_nan() || d < -tol || d > n * size + tol
                })
            });
            if outside {
                out.push(Diagnostic::warning(
                    "KCL-010",
                    prism_off(i),
                    format!("prism {i}: a corner of its triangle lies outside the octree area"),
                ));
            }
        }
    }
    for part in k.raw_parts() {
        out.push(Diagnostic::info(
            "KCL-011",
            None,
            format!("kept as bytes: {part}"),
        ));
    }
    out
}

impl Kcl {
    /// File offset of the octree when written.
    pub fn octree_offset(&self) -> usize {
        self.header.size()
            + (self.positions.len() + self.normals.len()) * 12
            + self.prisms.len() * 16
    }
}
