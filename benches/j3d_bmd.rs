//! j3d-bmd throughput on a synthetic 100,000-triangle model (one multi-matrix shape, 13 matrix
//! groups of triangle strips): parse the view and decode all geometry, parse the owned model, write.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::j3d_bmd::{self, Bmd, build};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let model = build::grid_bmd(250, 200);
    let bytes = model.write().unwrap();
    let tris = j3d_bmd::geometry(&j3d_bmd::parse(&bytes).unwrap())
        .unwrap()
        .triangle_count() as u64;
    assert_eq!(tris, 100_000);
    let mut g = c.benchmark_group("j3d_bmd");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse_view_decode_geometry", |b| {
        b.iter(|| j3d_bmd::geometry(&j3d_bmd::parse(black_box(&bytes)).unwrap()).unwrap())
    });
    g.bench_function("parse_model", |b| {
        b.iter(|| Bmd::parse(black_box(&bytes)).unwrap())
    });
    g.bench_function("write", |b| b.iter(|| black_box(&model).write().unwrap()));
    g.bench_function("validate", |b| {
        b.iter(|| j3d_bmd::validate(black_box(&bytes)))
    });
    g.finish();
    let mut g = c.benchmark_group("j3d_bmd_triangles");
    g.throughput(Throughput::Elements(tris));
    g.bench_function("decode_geometry", |b| {
        b.iter(|| j3d_bmd::geometry(&j3d_bmd::parse(black_box(&bytes)).unwrap()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
