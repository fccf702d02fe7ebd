//! The survey: examine every file under a path (descending into containers) and aggregate per
//! format — files, bytes, parsed, round-trip identical, errors by message, rule hits, time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::{Examined, Options, RoundTrip, examine};

/// Per-format totals.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct FormatStats {
    /// Files (and members) of this format.
    pub files: u64,
    /// Their total size.
    pub bytes: u64,
    /// Files that parsed (round trip did not error).
    pub parsed: u64,
    /// Files whose rewrite was byte-identical.
    pub identical: u64,
    /// Round-trip failures: path → first differing offset or error.
    pub failures: BTreeMap<String, String>,
    /// Error messages and how often they occurred.
    pub errors: BTreeMap<String, u64>,
    /// Validator rule ids and how often they fired.
    pub rules: BTreeMap<String, u64>,
    /// Seconds spent.
    pub seconds: f64,
}

/// The whole report; `--json` prints it as is (schema: `formats` keyed by format name, `files`
/// count, `bytes`, `seconds`).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Survey {
    /// Stats per detected format (including `unknown`).
    pub formats: BTreeMap<String, FormatStats>,
    /// Total files and members examined.
    pub files: u64,
    /// Total bytes examined.
    pub bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
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
            }
            RoundTrip::Differs { .. } => {
                s.parsed += 1;
                s.failures.insert(e.path.clone(), e.roundtrip.to_string());
            }
            RoundTrip::Error { message } => {
                *s.errors.entry(message.clone()).or_default() += 1;
                s.failures.insert(e.path.clone(), e.roundtrip.to_string());
            }
            RoundTrip::Unknown => {}
        }
        if let Some(err) = &e.error {
            *s.errors.entry(err.clone()).or_default() += 1;
        }
        for d in &e.diagnostics {
            *s.rules.entry(d.rule.clone()).or_default() += 1;
        }
    }

    /// True when every recognised file round-tripped identically.
    pub fn all_identical(&self) -> bool {
        self.formats
            .iter()
            .filter(|(k, _)| k.as_str() != crate::UNKNOWN)
            .all(|(_, s)| s.identical == s.files)
    }

    /// The terminal table.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{:<14} {:>7} {:>12} {:>7} {:>9} {:>10} {:>9}\n",
            "format", "files", "bytes", "parsed", "identical", "rule hits", "MB/s"
        );
        for (name, s) in &self.formats {
            let hits: u64 = s.rules.values().sum();
            let mbs = if s.seconds > 0.0 {
                s.bytes as f64 / s.seconds / 1e6
            } else {
                0.0
            };
            out += &format!(
                "{name:<14} {:>7} {:>12} {:>7} {:>9} {hits:>10} {mbs:>9.1}\n",
                s.files, s.bytes, s.parsed, s.identical
            );
        }
        out += &format!(
            "total: {} files, {} bytes in {:.3} s\n",
            self.files, self.bytes, self.seconds
        );
        for (name, s) in &self.formats {
            for (path, why) in &s.failures {
                out += &format!("{name}: {path}: {why}\n");
            }
            for (rule, n) in &s.rules {
                out += &format!("{name}: rule {rule} hit {n} time(s)\n");
            }
        }
        for (path, why) in &self.unreadable {
            out += &format!("unreadable: {path}: {why}\n");
        }
        out
    }
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

/// Surveys every file under `path`, descending into containers.
pub fn survey(path: &Path, opts: &Options) -> std::io::Result<(Survey, Vec<Examined>)> {
    let start = Instant::now();
    let mut report = Survey::default();
    let mut all = Vec::new();
    for file in files_under(path)? {
        let name = file.display().to_string();
        match std::fs::read(&file) {
            Ok(data) => {
                let mut found = Vec::new();
                examine(&name, &data, true, opts, &mut found);
                for e in &found {
                    report.add(e);
                }
                all.extend(found);
            }
            Err(e) => {
                report.unreadable.insert(name, e.to_string());
            }
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok((report, all))
}
