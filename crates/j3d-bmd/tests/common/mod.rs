//! Real J3D files under `../shared/corpus/real` (when present): the top-level models and
//! textures, and every member of the Yaz0-compressed RARC archives.

use std::path::{Path, PathBuf};

/// The real corpus folder, if this checkout has one.
pub fn real_root() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/real");
    p.is_dir().then_some(p)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut v: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every file of the real corpus (archive members flattened, Yaz0 decoded) as (name, bytes).
pub fn real_files() -> Vec<(String, Vec<u8>)> {
    let Some(root) = real_root() else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    let mut out = Vec::new();
    for p in paths {
        let Ok(data) = std::fs::read(&p) else {
            continue;
        };
        let name = p.strip_prefix(&root).unwrap_or(&p).display().to_string();
        push(name, data, &mut out, 0);
    }
    out
}

fn push(name: String, data: Vec<u8>, out: &mut Vec<(String, Vec<u8>)>, depth: u32) {
    if depth > 4 {
        return;
    }
    if yaz0::is_yaz0(&data) {
        if let Ok(d) = yaz0::decode(&data) {
            push(name, d, out, depth + 1);
        }
        return;
    }
    if rarc::is_rarc(&data) {
        let Ok(a) = rarc::Archive::parse(&data) else {
            return;
        };
        let Ok(files) = a.files() else {
            return;
        };
        for (path, entry) in files {
            if let Some(d) = a.file_data(entry) {
                push(format!("{name}/{path}"), d.to_vec(), out, depth + 1);
            }
        }
        return;
    }
    out.push((name, data));
}

/// The real J3D models (BMD/BDL/BMT).
pub fn real_models() -> Vec<(String, Vec<u8>)> {
    real_files()
        .into_iter()
        .filter(|(_, d)| d.starts_with(b"J3D2"))
        .collect()
}
