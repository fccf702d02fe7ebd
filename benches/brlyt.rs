//! Layout throughput: parse, write and validate on the real Galaxy 2 `.brlyt` members of
//! `../shared/corpus/real/rarc` (or the built sample when absent), and the pane tree.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::brlyt;

mod common;

fn bench(c: &mut Criterion) {
    let mut files = common::members(".brlyt");
    if files.is_empty() {
        files = brlyt::build::samples()
            .into_iter()
            .map(|(_, b)| b)
            .collect();
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(format!("brlyt ({} files, {total} bytes)", files.len()));
    g.throughput(Throughput::Bytes(total as u64));
    let models = common::parse_write_validate(
        &mut g,
        &files,
        |f| brlyt::Brlyt::parse(f).unwrap(),
        |m| m.write().unwrap().len(),
        |f| brlyt::validate(f).len(),
    );
    g.bench_function("tree", |b| {
        b.iter(|| models.iter().map(|m| m.tree().panes.len()).sum::<usize>())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
