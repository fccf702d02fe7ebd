//! Shared by the benches (`#[path = "common/mod.rs"] mod common;`): interleaved best-of-N ratios
//! against the peers, and the real files of `../shared/corpus/real` (archives expanded).
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `../shared/corpus/real/SUB` beside the package, when present; says which input the bench uses.
pub fn real(sub: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/real")
        .join(sub);
    if dir.is_dir() {
        eprintln!("bench input: real files of {}", dir.display());
        Some(dir)
    } else {
        eprintln!("bench input: synthetic ({} is absent)", dir.display());
        None
    }
}

/// Every file under `dir`, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    gcformats::gcio::corpus::files(dir)
}

/// One file of the real set: a file on disk, or a member of an archive (Yaz0 expanded).
pub struct Real {
    /// `path` or `archive:member`.
    pub name: String,
    /// The bytes as stored (a Yaz0 stream stays compressed here).
    pub bytes: Vec<u8>,
}

/// Every real file under `sub` and, recursively, every member of its archives (Yaz0 streams
/// appear twice: as stored, then expanded). Empty without the corpus.
#[cfg(feature = "rarc")]
pub fn real_files(sub: &str) -> Vec<Real> {
    let mut out = Vec::new();
    if let Some(dir) = real(sub) {
        for p in files_under(&dir) {
            let name = p.strip_prefix(&dir).unwrap_or(&p).display().to_string();
            expand(name, std::fs::read(&p).unwrap(), &mut out);
        }
    }
    out
}

#[cfg(feature = "rarc")]
fn expand(name: String, bytes: Vec<u8>, out: &mut Vec<Real>) {
    use gcformats::{rarc, yaz0};
    let inner = if bytes.starts_with(b"Yaz0") {
        yaz0::decode(&bytes)
            .ok()
            .map(|d| (format!("{name}[yaz0]"), d))
    } else {
        None
    };
    let members = if bytes.starts_with(b"RARC") {
        rarc::parse(&bytes).ok().and_then(|v| {
            let (_, files) = v.walk().ok()?;
            Some(
                files
                    .iter()
                    .filter_map(|f| {
                        Some((
                            format!("{name}:{}", f.path),
                            v.file_bytes(&f.entry).ok()?.to_vec(),
                        ))
                    })
                    .collect::<Vec<_>>(),
            )
        })
    } else {
        None
    };
    out.push(Real { name, bytes });
    for (n, b) in inner.into_iter().chain(members.into_iter().flatten()) {
        expand(n, b, out);
    }
}

/// Criterion's test mode (`cargo bench -- --test`, as CI runs every bench once).
pub fn test_mode() -> bool {
    std::env::args().any(|a| a == "--test")
}

/// Run count scale: `RATIO_RUNS=n` (or the older `YAZ0_RATIO_RUNS`) multiplies every N; in
/// criterion's test mode (`-- --test`) each function runs once.
fn runs(runs: usize) -> usize {
    if test_mode() {
        return 1;
    }
    let scale = ["RATIO_RUNS", "YAZ0_RATIO_RUNS"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    runs * scale
}

/// Interleaved best-of-N timing of several functions on one input (`bytes` per call), printed as
/// `GROUP ratio LABEL NAME  MB/s  ratio× FIRST`: each function runs in turn, its best time kept.
/// On a shared, loaded machine the ratio within one interleaved run is steadier than separate
/// criterion means. Returns each function's best seconds.
pub fn ratios<R>(
    group: &str,
    label: &str,
    bytes: usize,
    n: usize,
    fns: &[(&str, &dyn Fn() -> R)],
) -> Vec<f64> {
    let mut best = vec![f64::MAX; fns.len()];
    for _ in 0..runs(n) {
        for (b, (_, f)) in best.iter_mut().zip(fns) {
            let t = Instant::now();
            black_box(f());
            *b = b.min(t.elapsed().as_secs_f64());
        }
    }
    for ((name, _), b) in fns.iter().zip(&best) {
        eprintln!(
            "{group} ratio {label:17} {name:24} {:9.1} MB/s  {:5.2}x {}",
            bytes as f64 / b / 1e6,
            best[0] / b,
            fns[0].0
        );
    }
    best
}

/// The bytes of every archive member of the real set whose name ends with `ext` (compared
/// ignoring case; compressed members expanded). Empty without the corpus.
#[cfg(feature = "rarc")]
pub fn members(ext: &str) -> Vec<Vec<u8>> {
    real_files("rarc")
        .into_iter()
        .filter(|r| {
            r.name.contains(':')
                && r.name.to_ascii_lowercase().ends_with(ext)
                && !r.bytes.starts_with(b"Yaz0")
        })
        .map(|r| r.bytes)
        .collect()
}

/// The three per-file benches of a format, on every file: `parse`, `write` (of the models parsed
/// from those files) and `validate`. Each closure returns a size so the work is not optimised away.
pub fn parse_write_validate<M>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    files: &[Vec<u8>],
    parse: impl Fn(&[u8]) -> M,
    write: impl Fn(&M) -> usize,
    validate: impl Fn(&[u8]) -> usize,
) -> Vec<M> {
    let models: Vec<M> = files.iter().map(|f| parse(f)).collect();
    g.bench_function("parse", |b| {
        b.iter(|| {
            for f in files {
                black_box(parse(black_box(f)));
            }
        })
    });
    g.bench_function("write", |b| {
        b.iter(|| models.iter().map(|m| write(black_box(m))).sum::<usize>())
    });
    g.bench_function("validate", |b| {
        b.iter(|| files.iter().map(|f| validate(black_box(f))).sum::<usize>())
    });
    models
}
