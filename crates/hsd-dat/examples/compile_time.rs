//! Compile-time driver (for profiling and BENCHMARKS.md on a loaded machine):
//! `cargo run --release -p hsd-dat --example compile_time -- [SECS] FILE...` parses and compiles
//! each file with `compile::compile` (detected order, recorded texture list) until SECS of this
//! thread's CPU time have passed (default 2; `/proc/thread-self/stat` ticks, so other jobs on the
//! machine do not count) and prints the mean CPU time per compile and the BNB of the result.

/// This thread's user + system CPU time in seconds (10 ms ticks).
fn thread_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let secs = match args.first().map(|a| a.parse::<f64>()) {
        Some(Ok(s)) => {
            args.remove(0);
            s
        }
        _ => 2.0,
    };
    for path in &args {
        let bytes = std::fs::read(path)?;
        let once = || -> Result<Vec<u8>, gcio::Error> {
            let dat = hsd_dat::Dat::parse(std::hint::black_box(&bytes))?;
            hsd_dat::compile::compile(&dat)?.write()
        };
        let out = once()?;
        let start = thread_cpu().ok_or("no /proc/thread-self/stat")?;
        let mut n = 0u32;
        let t = loop {
            std::hint::black_box(once()?);
            n += 1;
            let t = thread_cpu().unwrap_or(f64::MAX) - start;
            if t >= secs {
                break t;
            }
        };
        let per = t / f64::from(n);
        let bnb = hsd_dat::compare::bnb(&bytes, &out);
        println!(
            "{}: {} bytes, {:.2} ms CPU per compile ({:.0} MiB/s, {n} runs), BNB {bnb:.2} %",
            std::path::Path::new(path)
                .file_name()
                .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned()),
            bytes.len(),
            per * 1e3,
            bytes.len() as f64 / per / f64::from(1 << 20),
        );
    }
    Ok(())
}
