//! ibnk throughput: read (view → model) and byte-exact write of the golden rows and of a large
//! generated bank in both versions, plus the heavy operations: a full "what plays" sweep over
//! every program, key and velocity, and validation.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::ibnk;
use std::hint::black_box;

fn golden(c: &mut Criterion) {
    let rows = ibnk::golden::table();
    let total: usize = rows.iter().map(|r| r.bytes.len()).sum();
    let mut g = c.benchmark_group("ibnk_golden");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("read", |b| {
        b.iter(|| {
            for r in &rows {
                black_box(ibnk::Bank::parse(black_box(&r.bytes)).unwrap());
            }
        })
    });
    g.bench_function("write", |b| {
        b.iter(|| {
            for r in &rows {
                black_box(r.bank.write().unwrap());
            }
        })
    });
    g.finish();
}

fn orchestra(c: &mut Criterion) {
    let design = ibnk::build::orchestra(200, 16);
    for (name, bank) in [("v0", design.to_v0(1)), ("v1", design.to_v1(1))] {
        let bytes = bank.write().unwrap();
        let mut g = c.benchmark_group(format!("ibnk_orchestra_{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("parse_view", |b| {
            b.iter(|| ibnk::parse(black_box(&bytes)).unwrap().program_offset(100))
        });
        g.bench_function("read", |b| {
            b.iter(|| ibnk::Bank::parse(black_box(&bytes)).unwrap())
        });
        g.bench_function("write", |b| b.iter(|| black_box(&bank).write().unwrap()));
        g.bench_function("validate", |b| b.iter(|| ibnk::validate(black_box(&bytes))));
        let programs: Vec<u32> = bank.programs().iter().map(|p| p.program).collect();
        g.bench_function("play_sweep", |b| {
            b.iter(|| {
                let mut waves = 0u32;
                for &p in &programs {
                    for key in 0..128u8 {
                        for vel in [1u8, 50, 100, 127] {
                            if let Ok(n) = bank.play(p, key, vel) {
                                waves = waves.wrapping_add(u32::from(n.wave));
                            }
                        }
                    }
                }
                waves
            })
        });
        g.finish();
    }
}

criterion_group!(benches, golden, orchestra);
criterion_main!(benches);
