//! Camera animation throughput: parse, write and validate on the real Galaxy `.canm` members of
//! `../shared/corpus/real/rarc` (or the built samples when absent), and evaluation of every
//! frame of every track.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::canm;

mod common;

fn bench(c: &mut Criterion) {
    let mut files = common::members(".canm");
    if files.is_empty() {
        files = canm::build::samples().into_iter().map(|(_, b)| b).collect();
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(format!("canm ({} files, {total} bytes)", files.len()));
    g.throughput(Throughput::Bytes(total as u64));
    let models = common::parse_write_validate(
        &mut g,
        &files,
        |f| canm::Canm::parse(f).unwrap(),
        |m| m.write().unwrap().len(),
        |f| canm::validate(f).len(),
    );
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
