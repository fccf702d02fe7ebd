//! Where tests and benches find the shared sample files (`../shared/corpus` beside the checkout),
//! and a record of which corpus-dependent checks ran.
//!
//! Game files are never committed, so corpus checks skip when the folder is absent. A skip must not
//! be silent: when `GCF_CORPUS_LOG` names a file, every lookup appends `ran` or `skipped` with the
//! folder and the caller to it, and `cargo xtask ci` prints that record and fails when the corpus
//! exists but a check skipped.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Environment variable naming the log file lookups append to.
pub const LOG_VAR: &str = "GCF_CORPUS_LOG";

/// The folder `sub` of the shared corpus (e.g. `"real/hsd"`, `"rarc"`), found from `manifest_dir`
/// (pass `env!("CARGO_MANIFEST_DIR")`) by looking for `shared/corpus` beside each of its ancestors;
/// `None` when absent. `who` names the check in the log (e.g. `"hsd-dat corpus"`).
pub fn dir(manifest_dir: &str, sub: &str, who: &str) -> Option<PathBuf> {
    let found = find(manifest_dir, sub);
    log(if found.is_some() { "ran" } else { "skipped" }, sub, who);
    if found.is_none() {
        eprintln!("{who}: skipped, shared/corpus/{sub} is absent");
    }
    found
}

/// Every file under `dir`, recursively, in sorted path order (unreadable folders are skipped), so
/// corpus checks walk the same files in the same order everywhere.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for p in std::fs::read_dir(&d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
        {
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `(file, member path, bytes)` of every member of every container file under `dir`, in sorted
/// file order: `unpack` lists a file's members (e.g. `rarc::layer::members`), `None` for a file
/// that is no container; unreadable files are skipped.
pub fn members(
    dir: &Path,
    unpack: impl Fn(&[u8]) -> Option<Vec<(String, Vec<u8>)>>,
) -> Vec<(String, String, Vec<u8>)> {
    let mut out = Vec::new();
    for p in files(dir) {
        let Ok(bytes) = std::fs::read(&p) else {
            continue;
        };
        for (m, data) in unpack(&bytes).unwrap_or_default() {
            out.push((p.display().to_string(), m, data));
        }
    }
    out
}

/// The lookup of [`dir`] without the log.
fn find(manifest_dir: &str, sub: &str) -> Option<PathBuf> {
    Path::new(manifest_dir)
        .ancestors()
        .map(|a| a.join("shared/corpus").join(sub))
        .find(|p| p.is_dir())
}

fn log(what: &str, sub: &str, who: &str) {
    let Some(path) = std::env::var_os(LOG_VAR) else {
        return;
    };
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        // One short line per write, so concurrent test binaries do not interleave within a line.
        let _ = f.write_all(format!("{what}\t{sub}\t{who}\n").as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_folder_is_none() {
        assert_eq!(
            find(env!("CARGO_MANIFEST_DIR"), "no/such/folder/here"),
            None
        );
    }
}
