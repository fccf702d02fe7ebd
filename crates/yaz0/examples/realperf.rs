//! Times encoders on every Yaz0 stream under a folder (best of RUNS passes, this thread's CPU time, so a
//! shared machine's load counts less): `cargo run --release -p gcformats-yaz0 --example
//! realperf -- DIR [RUNS] [ENCODER...]`; prints a checksum of the outputs to stderr.
#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::Instant;

fn walk(dir: &std::path::Path, out: &mut Vec<Vec<u8>>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if let Ok(b) = std::fs::read(&p)
            && b.starts_with(b"Yaz0")
        {
            out.push(yaz0::decode(&b).expect("decode"));
        }
    }
}

/// This thread's CPU time in seconds (the machine is shared; wall time is noisy), read with
/// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, which the kernel brings up to date on the call
/// (`/proc/thread-self/schedstat` moves only at scheduler ticks, 4 ms here: a pass of a few
/// tens of milliseconds read a multiple of the tick more often than not). Wall time elsewhere.
fn cpu() -> f64 {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }
    #[cfg(not(unix))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .cloned()
        .unwrap_or("../shared/corpus/real".into());
    let runs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let names: Vec<String> = if args.len() > 3 {
        args[3..].to_vec()
    } else {
        vec!["nintendo".into(), "fast".into(), "best".into()]
    };
    let mut payloads = Vec::new();
    walk(std::path::Path::new(&dir), &mut payloads);
    let total: usize = payloads.iter().map(Vec::len).sum();
    eprintln!("{} streams, {total} bytes", payloads.len());
    for name in names {
        let e = yaz0::Encoder::from_name(&name).expect("encoder");
        let mut size = 0;
        // FNV-1a over every output: variants that should emit the same tokens print the same.
        let mut sum = 0xcbf2_9ce4_8422_2325u64;
        for p in &payloads {
            let out = yaz0::encode(p, e);
            assert_eq!(&yaz0::decode(&out).unwrap(), p, "{name} round trip");
            size += out.len();
            for &b in &out {
                sum = (sum ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        eprintln!("{name}: output checksum {sum:016x}");
        let (mut bestt, mut bestw) = (f64::MAX, f64::MAX);
        for _ in 0..runs {
            let t = Instant::now();
            let c0 = cpu();
            for p in &payloads {
                std::hint::black_box(yaz0::encode(std::hint::black_box(p), e));
            }
            bestw = bestw.min(t.elapsed().as_secs_f64());
            bestt = bestt.min(cpu() - c0);
        }
        println!(
            "{name:10} {size:9} B  {:7.1} ms  {:6.1} MB/s  (wall {:7.2} ms  {:6.1} MB/s)",
            bestt * 1e3,
            total as f64 / bestt / 1e6,
            bestw * 1e3,
            total as f64 / bestw / 1e6
        );
    }
}
