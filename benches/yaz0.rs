//! Yaz0 decode and encode, side by side with the crates.io Yaz0 crates on the same inputs:
//! `orthrus-ncompress` (MatchingOld), `szs` (riidefi's; MKW = Nintendo-style, LibYaz0 = best
//! ratio) and `yaz0` 0.3 (lookahead). Inputs come from `yaz0::build`: data shaped like game files
//! (many short back-references) and a 16 MiB mixed input.
//!
//! With `../shared/corpus/real` (and `--features yaz0,rarc`), first every real Yaz0 stream (the
//! Galaxy archives and their compressed members): decode, exact and fast encoders, and `best`,
//! each interleaved with the peers (`yaz0 ratio real …` lines) and with the output sizes.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

#[path = "common/mod.rs"]
mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gcformats::yaz0::{self, Encoder, Matching};
use std::hint::black_box;
use std::io::Cursor;

const NINTENDO: Encoder = Encoder::Matching(Matching::Nintendo);
const GCLIB: Encoder = Encoder::Matching(Matching::Gclib);

fn orthrus_encode(data: &[u8]) -> Vec<u8> {
    use orthrus_ncompress::yaz0::{CompressionAlgo, Yaz0};
    Yaz0::compress_from(data, CompressionAlgo::MatchingOld, 0)
        .unwrap()
        .into_vec()
}

fn peer_yaz0_encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    yaz0_peer::Yaz0Writer::new(&mut out)
        .compress_and_write(data, yaz0_peer::CompressionLevel::Lookahead { quality: 10 })
        .unwrap();
    out
}

/// Interleaved best-of-N ratios (`yaz0 ratio …` lines), shared with the other benches:
/// `RATIO_RUNS=n` (or `YAZ0_RATIO_RUNS=n`) multiplies N; criterion's test mode runs each once.
fn ratios(label: &str, len: usize, runs: usize, fns: &[(&str, &dyn Fn() -> Vec<u8>)]) {
    common::ratios("yaz0", label, len, runs, fns);
}

/// Every Yaz0 stream of the real files (archives on disk and compressed members), with its
/// payload; empty without `../shared/corpus/real` or the `rarc` feature.
fn real_streams() -> Vec<(Vec<u8>, Vec<u8>)> {
    #[cfg(feature = "rarc")]
    {
        common::real_files("rarc")
            .into_iter()
            .filter(|f| f.bytes.starts_with(b"Yaz0"))
            .map(|f| {
                let payload = yaz0::decode(&f.bytes).unwrap();
                (f.bytes, payload)
            })
            .collect()
    }
    #[cfg(not(feature = "rarc"))]
    Vec::new()
}

