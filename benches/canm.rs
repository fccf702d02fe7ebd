//! Camera animation throughput: parse, write and validate on the real Galaxy `.canm` members of
//! `../shared/corpus/real/rarc` (or the built samples when absent), and evaluation of every
//! frame of every track.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::canm;
use std::hint::black_box;

mod common;

fn bench(c: &mut Criterion) {
    let mut files = common::members(".canm");
    if files.is_empty() {
        files = canm::build::samples().into_iter().map(|(_, b)| b).collect();
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let models: Vec<_> = files.iter().map(|f| canm::parse(f).unwrap()).collect();
    let mut g = c.benchmark_group(format!("canm ({} files, {total} bytes)", files.len()));
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| canm::parse(black_box(f)).unwrap().frames)
                .sum::<u32>()
        })
    });
    g.bench_function("write", |b| {
        b.iter(|| {
            models
                .iter()
                .map(|m| m.write().unwrap().len())
                .sum::<usize>()
        })
    });
    g.bench_function("validate", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| canm::validate(black_box(f)).len())
                .sum::<usize>()
        })
    });
    g.finish();
    let frames: u64 = models.iter().map(|m| u64::from(m.frames)).sum();
    let mut g = c.benchmark_group("canm eval");
    g.throughput(Throughput::Elements(frames));
    g.bench_function("pose every frame", |b| {
        b.iter(|| {
            let mut acc = 0.0f32;
            for m in &models {
                for f in 0..m.frames {
                    acc += canm::eval::pose(m, f as f32 + 0.5).unwrap().pos[0];
                }
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
