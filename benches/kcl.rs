//! KCL collision: parse, write and validate MB/s on the real Galaxy `.kcl` members (the built
//! sample when `../shared/corpus` is absent), build time for a 65,535-triangle mesh (the most one
//! file can index), and octree point / ray queries per second beside brute force.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::kcl::{self, build};
use std::hint::black_box;
use std::time::Duration;

mod common;

fn real_files() -> Vec<Vec<u8>> {
    let mut out = common::members(".kcl");
    if out.is_empty() {
        out = build::samples().into_iter().map(|(_, b)| b).collect();
    }
    out
}

/// A bumpy terrain of `n` triangles over about 20,000 × 20,000 units. Integer coordinates and a
/// height pattern repeating every 4 cells, so its normals repeat exactly and fit the format's
/// 65,536-entry normal pool (a file indexes positions and normals with u16).
fn terrain(n: usize) -> Vec<([f32; 3], [f32; 3], [f32; 3])> {
    let side = ((n / 2) as f64).sqrt().ceil() as usize;
    let step = (20_000 / side) as f32;
    const H: [[f32; 4]; 4] = [
        [0.0, 120.0, 40.0, 300.0],
        [80.0, 10.0, 200.0, 60.0],
        [150.0, 90.0, 0.0, 30.0],
        [20.0, 250.0, 110.0, 70.0],
    ];
    let h = |i: usize, j: usize| H[i % 4][j % 4];
    let at = |i: usize, j: usize| {
        [
            i as f32 * step - 10_000.0,
            h(i, j),
            j as f32 * step - 10_000.0,
        ]
    };
    let mut out = Vec::with_capacity(n);
    'grid: for j in 0..side {
        for i in 0..side {
            for t in [
                (at(i, j), at(i, j + 1), at(i + 1, j)),
                (at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)),
            ] {
                if out.len() == n {
                    break 'grid;
                }
                out.push(t);
            }
        }
    }
    out
}

fn kcl_bench(c: &mut Criterion) {
    let files = real_files();
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("kcl");
    g.throughput(Throughput::Bytes(total as u64));
    common::parse_write_validate(
        &mut g,
        &files,
        |f| kcl::Kcl::parse(f).unwrap(),
        |m| m.write().unwrap().len(),
        |f| kcl::validate(f).len(),
    );
    g.finish();

    let tris: Vec<_> = terrain(65_535)
        .into_iter()
        .map(|(a, b, c)| ([a, b, c], 0u16))
        .collect();
    let mut g = c.benchmark_group("kcl_build");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Elements(tris.len() as u64));
    g.bench_function("build_65535_triangles", |b| {
        b.iter(|| {
            build::build(black_box(&tris), &build::Options::default())
                .unwrap()
                .octree
                .blocks
                .len()
        })
    });
    g.finish();

    let k = build::build(&tris, &build::Options::default()).unwrap();
    let mut s = 1u64;
    let points: Vec<[f32; 3]> = (0..10_000)
        .map(|_| {
            let mut r = || {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 40) as f32 / (1u64 << 24) as f32
            };
            [
                r() * 20_000.0 - 10_000.0,
                r() * 700.0 - 350.0,
                r() * 20_000.0 - 10_000.0,
            ]
        })
        .collect();
    let mut g = c.benchmark_group("kcl_query");
    g.throughput(Throughput::Elements(points.len() as u64));
    g.bench_function("point_octree", |b| {
        b.iter(|| {
            points
                .iter()
                .map(|p| k.query_point(black_box(*p)).len())
                .sum::<usize>()
        })
    });
    g.bench_function("ray_octree_down", |b| {
        b.iter(|| {
            points
                .iter()
                .map(|p| {
                    k.query_ray(black_box([p[0], 1000.0, p[2]]), [0.0, -1.0, 0.0], 2000.0)
                        .len()
                })
                .sum::<usize>()
        })
    });
    g.sample_size(10);
    g.throughput(Throughput::Elements(100));
    g.bench_function("point_brute_force", |b| {
        b.iter(|| {
            points[..100]
                .iter()
                .map(|p| k.query_point_brute(black_box(*p)).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, kcl_bench);
criterion_main!(benches);
