//! Layout animation throughput: parse, write and validate on the real Galaxy 2 `.brlan`
//! members of `../shared/corpus/real/rarc` (or the built sample when absent), and evaluation
//! of every content at every frame.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::brlan;

mod common;

fn bench(c: &mut Criterion) {
    let mut files = common::members(".brlan");
    if files.is_empty() {
        files = brlan::build::samples()
            .into_iter()
            .map(|(_, b)| b)
            .collect();
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(format!("brlan ({} files, {total} bytes)", files.len()));
    g.throughput(Throughput::Bytes(total as u64));
    let models = common::parse_write_validate(
        &mut g,
        &files,
        |f| brlan::Brlan::parse(f).unwrap(),
        |m| m.write().unwrap().len(),
        |f| brlan::validate(f).len(),
    );
    g.finish();
    let anims: Vec<_> = models.iter().filter_map(|m| m.anim()).collect();
    let samples: u64 = anims
        .iter()
        .map(|a| u64::from(a.frame_size) * a.contents.len() as u64)
        .sum();
    let mut g = c.benchmark_group("brlan eval");
    g.throughput(Throughput::Elements(samples));
    g.bench_function("every content at every frame", |b| {
        b.iter(|| {
            let mut n = 0;
            for a in &anims {
                for f in 0..a.frame_size {
                    for c in &a.contents {
                        n += brlan::eval::content(c, f32::from(f) + 0.5).len();
                    }
                }
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
