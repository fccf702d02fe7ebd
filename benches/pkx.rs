//! pkx throughput: detection + zero-copy view, owned-model parse, write, validation (PKX rules
//! plus hsd-dat's rules on the embedded model: the heavy operation), JSON metadata, and the
//! golden tables' entry decode.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::gcio::zerocopy::FromBytes;
use gcformats::pkx::golden::{PART_ANIMS, SUB_ANIMS, TIMINGS};
use gcformats::pkx::raw::{RawPartAnim, RawSubAnim};
use gcformats::pkx::{Game, Pkx, Timing, build, json, parse};
use std::hint::black_box;

/// The XD sample Pokémon around a 120-bone, 17-animation DAT (GPT1 block included).
fn model() -> Pkx {
    let mut p = build::xd_pokemon().unwrap();
    p.set_dat(build::battle_dat(120, 17).unwrap());
    p
}

fn benches(c: &mut Criterion) {
    for (name, p) in [
        ("xd", model()),
        ("colosseum", model().to_game(Game::Colosseum)),
    ] {
        let bytes = p.write().unwrap();
        let mut g = c.benchmark_group(format!("pkx_{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("view", |b| {
            b.iter(|| {
                let v = parse(black_box(&bytes)).unwrap();
                v.entries
                    .iter()
                    .filter(|e| e.sub_anims[0].motion_type.get() > 0)
                    .count()
            })
        });
        g.bench_function("parse", |b| {
            b.iter(|| Pkx::parse(black_box(&bytes)).unwrap())
        });
        g.bench_function("write", |b| b.iter(|| black_box(&p).write().unwrap()));
        g.bench_function("parse_validate", |b| {
            b.iter(|| gcformats::pkx::validate_model(&Pkx::parse(black_box(&bytes)).unwrap()))
        });
        g.bench_function("to_json", |b| b.iter(|| json::to_string(black_box(&p))));
        g.finish();
    }

    let subs: Vec<u8> = SUB_ANIMS
        .iter()
        .flat_map(|(_, b)| *b)
        .cycle()
        .take(8 * 4096)
        .collect();
    let parts: Vec<u8> = PART_ANIMS
        .iter()
        .flat_map(|(_, b)| *b)
        .cycle()
        .take(19 * 4096)
        .collect();
    let timings: Vec<u8> = TIMINGS
        .iter()
        .flat_map(|(_, _, b)| *b)
        .cycle()
        .take(16 * 4096)
        .collect();
    let mut g = c.benchmark_group("pkx_golden");
    g.throughput(Throughput::Bytes(
        (subs.len() + parts.len() + timings.len()) as u64,
    ));
    g.bench_function("decode", |b| {
        b.iter(|| {
            let s = <[RawSubAnim]>::ref_from_bytes(black_box(&subs)).unwrap();
            let p = <[RawPartAnim]>::ref_from_bytes(black_box(&parts)).unwrap();
            let mut acc = s.iter().filter(|x| x.motion_type.get() > 0).count();
            acc += p.iter().filter(|x| x.has_data != 0).count();
            for w in black_box(&timings).chunks_exact(16) {
                let raw: [u32; 4] = std::array::from_fn(|i| {
                    u32::from_be_bytes(w[4 * i..4 * i + 4].try_into().unwrap())
                });
                if let Timing::Frames(f) = Timing::from_raw(Game::Colosseum, raw) {
                    acc += f[0] as usize;
                }
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(pkx_benches, benches);
criterion_main!(pkx_benches);
