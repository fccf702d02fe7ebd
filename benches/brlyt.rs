//! Layout throughput: parse, write and validate on the real Galaxy 2 `.brlyt` members of
//! `../shared/corpus/real/rarc` (or the built sample when absent), the pane tree, and `render`
//! of each real layout with the textures of its archive.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::brlyt;

mod common;

fn bench(c: &mut Criterion) {
    let mut files = common::members(".brlyt");
    if files.is_empty() {
        files = brlyt::build::samples()
            .into_iter()
            .map(|(_, b)| b)
            .collect();
    }
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(format!("brlyt ({} files, {total} bytes)", files.len()));
    g.throughput(Throughput::Bytes(total as u64));
    let models = common::parse_write_validate(
        &mut g,
        &files,
        |f| brlyt::Brlyt::parse(f).unwrap(),
        |m| m.write().unwrap().len(),
        |f| brlyt::validate(f).len(),
    );
    g.bench_function("tree", |b| {
        b.iter(|| models.iter().map(|m| m.tree().panes.len()).sum::<usize>())
    });
    g.finish();
    render(c);
}

/// `render::render` of each real layout to its 608 × 456 canvas (bilinear), the TPL textures of
/// its archive decoded beforehand and handed over as copies.
fn render(c: &mut Criterion) {
    let all = common::real_files("rarc");
    let mut g = c.benchmark_group("brlyt render");
    for lyt in all.iter().filter(|r| r.name.ends_with(".brlyt")) {
        let Some((arc, _)) = lyt.name.split_once(':') else {
            continue;
        };
        let textures: std::collections::HashMap<String, _> = all
            .iter()
            .filter(|r| r.name.starts_with(arc) && r.name.ends_with(".tpl"))
            .filter_map(|r| {
                let t = tpl::Tpl::parse(&r.bytes).ok()?;
                let img = t.images.first()?.texture()?.decode_level(0).ok()?;
                Some((r.name.rsplit('/').next()?.to_owned(), img))
            })
            .collect();
        let model = brlyt::Brlyt::parse(&lyt.bytes).unwrap();
        let name = lyt.name.rsplit('/').next().unwrap_or_default().to_owned();
        let opts = brlyt::render::Options::default();
        g.bench_function(name, |b| {
            b.iter(|| {
                let r = brlyt::render::render(&model, |n| textures.get(n).cloned(), None, &opts);
                r.unwrap().drawn
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
