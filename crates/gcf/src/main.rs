//! `gcf`: identify, inspect, validate, round-trip, survey, extract, pack and convert GameCube/Wii
//! files. Every subcommand takes `--json`. Output formats are a contract scripts rely on; see
//! the README.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gcf::{
    Examined, Options, RoundTrip, detect_format, examine, formats::FORMATS, identify, survey,
};
use gcio::Severity;

#[derive(Parser)]
#[command(
    name = "gcf",
    version,
    about = "Read, check, round-trip and convert GameCube/Wii game files"
)]
struct Cli {
    /// Print JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Print PATH<TAB>FORMAT[<TAB>DETAIL] for each file.
    Identify { files: Vec<PathBuf> },
    /// Summarise a file's structure.
    Info { file: PathBuf },
    /// Validate: PATH<TAB>SEVERITY<TAB>RULE<TAB>0xOFFSET<TAB>MESSAGE; exit 1 on any error.
    Check {
        files: Vec<PathBuf>,
        /// Wave system to check an instrument bank against.
        #[arg(long)]
        wsys: Option<PathBuf>,
        /// Extra option KEY=VALUE.
        #[arg(short = 'o', value_parser = parse_kv)]
        opt: Vec<(String, String)>,
    },
    /// Parse and rewrite: PATH<TAB>FORMAT<TAB>identical|differs at 0xOFF|error: MSG; exit 1 unless all identical.
    Roundtrip {
        files: Vec<PathBuf>,
        /// Also round-trip archive members.
        #[arg(long)]
        deep: bool,
    },
    /// Examine every file under PATH (a file, a directory, or a disc image; default `samples/`),
    /// descending into archives, and print per-format totals.
    Survey {
        #[arg(default_value = "samples")]
        path: PathBuf,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Also write a self-contained HTML report to this file.
        #[arg(long)]
        html: Option<PathBuf>,
        /// Exit 1 when any file fails to parse or breaks an error rule (`error`), or does not
        /// round-trip identically (`diff`).
        #[arg(long, value_enum)]
        fail_on: Option<FailOn>,
    },
    /// Write an archive's members (decompressed) under DIR.
    Extract { archive: PathBuf, dir: PathBuf },
    /// Build an archive from DIR; the output name picks the format (`.arc`, `.szs`).
    Pack {
        dir: PathBuf,
        archive: PathBuf,
        /// Yaz0-compress with this encoder (nintendo, fast, best).
        #[arg(long)]
        yaz0: Option<String>,
        /// Lower-case names (SMG1 convention).
        #[arg(long)]
        lowercase: bool,
        /// Turn file-ID synchronisation on.
        #[arg(long)]
        sync_ids: bool,
        /// Extra option KEY=VALUE.
        #[arg(short = 'o', value_parser = parse_kv)]
        opt: Vec<(String, String)>,
    },
    /// Compare two sysdolphin .dat archives: first line `BNB <percent>` (fuzzy 4-byte word match,
    /// A the reference), then per compiler-phase region BNB and per struct kind NBN.
    Compare { a: PathBuf, b: PathBuf },
    /// Lay a sysdolphin .dat out afresh in HAL's compiler order (not the layout-preserving writer).
    /// Findings on the result go to stderr (check's format); they never stop the rebuild.
    Rebuild {
        input: PathBuf,
        output: PathBuf,
        /// Compiler order: `xd` (Colosseum/XD) or `melee` (Melee, Chibi-Robo); default: the
        /// one the input's layout follows.
        #[arg(long, value_parser = gcf::formats::hsd_dat::parse_order)]
        order: Option<hsd_dat::compile::Order>,
    },
    /// Convert between formats; the file names' extensions choose the conversion.
    Convert {
        input: PathBuf,
        output: PathBuf,
        /// Target pixel/texture format where one applies (e.g. cmpr).
        #[arg(long)]
        format: Option<String>,
        /// DAT model to embed (PKX from JSON metadata).
        #[arg(long)]
        dat: Option<PathBuf>,
        /// Extra option KEY=VALUE.
        #[arg(short = 'o', value_parser = parse_kv)]
        opt: Vec<(String, String)>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FailOn {
    Error,
    Diff,
}

/// Writes to stdout. A closed pipe (`gcf info x | head`) ends the program quietly, as Unix tools do,
/// instead of panicking like `println!`.
fn emit(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("gcf: stdout: {e}");
        }
        std::process::exit(if e.kind() == std::io::ErrorKind::BrokenPipe {
            0
        } else {
            1
        });
    }
}

