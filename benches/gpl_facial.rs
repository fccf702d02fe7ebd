//! gpl-facial throughput on the Birdo-like and Luigi-like blocks: parse (view and owned model),
//! validate (pose 0 against the mesh, runs, packing, source mirror), write, and a rigid rebuild.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::gpl_facial::{self, Block, FacialSection, build, edit::RigidPoses, golden};
use std::hint::black_box;

fn blocks(c: &mut Criterion) {
    for (name, bytes) in [
        ("birdo", build::birdo_block()),
        ("luigi", build::luigi_block()),
    ] {
        let mut g = c.benchmark_group(format!("gpl_facial/{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("parse_view", |b| {
            b.iter(|| {
                gpl_facial::parse(black_box(&bytes))
                    .unwrap()
                    .facial()
                    .unwrap()
                    .unwrap()
                    .len()
            })
        });
        g.bench_function("parse_model", |b| {
            b.iter(|| Block::parse(black_box(&bytes)).unwrap())
        });
        g.bench_function("validate", |b| {
            b.iter(|| gpl_facial::validate_view(&gpl_facial::parse(black_box(&bytes)).unwrap()))
        });
        let block = Block::parse(&bytes).unwrap();
        g.bench_function("write", |b| b.iter(|| black_box(&block).write().unwrap()));
        g.finish();
    }
    // Rebuild: the Birdo head remapped onto 400 rebuilt vertices with 4 delta poses per object.
    let spec = build::birdo();
    let head = spec.submeshes[1].triplets();
    let normals = spec.submeshes[1].normals.clone().unwrap();
    let facial = spec.facial.unwrap();
    let poses: Vec<RigidPoses> = (0..2u16)
        .map(|o| RigidPoses {
            positions: (0..200u16)
                .map(|i| (i * 2 + o, vec![[1, 2, 3]; 4]))
                .collect(),
            normals: (0..250u16)
                .map(|i| (i * 2 + o, vec![[0, 0, 9]; 4]))
                .collect(),
        })
        .collect();
    let len = facial.write().unwrap().len();
    let mut g = c.benchmark_group("gpl_facial/rebuild");
    g.throughput(Throughput::Bytes(len as u64));
    g.bench_function("rigid_rebuild_write", |b| {
        b.iter(|| {
            let mut s = facial.clone();
            s.rebuild_rigid(1, black_box(&head), &normals, Some(&poses))
                .unwrap();
            s.write().unwrap()
        })
    });
    g.finish();
}

/// The golden table (the rows the read and write tests use): parse and write each section.
fn golden_rows(c: &mut Criterion) {
    let mut g = c.benchmark_group("gpl_facial/golden");
    for (name, model, bytes) in golden::table() {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("parse_{name}"), |b| {
            b.iter(|| FacialSection::parse(black_box(&bytes)).unwrap())
        });
        g.bench_function(format!("write_{name}"), |b| {
            b.iter(|| black_box(&model).write().unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, blocks, golden_rows);
criterion_main!(benches);
