//! hsd-dat throughput on a large synthetic XD-style model (100 enveloped meshes, each with its own
//! 62 KiB display list: 6.3 MB): the archive layer, the typed graph with every display list
//! decoded, meshes (every vertex decoded and skinned), the owned model, write, validate.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::hsd_dat::build::{XdOptions, xd_model};
use gcformats::hsd_dat::{Dat, parse};
use std::hint::black_box;

/// `large`: 100 meshes with 62 KiB display lists each (6.3 MB, display-list bound). `dense`: 400
/// meshes with one-strip display lists (struct and relocation bound, like a real model's
/// struct region).
fn model(name: &str) -> Vec<u8> {
    let o = match name {
        "large" => XdOptions {
            repeat_strips: 1600,
            extra_meshes: 99,
            ..XdOptions::default()
        },
        _ => XdOptions {
            extra_meshes: 399,
            ..XdOptions::default()
        },
    };
    xd_model(o).unwrap().write().unwrap()
}

fn bench(c: &mut Criterion) {
    for name in ["large", "dense"] {
        group(c, name);
    }
    curves(c);
    compile_real(c);
}

/// `compile` (parse, type, order, lay out, write) on each retail file of
/// `../shared/corpus/real/hsd` when present, with the BNB of the result printed once per file.
fn compile_real(c: &mut Criterion) {
    use gcformats::hsd_dat::compile::compile;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/real/hsd");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    let mut g = c.benchmark_group("hsd_dat_compile_real");
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let out = compile(&Dat::parse(&bytes).unwrap())
            .unwrap()
            .write()
            .unwrap();
        let bnb = gcformats::hsd_dat::compare::bnb(&bytes, &out);
        eprintln!("{name}: {} bytes, BNB {bnb:.2} %", bytes.len());
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                compile(&Dat::parse(black_box(&bytes)).unwrap())
                    .unwrap()
                    .write()
                    .unwrap()
                    .len()
            })
        });
    }
    g.finish();
}

/// Keyframe tracks: a 10,000-key stream (SPL keys with S16 values and slopes, an SLP every 16th
/// key, LIN runs between), decoded, re-encoded, replayed into segments and sampled at every frame
/// (3 frames per key, so 30,000 evaluations). Throughput in keys (frames for `sample_every_frame`).
fn curves(c: &mut Criterion) {
    use gcformats::hsd_dat::anim::Curve;
    use gcformats::hsd_dat::fobj::{Key, Op, decode, decode_packs, encode_packs};
    let n = 10_000u32;
    let keys: Vec<Key> = (0..n)
        .map(|i| {
            let v = f32::from((i % 200) as i16 - 100) / 8.0;
            match i % 16 {
                15 => Key {
                    op: Op::SLP,
                    value: None,
                    slope: Some(0.5),
                    wait: None,
                },
                8..=11 => Key {
                    op: Op::LIN,
                    value: Some(v),
                    slope: None,
                    wait: Some(3),
                },
                _ => Key {
                    op: Op::SPL,
                    value: Some(v),
                    slope: Some(-v / 4.0),
                    wait: Some(3),
                },
            }
        })
        .collect();
    let (fv, fs) = (0x23, 0x25); // S16 shift 3, S16 shift 5
    let stream = gcformats::hsd_dat::fobj::encode(&keys, fv, fs).unwrap();
    let r = gcio::Reader::new(&stream);
    let curve = Curve::new(&keys);
    let frames = curve.segments.last().map_or(0.0, |s| s.start + s.len) as u32;
    let mut g = c.benchmark_group("hsd_dat_curves");
    g.throughput(Throughput::Elements(u64::from(n)));
    g.bench_function("decode", |b| {
        b.iter(|| decode(black_box(&r), fv, fs).unwrap().len())
    });
    let packs = decode_packs(&r, fv, fs).unwrap();
    g.bench_function("encode", |b| {
        b.iter(|| encode_packs(black_box(&packs), fv, fs).unwrap().len())
    });
    g.bench_function("replay_to_segments", |b| {
        b.iter(|| Curve::new(black_box(&keys)).segments.len())
    });
    g.throughput(Throughput::Elements(u64::from(frames)));
    g.bench_function("sample_every_frame", |b| {
        b.iter(|| {
            (0..frames)
                .map(|f| black_box(&curve).eval(f as f32))
                .sum::<f32>()
        })
    });
    g.finish();
}

fn group(c: &mut Criterion, name: &str) {
    let bytes = model(name);
    let mut g = c.benchmark_group(format!("hsd_dat_{name}"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("archive_layer", |b| {
        b.iter(|| {
            let a = parse(black_box(&bytes)).unwrap();
            (a.extents().unwrap().len(), a.roots().count())
        })
    });
    g.bench_function("graph_and_display_lists", |b| {
        b.iter(|| {
            let a = parse(black_box(&bytes)).unwrap();
            let gr = a.graph();
            assert!(gr.errors.is_empty());
            gr.pobjs.iter().map(|p| p.primitives).sum::<u32>()
        })
    });
    g.bench_function("meshes", |b| {
        let a = parse(&bytes).unwrap();
        let gr = a.graph();
        b.iter(|| {
            gr.pobjs
                .iter()
                .map(|p| a.mesh(&gr, p).unwrap().triangles.len())
                .sum::<usize>()
        })
    });
    g.bench_function("parse_owned", |b| {
        b.iter(|| Dat::parse(black_box(&bytes)).unwrap().blocks.len())
    });
    let dat = Dat::parse(&bytes).unwrap();
    assert_eq!(dat.write().unwrap(), bytes);
    g.bench_function("write", |b| {
        b.iter(|| black_box(&dat).write().unwrap().len())
    });
    g.bench_function("validate", |b| {
        b.iter(|| gcformats::hsd_dat::validate_view(&parse(black_box(&bytes)).unwrap()).len())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
