//! Sound animation table throughput: parse, write and validate on the real Galaxy `.bas`
//! members of `../shared/corpus/real/rarc` (or the built samples when absent).
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::bas;

mod common;

fn bench(c: &mut Criterion) {
    let mut files = common::members(".bas");
    if files.is_empty() {
        files = bas::build::samples().into_iter().map(|(_, b)| b).collect();
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(format!("bas ({} files, {total} bytes)", files.len()));
    g.throughput(Throughput::Bytes(total as u64));
    common::parse_write_validate(
        &mut g,
        &files,
        |f| bas::Bas::parse(f).unwrap(),
        |m| m.write().unwrap().len(),
        |f| bas::validate(f).len(),
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
