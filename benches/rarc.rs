//! RARC: zero-copy parse + tree walk, model parse + byte-exact write, and retail-layout packing, on
//! an archive built from the sample tree repeated into ~1 MiB.
//!
//! Real archives (`../shared/corpus/real/rarc`, every RARC there and inside it, Yaz0 expanded):
//! parse + list every file with its path, ours (`rarc::parse` + `walk`) beside crates.io
//! `cube_rs` (`Rarc::parse` + `files`), interleaved (`rarc ratio` lines), and the model
//! parse + write of the same archives.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

#[path = "common/mod.rs"]
mod common;

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

/// Every RARC of the real set (archives on disk, Yaz0 expanded, and nested archives).
fn real_archives() -> Vec<(String, Vec<u8>)> {
    common::real_files("rarc")
        .into_iter()
        .filter(|f| f.bytes.starts_with(b"RARC"))
        .map(|f| (f.name, f.bytes))
        .collect()
}

fn ours_list(bytes: &[u8]) -> usize {
    let v = rarc::parse(bytes).unwrap();
    let (_, files) = v.walk().unwrap();
    files
        .iter()
        .map(|f| f.path.len() + v.file_bytes(&f.entry).unwrap().len())
        .sum()
}

fn cube_list(bytes: &[u8]) -> usize {
    let a = cube_rs::rarc::Rarc::parse(bytes).unwrap();
    a.files().map(|(p, d)| p.as_os_str().len() + d.len()).sum()
}

fn real(c: &mut Criterion) {
    let archives = real_archives();
    if archives.is_empty() {
        return;
    }
    let total: usize = archives.iter().map(|(_, b)| b.len()).sum();
    let files: usize = archives
        .iter()
        .map(|(_, b)| rarc::parse(b).unwrap().walk().unwrap().1.len())
        .sum();
    eprintln!(
        "real rarc: {} archives, {total} bytes, {files} files",
        archives.len()
    );
    // Both list the same files (path + size).
    for (name, b) in &archives {
        assert_eq!(ours_list(b), cube_list(b), "{name}");
    }
    common::ratios(
        "rarc",
        "real parse+list",
        total,
        40,
        &[
            ("cube_rs", &|| {
                archives
                    .iter()
                    .map(|(_, b)| cube_list(black_box(b)))
                    .sum::<usize>()
            }),
            ("gcformats", &|| {
                archives
                    .iter()
                    .map(|(_, b)| ours_list(black_box(b)))
                    .sum::<usize>()
            }),
        ],
    );
    let mut g = c.benchmark_group("rarc_real");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("parse_list", |b| {
        b.iter(|| {
            archives
                .iter()
                .map(|(_, b)| ours_list(black_box(b)))
                .sum::<usize>()
        })
    });
    g.bench_function("parse_list (cube_rs)", |b| {
        b.iter(|| {
            archives
                .iter()
                .map(|(_, b)| cube_list(black_box(b)))
                .sum::<usize>()
        })
    });
    g.bench_function("model_parse_write", |b| {
        b.iter(|| {
            archives
                .iter()
                .map(|(_, b)| Archive::parse(black_box(b)).unwrap().write().unwrap().len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, real, rarc_bench);
criterion_main!(benches);
