//! `rarc`: RARC archives. `info` prints the tree, `members` and `extract` give decompressed
//! members by path, `pack` builds retail-layout archives (optionally Yaz0-compressed).
//!
//! `extract` also writes [`MANIFEST`], which records the entry order, attributes, IDs and the
//! sync flag, so `pack` of an extracted directory rebuilds a retail-layout archive byte for byte
//! (members stored compressed are compressed again with the Nintendo encoder).

use std::path::Path;

use gcio::{Error, ErrorKind, Limits, Result};
use rarc::{Archive, Attr, Dir, Item, PackOptions};

use crate::{Detection, Format, Info, Member, Options, extension, io_error};

/// The RARC format.
pub struct Rarc;

/// File `extract` writes next to the members and `pack` reads back.
pub const MANIFEST: &str = ".gcf-rarc.txt";

fn invalid(msg: String) -> Error {
    Error::without_offset(ErrorKind::Invalid(msg))
}

impl Format for Rarc {
    fn name(&self) -> &'static str {
        "rarc"
    }

    fn detect(&self, data: &[u8], _path: &str) -> Option<Detection> {
        rarc::is_rarc(data).then(|| Detection::new("rarc"))
    }

    fn info(&self, data: &[u8]) -> Result<Info> {
        let v = rarc::parse(data)?;
        let (dirs, files) = v.walk()?;
        let mut text = format!(
            "nodes: {}, entries: {}, files: {}, data: {:#x} bytes (MRAM {:#x}, ARAM {:#x}, DVD {:#x})\nsync IDs: {}, next free ID: {}\n",
            v.nodes.len(),
            v.entries.len(),
            files.len(),
            v.header.data_len.get(),
            v.header.mram_size.get(),
            v.header.aram_size.get(),
            v.header.dvd_size.get(),
            v.info.sync_ids,
            v.info.next_id.get(),
        );
        let mut rows = Vec::new();
        // Interleave: each directory, then its files (walk order is depth first for both).
        for d in &dirs {
            text.push_str(&format!(
                "{}{}/  [node {}]\n",
                "  ".repeat(d.depth as usize),
                String::from_utf8_lossy(d.name),
                d.node
            ));
            for f in files.iter().filter(|f| parent(&f.path) == d.path) {
                let e = &f.entry;
                text.push_str(&format!(
                    "{}{}  {} bytes  {}  id {}\n",
                    "  ".repeat(d.depth as usize + 1),
                    String::from_utf8_lossy(e.name),
                    e.size,
                    e.attr.names(),
                    e.id
                ));
                rows.push(serde_json::json!({
                    "path": f.path, "entry_index": e.index, "file_id": e.id,
                    "attr": e.attr.bits(), "attr_names": e.attr.names(),
                    "data_offset": e.data, "size": e.size,
                }));
            }
        }
        let json = serde_json::json!({
            "node_count": v.nodes.len(),
            "entry_count": v.entries.len(),
            "file_count": files.len(),
            "sync_file_ids": v.info.sync_ids,
            "next_file_id": v.info.next_id.get(),
            "folders": dirs.iter().map(|d| serde_json::json!({"path": d.path, "node_index": d.node})).collect::<Vec<_>>(),
            "members": rows,
        });
        Ok(Info { text, json })
    }

    /// Survey facts: the sync-ID flag (SMG archives keep it off), member load attributes and
    /// compression, and whether names are all lower-case (the SMG1 convention).
    fn facts(&self, data: &[u8]) -> Vec<(String, u64)> {
        let Ok(v) = rarc::parse(data) else {
            return Vec::new();
        };
        let mut facts = vec![(format!("sync-id flag={}", v.info.sync_ids), 1)];
        if let Ok((_, files)) = v.walk() {
            let lower = files
                .iter()
                .all(|f| !f.path.bytes().any(|b| b.is_ascii_uppercase()));
            facts.push((format!("names all lower-case={lower}"), 1));
            for f in &files {
                facts.push((format!("member attributes {:?}", f.entry.attr), 1));
            }
        }
        facts
    }

    fn roundtrip(&self, data: &[u8]) -> Result<Vec<u8>> {
        Archive::parse(data)?.write()
    }

    fn check(&self, data: &[u8], _opts: &Options) -> Result<Vec<gcio::Diagnostic>> {
        Ok(rarc::validate(data, Limits::default()))
    }

    /// Every member, decompressed. The decompressed total is bounded by the allocation limit:
    /// members may share one compressed payload, so per-member limits alone would not stop an
    /// archive that expands the same stream thousands of times.
    fn members(&self, data: &[u8]) -> Result<Vec<Member>> {
        let limits = Limits::default();
        let v = rarc::parse(data)?;
        let (_, files) = v.walk()?;
        let mut total = 0u64;
        let mut out = Vec::with_capacity(files.len());
        for f in files {
            let bytes = v.decompressed(&f.entry)?.into_owned();
            total += bytes.len() as u64;
            limits.check_alloc(total, 1, u64::from(f.entry.data))?;
            out.push(Member {
                data: bytes,
                name: f.path,
            });
        }
        Ok(out)
    }

    fn extract(&self, data: &[u8], dir: &Path) -> Option<Result<usize>> {
        Some(extract(data, dir))
    }

    fn pack(&self, dir: &Path, out: &Path, opts: &Options) -> Option<Result<Vec<u8>>> {
        let ext = extension(out);
        if !matches!(ext.as_str(), "arc" | "rarc" | "szs") {
            return None;
        }
        Some(pack(dir, opts).and_then(|a| {
            let bytes = a.write()?;
            if ext == "szs" {
                Ok(yaz0::encode(&bytes, super::yaz0::encoder(opts)?))
            } else {
                Ok(bytes)
            }
        }))
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        rarc::pack(&rarc::sample_tree(), PackOptions::default())
            .write()
            .map(|b| vec![("stage.arc".to_owned(), b)])
            .unwrap_or_default()
    }
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(p, _)| p)
}

