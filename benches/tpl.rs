//! TPL throughput: parse (owned model), view, write and validate on the real Galaxy TPL members
//! of `../shared/corpus/real/rarc` (all concatenated as one batch), or on the built sample when
//! the corpus is absent; plus the folder export (PNG per image) of the batch.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::tpl;

mod common;
use common::members;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut files = members(".tpl");
    if files.is_empty() {
        files.push(tpl::build::sample_bytes());
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(format!("tpl ({} files, {total} bytes)", files.len()));
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("view", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| tpl::parse(black_box(f)).unwrap().entries.len())
                .sum::<usize>()
        })
    });
    let models = common::parse_write_validate(
        &mut g,
        &files,
        |f| tpl::Tpl::parse(f).unwrap(),
        |m| m.write().unwrap().len(),
        |f| tpl::validate(f).len(),
    );
    g.bench_function("folder export (decode + PNG)", |b| {
        b.iter(|| {
            models
                .iter()
                .map(|m| tpl::folder::to_folder(m).unwrap().len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