/// Decode and the exact/fast encoders on every real stream beside the peers, interleaved; `best`
/// beside szs LibYaz0 (the peers' smallest) on the payloads up to 1 MB in total.
fn real(_: &mut Criterion) {
    let mut streams = real_streams();
    if streams.is_empty() {
        return;
    }
    if common::test_mode() {
        // One quick pass in CI: the smallest streams up to 1 MB decompressed.
        streams.sort_by_key(|(_, p)| p.len());
        let mut sum = 0;
        streams.retain(|(_, p)| {
            sum += p.len();
            sum <= 1 << 20
        });
    }
    let stored: usize = streams.iter().map(|(s, _)| s.len()).sum();
    let total: usize = streams.iter().map(|(_, p)| p.len()).sum();
    eprintln!(
        "real yaz0: {} streams, {stored} bytes stored, {total} bytes decompressed",
        streams.len()
    );
    ratios(
        "real decode",
        total,
        10,
        &[
            ("orthrus-ncompress", &|| {
                for (s, _) in &streams {
                    black_box(
                        orthrus_ncompress::yaz0::Yaz0::decompress_from(black_box(s)).unwrap(),
                    );
                }
                Vec::new()
            }),
            ("gcformats", &|| {
                for (s, _) in &streams {
                    black_box(yaz0::decode(black_box(s)).unwrap());
                }
                Vec::new()
            }),
            ("szs", &|| {
                for (s, _) in &streams {
                    black_box(szs::decode(black_box(s)).unwrap());
                }
                Vec::new()
            }),
        ],
    );
    let all =
        |f: &dyn Fn(&[u8]) -> Vec<u8>| -> usize { streams.iter().map(|(_, p)| f(p).len()).sum() };
    let sizes = [
        ("orthrus MatchingOld", all(&orthrus_encode)),
        ("gcformats nintendo", all(&|p| yaz0::encode(p, NINTENDO))),
        ("gcformats fast", all(&|p| yaz0::encode(p, Encoder::Fast))),
    ];
    for (name, size) in sizes {
        eprintln!(
            "yaz0 size real {name:24} {size:9} bytes  {:+.2} % vs nintendo",
            (size as f64 / sizes[1].1 as f64 - 1.0) * 100.0
        );
    }
    let streams_ref = &streams;
    let enc = |e: Encoder| {
        move || -> Vec<u8> {
            for (_, p) in streams_ref {
                black_box(yaz0::encode(black_box(p), e));
            }
            Vec::new()
        }
    };
    let (n, gc, w, f) = (
        enc(NINTENDO),
        enc(GCLIB),
        enc(Encoder::Matching(Matching::Whitehole)),
        enc(Encoder::Fast),
    );
    ratios(
        "real encode",
        total,
        2,
        &[
            ("orthrus-ncompress", &|| {
                for (_, p) in &streams {
                    black_box(orthrus_encode(black_box(p)));
                }
                Vec::new()
            }),
            ("gcformats nintendo", &n),
            ("gcformats gclib", &gc),
            ("gcformats whitehole", &w),
            ("gcformats fast", &f),
        ],
    );
    // best and szs LibYaz0 are slow: the smallest payloads up to 1 MB in total.
    let mut small: Vec<&Vec<u8>> = streams.iter().map(|(_, p)| p).collect();
    small.sort_by_key(|p| p.len());
    let mut sum = 0;
    small.retain(|p| {
        sum += p.len();
        sum <= 1 << 20
    });
    let small_total: usize = small.iter().map(|p| p.len()).sum();
    let best_size: usize = small
        .iter()
        .map(|p| yaz0::encode(p, Encoder::Best).len())
        .sum();
    let szs_size: usize = small
        .iter()
        .map(|p| szs::encode(p, szs::EncodeAlgo::LibYaz0).unwrap().len())
        .sum();
    eprintln!(
        "yaz0 size real best {best_size} vs szs LibYaz0 {szs_size} bytes ({} payloads, {small_total} bytes)",
        small.len()
    );
    ratios(
        "real best",
        small_total,
        1,
        &[
            ("szs libyaz0", &|| {
                for p in &small {
                    black_box(szs::encode(black_box(p), szs::EncodeAlgo::LibYaz0).unwrap());
                }
                Vec::new()
            }),
            ("gcformats best", &|| {
                for p in &small {
                    black_box(yaz0::encode(black_box(p), Encoder::Best));
                }
                Vec::new()
            }),
        ],
    );
}

