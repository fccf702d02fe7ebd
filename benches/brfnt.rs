//! Font throughput: parse, write and validate on the built fonts (`brfnt::build`: no real font is
//! shared), and glyph lookups through the three kinds of code map.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::brfnt;

mod common;

fn bench(c: &mut Criterion) {
    let files: Vec<Vec<u8>> = brfnt::build::samples()
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(format!(
        "brfnt ({} built fonts, {total} bytes)",
        files.len()
    ));
    g.throughput(Throughput::Bytes(total as u64));
    common::parse_write_validate(
        &mut g,
        &files,
        |f| brfnt::Brfnt::parse(f).unwrap(),
        |m| m.write().unwrap().len(),
        |f| brfnt::validate(f).len(),
    );
    g.finish();
    let font = brfnt::build::latin();
    let codes: Vec<u32> = "ABCDEFGHIJabcdef .Z".chars().map(u32::from).collect();
    let mut g = c.benchmark_group("brfnt lookup");
    g.throughput(Throughput::Elements(codes.len() as u64));
    g.bench_function("glyph (direct, table, scan, alternate)", |b| {
        b.iter(|| codes.iter().filter_map(|&c| font.glyph(c)).count())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
