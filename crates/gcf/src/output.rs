//! The one place where `gcf` reads its inputs and writes its outputs, so every command follows
//! the same rules:
//!
//! - `-` is standard input (as an input) or standard output (as an output file).
//! - An output is written to a temporary file or folder next to it and renamed on success, so a
//!   failure never leaves a partial output; several files are all written before any is renamed.
//!   Missing parent folders are created (as `mkdir -p`); errors name the output, never the
//!   temporary.
//! - An existing output file, or a non-empty output folder, is refused unless `--force`; an output
//!   that is one of the inputs is always refused.
//! - A folder output (extract, a conversion to a folder) is filled while new and renamed into
//!   place: with `--force` it replaces the old folder whole, never mixing old files with new ones
//!   and never writing through a link inside it. A folder holding the working directory is never
//!   replaced.
//! - Packing reads regular files and folders only: symbolic links are refused unless
//!   `--follow-symlinks` (and then followed only to regular files and folders), devices, FIFOs
//!   and sockets are always refused, and the total size is capped ([`Policy::budget`]).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Default cap on the bytes `pack` reads from a folder, `extract` writes and one input may
/// expand to when examined (4 GiB; `--budget`).
pub const DEFAULT_BUDGET: u64 = 4 << 30;

/// How outputs are written and folders read.
#[derive(Debug, Clone)]
pub struct Policy {
    /// Replace an existing output / write into a non-empty folder.
    pub force: bool,
    /// Follow symbolic links when reading a folder to pack.
    pub follow_symlinks: bool,
    /// Byte cap for folders read and members written.
    pub budget: u64,
    /// The command's inputs: an output may not be one of them.
    pub inputs: Vec<PathBuf>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            force: false,
            follow_symlinks: false,
            budget: DEFAULT_BUDGET,
            inputs: Vec::new(),
        }
    }
}

/// True for the `-` path (standard input or output).
pub fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if is_std(path) {
        let mut v = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut v)
            .map_err(|e| format!("stdin: {e}"))?;
        return Ok(v);
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn err(path: &Path, e: impl std::fmt::Display) -> String {
    format!("{}: {e}", path.display())
}

/// A name for a temporary sibling of `path` that keeps its extension (formats choose what to
/// write by it): `dir/.gcf-tmp-PID-N-name.ext`.
fn temp_sibling(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_owned());
    path.with_file_name(format!(".gcf-tmp-{}-{n}-{name}", std::process::id()))
}

/// [`temp_sibling`] of `out`, after creating `out`'s missing parent folders.
fn temp_for(out: &Path) -> Result<PathBuf, String> {
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| err(parent, e))?;
    }
    Ok(temp_sibling(out))
}

/// Removes a file or a folder tree (never what a link inside points to).
fn remove_any(p: &Path) {
    match std::fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => {
            let _ = std::fs::remove_dir_all(p);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(p);
        }
        Err(_) => {}
    }
}

/// Whether the working directory is `dir` or inside it.
fn holds_working_dir(dir: &Path) -> bool {
    match (std::env::current_dir(), std::fs::canonicalize(dir)) {
        (Ok(cwd), Ok(d)) => std::fs::canonicalize(cwd).is_ok_and(|c| c.starts_with(d)),
        _ => true,
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// True when `dir` exists and has no entries (or cannot be listed: the caller reports that).
fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_none())
}

impl Policy {
    /// Checks that `out` may be written: not an input, not existing unless `--force` (an empty
    /// folder is fine for folder outputs).
    pub fn check_output(&self, out: &Path, folder: bool) -> Result<(), String> {
        if is_std(out) {
            return Ok(());
        }
        if let Some(i) = self.inputs.iter().find(|i| same_file(i, out)) {
            return Err(format!(
                "{}: is the input {} (refusing to overwrite it)",
                out.display(),
                i.display()
            ));
        }
        let Ok(meta) = std::fs::symlink_metadata(out) else {
            return Ok(());
        };
        if self.force {
            return Ok(());
        }
        if folder && meta.is_dir() {
            if is_empty_dir(out) {
                return Ok(());
            }
            return Err(format!(
                "{}: folder is not empty (use --force to write into it)",
                out.display()
            ));
        }
        Err(format!(
            "{}: already exists (use --force to replace it)",
            out.display()
        ))
    }

    /// Writes `bytes` to `out` (standard output for `-`) through a temporary file and a rename.
    pub fn write_file(&self, out: &Path, bytes: &[u8]) -> Result<(), String> {
        if is_std(out) {
            self.check_output(out, false)?;
            let mut o = std::io::stdout().lock();
            return o
                .write_all(bytes)
                .and_then(|()| o.flush())
                .map_err(|e| format!("stdout: {e}"));
        }
        self.write_files(&[(out.to_path_buf(), bytes)])
    }