/// A member path safe to join under the output directory (no absolute parts, no `..`).
fn safe_join(dir: &Path, path: &str) -> Result<std::path::PathBuf> {
    let mut out = dir.to_path_buf();
    for part in path.split('/') {
        if part.is_empty() || part == "." || part == ".." || part.contains('\\') {
            return Err(invalid(format!("unsafe member path {path:?}")));
        }
        out.push(part);
    }
    Ok(out)
}

fn extract(data: &[u8], dir: &Path) -> Result<usize> {
    let archive = Archive::parse(data)?;
    let v = rarc::parse(data)?;
    let (dirs, files) = v.walk()?;
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let root = archive
        .nodes
        .first()
        .map(|n| n.name.clone())
        .unwrap_or_default();
    let mut manifest = format!(
        "root\t{}\nsync\t{}\n",
        String::from_utf8_lossy(&root),
        archive.sync_ids
    );
    for d in dirs.iter().skip(1) {
        let p = safe_join(dir, &d.path)?;
        std::fs::create_dir_all(&p).map_err(|e| io_error(&p, e))?;
    }
    // Manifest rows in entry order (DFS pre-order of the tree, children in stored order).
    let mut rows = Vec::new();
    let tree = rarc::tree(&archive)?;
    fn walk(d: &Dir, prefix: &str, rows: &mut Vec<String>) {
        for c in &d.children {
            match c {
                Item::Dir(sub) => {
                    let p = join(prefix, &sub.name);
                    rows.push(format!("d\t{p}"));
                    walk(sub, &p, rows);
                }
                Item::File { name, attr, id, .. } => rows.push(format!(
                    "f\t{}\t{:#04x}\t{}",
                    join(prefix, name),
                    attr.map_or(0, |a| a.bits()),
                    id.unwrap_or(0)
                )),
            }
        }
    }
    walk(&tree, "", &mut rows);
    for r in rows {
        manifest.push_str(&r);
        manifest.push('\n');
    }
    for f in &files {
        let p = safe_join(dir, &f.path)?;
        let bytes = v.decompressed(&f.entry)?;
        std::fs::write(&p, bytes.as_ref()).map_err(|e| io_error(&p, e))?;
    }
    let m = dir.join(MANIFEST);
    std::fs::write(&m, manifest).map_err(|e| io_error(&m, e))?;
    Ok(files.len())
}

fn join(prefix: &str, name: &[u8]) -> String {
    let n = String::from_utf8_lossy(name);
    if prefix.is_empty() {
        n.into_owned()
    } else {
        format!("{prefix}/{n}")
    }
}

