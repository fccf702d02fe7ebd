//! Parse, write and evaluation speed: built samples, and the real archives' animations when
//! `../shared/corpus/real` exists.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn real_files() -> Vec<Vec<u8>> {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "j3d-anim bench")
    else {
        return Vec::new();
    };
    gcio::corpus::members(&dir, |b| rarc::layer::members(b).ok().flatten())
        .into_iter()
        .map(|(_, _, data)| data)
        .filter(|data| j3d_anim::sniff(data).is_some())
        .collect()
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
    let models: Vec<_> = files
        .iter()
        .map(|f| j3d_anim::Anim::parse(f).unwrap())
        .collect();
    let mut g = c.benchmark_group(format!(
        "j3d-anim {label} ({} files, {total} bytes)",
        files.len()
    ));
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| {
                    j3d_anim::Anim::parse(f)
                        .map(|a| a.tables.len())
                        .unwrap_or(0)
                })
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
    // Material animations (BTK, BRK, BPK): each sampled at every frame onto a scene holding one
    // textured material per name the file uses, then written as KHR_animation_pointer channels.
    let materials: Vec<_> = models
        .iter()
        .filter(|m| {
            matches!(
                m.kind,
                j3d_anim::Kind::Btk | j3d_anim::Kind::Brk | j3d_anim::Kind::Bpk
            )
        })
        .collect();
    let scene_for = |m: &j3d_anim::Anim| {
        let mut s = gx::scene::Scene::new("bench");
        let t = s.add_image(gx::tex::Image::new(1, 1, vec![[255; 4]]).unwrap());
        for table in &m.tables {
            if let j3d_anim::Data::Names(n) = &table.data {
                for e in &n.entries {
                    let name = String::from_utf8_lossy(&e.name).into_owned();
                    s.materials.push(gx::scene::Material::new(name, Some(t)));
                }
            }
        }
        s
    };
    let entries: usize = materials
        .iter()
        .map(|m| {
            let n: usize = m
                .kind
                .schema()
                .tables
                .iter()
                .zip(&m.tables)
                .filter(|(d, _)| !d.values.is_empty())
                .map(|(_, t)| t.data.len())
                .sum();
            (usize::from(m.duration()) + 1) * n
        })
        .sum();
    let mut g = c.benchmark_group(format!(
        "j3d-anim glb pointer export ({} btk/brk/bpk, {entries} entry samples)",
        materials.len()
    ));
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("sample every frame + write glb", |b| {
        b.iter(|| {
            materials
                .iter()
                .map(|m| {
                    let mut s = scene_for(m);
                    j3d_anim::export::add_to_scene(&mut s, m, "a", 60.0).unwrap();
                    s.to_glb().unwrap().len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
    // Cluster weights (the built BLK and BLA: no real file).
    let clusters = [
        j3d_anim::build::sample(j3d_anim::Kind::Blk),
        j3d_anim::build::sample(j3d_anim::Kind::Bla),
    ];
    let mut g = c.benchmark_group("j3d-anim cluster weights (sample blk + bla, 4 tracks)");
    g.throughput(Throughput::Elements(4));
    g.bench_function("weights at t=2.5", |b| {
        b.iter(|| {
            clusters
                .iter()
                .map(|m| j3d_anim::eval::weights(m, 2.5).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
