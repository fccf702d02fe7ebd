//! 3×4 row-major affine matrices, the form GX loads into its matrix memory and both J3D and HSD
//! store (inverse bind matrices, joint transforms): product, point transform, inverse, and the
//! joint local matrix `T · Rz · Ry · Rx · S` both runtimes build.

/// A 3×4 row-major affine matrix (the implicit fourth row is `0 0 0 1`).
pub type Mtx34 = [[f32; 4]; 3];

/// The identity.
pub const IDENTITY: Mtx34 = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
];

/// `a · b`.
pub fn mul(a: &Mtx34, b: &Mtx34) -> Mtx34 {
    a.map(|[a0, a1, a2, t]| {
        let [b0, b1, b2] = b;
        std::array::from_fn(|c| {
            let col = |row: &[f32; 4]| row.get(c).copied().unwrap_or(0.0);
            a0 * col(b0) + a1 * col(b1) + a2 * col(b2) + if c == 3 { t } else { 0.0 }
        })
    })
}

/// `m · p` for a point.
pub fn apply(m: &Mtx34, p: [f32; 3]) -> [f32; 3] {
    let [x, y, z] = p;
    m.map(|[a, b, c, t]| a * x + b * y + c * z + t)
}

/// The inverse, or `None` when the 3×3 part is singular (|det| < 1e-12).
pub fn inverse(m: &Mtx34) -> Option<Mtx34> {
    let [[a0, a1, a2, t0], [b0, b1, b2, t1], [c0, c1, c2, t2]] = *m;
    let det = a0 * (b1 * c2 - b2 * c1) - a1 * (b0 * c2 - b2 * c0) + a2 * (b0 * c1 - b1 * c0);
    if det.abs() < 1e-12 {
        return None;
    }
    let r = [
        [
            (b1 * c2 - b2 * c1) / det,
            (a2 * c1 - a1 * c2) / det,
            (a1 * b2 - a2 * b1) / det,
        ],
        [
            (b2 * c0 - b0 * c2) / det,
            (a0 * c2 - a2 * c0) / det,
            (a2 * b0 - a0 * b2) / det,
        ],
        [
            (b0 * c1 - b1 * c0) / det,
            (a1 * c0 - a0 * c1) / det,
            (a0 * b1 - a1 * b0) / det,
        ],
    ];
    Some(r.map(|[x, y, z]| [x, y, z, -(x * t0 + y * t1 + z * t2)]))
}

/// A joint's local matrix `T · Rz · Ry · Rx · S` (scale first, then X, Y, Z rotation, then
/// translation), rotation in radians: the order both J3D and sysdolphin use.
pub fn srt(rotation: [f32; 3], scale: [f32; 3], translation: [f32; 3]) -> Mtx34 {
    let [(sx, cx), (sy, cy), (sz, cz)] = rotation.map(f32::sin_cos);
    let r = [
        [cy * cz, sx * sy * cz - cx * sz, cx * sy * cz + sx * sz],
        [cy * sz, sx * sy * sz + cx * cz, cx * sy * sz - sx * cz],
        [-sy, sx * cy, cx * cy],
    ];
    let [s0, s1, s2] = scale;
    let [r0, r1, r2] = r;
    let [t0, t1, t2] = translation;
    let row = |[a, b, c]: [f32; 3], t: f32| [a * s0, b * s1, c * s2, t];
    [row(r0, t0), row(r1, t1), row(r2, t2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Mtx34, b: &Mtx34) -> bool {
        a.iter()
            .flatten()
            .zip(b.iter().flatten())
            .all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn product_inverse_and_srt() {
        let m = srt([0.3, -1.2, 2.0], [2.0, 0.5, 1.5], [1.0, -2.0, 3.0]);
        let inv = inverse(&m).unwrap();
        assert!(close(&mul(&m, &inv), &IDENTITY));
        assert!(close(&mul(&inv, &m), &IDENTITY));
        assert_eq!(apply(&IDENTITY, [1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]);
        // A quarter turn about Z maps X to Y, after scaling, then translates.
        let q = srt(
            [0.0, 0.0, std::f32::consts::FRAC_PI_2],
            [2.0, 1.0, 1.0],
            [0.0, 0.0, 5.0],
        );
        let p = apply(&q, [1.0, 0.0, 0.0]);
        assert!((p[0]).abs() < 1e-6 && (p[1] - 2.0).abs() < 1e-6 && (p[2] - 5.0).abs() < 1e-6);
        assert_eq!(inverse(&[[0.0; 4]; 3]), None);
    }
}
