//! j3d-bmd throughput on a synthetic 100,000-triangle model (one multi-matrix shape, 13 matrix
//! groups of triangle strips): parse the view and decode all geometry, parse the owned model, write.
//! Materials: a 96-material MAT3 (typed parse, write, resolve + re-deduplicate); textures: the
//! sample TEX1 (all GX formats) parsed and written. Real files: the largest real model, when
//! `../shared/corpus/real` exists.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::j3d_bmd::{self, Bmd, build};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let model = build::grid_bmd(250, 200);
    let bytes = model.write().unwrap();
    let tris = j3d_bmd::geometry(&j3d_bmd::parse(&bytes).unwrap())
        .unwrap()
        .triangle_count() as u64;
    assert_eq!(tris, 100_000);
    let mut g = c.benchmark_group("j3d_bmd");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse_view_decode_geometry", |b| {
        b.iter(|| j3d_bmd::geometry(&j3d_bmd::parse(black_box(&bytes)).unwrap()).unwrap())
    });
    g.bench_function("parse_model", |b| {
        b.iter(|| Bmd::parse(black_box(&bytes)).unwrap())
    });
    g.bench_function("write", |b| b.iter(|| black_box(&model).write().unwrap()));
    g.bench_function("validate", |b| {
        b.iter(|| j3d_bmd::validate(black_box(&bytes)))
    });
    g.finish();
    let mut g = c.benchmark_group("j3d_bmd_triangles");
    g.throughput(Throughput::Elements(tris));
    g.bench_function("decode_geometry", |b| {
        b.iter(|| j3d_bmd::geometry(&j3d_bmd::parse(black_box(&bytes)).unwrap()).unwrap())
    });
    g.finish();
}

fn materials(c: &mut Criterion) {
    use gcformats::j3d_bmd::{Chunk, ChunkView, Mat3, Tex1};
    let base = build::materials();
    let mats: Vec<_> = (0..96)
        .map(|i| {
            let mut m = base[i % base.len()].clone();
            m.name = format!("mat_{i}").into_bytes();
            m.konst_colors[0] = Some([i as u8, 0x80, (i * 7) as u8, 0xFF]);
            m
        })
        .collect();
    let mat3 = Mat3::from_materials(&mats).unwrap();
    let bytes = mat3.write().unwrap();
    let view = |b: &[u8]| {
        Chunk::from_view(&ChunkView {
            magic: [b[0], b[1], b[2], b[3]],
            data: gcio::Reader::new(b),
        })
    };
    assert!(matches!(view(&bytes), Chunk::Mat3(_)));
    let mut g = c.benchmark_group("j3d_bmd_mat3");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse_typed", |b| b.iter(|| view(black_box(&bytes))));
    g.bench_function("write", |b| b.iter(|| black_box(&mat3).write().unwrap()));
    g.bench_function("resolve_and_rededuplicate", |b| {
        b.iter(|| Mat3::from_materials(&black_box(&mat3).materials()).unwrap())
    });
    g.finish();
    let tex1: Tex1 = build::tex1();
    let bytes = tex1.write().unwrap();
    assert!(matches!(view(&bytes), Chunk::Tex1(_)));
    let mut g = c.benchmark_group("j3d_bmd_tex1");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse_typed", |b| b.iter(|| view(black_box(&bytes))));
    g.bench_function("write", |b| b.iter(|| black_box(&tex1).write().unwrap()));
    g.finish();
}

/// BTI end to end: parse + decode all levels to RGBA8, and encode (with mips) + write, per GX
/// format on a 256×256 test pattern; MB/s of RGBA8 pixels. CMPR quality printed as PSNR.
fn textures(c: &mut Criterion) {
    use gcformats::j3d_bmd::Bti;
    use gcformats::j3d_bmd::gx::tex::{Image, TexFormat, psnr};
    let img = Image::test_pattern(256, 256, true).unwrap();
    let rgba = (256 * 256 * 4) as u64;
    let mut g = c.benchmark_group("j3d_bmd_bti");
    g.throughput(Throughput::Bytes(rgba));
    for f in TexFormat::ALL {
        let name = f.name().unwrap_or("?");
        let bytes = Bti::encode(&img, f, 1).unwrap().write().unwrap();
        if f == TexFormat::CMPR {
            let opaque = Image::test_pattern(256, 256, false).unwrap();
            let b = Bti::encode(&opaque, f, 1).unwrap();
            let d = b.decode().unwrap();
            eprintln!(
                "CMPR PSNR on the opaque 256x256 test pattern: {:.1} dB",
                psnr(&opaque, &d[0]).unwrap()
            );
        }
        g.bench_function(format!("decode_{name}"), |b| {
            b.iter(|| Bti::parse(black_box(&bytes)).unwrap().decode().unwrap())
        });
        g.bench_function(format!("encode_{name}"), |b| {
            b.iter(|| Bti::encode(black_box(&img), f, 1).unwrap().write().unwrap())
        });
    }
    g.finish();
}

/// The largest real model under `../shared/corpus/real/j3d` (skipped without it): owned-model
/// parse (every chunk typed, each verified by its rewrite) and write.
fn real(c: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/real/j3d");
    let Some((name, bytes)) = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name(), std::fs::read(e.path()).ok()?)))
        .filter(|(_, d)| d.starts_with(b"J3D2"))
        .max_by_key(|(_, d)| d.len())
    else {
        return;
    };
    let model = Bmd::parse(&bytes).unwrap();
    assert_eq!(model.write().unwrap(), bytes, "{name:?}");
    let mut g = c.benchmark_group("j3d_bmd_real");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse_model", |b| {
        b.iter(|| Bmd::parse(black_box(&bytes)).unwrap())
    });
    g.bench_function("write", |b| b.iter(|| black_box(&model).write().unwrap()));
    g.bench_function("parse_write", |b| {
        b.iter(|| Bmd::parse(black_box(&bytes)).unwrap().write().unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench, materials, textures, real);
criterion_main!(benches);