fn decode(c: &mut Criterion) {
    let inputs = [
        ("real-1MiB", yaz0::build::real_looking(1 << 20)),
        ("mixed-16MiB", yaz0::build::mixed(16 << 20)),
    ];
    let mut g = c.benchmark_group("yaz0_decode");
    g.sample_size(10);
    for (name, data) in &inputs {
        // Real files are Nintendo-encoded; the 16 MiB input uses the fast encoder to save time.
        let enc = if data.len() <= 1 << 20 {
            NINTENDO
        } else {
            Encoder::Fast
        };
        let stream = yaz0::encode(data, enc);
        g.throughput(Throughput::Bytes(data.len() as u64));
        ratios(
            name,
            data.len(),
            30,
            &[
                ("orthrus-ncompress", &|| {
                    orthrus_ncompress::yaz0::Yaz0::decompress_from(&stream)
                        .unwrap()
                        .into_vec()
                }),
                ("gcformats", &|| yaz0::decode(&stream).unwrap()),
                ("szs", &|| szs::decode(&stream).unwrap()),
            ],
        );
        // The same without the allocation: both decoders write into a buffer the caller owns.
        let out = std::cell::RefCell::new(vec![0u8; data.len()]);
        ratios(
            &format!("{name} into"),
            data.len(),
            30,
            &[
                ("orthrus-ncompress", &|| {
                    orthrus_ncompress::yaz0::Yaz0::decompress(&stream, &mut out.borrow_mut());
                    Vec::new()
                }),
                ("gcformats decode_into", &|| {
                    yaz0::decode_into(&stream, &mut out.borrow_mut()).unwrap();
                    Vec::new()
                }),
            ],
        );
        let mut buf = vec![0u8; data.len()];
        g.bench_with_input(BenchmarkId::new("gcformats", name), &stream, |b, s| {
            b.iter(|| yaz0::decode_into(black_box(s), &mut buf).unwrap())
        });
        g.bench_with_input(
            BenchmarkId::new("orthrus-ncompress", name),
            &stream,
            |b, s| b.iter(|| orthrus_ncompress::yaz0::Yaz0::decompress_from(black_box(s)).unwrap()),
        );
        g.bench_with_input(BenchmarkId::new("szs", name), &stream, |b, s| {
            b.iter(|| szs::decode(black_box(s)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("yaz0-0.3", name), &stream, |b, s| {
            b.iter(|| {
                yaz0_peer::Yaz0Archive::new(Cursor::new(black_box(s)))
                    .unwrap()
                    .decompress()
                    .unwrap()
            })
        });
    }
    g.finish();
}

fn encode(c: &mut Criterion) {
    let data = yaz0::build::real_looking(256 << 10);
    // Exactness pins: our gclib variant is byte-identical to orthrus' and szs' Nintendo-style
    // encoders (compare capped at 0x111, trailing 0x00 after a full last group).
    let orthrus = orthrus_encode(&data);
    assert_eq!(
        yaz0::encode(&data, GCLIB),
        orthrus,
        "gclib variant = orthrus MatchingOld"
    );
    let szs_mkw = szs::encode(&data, szs::EncodeAlgo::MKW_Rust).unwrap();
    assert_eq!(szs_mkw, orthrus, "szs MKW = orthrus MatchingOld");
    let mut sizes = vec![
        ("orthrus MatchingOld".to_owned(), orthrus.len()),
        ("szs MKW".to_owned(), szs_mkw.len()),
        (
            "szs LibYaz0 (best)".to_owned(),
            szs::encode(&data, szs::EncodeAlgo::LibYaz0).unwrap().len(),
        ),
        (
            "yaz0-0.3 lookahead q10".to_owned(),
            peer_yaz0_encode(&data).len(),
        ),
    ];
    for e in Encoder::ALL {
        sizes.push((
            format!("gcformats {}", e.name()),
            yaz0::encode(&data, e).len(),
        ));
    }
    for (name, size) in &sizes {
        eprintln!(
            "yaz0 size {name:28} {size:8} bytes  {:6.2} %",
            *size as f64 * 100.0 / data.len() as f64
        );
    }
    let d = &data;
    let (n, gc, w, f, b) = (
        move || yaz0::encode(d, NINTENDO),
        move || yaz0::encode(d, GCLIB),
        move || yaz0::encode(d, Encoder::Matching(Matching::Whitehole)),
        move || yaz0::encode(d, Encoder::Fast),
        move || yaz0::encode(d, Encoder::Best),
    );
    ratios(
        "real-256KiB",
        data.len(),
        15,
        &[
            ("orthrus-ncompress", &|| orthrus_encode(&data)),
            ("gcformats nintendo", &n),
            ("gcformats gclib", &gc),
            ("gcformats whitehole", &w),
            ("gcformats fast", &f),
        ],
    );
    ratios(
        "real-256KiB",
        data.len(),
        2,
        &[
            ("szs libyaz0", &|| {
                szs::encode(&data, szs::EncodeAlgo::LibYaz0).unwrap()
            }),
            ("gcformats best", &b),
        ],
    );
    let mut g = c.benchmark_group("yaz0_encode");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(data.len() as u64));
    for e in Encoder::ALL {
        g.bench_function(BenchmarkId::new("gcformats", e.name()), |b| {
            b.iter(|| yaz0::encode(black_box(&data), e))
        });
    }
    g.bench_function(BenchmarkId::new("orthrus-ncompress", "matching-old"), |b| {
        b.iter(|| orthrus_encode(black_box(&data)))
    });
    g.bench_function(BenchmarkId::new("szs", "libyaz0"), |b| {
        b.iter(|| szs::encode(black_box(&data), szs::EncodeAlgo::LibYaz0).unwrap())
    });
    g.bench_function(BenchmarkId::new("yaz0-0.3", "lookahead-q10"), |b| {
        b.iter(|| peer_yaz0_encode(black_box(&data)))
    });
    g.finish();
}

fn stream_model(c: &mut Criterion) {
    let data = yaz0::build::real_looking(1 << 20);
    let stream = yaz0::encode(&data, NINTENDO);
    let mut g = c.benchmark_group("yaz0_stream");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| yaz0::Stream::parse(black_box(&stream)).unwrap())
    });
    let parsed = yaz0::Stream::parse(&stream).unwrap();
    g.bench_function("write", |b| b.iter(|| black_box(&parsed).write()));
    g.finish();
}

criterion_group!(benches, real, decode, encode, stream_model);
criterion_main!(benches);
