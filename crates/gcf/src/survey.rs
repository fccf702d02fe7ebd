//! The survey: examine every file under a path — a file, a directory tree, or (with the `disc`
//! feature) a disc image — descending into containers, in parallel and with bounded memory, and
//! aggregate per format: files, bytes, parsed, round-trip identical (first differing offset of
//! each failure), errors grouped by message, validator rules hit, facts the formats collect, time.
//!
//! Files are streamed from one producer thread through a bounded channel to a rayon pool, so at
//! most a few files (plus the members being examined) are in memory at once whatever the input size.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::time::Instant;

use rayon::iter::{ParallelBridge, ParallelIterator};

use crate::{Examined, Options, RoundTrip, examine_with};

/// Per-format totals.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct FormatStats {
    /// Files (and members) of this format.
    pub files: u64,
    /// Their total size.
    pub bytes: u64,
    /// Files that parsed (the round trip did not fail with an error).
    pub parsed: u64,
    /// Files whose rewrite was byte-identical.
    pub identical: u64,
    /// Of those, files rewritten entirely through typed writers (nothing kept raw).
    pub typed: u64,
    /// Parts kept raw (a raw fallback) in identical files, and how often.
    pub raw: BTreeMap<String, u64>,
    /// Round-trip failures: path → `differs at 0x…` or `error: …`.
    pub failures: BTreeMap<String, String>,
    /// Error messages (parse, validate, members) and how often they occurred.
    pub errors: BTreeMap<String, u64>,
    /// Validator rule ids and how often they fired.
    pub rules: BTreeMap<String, u64>,
    /// The severities each rule id fired with (`info`, `warning`, `error`).
    pub severities: BTreeMap<String, BTreeSet<String>>,
    /// Validator findings of severity `error`.
    pub rule_errors: u64,
    /// Facts the format collects (e.g. `sync-id flag=1`, `opcode 0xc1`) and their counts.
    pub facts: BTreeMap<String, u64>,
    /// Seconds spent examining these files, summed over threads.
    pub seconds: f64,
}

impl FormatStats {
    fn merge(&mut self, o: FormatStats) {
        self.files += o.files;
        self.bytes += o.bytes;
        self.parsed += o.parsed;
        self.identical += o.identical;
        self.typed += o.typed;
        add_counts(&mut self.raw, o.raw);
        self.failures.extend(o.failures);
        add_counts(&mut self.errors, o.errors);
        add_counts(&mut self.rules, o.rules);
        for (rule, sev) in o.severities {
            self.severities.entry(rule).or_default().extend(sev);
        }
        self.rule_errors += o.rule_errors;
        add_counts(&mut self.facts, o.facts);
        self.seconds += o.seconds;
    }

    /// Throughput in MB/s of examination time.
    pub fn mb_per_s(&self) -> f64 {
        if self.seconds > 0.0 {
            self.bytes as f64 / self.seconds / 1e6
        } else {
            0.0
        }
    }
}

fn add_counts(into: &mut BTreeMap<String, u64>, from: BTreeMap<String, u64>) {
    for (k, v) in from {
        *into.entry(k).or_default() += v;
    }
}

/// The whole report. `--json` prints it as is; the schema is documented in `docs/SURVEY.md`.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Survey {
    /// What was surveyed.
    pub path: String,
    /// Stats per detected format (including `unknown`).
    pub formats: BTreeMap<String, FormatStats>,
    /// Files and members examined.
    pub files: u64,
    /// Bytes examined (members counted again inside their containers).
    pub bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
    /// True when the survey was stopped early (Ctrl-C); the totals cover what was examined.
    pub interrupted: bool,
    /// Files that could not be read, with the reason.
    pub unreadable: BTreeMap<String, String>,
}

impl Survey {
    /// Adds one examined file to the totals.
    pub fn add(&mut self, e: &Examined) {
        self.files += 1;
        self.bytes += e.bytes;
        let s = self.formats.entry(e.format.to_owned()).or_default();
        s.files += 1;
        s.bytes += e.bytes;
        s.seconds += e.seconds;
        match &e.roundtrip {
            RoundTrip::Identical => {
                s.parsed += 1;
                s.identical += 1;
                s.typed += 1;
            }
            RoundTrip::Raw { parts } => {
                s.parsed += 1;
                s.identical += 1;
                for p in parts {
                    *s.raw.entry(p.clone()).or_default() += 1;
                }
            }
            RoundTrip::Differs { .. } => {
                s.parsed += 1;
                s.failures.insert(e.path.clone(), e.roundtrip.to_string());
            }
            RoundTrip::Error { message } => {
                *s.errors.entry(message.clone()).or_default() += 1;
                s.failures.insert(e.path.clone(), e.roundtrip.to_string());
            }
            RoundTrip::Unknown | RoundTrip::Kept => {}
        }
        if let Some(err) = &e.error {
            *s.errors.entry(err.clone()).or_default() += 1;
        }
        for d in &e.diagnostics {
            *s.rules.entry(d.rule.clone()).or_default() += 1;
            s.severities
                .entry(d.rule.clone())
                .or_default()
                .insert(d.severity.to_string());
            s.rule_errors += u64::from(d.severity == gcio::Severity::Error);
        }
        for (k, v) in &e.facts {
            *s.facts.entry(k.clone()).or_default() += v;
        }
    }

