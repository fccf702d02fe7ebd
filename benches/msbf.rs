//! msbf throughput: zero-copy view walk, model parse, write, validation (the graph rules) and the
//! golden node table, on a large flow built from the sample builders.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::msbf::build::FlowBuilder;
use gcformats::msbf::golden::NODES;
use gcformats::msbf::names::{ConditionType, EventType, YesNo};
use gcformats::msbf::{self, Msbf, Node};
use std::hint::black_box;

/// 1000 NPC flows (message, YesNo, event + message / message), one label each: ~90 KB.
fn big() -> Msbf {
    let mut b = FlowBuilder::new();
    for i in 0..1000u16 {
        let e = b.entry(&format!("BenchGalaxy_Npc{i:04}"));
        let m = b.message(i * 3);
        let q = b.yes_no(YesNo::DREAMER);
        let ev = b.event(EventType::SW_A_ON, 0);
        let yes = b.message(i * 3 + 1);
        let no = b.message(i * 3 + 2);
        let c = b.condition(ConditionType::SW_A, 0);
        b.chain(&[e, c])
            .branch(c, m, no)
            .chain(&[m, q])
            .branch(q, ev, no)
            .then(ev, yes);
    }
    b.build()
}

fn benches(c: &mut Criterion) {
    let m = big();
    let bytes = m.write().unwrap();
    let mut g = c.benchmark_group("msbf");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("view_walk", |b| {
        b.iter(|| {
            let v = msbf::parse(black_box(&bytes)).unwrap();
            let f = v.flow().unwrap().unwrap();
            let nodes = f.iter().filter(|n| n.next().is_some()).count();
            let labels = v.labels().unwrap().unwrap();
            nodes + labels.labels(&Default::default()).count()
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| Msbf::parse(black_box(&bytes)).unwrap())
    });
    g.bench_function("write", |b| b.iter(|| black_box(&m).write().unwrap()));
    g.bench_function("validate", |b| {
        b.iter(|| msbf::validate_model(black_box(&m)))
    });
    g.bench_function("to_json", |b| b.iter(|| black_box(&m).to_json()));
    g.finish();

    let table: Vec<u8> = NODES.iter().flat_map(|(_, b)| *b).collect();
    let mut g = c.benchmark_group("msbf_golden");
    g.throughput(Throughput::Bytes(table.len() as u64));
    g.bench_function("decode_nodes", |b| {
        b.iter(|| {
            black_box(&table)
                .chunks_exact(12)
                .map(|c| {
                    let w = |i: usize| u16::from_be_bytes([c[i], c[i + 1]]);
                    Node::from_raw(w(0), [w(2), w(4), w(6), w(8), w(10)])
                })
                .filter(|n| NODES.iter().any(|(g, _)| g == n))
                .count()
        })
    });
    g.finish();
}

criterion_group!(msbf_benches, benches);
criterion_main!(msbf_benches);
