//! gcio throughput: bounds-checked reads of a table of big-endian structs, and aligned writes.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::gcio::{Reader, Writer, zerocopy::byteorder::big_endian::U32};
use std::hint::black_box;

const LEN: usize = 1 << 20;

fn data() -> Vec<u8> {
    (0..LEN as u32)
        .map(|i| i.wrapping_mul(2654435761) as u8)
        .collect()
}

fn reader(c: &mut Criterion) {
    let d = data();
    let mut g = c.benchmark_group("gcio");
    g.throughput(Throughput::Bytes(LEN as u64));
    g.bench_function("read_u32_loop", |b| {
        b.iter(|| {
            let r = Reader::new(black_box(&d));
            let mut sum = 0u32;
            let mut off = 0;
            while let Ok(v) = r.u32(off) {
                sum = sum.wrapping_add(v);
                off += 4;
            }
            sum
        })
    });
    g.bench_function("read_table", |b| {
        b.iter(|| {
            let r = Reader::new(black_box(&d));
            r.table::<U32>(0, LEN / 4)
                .map(|t| t.iter().fold(0u32, |a, v| a.wrapping_add(v.get())))
                .unwrap_or(0)
        })
    });
    g.bench_function("write_u32_aligned", |b| {
        b.iter(|| {
            let mut w = Writer::with_capacity(LEN);
            for i in 0..(LEN / 4) as u32 {
                w.u32(black_box(i));
            }
            w.align(32, 0x40);
            w.into_vec()
        })
    });
    g.finish();
}

criterion_group!(benches, reader);
criterion_main!(benches);