    /// Folds another partial report (from another thread) into this one.
    pub fn merge(&mut self, o: Survey) {
        for (k, v) in o.formats {
            self.formats.entry(k).or_default().merge(v);
        }
        self.files += o.files;
        self.bytes += o.bytes;
        self.interrupted |= o.interrupted;
        self.unreadable.extend(o.unreadable);
    }

    fn recognised(&self) -> impl Iterator<Item = &FormatStats> {
        self.formats
            .iter()
            .filter(|(k, _)| k.as_str() != crate::UNKNOWN)
            .map(|(_, s)| s)
    }

    /// True when every recognised file round-tripped identically.
    pub fn all_identical(&self) -> bool {
        self.recognised().all(|s| s.identical == s.files)
    }

    /// True when any recognised file failed to parse or broke an error-severity rule.
    pub fn has_errors(&self) -> bool {
        self.recognised()
            .any(|s| s.parsed < s.files || s.rule_errors > 0 || !s.errors.is_empty())
            || !self.unreadable.is_empty()
    }

    /// The terminal table.
    pub fn table(&self) -> String {
        self.report(false)
    }

    /// [`Survey::table`], then, with `facts`, the facts each format collected: per-format
    /// totals, then the failures, parts kept raw, errors and rule hits (with their severities)
    /// under headings.
    pub fn report(&self, facts: bool) -> String {
        let mut out = format!(
            "{:<14} {:>7} {:>12} {:>7} {:>9} {:>15} {:>10} {:>9}\n",
            "format", "files", "bytes", "parsed", "identical", "typed/all", "rule hits", "MB/s"
        );
        for (name, s) in &self.formats {
            let hits: u64 = s.rules.values().sum();
            let typed = format!("{}/{}", s.typed, s.files);
            // Nothing parsed, no throughput to speak of (unknown files are only identified).
            let mbs = if s.parsed > 0 {
                format!("{:.1}", s.mb_per_s())
            } else {
                "-".to_owned()
            };
            out += &format!(
                "{name:<14} {:>7} {:>12} {:>7} {:>9} {typed:>15} {hits:>10} {mbs:>9}\n",
                s.files, s.bytes, s.parsed, s.identical,
            );
        }
        let mbs = if self.seconds > 0.0 {
            self.bytes as f64 / self.seconds / 1e6
        } else {
            0.0
        };
        out += &format!(
            "total: {} files, {} bytes in {:.3} s ({mbs:.1} MB/s, {} thread(s)){}\n",
            self.files,
            self.bytes,
            self.seconds,
            self.threads,
            if self.interrupted {
                ", INTERRUPTED: partial report"
            } else {
                ""
            }
        );
        let mut section = |title: &str, lines: Vec<String>| {
            if !lines.is_empty() {
                out += &format!("\n{title}:\n");
                for l in lines {
                    out += &format!("  {l}\n");
                }
            }
        };
        let each = |f: &dyn Fn(&str, &FormatStats) -> Vec<String>| -> Vec<String> {
            self.formats.iter().flat_map(|(n, s)| f(n, s)).collect()
        };
        section(
            "round-trip failures",
            each(&|n, s| {
                s.failures
                    .iter()
                    .map(|(p, why)| format!("{n}: {p}: {why}"))
                    .collect()
            }),
        );
        section(
            "parts kept raw",
            each(&|n, s| {
                s.raw
                    .iter()
                    .map(|(part, k)| format!("{n}: {k} × {part}"))
                    .collect()
            }),
        );
        section(
            "errors",
            each(&|n, s| {
                s.errors
                    .iter()
                    .map(|(m, k)| format!("{n}: {k} × {m}"))
                    .collect()
            }),
        );
        section(
            "rule hits",
            each(&|n, s| {
                s.rules
                    .iter()
                    .map(|(rule, k)| {
                        let sev: Vec<&str> = s
                            .severities
                            .get(rule)
                            .map(|v| v.iter().map(String::as_str).collect())
                            .unwrap_or_default();
                        format!("{n}: {rule} ({}) × {k}", sev.join("/"))
                    })
                    .collect()
            }),
        );
        if facts {
            section(
                "facts",
                each(&|n, s| {
                    s.facts
                        .iter()
                        .map(|(f, k)| format!("{n}: {f}: {k}"))
                        .collect()
                }),
            );
        }
        section(
            "unreadable",
            self.unreadable
                .iter()
                .map(|(p, why)| format!("{p}: {why}"))
                .collect(),
        );
        out
    }
}

