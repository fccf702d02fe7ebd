//! Output size of `Encoder::Best` against every peer's modes on several inputs: the
//! `yaz0::build` inputs, all zeros, random bytes, word text and (when `../shared/corpus` exists)
//! every distinct Yaz0 payload of the corpus. Prints a table (with `best`'s speed, best of 3) and
//! asserts that `best` is smaller than every peer mode on every input, except where the input
//! leaves no choice (one repeated byte, or incompressible bytes) and the peers are optimal too.
//!
//! `cargo bench --features yaz0 --bench yaz0_ratio`
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use gcformats::yaz0::{self, Encoder};
use std::path::PathBuf;
use std::time::Instant;

type Peer = (&'static str, fn(&[u8]) -> Vec<u8>);

fn szs_with(data: &[u8], algo: szs::EncodeAlgo) -> Vec<u8> {
    szs::encode(data, algo).unwrap()
}

/// Every peer mode that compresses. Left out: szs's worst-case "store" mode, and szs's CTGP
/// mode, whose C code aborts the process on the all-zero input (an assertion in
/// `HandleNewInputByte`); it is a 1:1 CTGP reproduction, not a ratio mode.
const PEERS: &[Peer] = &[
    ("orthrus MatchingOld", |d| {
        use orthrus_ncompress::yaz0::{CompressionAlgo, Yaz0};
        Yaz0::compress_from(d, CompressionAlgo::MatchingOld, 0)
            .unwrap()
            .into_vec()
    }),
    ("szs MKW", |d| szs_with(d, szs::EncodeAlgo::MKW_Rust)),
    ("szs MkwSp", |d| szs_with(d, szs::EncodeAlgo::MkwSp)),
    ("szs Haroohie", |d| szs_with(d, szs::EncodeAlgo::Haroohie)),
    ("szs CTLib", |d| szs_with(d, szs::EncodeAlgo::CTLib)),
    ("szs LibYaz0", |d| szs_with(d, szs::EncodeAlgo::LibYaz0)),
    ("szs MK8", |d| szs_with(d, szs::EncodeAlgo::MK8)),
    ("yaz0 0.3 lookahead q10", |d| {
        peer_yaz0(d, yaz0_peer::CompressionLevel::Lookahead { quality: 10 })
    }),
    ("yaz0 0.3 naive q10", |d| {
        peer_yaz0(d, yaz0_peer::CompressionLevel::Naive { quality: 10 })
    }),
];

fn peer_yaz0(data: &[u8], level: yaz0_peer::CompressionLevel) -> Vec<u8> {
    let mut out = Vec::new();
    yaz0_peer::Yaz0Writer::new(&mut out)
        .compress_and_write(data, level)
        .unwrap();
    out
}

fn random(len: usize, mut seed: u32) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as u8
        })
        .collect()
}

/// Words drawn at random from a small vocabulary with punctuation: many short and medium
/// matches at varied distances.
fn text(len: usize) -> Vec<u8> {
    let words = [
        "the", "galaxy", "star", "mario", "luigi", "coin", "power", "moon", "planet", "comet",
        "bowser", "green", "launch", "bee", "boo", "spring", "of", "and", "to", "a",
    ];
    let mut seed = 0x2545_F491u32;
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        out.extend_from_slice(words[(seed % 20) as usize].as_bytes());
        out.push(if seed.is_multiple_of(11) { b'.' } else { b' ' });
    }
    out.truncate(len);
    out
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut v = vec![
        (
            "real-looking 256 KiB".to_owned(),
            yaz0::build::real_looking(256 << 10),
        ),
        ("mixed 1 MiB".to_owned(), yaz0::build::mixed(1 << 20)),
        ("zeros 64 KiB".to_owned(), vec![0; 64 << 10]),
        ("random 64 KiB".to_owned(), random(64 << 10, 0xDEAD_BEEF)),
        ("text 64 KiB".to_owned(), text(64 << 10)),
    ];
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/yaz0");
    if let Ok(dir) = std::fs::read_dir(&corpus) {
        let mut files: Vec<PathBuf> = dir.map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            let payload = yaz0::decode(&std::fs::read(&f).unwrap()).unwrap();
            // Several streams share a payload; one row each, and tiny ones say nothing.
            if payload.len() >= 64 && !v.iter().any(|(_, d)| *d == payload) {
                let name = f.file_name().unwrap().to_string_lossy();
                v.push((format!("corpus {name}"), payload));
            }
        }
    }
    v
}

fn main() {
    // `cargo bench -- --test` (CI): the asserts on the small inputs, one run each; the peers'
    // slowest modes on the MiB inputs would take minutes.
    let test_mode = std::env::args().any(|a| a == "--test");
    let runs = if test_mode { 1 } else { 3 };
    let mut failures = Vec::new();
    let mut rows = Vec::new();
    println!("| input | bytes | best | smallest peer mode | its size | best vs it | best MB/s |");
    println!("|---|---|---|---|---|---|---|");
    let inputs = inputs()
        .into_iter()
        .filter(|(_, d)| !test_mode || d.len() <= 64 << 10);
    for (name, data) in inputs {
        let mut secs = f64::MAX;
        let mut best = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            best = yaz0::encode(&data, Encoder::Best);
            secs = secs.min(t.elapsed().as_secs_f64());
        }
        assert_eq!(
            yaz0::decode(&best).unwrap(),
            data,
            "{name}: best decodes back"
        );
        let mut peers: Vec<(&str, usize)> = PEERS
            .iter()
            .map(|(peer, f)| {
                let out = f(&data);
                assert_eq!(
                    yaz0::decode(&out).unwrap(),
                    data,
                    "{name}: {peer} decodes back"
                );
                (*peer, out.len())
            })
            .collect();
        rows.push((
            name.clone(),
            best.len(),
            peers.iter().map(|p| p.1).collect::<Vec<_>>(),
        ));
        peers.sort_by_key(|p| p.1);
        let (peer, size) = peers[0];
        println!(
            "| {name} | {} | {} | {peer} | {size} | {:+} B ({:+.3} %) | {:.1} |",
            data.len(),
            best.len(),
            best.len() as i64 - size as i64,
            (best.len() as f64 / size as f64 - 1.0) * 100.0,
            data.len() as f64 / secs / 1e6
        );
        // Best is an exact shortest path under the exact bit costs, so no parse is smaller; a
        // tie can only mean the peer's parse is optimal too. That happens where the input leaves
        // no choice: a single repeated byte (fewest maximal matches) or incompressible bytes (all
        // literals but the few 3-byte repeats everyone takes). Everywhere else best must win.
        let stats = yaz0::Stream::parse(&best).unwrap().stats();
        let forced = data.iter().all(|&b| Some(&b) == data.first())
            || stats.literals * 100 >= (stats.literals + stats.back_references) * 99;
        for (peer, size) in &peers {
            if best.len() > *size || (best.len() == *size && !forced) {
                failures.push(format!("{name}: best {} vs {peer} {size}", best.len()));
            }
        }
    }
    println!("\nEvery peer mode's size (bytes):\n");
    println!(
        "| input | best | {} |",
        PEERS.iter().map(|p| p.0).collect::<Vec<_>>().join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(PEERS.len()));
    for (name, best, sizes) in &rows {
        let cells: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
        println!("| {name} | {best} | {} |", cells.join(" | "));
    }
    assert!(failures.is_empty(), "best is not smaller: {failures:#?}");
}