fn read_file(p: &Path) -> Result<Vec<u8>> {
    std::fs::read(p).map_err(|e| io_error(p, e))
}

/// Stored bytes for a file read from disk: members flagged compressed are compressed again.
fn stored(data: Vec<u8>, attr: Attr) -> Vec<u8> {
    if attr.contains(Attr::COMPRESSED) && !yaz0::is_yaz0(&data) && !yaz0::yay0::is_yay0(&data) {
        let enc = yaz0::Encoder::Matching(yaz0::Matching::Nintendo);
        if attr.contains(Attr::YAZ0) {
            return yaz0::encode(&data, enc);
        }
        return yaz0::yay0::Stream::encode(&data, enc).write();
    }
    data
}

fn pack(dir: &Path, opts: &Options) -> Result<Archive> {
    let flag = |k: &str| opts.get(k).is_some_and(|v| v != "false" && v != "0");
    let mut popts = PackOptions {
        lowercase: flag("lowercase"),
        sync_ids: flag("sync-ids"),
    };
    let manifest = dir.join(MANIFEST);
    let root = if manifest.is_file() {
        let text = std::fs::read_to_string(&manifest).map_err(|e| io_error(&manifest, e))?;
        from_manifest(dir, &text, &mut popts)?
    } else {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "root".to_owned());
        Dir {
            name: name.into_bytes(),
            children: scan(dir, 0)?,
        }
    };
    Ok(rarc::pack(&root, popts))
}

fn from_manifest(dir: &Path, text: &str, popts: &mut PackOptions) -> Result<Dir> {
    let mut root = Dir::default();
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        match cols.as_slice() {
            ["root", name] => root.name = name.as_bytes().to_vec(),
            ["sync", v] => popts.sync_ids |= *v == "1",
            ["d", path] => {
                let (parent, name) = split(path);
                let d = find_dir(&mut root, parent)?;
                d.children.push(Item::Dir(Dir {
                    name: name.as_bytes().to_vec(),
                    children: Vec::new(),
                }));
            }
            ["f", path, attr, id] => {
                let attr = u8::from_str_radix(attr.trim_start_matches("0x"), 16)
                    .map_err(|e| invalid(format!("{MANIFEST}: attribute {attr:?}: {e}")))?;
                let attr = Attr::from_bits_retain(attr);
                let id: u16 = id
                    .parse()
                    .map_err(|e| invalid(format!("{MANIFEST}: ID {id:?}: {e}")))?;
                let data = stored(read_file(&safe_join(dir, path)?)?, attr);
                let (parent, name) = split(path);
                find_dir(&mut root, parent)?.children.push(Item::File {
                    name: name.as_bytes().to_vec(),
                    attr: Some(attr),
                    data,
                    id: Some(id),
                });
            }
            [""] | [] => {}
            _ => return Err(invalid(format!("{MANIFEST}: unreadable line {line:?}"))),
        }
    }
    Ok(root)
}

fn split(path: &str) -> (&str, &str) {
    path.rsplit_once('/').unwrap_or(("", path))
}

fn find_dir<'d>(root: &'d mut Dir, path: &str) -> Result<&'d mut Dir> {
    let mut d = root;
    for part in path.split('/').filter(|p| !p.is_empty()) {
        let next = d.children.iter_mut().find_map(|c| match c {
            Item::Dir(s) if s.name == part.as_bytes() => Some(s),
            _ => None,
        });
        d = next.ok_or_else(|| {
            invalid(format!(
                "{MANIFEST}: folder {path:?} listed after its files"
            ))
        })?;
    }
    Ok(d)
}

/// Reads a directory without a manifest: entries sorted by name, default attributes.
fn scan(dir: &Path, depth: u32) -> Result<Vec<Item>> {
    Limits::default().check_depth(depth, 0)?;
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| io_error(dir, e))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name() != MANIFEST)
        .collect();
    names.sort_by_key(|e| e.file_name());
    let mut out = Vec::with_capacity(names.len());
    for e in names {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned().into_bytes();
        if p.is_dir() {
            out.push(Item::Dir(Dir {
                name,
                children: scan(&p, depth + 1)?,
            }));
        } else {
            out.push(Item::File {
                name,
                attr: None,
                data: read_file(&p)?,
                id: None,
            });
        }
    }
    Ok(out)
}
