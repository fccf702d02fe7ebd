//! Small vector helpers and the triangle/box overlap test the octree builder and validator share.

/// A 3-component vector.
pub type Vec3 = [f32; 3];

/// Component `a` of `v` (0 past the end).
pub(crate) fn axis(v: Vec3, a: usize) -> f32 {
    v.get(a).copied().unwrap_or(0.0)
}

/// The low corner of octree child `k` (bit 0: +x, bit 1: +y, bit 2: +z) of a cell at `min` whose
/// children are `half` wide.
pub(crate) fn child_min(min: Vec3, half: f32, k: usize) -> Vec3 {
    let step = |bit: usize| if k & bit != 0 { half } else { 0.0 };
    [min[0] + step(1), min[1] + step(2), min[2] + step(4)]
}

pub(crate) fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(crate) fn scale(a: Vec3, s: f32) -> Vec3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub(crate) fn dot(a: Vec3, b: Vec3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(crate) fn length(a: Vec3) -> f32 {
    dot(a, a).sqrt()
}

/// `a` scaled to unit length; the zero vector stays zero.
pub(crate) fn normalize(a: Vec3) -> Vec3 {
    let l = length(a);
    if l > 0.0 { scale(a, 1.0 / l) } else { a }
}

/// Whether triangle `t` overlaps the axis-aligned box `[min, min + size]` grown by `margin` on
/// every side (separating-axis test: the 3 box axes, the triangle normal, the 9 edge crosses).
pub(crate) fn tri_box_overlap(t: [Vec3; 3], min: Vec3, size: f32, margin: f32) -> bool {
    let half = size * 0.5 + margin;
    let c = [
        min[0] + size * 0.5,
        min[1] + size * 0.5,
        min[2] + size * 0.5,
    ];
    let v = [sub(t[0], c), sub(t[1], c), sub(t[2], c)];
    for a in 0..3 {
        let (x, y, z) = (axis(v[0], a), axis(v[1], a), axis(v[2], a));
        let lo = x.min(y).min(z);
        let hi = x.max(y).max(z);
        if lo > half || hi < -half {
            return false;
        }
    }
    let e = [sub(v[1], v[0]), sub(v[2], v[1]), sub(v[0], v[2])];
    let n = cross(e[0], e[1]);
    let mut axes = vec![n];
    for edge in e {
        for unit in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] {
            axes.push(cross(edge, unit));
        }
    }
    for a in axes {
        if dot(a, a) < 1e-12 {
            continue;
        }
        let p = [dot(v[0], a), dot(v[1], a), dot(v[2], a)];
        let lo = p[0].min(p[1]).min(p[2]);
        let hi = p[0].max(p[1]).max(p[2]);
        let r = half * (a[0].abs() + a[1].abs() + a[2].abs());
        if lo > r || hi < -r {
            return false;
        }
    }
    true
}

/// Ray/triangle intersection (Möller–Trumbore, both faces): the distance along `dir`, if any.
pub(crate) fn ray_triangle(origin: Vec3, dir: Vec3, t: [Vec3; 3]) -> Option<f32> {
    let e1 = sub(t[1], t[0]);
    let e2 = sub(t[2], t[0]);
    let p = cross(dir, e2);
    let det = dot(e1, p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = sub(origin, t[0]);
    let u = dot(s, p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = cross(s, e1);
    let v = dot(dir, q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let d = dot(e2, q) * inv;
    (d >= 0.0).then_some(d)
}

/// Entry and exit distances of a ray through the box `[min, min + size]` (slab test).
pub(crate) fn ray_box(origin: Vec3, dir: Vec3, min: Vec3, size: [f32; 3]) -> Option<(f32, f32)> {
    let mut t0 = f32::NEG_INFINITY;
    let mut t1 = f32::INFINITY;
    for a in 0..3 {
        let (o, d) = (axis(origin, a), axis(dir, a));
        let lo = axis(min, a);
        let hi = lo + axis(size, a);
        if d == 0.0 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let inv = 1.0 / d;
        let (mut n, mut f) = ((lo - o) * inv, (hi - o) * inv);
        if n > f {
            std::mem::swap(&mut n, &mut f);
        }
        t0 = t0.max(n);
        t1 = t1.min(f);
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}
