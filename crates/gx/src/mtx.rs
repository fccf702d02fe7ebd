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

/// `Σ wᵢ · mᵢ`, entry by entry: the matrix linear blend skinning draws a vertex with.
pub fn blend(parts: impl IntoIterator<Item = (f32, Mtx34)>) -> Mtx34 {
    let mut sum = [[0.0f32; 4]; 3];
    for (w, m) in parts {
        for (row, mrow) in sum.iter_mut().zip(&m) {
            for (v, x) in row.iter_mut().zip(mrow) {
                *v += w * x;
            }
        }
    }
    sum
}

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

/// The matrix of a translation, a unit quaternion `[x, y, z, w]` and a scale — a glTF node's
/// TRS — as `T · R · S`: what an importer turns sampled glTF rotations into before
/// [`decompose_srt`] gives J3D's Euler angles.
pub fn from_trs(translation: [f32; 3], rotation: [f32; 4], scale: [f32; 3]) -> Mtx34 {
    let [x, y, z, w] = rotation;
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    let [s0, s1, s2] = scale;
    let [r0, r1, r2] = r;
    let [t0, t1, t2] = translation;
    let row = |[a, b, c]: [f32; 3], t: f32| [a * s0, b * s1, c * s2, t];
    [row(r0, t0), row(r1, t1), row(r2, t2)]
}

