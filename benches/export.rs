//! Model export throughput (`gx::scene` writers): `.glb` and OBJ + MTL from sysdolphin archives
//! and J3D models — the real files of `../shared/corpus/real/{hsd,j3d}` when present, else the
//! crates' samples. Throughput is per byte of the input model; the glb figure includes decoding
//! every texture and PNG-encoding each distinct image. `import_j3d` is the way back: the model's
//! `.glb` read and imported as a J3D model (`j3d_bmd::import`: textures re-encoded, the output
//! written, read back and validated), per byte of the J3D model too; `import_hsd` the same for
//! sysdolphin models (`hsd_dat::import`: compiled in HAL's XD order, read back and validated),
//! per byte of the `.dat`.
#![allow(clippy::unwrap_used, missing_docs)]

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::{hsd_dat, j3d_bmd};

/// Files of `real/<sub>` (name, bytes), or `fallback` when absent.
fn inputs(sub: &str, fallback: Vec<(String, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/real")
        .join(sub);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    if out.is_empty() { fallback } else { out }
}

fn bench(c: &mut Criterion) {
    let scene = hsd_dat::build::xd_scene().unwrap().write().unwrap();
    let hsd = inputs("hsd", vec![("xd-scene.dat".into(), scene)]);
    let mut g = c.benchmark_group("export_hsd");
    for (name, bytes) in &hsd {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("glb/{name}"), |b| {
            b.iter(|| {
                let a = hsd_dat::parse(black_box(bytes)).unwrap();
                hsd_dat::export::to_scene(&a).scene.to_glb().unwrap().len()
            })
        });
        g.bench_function(format!("obj/{name}"), |b| {
            b.iter(|| {
                let a = hsd_dat::parse(black_box(bytes)).unwrap();
                hsd_dat::export::to_scene(&a)
                    .scene
                    .to_obj(Some("x.mtl"))
                    .len()
            })
        });
    }
    g.finish();
    let sample = j3d_bmd::build::skinned_bmd().write().unwrap();
    let j3d = inputs("j3d", vec![("skinned.bmd".into(), sample)]);
    let mut g = c.benchmark_group("export_j3d");
    for (name, bytes) in &j3d {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("glb/{name}"), |b| {
            b.iter(|| {
                j3d_bmd::to_glb(&j3d_bmd::parse(black_box(bytes)).unwrap())
                    .unwrap()
                    .len()
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("import_hsd");
    g.sample_size(10);
    for (name, bytes) in &hsd {
        let Ok(glb) = hsd_dat::export::to_glb(&hsd_dat::parse(bytes).unwrap()) else {
            continue; // data only: no model
        };
        let opts = hsd_dat::import::ImportOptions::default();
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("glb/{name}"), |b| {
            b.iter(|| {
                hsd_dat::import::from_glb(black_box(&glb), &opts)
                    .unwrap()
                    .bytes
                    .len()
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("import_j3d");
    g.sample_size(10);
    for (name, bytes) in &j3d {
        let view = j3d_bmd::parse(bytes).unwrap();
        let glb = j3d_bmd::to_glb(&view).unwrap();
        let opts = j3d_bmd::import::ImportOptions {
            bdl: view.is_bdl(),
            ..Default::default()
        };
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("glb/{name}"), |b| {
            b.iter(|| {
                j3d_bmd::import::from_glb(black_box(&glb), &opts)
                    .unwrap()
                    .bytes
                    .len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