    /// Writes several files as one output: every target is checked and every file written to a
    /// temporary sibling before the first rename, so a failure leaves none of them.
    pub fn write_files(&self, files: &[(PathBuf, &[u8])]) -> Result<(), String> {
        for (out, _) in files {
            self.check_output(out, false)?;
        }
        let mut temps = Vec::with_capacity(files.len());
        let written = files.iter().try_for_each(|(out, bytes)| {
            let tmp = temp_for(out)?;
            temps.push(tmp.clone());
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
                .map_err(|e| err(out, e))?;
            f.write_all(bytes)
                .and_then(|()| f.sync_all())
                .map_err(|e| err(out, e))
        });
        let renamed = written.and_then(|()| {
            files
                .iter()
                .zip(&temps)
                .try_for_each(|((out, _), tmp)| std::fs::rename(tmp, out).map_err(|e| err(out, e)))
        });
        if renamed.is_err() {
            for t in &temps {
                let _ = std::fs::remove_file(t);
            }
        }
        renamed
    }

    /// Runs `make` on a temporary sibling of `out` (same extension; `make` may create a file or a
    /// folder there) and renames it to `out` on success; on failure the temporary is removed and
    /// `out` is untouched.
    pub fn with_temp<T>(
        &self,
        out: &Path,
        make: impl FnOnce(&Path) -> Result<T, String>,
    ) -> Result<T, String> {
        self.check_output(out, true)?;
        let tmp = temp_for(out)?;
        let value = match make(&tmp) {
            Ok(v) => v,
            Err(e) => {
                remove_any(&tmp);
                return Err(e);
            }
        };
        self.put_in_place(&tmp, out)?;
        Ok(value)
    }

    /// Moves the finished temporary `tmp` to `out`: a file or folder already there (an empty
    /// folder, or anything with `--force`) is replaced whole, and restored if the move fails.
    fn put_in_place(&self, tmp: &Path, out: &Path) -> Result<(), String> {
        let fail = |e: String| {
            remove_any(tmp);
            Err(e)
        };
        let Ok(meta) = std::fs::symlink_metadata(out) else {
            return std::fs::rename(tmp, out).or_else(|e| fail(err(out, e)));
        };
        if meta.is_dir() && holds_working_dir(out) {
            return fail(err(
                out,
                "holds the working directory (refusing to replace it; choose another folder)",
            ));
        }
        if !meta.is_dir() && !tmp.is_dir() {
            // A file replaced by a file: rename does it atomically.
            return std::fs::rename(tmp, out).or_else(|e| fail(err(out, e)));
        }
        let old = temp_sibling(out);
        if let Err(e) = std::fs::rename(out, &old) {
            return fail(err(out, e));
        }
        if let Err(e) = std::fs::rename(tmp, out) {
            let _ = std::fs::rename(&old, out);
            return fail(err(out, e));
        }
        remove_any(&old);
        Ok(())
    }

    /// Fills a folder: `fill` writes into a fresh temporary folder next to `dir`, which then
    /// becomes `dir` (absent or empty) or, with `--force`, replaces it whole.
    pub fn write_folder<T>(
        &self,
        dir: &Path,
        fill: impl FnOnce(&Path) -> Result<T, String>,
    ) -> Result<T, String> {
        if is_std(dir) {
            return Err("-: an archive extracts to a folder, not to standard output".to_owned());
        }
        self.check_output(dir, true)?;
        if std::fs::symlink_metadata(dir).is_ok_and(|m| !m.is_dir()) {
            return Err(format!("{}: exists and is not a folder", dir.display()));
        }
        let tmp = temp_for(dir)?;
        std::fs::create_dir(&tmp).map_err(|e| err(dir, e))?;
        let value = match fill(&tmp) {
            Ok(v) => v,
            Err(e) => {
                remove_any(&tmp);
                return Err(e);
            }
        };
        self.put_in_place(&tmp, dir)?;
        Ok(value)
    }

    /// Reads every regular file under `dir` (except `skip` at its top) as folder-relative
    /// `/`-separated paths, plus every folder.
    pub fn read_folder(&self, dir: &Path, skip: &str) -> Result<Folder, String> {
        let mut f = Folder::default();
        let mut total = 0u64;
        self.read_into(dir, "", skip, 0, &mut f, &mut total)?;
        Ok(f)
    }