/// Scale (column lengths, X negated when the matrix mirrors) and the rotation's columns (the
/// local X, Y and Z axes) left after dividing it out. A zero-length column (a joint scaled to
/// nothing on that axis, as games hide bones) leaves its axis free: it is completed from the
/// others into a right-handed frame (the cross product of the other two; with two or three
/// zero columns, the unit axes turned onto the one left), so the axes always form a rotation
/// and `R · S` is the matrix again. A shear the matrix may hold is not separated.
pub fn split_scale(m: &Mtx34) -> ([f32; 3], [[f32; 3]; 3]) {
    let [r0, r1, r2] = *m;
    let col = |c: usize| [r0, r1, r2].map(|r| r.get(c).copied().unwrap_or(0.0));
    let mut s = [len(col(0)), len(col(1)), len(col(2))];
    let det = r0[0] * (r1[1] * r2[2] - r1[2] * r2[1]) - r0[1] * (r1[0] * r2[2] - r1[2] * r2[0])
        + r0[2] * (r1[0] * r2[1] - r1[1] * r2[0]);
    if det < 0.0 {
        s[0] = -s[0];
    }
    let zero = s.map(|k| k.abs() <= 1e-12);
    let mut axes: [[f32; 3]; 3] = std::array::from_fn(|c| {
        let k = s.get(c).copied().unwrap_or(0.0);
        if k.abs() > 1e-12 {
            col(c).map(|x| x / k)
        } else {
            std::array::from_fn(|r| f32::from(u8::from(r == c)))
        }
    });
    // Turned so the axis to work from comes first (X → Y → Z is cyclic), and back.
    let (free, first) = match zero {
        [false, false, false] | [true, true, true] => (0, 0),
        [a, b, c] if u8::from(a) + u8::from(b) + u8::from(c) == 1 => {
            (1, zero.iter().position(|&z| z).unwrap_or(0))
        }
        _ => (2, zero.iter().position(|&z| !z).unwrap_or(0)),
    };
    axes.rotate_left(first);
    let [a, b, c] = axes;
    axes = match free {
        // The free axis is the cross product of the other two.
        1 => [unit(cross(b, c)).unwrap_or(a), b, c],
        // The axis left keeps its direction; the first unit axis not along it, made
        // perpendicular, is the next; their cross product the last.
        2 => {
            let e = [b, c, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
                .into_iter()
                .find_map(|e| {
                    let d = dot(a, e);
                    unit([e[0] - d * a[0], e[1] - d * a[1], e[2] - d * a[2]])
                })
                .unwrap_or(b);
            [a, e, cross(a, e)]
        }
        _ => [a, b, c],
    };
    axes.rotate_right(first);
    (s, axes)
}

fn len([x, y, z]: [f32; 3]) -> f32 {
    (x * x + y * y + z * z).sqrt()
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `v` made unit length; `None` for a vector too short to have a direction.
fn unit(v: [f32; 3]) -> Option<[f32; 3]> {
    let l = len(v);
    (l > 1e-6).then(|| v.map(|x| x / l))
}

/// Euler angles (radians, X, Y, Z) with `R = Rz · Ry · Rx` — the inverse of [`srt`]'s rotation —
/// of the rotation whose columns are `axes`, Y in [-π/2, π/2]. Z is solved last from every
/// entry given X and Y (least squares): near Y = ±90° the entries X and Z are read from shrink
/// with cos Y, and two angles read from them separately would not compose back to the matrix.
fn euler_of(axes: &[[f32; 3]; 3], near: [f32; 3]) -> [f32; 3] {
    let [[r00, r10, r20], [r01, r11, r21], [r02, r12, r22]] = *axes;
    let cy = (r00 * r00 + r10 * r10).sqrt();
    let y = (-r20).atan2(cy);
    // Gimbal lock (Y = ±90°): only X − Z (or X + Z) is determined; X stays where it was.
    let x = if cy > 1e-5 { r21.atan2(r22) } else { near[0] };
    let (sx, cx, sy) = (x.sin(), x.cos(), y.sin());
    // Columns 1 and 2 are Rz applied to (sy·sx, cx) and (sy·cx, −sx) in their first two
    // rows, column 0 to (cy, 0).
    let (a, c) = (sy * sx, sy * cx);
    let cz = r00 * cy + r01 * a + r11 * cx + r02 * c - r12 * sx;
    let sz = r10 * cy + r11 * a - r01 * cx + r12 * c + r02 * sx;
    [x, y, sz.atan2(cz)]
}

/// Euler angles (radians, X, Y, Z) of `m`'s rotation in J3D's order (`R = Rz · Ry · Rx`, what
/// [`srt`] builds), scale divided out; Y in [-π/2, π/2].
pub fn euler_xyz(m: &Mtx34) -> [f32; 3] {
    euler_of(&split_scale(m).1, [0.0; 3])
}

/// [`euler_xyz`] nearest to `near` (a previous frame's angles): of the two solutions `(x, y, z)`
/// and `(x + π, π − y, z + π)`, each moved by whole turns towards `near`, the closer one, so
/// sampled tracks stay continuous.
pub fn euler_xyz_near(m: &Mtx34, near: [f32; 3]) -> [f32; 3] {
    closest(euler_of(&split_scale(m).1, near), near)
}

fn closest(e: [f32; 3], near: [f32; 3]) -> [f32; 3] {
    let pi = std::f32::consts::PI;
    let [x, y, z] = e;
    let turn = |c: [f32; 3]| {
        let mut i = 0;
        c.map(|a| {
            let to = near.get(i).copied().unwrap_or(0.0);
            i += 1;
            crate::curve::nearest_turn(a, to)
        })
    };
    let dist = |c: &[f32; 3]| {
        c.iter()
            .zip(near)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f32>()
    };
    let (a, b) = (turn([x, y, z]), turn([x + pi, pi - y, z + pi]));
    if dist(&b) < dist(&a) { b } else { a }
}

/// Scale, Euler rotation (radians, J3D order) and translation of `m`: the inverse of [`srt`] for
/// matrices without shear, the rotation nearest to `near` (see [`euler_xyz_near`]).
pub fn decompose_srt(m: &Mtx34, near: [f32; 3]) -> ([f32; 3], [f32; 3], [f32; 3]) {
    let (s, axes) = split_scale(m);
    let t = m.map(|r| r[3]);
    (s, closest(euler_of(&axes, near), near), t)
}

/// [`decompose_srt`] with the scale's signs as close to `signs`' as the matrix allows. Negating
/// two scale axes and turning their rotation columns is the same matrix (a half turn about the
/// third axis), so a mirror may sit on any axis and two negative axes may be none: the same
/// `T·R·S`, but not the same joint for a runtime that passes scale on by axis (HSD's
/// accumulated scale), where a keyframe's signs must follow its neighbours'. Among sign
/// patterns agreeing with `signs` equally, the one whose rotation is nearest to `near` wins
/// (a scale passing through zero flips its sign, not the rotation).
pub fn decompose_srt_signed(
    m: &Mtx34,
    near: [f32; 3],
    signs: [f32; 3],
) -> ([f32; 3], [f32; 3], [f32; 3]) {
    let (s, axes) = split_scale(m);
    let t = m.map(|r| r[3]);
    let agree = |f: &[f32; 3]| {
        s.iter()
            .zip(f)
            .zip(&signs)
            .filter(|((x, f), want)| (*x * *f >= 0.0) == (**want >= 0.0))
            .count()
    };
    let flips = [
        [1.0, 1.0, 1.0],
        [1.0, -1.0, -1.0],
        [-1.0, 1.0, -1.0],
        [-1.0, -1.0, 1.0],
    ];
    let dist = |e: &[f32; 3]| {
        e.iter()
            .zip(&near)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f32>()
    };
    // Most signs agreeing, then the rotation nearest to `near` (continuity through a zero).
    let mut best: Option<(usize, f32, [f32; 3], [f32; 3])> = None;
    for f in flips {
        let [(a0, f0), (a1, f1), (a2, f2)] = [(axes[0], f[0]), (axes[1], f[1]), (axes[2], f[2])];
        let turned = [a0.map(|x| x * f0), a1.map(|x| x * f1), a2.map(|x| x * f2)];
        let e = closest(euler_of(&turned, near), near);
        let (k, d) = (agree(&f), dist(&e));
        if best.is_none_or(|(bk, bd, _, _)| k > bk || (k == bk && d < bd)) {
            best = Some((k, d, [s[0] * f0, s[1] * f1, s[2] * f2], e));
        }
    }
    let (_, _, s, e) = best.unwrap_or((0, 0.0, s, near));
    (s, e, t)
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

    #[test]
    fn trs_of_quaternion() {
        // A quarter turn about Z: q = (0, 0, sin 45°, cos 45°).
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let m = from_trs([1.0, 2.0, 3.0], [0.0, 0.0, h, h], [2.0, 1.0, 1.0]);
        let want = srt(
            [0.0, 0.0, std::f32::consts::FRAC_PI_2],
            [2.0, 1.0, 1.0],
            [1.0, 2.0, 3.0],
        );
        assert!(close(&m, &want), "{m:?}");
        let (s, e, t) = decompose_srt(&m, [0.0; 3]);
        assert!(close(&srt(e, s, t), &m));
    }

    #[test]
    fn euler_round_trips() {
        let hp = std::f32::consts::FRAC_PI_2;
        for (r, s, t) in [
            ([0.3, -1.2, 2.0], [2.0, 0.5, 1.5], [1.0, -2.0, 3.0]),
            ([3.1, 0.0, 0.0], [1.0; 3], [0.0; 3]),
            ([0.0, -0.4, -3.1], [-1.0, 1.0, 1.0], [5.0; 3]),
            // Gimbal lock, both signs.
            ([0.5, hp, 0.2], [1.0; 3], [0.0; 3]),
            ([0.5, -hp, 0.2], [1.0; 3], [0.0; 3]),
        ] {
            let m = srt(r, s, t);
            let (ss, e, tt) = decompose_srt(&m, r);
            assert!(close(&srt(e, ss, tt), &m), "{r:?}: {e:?}");
            // Near the source angles, the source angles come back (X kept in gimbal lock).
            for (a, b) in e.iter().zip(r) {
                assert!((a - b).abs() < 2e-3, "{r:?}: {e:?}");
            }
            assert!(close(&srt(euler_xyz(&m), ss, tt), &m));
        }
        // Continuity: a Y turn past 90° comes back as the flipped solution near the last frame.
        let m = srt([0.0, 1.8, 0.0], [1.0; 3], [0.0; 3]);
        let e = euler_xyz(&m);
        assert!(
            (e[1] - (std::f32::consts::PI - 1.8)).abs() < 1e-5
                && (e[0].abs() - std::f32::consts::PI).abs() < 1e-3
        );
        let n = euler_xyz_near(&m, [0.0, 1.7, 0.0]);
        assert!(
            n.iter()
                .zip([0.0, 1.8, 0.0])
                .all(|(a, b)| (a - b).abs() < 1e-5),
            "{n:?}"
        );
    }

    /// A zero scale on one, two or three axes (a hidden bone), mirrored or not, still splits
    /// into a rotation and a scale that compose back to the matrix, and so does a turn a hair
    /// off gimbal lock, where X and Z read separately would miss by the cosine's precision.
    /// A mirror stays on the axis the signs name, two negative axes stay negative, and among
    /// equal agreements the rotation nearest `near` wins (a scale crossing zero).
    #[test]
    fn scale_signs_follow_the_hint() {
        let close3 = |a: [f32; 3], b: [f32; 3]| a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-5);
        for (s, r) in [
            ([0.5, 0.5, -1.0], [0.0, 0.0, 0.0]),
            ([-0.5, 2.0, -1.0], [0.3, -0.2, 1.0]),
            ([1.0, -1.0, 1.0], [0.0, 1.0, 0.0]),
        ] {
            let m = srt(r, s, [0.0; 3]);
            let (s2, r2, _) = decompose_srt_signed(&m, r, s);
            assert!(close3(s2, s) && close3(r2, r), "{s:?} {r:?}: {s2:?} {r2:?}");
            assert!(close(&srt(r2, s2, [0.0; 3]), &m));
        }
        // No sign agrees better either way: the rotation near `near` decides.
        let m = srt([0.0, -2.9, 0.0], [-0.4, 0.5, 0.5], [0.0; 3]);
        let (s2, r2, _) = decompose_srt_signed(&m, [0.0, -2.9, 0.0], [1.0; 3]);
        assert!(
            close3(s2, [-0.4, 0.5, 0.5]) && close3(r2, [0.0, -2.9, 0.0]),
            "{s2:?} {r2:?}"
        );
    }

    #[test]
    fn degenerate_and_near_gimbal_matrices_compose_back() {
        let y = std::f32::consts::FRAC_PI_2 - 2.75e-4;
        for (r, s) in [
            ([0.0, 0.0, 0.0], [-1.2, 0.0, 0.5]),
            ([0.7, -0.3, 2.0], [0.0, 2.0, -1.0]),
            ([0.7, -0.3, 2.0], [0.0, 0.0, -1.5]),
            ([1.1, 0.4, -2.5], [0.0, 0.8, 0.0]),
            ([0.2, 0.1, 0.3], [0.0; 3]),
            ([1.87, -y, 1.9], [0.5, 0.8, 1.8]),
            ([-2.4, y, 0.6], [1.5, -0.7, 2.0]),
        ] {
            let m = srt(r, s, [1.0, 2.0, 3.0]);
            let (ss, e, t) = decompose_srt(&m, r);
            assert!(close(&srt(e, ss, t), &m), "{r:?} {s:?}: {ss:?} {e:?}");
            let (ss, [a, b, c]) = split_scale(&m);
            let det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0]);
            assert!((det - 1.0).abs() < 1e-5, "{s:?}: {ss:?} det {det}");
        }
    }
}
