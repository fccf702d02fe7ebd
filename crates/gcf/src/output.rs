//! The one place where `gcf` reads its inputs and writes its outputs, so every command follows
//! the same rules:
//!
//! - `-` is standard input (as an input) or standard output (as an output file).
//! - An output is written to a temporary file or folder next to it and renamed on success, so a
//!   failure never leaves a partial output.
//! - An existing output file, or a non-empty output folder, is refused unless `--force`; an output
//!   that is one of the inputs is always refused.
//! - Extracting never follows a symbolic link inside the target folder and never writes outside
//!   it: members are written into a fresh folder and moved into place one by one, replacing links
//!   (not their targets) and refusing linked sub-folders.
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
        self.check_output(out, false)?;
        if is_std(out) {
            let mut o = std::io::stdout().lock();
            return o
                .write_all(bytes)
                .and_then(|()| o.flush())
                .map_err(|e| format!("stdout: {e}"));
        }
        self.with_temp(out, |tmp| {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(tmp)
                .map_err(|e| err(tmp, e))?;
            f.write_all(bytes)
                .and_then(|()| f.sync_all())
                .map_err(|e| err(tmp, e))
        })
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
        let tmp = temp_sibling(out);
        let cleanup = |p: &Path| {
            if p.is_dir() {
                let _ = std::fs::remove_dir_all(p);
            } else {
                let _ = std::fs::remove_file(p);
            }
        };
        let value = match make(&tmp) {
            Ok(v) => v,
            Err(e) => {
                cleanup(&tmp);
                return Err(e);
            }
        };
        // A folder output replacing an existing empty folder (or, with --force, anything).
        if let Ok(meta) = std::fs::symlink_metadata(out) {
            let removed = if meta.is_dir() {
                if self.force {
                    std::fs::remove_dir_all(out)
                } else {
                    std::fs::remove_dir(out)
                }
            } else if tmp.is_dir() {
                std::fs::remove_file(out)
            } else {
                Ok(())
            };
            if let Err(e) = removed {
                cleanup(&tmp);
                return Err(err(out, e));
            }
        }
        std::fs::rename(&tmp, out).map_err(|e| {
            cleanup(&tmp);
            err(out, e)
        })?;
        Ok(value)
    }

    /// Fills a folder: `fill` writes into a fresh temporary folder next to `dir`, which then
    /// becomes `dir` (absent or empty) or, with `--force`, is merged into it file by file without
    /// following any link inside `dir`.
    pub fn write_folder<T>(
        &self,
        dir: &Path,
        fill: impl FnOnce(&Path) -> Result<T, String>,
    ) -> Result<T, String> {
        self.check_output(dir, true)?;
        if is_std(dir) {
            return Err("-: an archive extracts to a folder, not to standard output".to_owned());
        }
        let exists = std::fs::symlink_metadata(dir).is_ok();
        if !exists || is_empty_dir(dir) {
            let merge_into_empty = exists;
            let tmp = temp_sibling(dir);
            std::fs::create_dir(&tmp).map_err(|e| err(&tmp, e))?;
            let v = match fill(&tmp) {
                Ok(v) => v,
                Err(e) => {
                    let _ = std::fs::remove_dir_all(&tmp);
                    return Err(e);
                }
            };
            if merge_into_empty {
                std::fs::remove_dir(dir).map_err(|e| err(dir, e))?;
            }
            std::fs::rename(&tmp, dir).map_err(|e| {
                let _ = std::fs::remove_dir_all(&tmp);
                err(dir, e)
            })?;
            return Ok(v);
        }
        let meta = std::fs::symlink_metadata(dir).map_err(|e| err(dir, e))?;
        if !meta.is_dir() {
            return Err(format!("{}: exists and is not a folder", dir.display()));
        }
        let tmp = temp_sibling(dir);
        std::fs::create_dir(&tmp).map_err(|e| err(&tmp, e))?;
        let result = fill(&tmp).and_then(|v| merge(&tmp, dir, Path::new("")).map(|()| v));
        let _ = std::fs::remove_dir_all(&tmp);
        result
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

/// Moves everything under `from` into `to` (`rel` below both): files replace files or links of
/// the same name (the link itself, never its target); a sub-folder must be a real folder.
fn merge(from: &Path, to: &Path, rel: &Path) -> Result<(), String> {
    let src = from.join(rel);
    let mut entries: Vec<_> = std::fs::read_dir(&src)
        .map_err(|e| err(&src, e))?
        .collect::<Result<_, _>>()
        .map_err(|e| err(&src, e))?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let r = rel.join(e.file_name());
        let s = from.join(&r);
        let d = to.join(&r);
        let is_dir = e.file_type().map_err(|x| err(&s, x))?.is_dir();
        match std::fs::symlink_metadata(&d) {
            Ok(m) if m.file_type().is_symlink() && is_dir => {
                return Err(err(
                    &d,
                    "is a symbolic link in the target folder (refusing to write through it)",
                ));
            }
            Ok(m) if is_dir && m.is_dir() => {}
            Ok(m) if is_dir || m.is_dir() => {
                return Err(err(&d, "exists as a different kind (file vs folder)"));
            }
            _ if is_dir => std::fs::create_dir(&d).map_err(|x| err(&d, x))?,
            _ => {}
        }
        if is_dir {
            merge(from, to, &r)?;
        } else {
            // rename replaces a file or a link named `d` itself, never what a link points to.
            std::fs::rename(&s, &d).map_err(|x| err(&d, x))?;
        }
    }
    Ok(())
}

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
    fn merge_never_writes_through_links() {
        let d = scratch("links");
        let outside = d.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("victim"), b"keep").unwrap();
        let target = d.join("target");
        std::fs::create_dir_all(&target).unwrap();
        std::os::unix::fs::symlink(outside.join("victim"), target.join("member")).unwrap();
        let force = Policy {
            force: true,
            ..Policy::default()
        };
        force
            .write_folder(&target, |t| {
                std::fs::write(t.join("member"), b"new").map_err(|e| e.to_string())
            })
            .unwrap();
        assert_eq!(std::fs::read(outside.join("victim")).unwrap(), b"keep");
        assert_eq!(std::fs::read(target.join("member")).unwrap(), b"new");
        std::os::unix::fs::symlink(&outside, target.join("sub")).unwrap();
        let e = force
            .write_folder(&target, |t| {
                std::fs::create_dir(t.join("sub")).unwrap();
                std::fs::write(t.join("sub/victim"), b"new").map_err(|e| e.to_string())
            })
            .unwrap_err();
        assert!(e.contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read(outside.join("victim")).unwrap(), b"keep");
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