    fn read_into(
        &self,
        dir: &Path,
        rel: &str,
        skip: &str,
        depth: u32,
        out: &mut Folder,
        total: &mut u64,
    ) -> Result<(), String> {
        if depth > 64 {
            return Err(err(dir, "folders nested more than 64 deep"));
        }
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| err(dir, e))?
            .collect::<Result<_, _>>()
            .map_err(|e| err(dir, e))?;
        names.sort_by_key(|e| e.file_name());
        for e in names {
            let path = e.path();
            let name = e
                .file_name()
                .into_string()
                .map_err(|n| err(&path, format!("name {n:?} is not UTF-8")))?;
            if rel.is_empty() && name == skip {
                continue;
            }
            let rel_path = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let mut meta = std::fs::symlink_metadata(&path).map_err(|e| err(&path, e))?;
            if meta.file_type().is_symlink() {
                if !self.follow_symlinks {
                    return Err(err(
                        &path,
                        "is a symbolic link (refused; --follow-symlinks packs what it points to)",
                    ));
                }
                meta = std::fs::metadata(&path).map_err(|e| err(&path, e))?;
            }
            if meta.is_dir() {
                out.dirs.push(rel_path.clone());
                self.read_into(&path, &rel_path, skip, depth + 1, out, total)?;
            } else if meta.is_file() {
                *total += meta.len();
                if *total > self.budget {
                    return Err(err(
                        &path,
                        format!("folder holds more than {} bytes (the limit)", self.budget),
                    ));
                }
                // Read at most what the metadata promised (+1 to notice growth).
                let mut data = Vec::with_capacity(meta.len() as usize);
                std::fs::File::open(&path)
                    .and_then(|f| f.take(meta.len() + 1).read_to_end(&mut data))
                    .map_err(|e| err(&path, e))?;
                if data.len() as u64 != meta.len() {
                    return Err(err(&path, "changed size while being read"));
                }
                out.files.insert(rel_path, data);
            } else {
                return Err(err(
                    &path,
                    "is not a regular file or folder (devices, FIFOs and sockets are refused)",
                ));
            }
        }
        Ok(())
    }
}

/// A folder read into memory (the library's, which packs it).
pub use gcformats::archive::Folder;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gcf-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn refuses_overwrite_and_input_and_leaves_nothing_on_failure() {
        let d = scratch("refuse");
        let out = d.join("a.bin");
        let p = Policy::default();
        p.write_file(&out, b"1").unwrap();
        assert!(p.write_file(&out, b"2").unwrap_err().contains("--force"));
        let forced = Policy {
            force: true,
            inputs: vec![out.clone()],
            ..Policy::default()
        };
        assert!(forced.write_file(&out, b"2").unwrap_err().contains("input"));
        let forced = Policy {
            force: true,
            ..Policy::default()
        };
        forced.write_file(&out, b"2").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"2");
        // Missing folders are created; errors name the output, not the temporary.
        p.write_file(&d.join("new/deeper/c.bin"), b"3").unwrap();
        assert_eq!(std::fs::read(d.join("new/deeper/c.bin")).unwrap(), b"3");
        std::fs::remove_dir_all(d.join("new")).unwrap();
        let r: Result<(), String> = p.with_temp(&d.join("b.bin"), |t| {
            std::fs::write(t, b"partial").unwrap();
            Err("failed".into())
        });
        assert!(r.is_err());
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn forced_folder_is_replaced_whole_never_written_through() {
        let d = scratch("links");
        let outside = d.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("victim"), b"keep").unwrap();
        let target = d.join("target");
        std::fs::create_dir_all(&target).unwrap();
        std::fs::write(target.join("old-member"), b"old").unwrap();
        std::os::unix::fs::symlink(outside.join("victim"), target.join("member")).unwrap();
        std::os::unix::fs::symlink(&outside, target.join("sub")).unwrap();
        let e = Policy::default()
            .write_folder(&target, |_| Ok(()))
            .unwrap_err();
        assert!(e.contains("--force"), "{e}");
        let force = Policy {
            force: true,
            ..Policy::default()
        };
        // A failed fill leaves the old folder as it was.
        let e = force
            .write_folder(&target, |t| {
                std::fs::write(t.join("member"), b"half").unwrap();
                Err::<(), _>("failed".to_owned())
            })
            .unwrap_err();
        assert_eq!(e, "failed");
        assert_eq!(std::fs::read(target.join("old-member")).unwrap(), b"old");
        force
            .write_folder(&target, |t| {
                std::fs::create_dir(t.join("sub")).unwrap();
                std::fs::write(t.join("sub/victim"), b"new").unwrap();
                std::fs::write(t.join("member"), b"new").map_err(|e| e.to_string())
            })
            .unwrap();
        assert_eq!(std::fs::read(outside.join("victim")).unwrap(), b"keep");
        assert_eq!(std::fs::read(target.join("member")).unwrap(), b"new");
        assert!(
            !target.join("old-member").exists(),
            "old files are not mixed in"
        );
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            2,
            "no temporary left"
        );
        std::os::unix::fs::symlink(&outside, target.join("sub2")).unwrap();
        // Reading for pack: links refused unless asked for.
        let e = Policy::default().read_folder(&target, "").unwrap_err();
        assert!(e.contains("symbolic link"), "{e}");
        let follow = Policy {
            follow_symlinks: true,
            ..Policy::default()
        };
        assert!(follow.read_folder(&target, "").is_ok());
        let _ = std::fs::remove_dir_all(&d);
    }
}