macro_rules! out {
    ($($t:tt)*) => { emit(format_args!($($t)*)) };
}

macro_rules! outln {
    ($($t:tt)*) => { emit(format_args!("{}\n", format_args!($($t)*))) };
}

fn parse_kv(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .ok_or_else(|| format!("expected KEY=VALUE, got {s:?}"))
}

fn options(opt: Vec<(String, String)>, extra: &[(&str, Option<String>)]) -> Options {
    let mut o: Options = opt.into_iter().collect();
    for (k, v) in extra {
        if let Some(v) = v {
            o.insert((*k).to_owned(), v.clone());
        }
    }
    o
}

fn path_opt(p: Option<PathBuf>) -> Option<String> {
    p.map(|p| p.display().to_string())
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn print_json(v: &impl serde::Serialize) -> Result<(), String> {
    serde_json::to_string_pretty(v)
        .map(|s| outln!("{s}"))
        .map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("gcf: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    let json = cli.json;
    match cli.cmd {
        Cmd::Identify { files } => {
            let mut rows = Vec::new();
            for f in &files {
                let data = read(f)?;
                let d = identify(&data, &f.display().to_string());
                if !json {
                    match &d.detail {
                        Some(detail) => outln!("{}\t{}\t{detail}", f.display(), d.format),
                        None => outln!("{}\t{}", f.display(), d.format),
                    }
                }
                rows.push(serde_json::json!({"path": f.display().to_string(), "format": d.format, "detail": d.detail}));
            }
            if json {
                print_json(&rows)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Info { file } => {
            let data = read(&file)?;
            let name = file.display().to_string();
            let (format, det) =
                detect_format(&data, &name).ok_or_else(|| format!("{name}: unknown format"))?;
            let info = format.info(&data).map_err(|e| format!("{name}: {e}"))?;
            if json {
                print_json(
                    &serde_json::json!({"path": name, "format": det.format, "detail": det.detail, "info": info.json}),
                )?;
            } else {
                outln!("{name}\t{}", det.format);
                out!("{}", info.text);
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Check { files, wsys, opt } => {
            let opts = options(opt, &[("wsys", path_opt(wsys))]);
            let mut failed = false;
            let mut all = Vec::new();
            for f in &files {
                let data = read(f)?;
                let name = f.display().to_string();
                let mut found = Vec::new();
                examine(&name, &data, false, &opts, &mut found);
                for e in &found {
                    failed |= e.error.is_some()
                        || matches!(e.roundtrip, RoundTrip::Error { .. } | RoundTrip::Unknown);
                    failed |= e.diagnostics.iter().any(|d| d.severity == Severity::Error);
                    if !json {
                        print_check(e);
                    }
                }
                all.extend(found);
            }
            if json {
                print_json(&all)?;
            }
            Ok(if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Cmd::Roundtrip { files, deep } => {
            let mut all = Vec::new();
            for f in &files {
                let data = read(f)?;
                examine(
                    &f.display().to_string(),
                    &data,
                    deep,
                    &Options::new(),
                    &mut all,
                );
            }
            if json {
                print_json(&all)?;
            } else {
                for e in &all {
                    outln!("{}\t{}\t{}", e.path, e.format, e.roundtrip);
                }
            }
            let ok = all.iter().all(|e| e.roundtrip == RoundTrip::Identical);
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Cmd::Survey {
            path,
            threads,
            html,
            fail_on,
        } => {
            let report = run_survey(&path, threads)?;
            if json {
                print_json(&report)?;
            } else {
                out!("{}", report.table());
            }
            if let Some(h) = html {
                std::fs::write(&h, gcf::report::html(&report))
                    .map_err(|e| format!("{}: {e}", h.display()))?;
            }
            let failed = match fail_on {
                Some(FailOn::Error) => report.has_errors(),
                Some(FailOn::Diff) => !report.all_identical() || report.has_errors(),
                None => false,
            };
            Ok(if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Cmd::Extract { archive, dir } => {
            let data = read(&archive)?;
            let name = archive.display().to_string();
            let (format, _) =
                detect_format(&data, &name).ok_or_else(|| format!("{name}: unknown format"))?;
            let n = format
                .extract(&data, &dir)
                .ok_or_else(|| format!("{name}: {} is not an archive", format.name()))?
                .map_err(|e| format!("{name}: {e}"))?;
            if json {
                print_json(
                    &serde_json::json!({"archive": name, "dir": dir.display().to_string(), "files": n}),
                )?;
            } else {
                outln!("{name}: extracted {n} file(s) to {}", dir.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Pack {
            dir,
            archive,
            yaz0,
            lowercase,
            sync_ids,
            opt,
        } => {
            let flag = |b: bool| b.then(|| "true".to_owned());
            let opts = options(
                opt,
                &[
                    ("yaz0", yaz0),
                    ("lowercase", flag(lowercase)),
                    ("sync-ids", flag(sync_ids)),
                ],
            );
            let bytes = FORMATS
                .iter()
                .find_map(|f| f.pack(&dir, &archive, &opts))
                .ok_or_else(|| format!("{}: no format packs this kind of file", archive.display()))?
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            std::fs::write(&archive, &bytes).map_err(|e| format!("{}: {e}", archive.display()))?;
            if json {
                print_json(
                    &serde_json::json!({"archive": archive.display().to_string(), "bytes": bytes.len()}),
                )?;
            } else {
                outln!("{}: {} bytes", archive.display(), bytes.len());
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Compare { a, b } => {
            let text = gcf::formats::hsd_dat::compare(&read(&a)?, &read(&b)?)
                .map_err(|e| format!("{} vs {}: {e}", a.display(), b.display()))?;
            if json {
                let lines: Vec<&str> = text.lines().collect();
                print_json(
                    &serde_json::json!({"a": a.display().to_string(), "b": b.display().to_string(), "lines": lines}),
                )?;
            } else {
                out!("{text}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Rebuild {
            input,
            output,
            order,
        } => {
            let (bytes, findings) = gcf::formats::hsd_dat::rebuild(&read(&input)?, order)
                .map_err(|e| format!("{}: {e}", input.display()))?;
            for d in &findings {
                eprintln!("{}\t{d}", output.display());
            }
            std::fs::write(&output, &bytes).map_err(|e| format!("{}: {e}", output.display()))?;
            if json {
                print_json(
                    &serde_json::json!({"input": input.display().to_string(), "output": output.display().to_string(), "bytes": bytes.len()}),
                )?;
            } else {
                outln!(
                    "{} -> {} ({} bytes)",
                    input.display(),
                    output.display(),
                    bytes.len()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Convert {
            input,
            output,
            format,
            dat,
            opt,
        } => {
            let opts = options(opt, &[("format", format), ("dat", path_opt(dat))]);
            let data = read(&input)?;
            FORMATS
                .iter()
                .find_map(|f| f.convert(&data, &input, &output, &opts))
                .ok_or_else(|| {
                    format!(
                        "no conversion from {} to {}",
                        input.display(),
                        output.display()
                    )
                })?
                .map_err(|e| format!("{}: {e}", input.display()))?;
            if json {
                print_json(
                    &serde_json::json!({"input": input.display().to_string(), "output": output.display().to_string()}),
                )?;
            } else {
                outln!("{} -> {}", input.display(), output.display());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Runs the survey with a progress bar on a terminal and Ctrl-C stopping it with a partial report.
fn run_survey(path: &Path, threads: Option<usize>) -> Result<survey::Survey, String> {
    use std::io::IsTerminal;
    use std::sync::atomic::Ordering;
    let so = std::sync::Arc::new(survey::SurveyOptions {
        threads,
        ..Default::default()
    });
    let on_stop = std::sync::Arc::clone(&so);
    // Ignored if a handler is already set (only one per process); the survey then just runs to the end.
    let _ = ctrlc::set_handler(move || on_stop.stop.store(true, Ordering::Relaxed));
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    });
    let report = std::thread::scope(|s| {
        let work = s.spawn(|| survey::survey(path, &so));
        while !work.is_finished() {
            if let Some(bar) = &bar {
                let files = so.progress.files.load(Ordering::Relaxed);
                let bytes = so.progress.bytes.load(Ordering::Relaxed);
                bar.set_message(format!("{files} files, {:.1} MB", bytes as f64 / 1e6));
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        work.join().map_err(|_| "survey thread panicked".to_owned())
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    report.map_err(|e| format!("{}: {e}", path.display()))
}

fn print_check(e: &Examined) {
    if let Some(err) = &e.error {
        outln!("{}\terror\tPARSE\t-\t{err}", e.path);
    }
    match &e.roundtrip {
        RoundTrip::Error { message } if e.error.is_none() => {
            outln!("{}\terror\tPARSE\t-\t{message}", e.path)
        }
        RoundTrip::Unknown => outln!("{}\terror\tUNKNOWN\t-\tunknown format", e.path),
        _ => {}
    }
    for d in &e.diagnostics {
        outln!("{}\t{d}", e.path);
    }
}
