//! `cargo xtask TASK`: the project's automation, in Rust so it runs wherever cargo does.
//!
//! | task | what it does |
//! |---|---|
//! | `ci` | fmt check, clippy `-D warnings`, `cargo package` of every published crate (packs and builds each `.crate`), one-format builds (each facade format feature alone compiles and pulls in no conversion or CLI dependency), tests (recording which corpus checks ran: a skip fails when `../shared/corpus` exists), the Python wheel (`pip install .` into a venv under `target/`, pytest, the pyjmap benchmark once), samples up to date, round trip of `samples/`, fuzz smoke, every bench run once in test mode; installs cargo-fuzz first when it is missing |
//! | `python` | the Python wheel step of `ci` alone |
//! | `survey [DIR]` | the `gcf survey` table over DIR (default `samples/`) |
//! | `roundtrip [DIR]` | round-trips every file under DIR and its members; fails on any difference |
//! | `fuzz-smoke [SECONDS]` | runs every fuzz target for SECONDS (default 10) on stable |
//! | `gen-samples [--check]` | writes `samples/` from the crates' builders; `--check` fails if it differs |
//! | `bench` | runs every criterion bench briefly and prints a MB/s table |
//! | `package` | `cargo package` of every published crate, then `one-format` (the two `ci` steps alone) |
//! | `one-format` | each facade format feature alone (`--no-default-features -F <format>`) compiles and its `cargo tree` holds no serde_json, png, gltf, clap or rayon |

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = workspace_root();
    if let Err(e) = std::env::set_current_dir(&root) {
        eprintln!("xtask: {}: {e}", root.display());
        return ExitCode::FAILURE;
    }
    let arg = |i: usize| args.get(i).map(String::as_str);
    let result = match arg(0) {
        Some("ci") => ci(),
        Some("survey") => survey(Path::new(arg(1).unwrap_or("samples"))),
        Some("roundtrip") => roundtrip(Path::new(arg(1).unwrap_or("samples"))),
        Some("fuzz-smoke") => arg(1).unwrap_or("10").parse().map_err(|e| format!("seconds: {e}")).and_then(fuzz_smoke),
        Some("gen-samples") => gen_samples(arg(1) == Some("--check")),
        Some("bench") => bench(),
        Some("package") => package().and_then(|()| one_format_builds()),
        Some("one-format") => one_format_builds(),
        Some("python") => python(),
        _ => Err("usage: cargo xtask ci | survey [DIR] | roundtrip [DIR] | fuzz-smoke [SECONDS] | gen-samples [--check] | bench | package | one-format | python".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(Path::to_path_buf).unwrap_or(here)
}

fn run(program: &str, args: &[&str], dir: Option<&Path>) -> Result {
    run_with(program, args, dir, &[])
}

/// [`run`] with environment variables set.
fn run_with(program: &str, args: &[&str], dir: Option<&Path>, env: &[(&str, &str)]) -> Result {
    eprintln!("xtask: $ {program} {}", args.join(" "));
    let mut cmd = Command::new(program);
    cmd.args(args).envs(env.iter().copied());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let status = cmd.status().map_err(|e| format!("{program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

fn step(name: &str, f: impl FnOnce() -> Result) -> Result {
    let start = std::time::Instant::now();
    eprintln!("\n=== {name} ===");
    let r = f();
    eprintln!(
        "=== {name}: {} in {:.1}s ===",
        if r.is_ok() { "ok" } else { "FAILED" },
        start.elapsed().as_secs_f64()
    );
    r
}

/// Installs cargo-fuzz when it is missing, so `cargo xtask ci` works on a machine with nothing
/// but Rust (the fuzz smoke step needs it).
fn setup() -> Result {
    if has_cargo_fuzz() {
        eprintln!("cargo-fuzz is installed");
        return Ok(());
    }
    eprintln!(
        "cargo-fuzz is missing: installing it (cargo install --locked cargo-fuzz, a few minutes)"
    );
    run(&cargo(), &["install", "--locked", "cargo-fuzz"], None)
}

fn has_cargo_fuzz() -> bool {
    Command::new(cargo())
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn ci() -> Result {
    let cargo = cargo();
    eprintln!(
        "cargo xtask ci: setup, fmt, clippy (builds every crate: the first run compiles for several minutes), \
         package, one-format builds, tests, samples, round trip, fuzz smoke, benches once"
    );
    step("setup", setup)?;
    step("fmt", || {
        run(&cargo, &["fmt", "--all", "--", "--check"], None)
    })?;
    step("clippy", || {
        run(
            &cargo,
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--all-features",
                "--",
                "-D",
                "warnings",
            ],
            None,
        )
    })?;
    step("package", package)?;
    step("one-format builds", one_format_builds)?;
    // Absolute: each test binary runs in its own crate's folder.
    let corpus_log = &std::env::current_dir()
        .map_err(|e| e.to_string())?
        .join("target/corpus-checks.tsv");
    // A stale record would hide this run's skips.
    let _ = std::fs::remove_file(corpus_log);
    let mut tally = TestTally::default();
    step("test", || {
        tally = run_tests(&cargo, corpus_log)?;
        Ok(())
    })?;
    step("corpus checks ran", || corpus_checks(corpus_log))?;
    step("python wheel", python)?;
    step("samples up to date", || gen_samples(true))?;
    step("roundtrip samples", || roundtrip(Path::new("samples")))?;
    // 3 s per target: a smoke run (seeds and a first mutation burst) that keeps a cold CI, now with
    // the package step and every bench run once, under 30 minutes on 2 cores.
    step("fuzz smoke", || fuzz_smoke(3))?;
    // Criterion's test mode runs every bench once, so the equality asserts inside them (peer
    // outputs, round trips on real files) execute; timings are not taken, so the `ci-bench`
    // profile spares CI the bench profile's one-codegen-unit, full-debug-info build.
    step("benches run once", || {
        run(
            &cargo,
            &[
                "bench",
                "--workspace",
                "--all-features",
                "--profile",
                "ci-bench",
                "--",
                "--test",
            ],
            None,
        )
    })?;
    // The test log scrolls far above the fuzz and bench output; the totals close the run.
    println!("\n=== summary ===\n{tally}");
    Ok(())
}

/// `cargo package` of every published crate: each `.crate` must hold what it needs (sources,
/// README, licenses, bundled data) and build on its own, with no path into the repository.
/// Cargo (>= 1.90) resolves the workspace path dependencies through a local registry overlay;
/// `gcf`, `gcformats-py` (the wheel's module) and `xtask` are `publish = false` and `fuzz` is its own workspace, so they are left out.
fn package() -> Result {
    forget_package_builds();
    run(
        &cargo(),
        &[
            "package",
            "--workspace",
            "--exclude",
            "gcf",
            "--exclude",
            "xtask",
            "--exclude",
            "gcformats-py",
            "--allow-dirty",
            "--quiet",
            "--target-dir",
            PACKAGE_TARGET,
        ],
        None,
    )
}

/// Dependencies a user of one format must not build: the conversions' (JSON, PNG, glTF) and the
/// CLI's. A line of `cargo tree -e features,normal` containing one fails the check.
const ONE_FORMAT_FORBIDDEN: [&str; 5] = ["serde_json", "png v", "gltf", "clap", "rayon"];

/// The facade's format features: the `[features]` entries of the root manifest that turn on the
/// crate of their own name (`tpl = ["dep:tpl", …]`).
fn format_features() -> Result<Vec<String>> {
    let manifest = std::fs::read_to_string("Cargo.toml").map_err(|e| format!("Cargo.toml: {e}"))?;
    let mut in_features = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_features = line == "[features]";
            continue;
        }
        let Some((name, list)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim();
        if in_features && list.contains(&format!("\"dep:{name}\"")) {
            out.push(name.to_owned());
        }
    }
    if out.is_empty() {
        return Err("no format features found in Cargo.toml [features]".into());
    }
    Ok(out)
}

/// For every facade format feature alone (`--no-default-features -F <format>`): the facade
/// compiles, and its dependency tree holds none of [`ONE_FORMAT_FORBIDDEN`] (docs/ARCHITECTURE.md,
/// "Packages and publishing"). A format crate that uses serde_json or png without a feature, or a
/// facade format feature that turns on `json`/`export`, fails here.
fn one_format_builds() -> Result {
    let cargo = cargo();
    let mut failures = Vec::new();
    for f in format_features()? {
        let args = [
            "-p",
            "gcformats",
            "--no-default-features",
            "--features",
            f.as_str(),
        ];
        let out = Command::new(&cargo)
            .args(["tree", "-e", "features,normal"])
            .args(args)
            .output()
            .map_err(|e| format!("cargo tree: {e}"))?;
        if !out.status.success() {
            failures.push(format!("{f}: cargo tree failed"));
            continue;
        }
        let tree = String::from_utf8_lossy(&out.stdout);
        let mut found: Vec<&str> = ONE_FORMAT_FORBIDDEN
            .iter()
            .copied()
            .filter(|dep| tree.lines().any(|l| l.contains(dep)))
            .collect();
        found.dedup();
        if !found.is_empty() {
            failures.push(format!("{f}: builds {}", found.join(", ")));
        }
        let mut check = vec!["check", "--quiet"];
        check.extend(args);
        if let Err(e) = run(&cargo, &check, None) {
            failures.push(format!("{f}: {e}"));
        }
    }
    // The conversions with one format that has no archive (the registry's `convert` must not
    // need the RARC format's module).
    if let Err(e) = run(
        &cargo,
        &[
            "check",
            "--quiet",
            "-p",
            "gcformats",
            "--no-default-features",
            "--features",
            "tpl,convert",
        ],
        None,
    ) {
        failures.push(format!("tpl,convert: {e}"));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("one-format builds: {}", failures.join("; ")))
    }
}

/// Target folder of the package step's verification builds.
const PACKAGE_TARGET: &str = "target/package-check";

/// Forgets earlier verification builds of our own packages. `cargo package` builds each crate
/// against the others as registry packages (same name and version, 0.1.0, on every run), and
/// cargo never re-checks a registry package's sources: a build left from an earlier run would be
/// reused after a change (a new `gcio` module "not found" while verifying `rarc`). Third-party
/// builds in the folder stay. For the same reason the sources cargo extracted of our packages
/// under `$CARGO_HOME/registry/src` go too: cargo extracts a registry package once per name and
/// version and would verify against an earlier run's sources (a new `gx` module missing).
fn forget_package_builds() {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cargo")));
    if let Some(src) = home.map(|h| h.join("registry").join("src")) {
        for registry in std::fs::read_dir(src).into_iter().flatten().flatten() {
            for entry in std::fs::read_dir(registry.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if entry.file_name().to_string_lossy().starts_with("gcformats") {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
    }
    let fingerprints = std::path::Path::new(PACKAGE_TARGET)
        .join("debug")
        .join(".fingerprint");
    let Ok(entries) = std::fs::read_dir(&fingerprints) else {
        return;
    };
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with("gcformats-")
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Totals over every `test result:` line of a `cargo test` run.
#[derive(Default)]
struct TestTally {
    binaries: usize,
    passed: u64,
    failed: u64,
    ignored: u64,
}

impl TestTally {
    /// Adds one `test result: ok. 12 passed; 0 failed; 1 ignored; …` line.
    fn add(&mut self, line: &str) {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            return;
        };
        self.binaries += 1;
        for part in rest.split(';') {
            let mut words = part.split_whitespace().rev();
            let (Some(what), Some(n)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(n) = n.parse::<u64>() else { continue };
            match what {
                "passed" => self.passed += n,
                "failed" => self.failed += n,
                "ignored" => self.ignored += n,
                _ => {}
            }
        }
    }
}

impl std::fmt::Display for TestTally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cargo test --workspace: {} passed; {} failed; {} ignored; in {} test binaries",
            self.passed, self.failed, self.ignored, self.binaries
        )
    }
}

/// `cargo test --workspace`, its output passed through and its results counted; fails when it
/// fails or when no test ran.
fn run_tests(cargo: &str, corpus_log: &Path) -> Result<TestTally> {
    use std::io::{BufRead, Write};
    let args = ["test", "--workspace", "--all-features"];
    eprintln!("xtask: $ {cargo} {}", args.join(" "));
    let mut child = Command::new(cargo)
        .args(args)
        .env("GCF_CORPUS_LOG", corpus_log)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{cargo}: {e}"))?;
    let mut tally = TestTally::default();
    if let Some(out) = child.stdout.take() {
        let mut stdout = std::io::stdout().lock();
        for line in std::io::BufReader::new(out).lines() {
            let line = line.map_err(|e| format!("cargo test output: {e}"))?;
            tally.add(&line);
            let _ = writeln!(stdout, "{line}");
        }
    }
    let status = child.wait().map_err(|e| format!("{cargo}: {e}"))?;
    println!("{tally}");
    if !status.success() {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    } else if tally.passed == 0 {
        Err("`cargo test` reported no passing test".into())
    } else {
        Ok(tally)
    }
}

/// Prints which corpus-dependent checks ran and which skipped (the record `gcio::corpus` keeps
/// under `GCF_CORPUS_LOG`); a skip is a failure when the shared corpus exists.
fn corpus_checks(log: &Path) -> Result {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut rows: BTreeMap<(String, String), usize> = BTreeMap::new();
    for line in text.lines() {
        let mut f = line.splitn(3, '\t');
        let (what, sub, who) = (f.next(), f.next(), f.next());
        if let (Some(what), Some(sub), Some(who)) = (what, sub, who) {
            *rows
                .entry((what.to_owned(), format!("{who} (shared/corpus/{sub})")))
                .or_default() += 1;
        }
    }
    for ((what, who), n) in &rows {
        println!("{what:8} {who} ×{n}");
    }
    let present = std::env::current_dir()
        .map_err(|e| e.to_string())?
        .ancestors()
        .any(|a| a.join("shared/corpus").is_dir());
    let skipped = rows.keys().filter(|(w, _)| w == "skipped").count();
    if !present {
        println!("shared/corpus is absent: corpus checks skipped ({skipped})");
        Ok(())
    } else if rows.is_empty() {
        Err(format!("no corpus check reported to {}", log.display()))
    } else if skipped > 0 {
        Err(format!(
            "shared/corpus exists but {skipped} corpus check(s) skipped"
        ))
    } else {
        Ok(())
    }
}

/// The venv the Python step installs the wheel into (under `target/`, so `cargo clean` drops it).
const PY_VENV: &str = "target/py-venv";

/// What the Python step installs besides the wheel: its build backend, the test runner, NumPy
/// (vertex arrays) and the pyjmap release the benchmark compares with.
const PY_TOOLS: [&str; 4] = ["maturin>=1.9,<2", "pytest", "numpy", "pyjmap==1.1.0"];

/// The Python wheel (issue 38): `pip install .` from the repository root into a venv under
/// `target/` (as the README's fresh-machine line does, with cargo's dev profile to keep CI fast:
/// users get release builds), then its pytest suite, with the real-corpus tests required when
/// `../shared/corpus/real` exists, and the pyjmap benchmark once (its figures need a release
/// build: BENCHMARKS.md). `PYTHON` names the interpreter (default `python3`).
fn python() -> Result {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let py = Path::new(PY_VENV).join("bin").join("python");
    let py = py.to_str().ok_or("venv path is not UTF-8")?;
    if !Path::new(py).exists() {
        run(&python, &["-m", "venv", PY_VENV], None)?;
    }
    let mut install = vec!["-m", "pip", "install", "--quiet", "--upgrade"];
    install.extend(PY_TOOLS);
    run(py, &install, None)?;
    let corpus = Path::new("../shared/corpus/real").is_dir();
    let require = if corpus { "1" } else { "" };
    run_with(
        py,
        &[
            "-m",
            "pip",
            "install",
            "--quiet",
            "--force-reinstall",
            "--no-deps",
            ".",
        ],
        None,
        &[("MATURIN_PEP517_ARGS", "--profile dev")],
    )?;
    run_with(
        py,
        &[
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "crates/py/tests",
        ],
        None,
        &[("GCFORMATS_REQUIRE_CORPUS", require)],
    )?;
    if corpus {
        run(py, &["crates/py/bench/bench_pyjmap.py"], None)?;
    }
    Ok(())
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn run_survey(dir: &Path) -> Result<gcf::survey::Survey> {
    gcf::survey::survey(dir, &gcf::survey::SurveyOptions::default())
        .map_err(|e| format!("{}: {e}", dir.display()))
}

fn survey(dir: &Path) -> Result {
    print!("{}", run_survey(dir)?.table());
    Ok(())
}

/// Same engine as `gcf survey`; fails unless every recognised file (and member) is identical
/// through the typed writers (a raw fallback, `identical (raw: …)`, counts as a failure).
fn roundtrip(dir: &Path) -> Result {
    let report = run_survey(dir)?;
    let mut bad = 0;
    for (format, s) in &report.formats {
        for (path, why) in &s.failures {
            bad += 1;
            println!("{path}\t{format}\t{why}");
        }
        for (part, n) in &s.raw {
            bad += *n;
            println!("{n} {format} file(s)\tkept raw: {part}");
        }
    }
    let unknown = report.formats.get(gcf::UNKNOWN).map_or(0, |s| s.files);
    println!(
        "roundtrip: {} identical, {bad} not, {unknown} of unknown format, under {}",
        report.files - bad - unknown,
        dir.display()
    );
    if bad == 0 && report.unreadable.is_empty() {
        Ok(())
    } else {
        Err(format!("{bad} file(s) did not round-trip"))
    }
}

fn fuzz_smoke(seconds: u64) -> Result {
    if !has_cargo_fuzz() {
        return Err("cargo-fuzz is not installed (cargo install --locked cargo-fuzz)".into());
    }
    let mut targets: Vec<String> = std::fs::read_dir("fuzz/fuzz_targets")
        .map_err(|e| format!("fuzz/fuzz_targets: {e}"))?
        .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(str::to_owned))
        .collect();
    targets.sort();
    let time = format!("-max_total_time={seconds}");
    for t in &targets {
        run(
            &cargo(),
            &["fuzz", "run", "--sanitizer", "none", t, "--", &time],
            Some(Path::new(".")),
        )?;
    }
    Ok(())
}

fn gen_samples(check: bool) -> Result {
    let samples: BTreeMap<String, Vec<u8>> = gcf::samples().into_iter().collect();
    let dir = Path::new("samples");
    let existing: BTreeMap<String, Vec<u8>> = gcf::survey::files_under(dir)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(dir).ok()?.to_str()?.replace('\\', "/");
            (rel != "README.md").then(|| Some((rel, std::fs::read(&p).ok()?)))?
        })
        .collect();
    if check {
        if samples == existing {
            println!("samples/: {} file(s) up to date", samples.len());
            return Ok(());
        }
        let stale: Vec<&String> = samples
            .keys()
            .chain(existing.keys())
            .filter(|k| samples.get(*k) != existing.get(*k))
            .collect();
        return Err(format!(
            "samples/ is stale ({stale:?}); run `cargo xtask gen-samples` and commit"
        ));
    }
    for name in existing.keys().filter(|k| !samples.contains_key(*k)) {
        std::fs::remove_file(dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
    }
    for (name, bytes) in &samples {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!("samples/: wrote {} file(s)", samples.len());
    Ok(())
}

fn bench() -> Result {
    let out = Command::new(cargo())
        .args([
            "bench",
            "--workspace",
            "--all-features",
            "--",
            "--warm-up-time",
            "0.5",
            "--measurement-time",
            "1",
            "--sample-size",
            "10",
            "--noplot",
        ])
        .output()
        .map_err(|e| format!("cargo bench: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    println!("| bench | throughput |\n|---|---|");
    let mut name = String::new();
    for line in text.lines() {
        let t = line.trim();
        if !t.is_empty()
            && !t.starts_with("time:")
            && !t.starts_with("thrpt:")
            && !line.starts_with(' ')
            && !t.contains("Warming")
        {
            name = t.split_whitespace().next().unwrap_or_default().to_owned();
        }
        if let Some(rest) = t.strip_prefix("thrpt:") {
            let mid = rest
                .trim()
                .trim_matches(['[', ']'])
                .split_whitespace()
                .collect::<Vec<_>>();
            if let (Some(v), Some(u)) = (mid.get(2), mid.get(3)) {
                println!("| {name} | {v} {u} |");
            }
        }
    }
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "cargo bench failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::TestTally;

    #[test]
    fn tally_sums_cargo_result_lines() {
        let mut t = TestTally::default();
        t.add("test result: ok. 12 passed; 0 failed; 3 ignored; 0 measured; 0 filtered out; finished in 0.01s");
        t.add("running 12 tests");
        t.add("test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 5 filtered out");
        assert_eq!((t.binaries, t.passed, t.failed, t.ignored), (2, 13, 2, 3));
    }
}
