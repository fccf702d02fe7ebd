//! BMS throughput: instructions decoded / disassembled per second (golden-table stream and a large
//! generated song), and MB/s for discovery, writing, the text form and MIDI rendering.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::bms::{self, build::SeqBuilder, midi, opcode::ops};
use gcformats::gcio::Reader;
use std::hint::black_box;

/// The golden table's instructions repeated into one linear stream (~256 KiB).
fn golden_stream() -> (Vec<u8>, u64) {
    let rows = bms::golden::table();
    let mut data = Vec::new();
    let mut n = 0;
    while data.len() < 1 << 18 {
        for (bytes, _) in &rows {
            data.extend_from_slice(bytes);
            n += 1;
        }
    }
    (data, n)
}

/// A long 16-track song: every track loops over many called phrases.
fn big_song() -> Vec<u8> {
    let mut b = SeqBuilder::new();
    let tracks: Vec<_> = (0..16).map(|_| b.label()).collect();
    for (i, t) in tracks.iter().enumerate() {
        b.cmd(ops::OPEN_TRACK, &[i as u32, t.0]);
    }
    b.wait(100_000).cmd(ops::FINISH, &[]);
    for (i, t) in tracks.iter().enumerate() {
        let phrases: Vec<_> = (0..200).map(|_| b.label()).collect();
        b.place(*t).cmd(ops::BANK_PRG, &[i as u32]);
        for p in &phrases {
            b.cmd(ops::CALL, &[p.0]);
        }
        b.cmd(ops::FINISH, &[]);
        for (k, p) in phrases.iter().enumerate() {
            b.place(*p);
            for j in 0..8u8 {
                b.note(36 + (k as u8 + j) % 48, 1 + j % 7, 100)
                    .wait(12)
                    .voice_off(1 + j % 7);
            }
            b.gate(60, 90, 24).cmd(ops::RET, &[]);
        }
    }
    b.build().unwrap()
}

fn benches(c: &mut Criterion) {
    let (stream, count) = golden_stream();
    let song = big_song();
    let view = bms::parse(&song).unwrap();
    let insns = view.flow().instruction_count() as u64;
    let program = bms::Program::from_view(&view, &gcformats::gcio::Limits::default()).unwrap();
    let text = bms::to_text(&program);

    let mut g = c.benchmark_group("bms_instructions");
    g.throughput(Throughput::Elements(count));
    g.bench_function("decode_golden_stream", |b| {
        b.iter(|| {
            let r = Reader::new(black_box(&stream));
            let (mut pos, mut n) = (0, 0u32);
            while let Ok((_, size)) = bms::Instruction::decode(r, pos) {
                pos += size;
                n += 1;
            }
            n
        })
    });
    g.throughput(Throughput::Elements(insns));
    g.bench_function("disassemble_song", |b| {
        b.iter(|| bms::Program::parse(black_box(&song)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("bms_bytes");
    g.throughput(Throughput::Bytes(song.len() as u64));
    g.bench_function("discover", |b| {
        b.iter(|| bms::parse(black_box(&song)).unwrap())
    });
    g.bench_function("write", |b| b.iter(|| black_box(&program).write().unwrap()));
    g.bench_function("to_text", |b| b.iter(|| bms::to_text(black_box(&program))));
    g.bench_function("from_text", |b| {
        b.iter(|| bms::from_text(black_box(&text)).unwrap())
    });
    g.bench_function("validate", |b| b.iter(|| bms::validate(black_box(&song))));
    g.bench_function("midi_export", |b| {
        b.iter(|| midi::export(black_box(&song), &midi::ExportOptions::default()).unwrap())
    });
    g.finish();
}

criterion_group!(bms_benches, benches);
criterion_main!(bms_benches);
