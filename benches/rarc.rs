//! RARC: zero-copy parse + tree walk, model parse + byte-exact write, and retail-layout packing, on
//! an archive built from the sample tree repeated into ~1 MiB.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::rarc::{self, Archive, Dir, Item, PackOptions};
use std::hint::black_box;

fn big_tree() -> Dir {
    let sample = rarc::sample_tree();
    let payload = gcformats::yaz0::build::real_looking(4096);
    let children = (0..128)
        .map(|i| {
            let mut d = sample.clone();
            d.name = format!("zone{i:03}").into_bytes();
            d.children.push(Item::File {
                name: b"data.bin".to_vec(),
                attr: None,
                data: payload[..1024 + (i * 23) % 3000].to_vec(),
                id: None,
            });
            Item::Dir(d)
        })
        .collect();
    Dir {
        name: b"Stage".to_vec(),
        children,
    }
}

fn rarc_bench(c: &mut Criterion) {
    let tree = big_tree();
    let bytes = rarc::pack(&tree, PackOptions::default()).write().unwrap();
    let mut g = c.benchmark_group("rarc");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse_walk", |b| {
        b.iter(|| {
            rarc::parse(black_box(&bytes))
                .unwrap()
                .walk()
                .unwrap()
                .1
                .len()
        })
    });
    g.bench_function("model_parse", |b| {
        b.iter(|| Archive::parse(black_box(&bytes)).unwrap())
    });
    let model = Archive::parse(&bytes).unwrap();
    g.bench_function("write", |b| b.iter(|| black_box(&model).write().unwrap()));
    g.bench_function("pack", |b| {
        b.iter(|| {
            rarc::pack(black_box(&tree), PackOptions::default())
                .write()
                .unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, rarc_bench);
criterion_main!(benches);
