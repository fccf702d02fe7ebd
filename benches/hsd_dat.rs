//! hsd-dat throughput on a large synthetic XD-style model (100 enveloped meshes, each with its own
//! 62 KiB display list: 6.3 MB): the archive layer, the typed graph with every display list
//! decoded, meshes (every vertex decoded and skinned), the owned model, write, validate.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::hsd_dat::build::{XdOptions, xd_model};
use gcformats::hsd_dat::{Dat, parse};
use std::hint::black_box;

/// `large`: 100 meshes with 62 KiB display lists each (6.3 MB, display-list bound). `dense`: 400
/// meshes with one-strip display lists (struct and relocation bound, like a real model's
/// struct region).
fn model(name: &str) -> Vec<u8> {
    let o = match name {
        "large" => XdOptions {
            repeat_strips: 1600,
            extra_meshes: 99,
            ..XdOptions::default()
        },
        _ => XdOptions {
            extra_meshes: 399,
            ..XdOptions::default()
        },
    };
    xd_model(o).unwrap().write().unwrap()
}

fn bench(c: &mut Criterion) {
    for name in ["large", "dense"] {
        group(c, name);
    }
}

fn group(c: &mut Criterion, name: &str) {
    let bytes = model(name);
    let mut g = c.benchmark_group(format!("hsd_dat_{name}"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("archive_layer", |b| {
        b.iter(|| {
            let a = parse(black_box(&bytes)).unwrap();
            (a.extents().unwrap().len(), a.roots().count())
        })
    });
    g.bench_function("graph_and_display_lists", |b| {
        b.iter(|| {
            let a = parse(black_box(&bytes)).unwrap();
            let gr = a.graph();
            assert!(gr.errors.is_empty());
            gr.pobjs.iter().map(|p| p.primitives).sum::<u32>()
        })
    });
    g.bench_function("meshes", |b| {
        let a = parse(&bytes).unwrap();
        let gr = a.graph();
        b.iter(|| {
            gr.pobjs
                .iter()
                .map(|p| a.mesh(&gr, p).unwrap().triangles.len())
                .sum::<usize>()
        })
    });
    g.bench_function("parse_owned", |b| {
        b.iter(|| Dat::parse(black_box(&bytes)).unwrap().blocks.len())
    });
    let dat = Dat::parse(&bytes).unwrap();
    assert_eq!(dat.write().unwrap(), bytes);
    g.bench_function("write", |b| {
        b.iter(|| black_box(&dat).write().unwrap().len())
    });
    g.bench_function("validate", |b| {
        b.iter(|| parse(black_box(&bytes)).unwrap().validate().len())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
