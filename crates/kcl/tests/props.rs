//! Properties: parse(write(m)) == m for built models, arbitrary bytes never panic, OBJ → KCL →
//! OBJ keeps every triangle, and octree point and ray queries equal brute force.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use kcl::build::{self, Options};
use kcl::geom::Vec3;
use proptest::prelude::*;

/// A deterministic pseudo-random mesh: a bumpy terrain grid plus scattered triangles.
fn mesh(n: usize, seed: u64) -> Vec<([Vec3; 3], u16)> {
    let mut s = seed;
    let mut rnd = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f32 / (1u64 << 53) as f32
    };
    let mut out = Vec::new();
    let side = ((n / 4) as f32).sqrt().max(1.0) as usize;
    let h: Vec<f32> = (0..(side + 1) * (side + 1)).map(|_| rnd() * 80.0).collect();
    let at = |i: usize, j: usize| {
        [
            i as f32 * 50.0 - 1000.0,
            h[j * (side + 1) + i],
            j as f32 * 50.0 - 800.0,
        ]
    };
    for j in 0..side {
        for i in 0..side {
            out.push(([at(i, j), at(i, j + 1), at(i + 1, j)], (i % 3) as u16));
            out.push(([at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)], 1));
        }
    }
    while out.len() < n {
        let c = [
            rnd() * 2000.0 - 1000.0,
            rnd() * 600.0,
            rnd() * 2000.0 - 1000.0,
        ];
        let v = |r: &mut dyn FnMut() -> f32| {
            [
                c[0] + r() * 200.0 - 100.0,
                c[1] + r() * 200.0 - 100.0,
                c[2] + r() * 200.0 - 100.0,
            ]
        };
        let t = [v(&mut rnd), v(&mut rnd), v(&mut rnd)];
        out.push((t, 7));
    }
    out
}

#[test]
fn point_queries_equal_brute_force_on_10000_points() {
    let k = build::build(&mesh(2000, 0x9E37_79B9_7F4A_7C15), &Options::default()).unwrap();
    let bytes = k.write().unwrap();
    assert_eq!(kcl::Kcl::parse(&bytes).unwrap(), k);
    assert!(
        kcl::validate(&bytes).is_empty(),
        "{:?}",
        kcl::validate(&bytes)
    );
    let mut s = 12345u64;
    let mut rnd = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut hits = 0;
    for _ in 0..10_000 {
        // Mostly near the surfaces (where prisms are), some anywhere in and around the area.
        let p = [
            rnd() * 2400.0 - 1200.0,
            rnd() * 900.0 - 150.0,
            rnd() * 2400.0 - 1200.0,
        ];
        let fast = k.query_point(p);
        assert_eq!(fast, k.query_point_brute(p), "point {p:?}");
        hits += usize::from(!fast.is_empty());
    }
    assert!(hits > 500, "only {hits} points inside a prism");
    for i in 0..300 {
        let o = [rnd() * 2400.0 - 1200.0, 900.0, rnd() * 2400.0 - 1200.0];
        let d = [rnd() - 0.5, -1.0, rnd() - 0.5];
        assert_eq!(
            k.query_ray(o, d, 5000.0),
            k.query_ray_brute(o, d, 5000.0),
            "ray {i}"
        );
    }
}

#[test]
fn obj_kcl_obj_keeps_every_triangle() {
    let tris = mesh(500, 77);
    let mut text = String::new();
    for (t, a) in &tris {
        text.push_str(&format!("usemtl attr_{a}\n"));
        for v in t {
            text.push_str(&format!("v {} {} {}\n", v[0], v[1], v[2]));
        }
        text.push_str("f -3 -2 -1\n");
    }
    let read = kcl::obj::from_obj(&text).unwrap();
    assert_eq!(read, tris);
    let k = build::build(&read, &Options::default()).unwrap();
    let back = kcl::obj::from_obj(&kcl::obj::to_obj(&k)).unwrap();
    assert_eq!(back.len(), tris.len());
    for ((t, a), (u, b)) in tris.iter().zip(&back) {
        assert_eq!(a, b);
        for (p, q) in t.iter().zip(u) {
            for (x, y) in p.iter().zip(q) {
                assert!(
                    (x - y).abs() <= 1e-3 * x.abs().max(1.0) + 1e-2,
                    "{t:?} vs {u:?}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        kcl::fuzz_kcl(&data);
    }

    #[test]
    fn header_shaped_bytes_never_panic(mut data in proptest::collection::vec(any::<u8>(), 0x38..700)) {
        data[..4].copy_from_slice(&0x38u32.to_be_bytes());
        kcl::fuzz_kcl(&data);
    }

    #[test]
    fn built_models_round_trip(n in 1usize..40, seed in 1u64..u64::MAX, leaf in 1usize..10) {
        let opts = Options { max_per_leaf: leaf, ..Default::default() };
        let k = build::build(&mesh(n, seed), &opts).unwrap();
        let bytes = k.write().unwrap();
        prop_assert_eq!(kcl::Kcl::parse(&bytes).unwrap(), k);
        kcl::fuzz_kcl(&bytes);
    }
}