/// How a survey runs.
#[derive(Debug, Default)]
pub struct SurveyOptions {
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// Options passed to every format's validator.
    pub options: Options,
    /// Set from another thread (Ctrl-C) to stop early; the report then covers what was examined.
    pub stop: AtomicBool,
    /// Files and bytes handed to workers so far, for a progress display.
    pub progress: Progress,
}

/// Counters a progress display can poll while a survey runs.
#[derive(Debug, Default)]
pub struct Progress {
    /// Files examined so far.
    pub files: AtomicU64,
    /// Bytes examined so far.
    pub bytes: AtomicU64,
}

/// Every regular file under `path` (or `path` itself), sorted for a stable report. Symbolic links
/// to directories are not followed, so a link cycle cannot hang the walk.
pub fn files_under(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(p) = stack.pop() {
        let meta = std::fs::symlink_metadata(&p)?;
        if meta.is_dir() {
            for entry in std::fs::read_dir(&p)? {
                stack.push(entry?.path());
            }
        } else if meta.is_file() {
            files.push(p);
        }
    }
    files.sort();
    Ok(files)
}

/// One unit of work: a named file's bytes, or why it could not be read.
type Item = (String, std::io::Result<Vec<u8>>);

/// How many files may wait between the reader and the workers.
const QUEUE: usize = 4;

/// Surveys every file under `path`, descending into containers and disc images.
pub fn survey(path: &Path, so: &SurveyOptions) -> std::io::Result<Survey> {
    let start = Instant::now();
    let files = files_under(path)?;
    let threads = so
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let companions = crate::read_companions(&so.options).map_err(std::io::Error::other)?;
    let (tx, rx) = sync_channel::<Item>(QUEUE);
    let mut report = std::thread::scope(|s| {
        s.spawn(move || produce(&files, &tx, &so.stop));
        pool.install(|| {
            rx.into_iter()
                .par_bridge()
                .fold(Survey::default, |mut acc, (name, data)| {
                    let opts = gcformats::OpenOptions::named(&name).any();
                    match data.and_then(|d| {
                        let len = d.len() as u64;
                        gcformats::open_with(d, &opts)
                            .map(|f| (f, len))
                            .map_err(std::io::Error::other)
                    }) {
                        Ok((file, len)) => {
                            let mut found = Vec::new();
                            examine_with(&file, true, &so.options, &companions, &mut found);
                            for e in &found {
                                acc.add(e);
                            }
                            so.progress
                                .files
                                .fetch_add(found.len() as u64, Ordering::Relaxed);
                            so.progress.bytes.fetch_add(len, Ordering::Relaxed);
                        }
                        Err(e) => {
                            acc.unreadable.insert(name, e.to_string());
                        }
                    }
                    acc
                })
                .reduce(Survey::default, |mut a, b| {
                    a.merge(b);
                    a
                })
        })
    });
    report.path = path.display().to_string();
    report.threads = threads;
    report.interrupted = so.stop.load(Ordering::Relaxed);
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Reads the files one by one (disc images member by member) into the bounded queue.
fn produce(files: &[PathBuf], tx: &SyncSender<Item>, stop: &AtomicBool) {
    for file in files {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let name = file.display().to_string();
        #[cfg(feature = "disc")]
        if crate::disc::is_disc_image(file) {
            if let Err(e) = crate::disc::produce(file, &name, tx, stop) {
                let _ = tx.send((name, Err(e)));
            }
            continue;
        }
        if tx.send((name, std::fs::read(file))).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_up() {
        let e = Examined {
            path: "a".into(),
            format: "x",
            detail: None,
            bytes: 10,
            roundtrip: RoundTrip::Differs { offset: 4 },
            diagnostics: vec![gcio::Diagnostic::error("X-1", None, "bad")],
            error: None,
            facts: vec![("f".into(), 2)],
            seconds: 1.0,
        };
        let mut a = Survey::default();
        a.add(&e);
        let mut b = Survey::default();
        b.add(&Examined {
            path: "b".into(),
            roundtrip: RoundTrip::Identical,
            ..e.clone()
        });
        a.merge(b);
        let s = &a.formats["x"];
        assert_eq!(
            (s.files, s.parsed, s.identical, s.rule_errors, s.facts["f"]),
            (2, 2, 1, 2, 4)
        );
        assert_eq!(s.failures["a"], "differs at 0x4");
        assert!(!a.all_identical());
        assert!(a.has_errors());
        assert!(a.table().contains("x: a: differs at 0x4"));
    }
}
