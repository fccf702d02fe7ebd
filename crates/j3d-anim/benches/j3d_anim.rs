//! Parse, write and evaluation speed: built samples, and the real archives' animations when
//! `../shared/corpus/real` exists.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn real_files() -> Vec<Vec<u8>> {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "j3d-anim bench")
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            let raw = if bytes.starts_with(b"Yaz0") {
                yaz0::decode(&bytes).unwrap_or_default()
            } else {
                bytes
            };
            let Ok(arc) = rarc::parse(&raw) else { continue };
            let Ok((_, members)) = arc.walk() else {
                continue;
            };
            for f in members {
                if let Ok(data) = arc.decompressed(&f.entry)
                    && j3d_anim::sniff(&data).is_some()
                {
                    out.push(data.into_owned());
                }
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut files = real_files();
    let label = if files.is_empty() { "samples" } else { "real" };
    if files.is_empty() {
        files = j3d_anim::build::samples()
            .into_iter()
            .map(|(_, b)| b)
            .collect();
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let models: Vec<_> = files.iter().map(|f| j3d_anim::parse(f).unwrap()).collect();
    let mut g = c.benchmark_group(format!(
        "j3d-anim {label} ({} files, {total} bytes)",
        files.len()
    ));
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| j3d_anim::parse(f).map(|a| a.tables.len()).unwrap_or(0))
                .sum::<usize>()
        })
    });
    g.bench_function("write", |b| {
        b.iter(|| {
            models
                .iter()
                .map(|m| m.write().map(|v| v.len()).unwrap_or(0))
                .sum::<usize>()
        })
    });
    g.bench_function("validate", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| j3d_anim::validate(f).len())
                .sum::<usize>()
        })
    });
    g.finish();
    let bcks: Vec<_> = models
        .iter()
        .filter(|m| m.kind == j3d_anim::Kind::Bck)
        .collect();
    let joints: usize = bcks
        .iter()
        .map(|m| m.table(0).map_or(0, j3d_anim::Data::len))
        .sum();
    let mut g = c.benchmark_group(format!(
        "j3d-anim eval ({} bck, {joints} joints)",
        bcks.len()
    ));
    g.throughput(Throughput::Elements(joints as u64 * 9));
    g.bench_function("pose at t=7.3 (samples = joint tracks)", |b| {
        b.iter(|| {
            bcks.iter()
                .map(|m| j3d_anim::eval::pose(m, 7.3).len())
                .sum::<usize>()
        })
    });
    g.finish();
    // Animated glTF: every BCK sampled at each frame onto a rest-pose scene of its joints, then
    // written as a .glb (channels only: the scene has no meshes).
    let track_count = |m: &j3d_anim::Anim| m.table(0).map_or(0, j3d_anim::Data::len);
    let samples: usize = bcks
        .iter()
        .map(|m| (usize::from(m.duration()) + 1) * track_count(m))
        .sum();
    let mut g = c.benchmark_group(format!("j3d-anim glb export ({samples} joint samples)"));
    g.throughput(Throughput::Elements(samples as u64));
    g.bench_function("sample every frame + write glb", |b| {
        b.iter(|| {
            bcks.iter()
                .map(|m| {
                    let mut s = gx::scene::Scene::new("bench");
                    for j in 0..track_count(m) {
                        s.nodes.push(gx::scene::Node::new(
                            format!("{j}"),
                            None,
                            gx::mtx::IDENTITY,
                        ));
                    }
                    j3d_anim::export::add_to_scene(&mut s, m, "a", 60.0).unwrap();
                    s.to_glb().unwrap().len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
