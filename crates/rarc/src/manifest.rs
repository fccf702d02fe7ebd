//! The extract manifest: a human-readable text file (`.gcf-rarc.txt`, format in
//! `docs/RARC-MANIFEST.md`) holding every layout fact of an [`Archive`] except the member bytes,
//! so that [`unpack`] + [`pack`] reproduce the original archive byte for byte — compression
//! layers included — and an edited member changes only its own bytes and what derives from them
//! (offsets after it, sizes, padding).
//!
//! Both functions work on memory (paths ↔ bytes), so the caller decides how folders are read and
//! written.
//!
//! ```
//! use std::collections::BTreeMap;
//! let bytes = rarc::pack(&rarc::sample_tree(), rarc::PackOptions::default()).write().unwrap();
//! let u = rarc::manifest::unpack(&bytes).unwrap();
//! let files: BTreeMap<String, Vec<u8>> = u.files.into_iter().collect();
//! let p = rarc::manifest::pack(&u.manifest, files, &u.dirs).unwrap();
//! assert_eq!(p.bytes(), bytes);
//! ```

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use gcio::{Error, Limits, Result};

use crate::attr::{Attr, name_hash};
use crate::layer::{Layer, hex, peel_all_keeping, sum, token_file, unhex, wrap_all};
use crate::model::{Archive, Entry, Gap, Node, Region, Target};
pub use crate::name::{name_bytes, name_text};
use crate::pack::{Dir, Item, PackOptions, default_attr};
use crate::view::NODES_AT;

/// The manifest's file name inside an extracted folder.
pub const MANIFEST: &str = ".gcf-rarc.txt";

/// First non-comment line: format name and version.
const HEADER: &str = "gcf-rarc-manifest\t1";

/// How many compression layers [`unpack`] peels around an archive.
pub const MAX_LAYERS: usize = 4;

/// An archive taken apart: the manifest text and the files of the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpacked {
    /// The manifest (write it as [`MANIFEST`] at the folder's top).
    pub manifest: String,
    /// Folders to create, `/`-separated, parents first.
    pub dirs: Vec<String>,
    /// Files as (folder-relative path, bytes): members decompressed when their compression can be
    /// reproduced, else as stored.
    pub files: Vec<(String, Vec<u8>)>,
    /// Members whose name could not be used as a file name as is (`..`, empty, holding `/`,
    /// duplicate, the manifest's own name): (original name escaped, path used). The manifest
    /// records the original bytes, so packing restores them.
    pub renamed: Vec<(String, String)>,
    /// Compression layers around the archive, outermost first.
    pub layers: Vec<Layer>,
}

/// An archive rebuilt from a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    /// The archive (uncompressed).
    pub archive: Vec<u8>,
    /// Compression layers the manifest asks for, outermost first.
    pub layers: Vec<Layer>,
    /// What the caller should tell the user: files added, encoders that had to be replaced.
    pub notices: Vec<String>,
    /// Files and folders of the folder that the manifest does not list (added), by path: a
    /// caller may refuse them (stray working files) unless the user asked to add files.
    pub added: Vec<String>,
}

impl Packed {
    /// The archive wrapped in its compression layers.
    pub fn bytes(&self) -> Vec<u8> {
        wrap_all(&self.layers, self.archive.clone())
    }
}

/// Escapes a name for a manifest column: `%XX` for `%`, control bytes and bytes that are not
/// UTF-8; everything else as is.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '%' || c.is_control() {
                let mut b = [0; 4];
                for x in c.encode_utf8(&mut b).bytes() {
                    out.push_str(&format!("%{x:02X}"));
                }
            } else {
                out.push(c);
            }
        }
        for x in chunk.invalid() {
            out.push_str(&format!("%{x:02X}"));
        }
    }
    out
}

/// Reverses [`escape`].
pub fn unescape(s: &str) -> Result<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let h = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| Error::message(format!("bad %-escape in {s:?}")))?;
            out.push(h);
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    Ok(out)
}

/// A file or folder name for `name` that is safe on disk and unique (case-insensitively) among
/// `taken`: the name's text ([`name_text`]) when it can be, else a readable substitute with `~N`
/// if needed.
fn disk_name(name: &[u8], taken: &mut HashSet<String>) -> String {
    let text = name_text(name);
    let usable = !text.is_empty()
        && text != "."
        && text != ".."
        && !text.chars().any(|c| c == '/' || c.is_control());
    let base = if usable {
        text
    } else {
        let s: String = text
            .chars()
            .map(|c| if c == '/' || c.is_control() { '_' } else { c })
            .collect();
        format!("_{s}")
    };
    let mut cand = base.clone();
    let mut k = 1;
    while taken.contains(&cand.to_lowercase()) {
        k += 1;
        cand = format!("{base}~{k}");
    }
    taken.insert(cand.to_lowercase());
    cand
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}/{name}")
    }
}

/// Folder paths of nodes and file paths of entries, as [`unpack`] lays them out: breadth first
/// from the root, each name made safe ([`disk_name`]); file entries no folder reaches go to the
/// top as `_orphan_N`.
struct Paths {
    node: Vec<Option<String>>,
    entry: Vec<Option<String>>,
}

fn paths(a: &Archive) -> Paths {
    let mut node: Vec<Option<String>> = vec![None; a.nodes.len()];
    let mut entry: Vec<Option<String>> = vec![None; a.entries.len()];
    let mut taken: Vec<HashSet<String>> = vec![HashSet::new(); a.nodes.len()];
    if let (Some(root), Some(t)) = (node.first_mut(), taken.first_mut()) {
        *root = Some(String::new());
        t.insert(MANIFEST.to_lowercase());
        t.extend((0..MAX_LAYERS).map(token_file));
    }
    let mut queue = VecDeque::from([0usize]);
    while let Some(n) = queue.pop_front() {
        let (Some(base), Some(nd)) = (node.get(n).cloned().flatten(), a.nodes.get(n)) else {
            continue;
        };
        let first = nd.first_entry as usize;
        for i in first..first.saturating_add(usize::from(nd.entry_count)) {
            let Some(e) = a.entries.get(i) else { break };
            let Some(t) = taken.get_mut(n) else { break };
            match e.target {
                Target::Dir(d) => {
                    let d = d as usize;
                    // "." and ".." point at folders already placed; anything else is a subtree.
                    if node.get(d).is_some_and(Option::is_none) {
                        let p = join(&base, &disk_name(&e.name, t));
                        if let Some(slot) = node.get_mut(d) {
                            *slot = Some(p);
                        }
                        queue.push_back(d);
                    }
                }
                Target::File { .. } => {
                    if entry.get(i).is_some_and(Option::is_none) {
                        let p = join(&base, &disk_name(&e.name, t));
                        if let Some(slot) = entry.get_mut(i) {
                            *slot = Some(p);
                        }
                    }
                }
            }
        }
    }
    for (i, e) in a.entries.iter().enumerate() {
        if !e.is_dir()
            && entry.get(i).is_some_and(Option::is_none)
            && let Some(t) = taken.first_mut()
        {
            let p = disk_name(format!("_orphan_{i}").as_bytes(), t);
            if let Some(slot) = entry.get_mut(i) {
                *slot = Some(p);
            }
        }
    }
    Paths { node, entry }
}

/// The string table split into its names (in order) and the zero bytes after the last one;
/// `None` when it does not have that shape (kept as hex then).
fn split_strings(table: &[u8]) -> Option<(Vec<&[u8]>, usize)> {
    let used = table.iter().rposition(|&b| b != 0).map_or(0, |p| p + 2);
    if used > table.len() {
        return None;
    }
    let names: Vec<&[u8]> = match table.get(..used.saturating_sub(1)) {
        Some(body) if used > 0 => body.split(|&b| b == 0).collect(),
        _ => Vec::new(),
    };
    Some((names, table.len() - used))
}

/// Offset of the first copy of each name in the table.
fn first_offsets(table: &[u8]) -> HashMap<&[u8], u32> {
    let mut out = HashMap::new();
    let mut at = 0usize;
    for s in table.split(|&b| b == 0) {
        out.entry(s).or_insert(at as u32);
        at += s.len() + 1;
    }
    out
}

/// Zero padding to 32 after a table ending at `end`.
fn default_gap(end: usize) -> Vec<u8> {
    vec![0; gcio::padding_for(end, 32)]
}

/// A member's data as entries share it: region, offset, size, compressed flag.
type SharedKey = (usize, u32, u32, bool);

/// How a compressed member's file relates to its stored bytes.
#[derive(Clone)]
enum Stored {
    /// The file holds the stored bytes.
    AsIs,
    /// The file holds the payload; compress with this layer.
    Layer(Layer),
}

/// Takes an archive (plain, or inside Yaz0/Yay0 layers) apart into a manifest and files.
pub fn unpack(data: &[u8]) -> Result<Unpacked> {
    unpack_with(data, &Limits::default())
}

/// [`unpack`] with the files' total bounded by `limits.max_alloc_bytes` (a caller's extraction
/// budget).
pub fn unpack_with(data: &[u8], limits: &Limits) -> Result<Unpacked> {
    let limits = *limits;
    let (layers, inner) = peel_all_keeping(data, MAX_LAYERS)?;
    let a = Archive::parse_with(&inner, &limits)?;
    let p = paths(&a);
    let mut m = String::from(
        "# gcf RARC manifest (docs/RARC-MANIFEST.md). `gcf pack` rebuilds the archive from this\n\
         # folder byte for byte; edited members change only their own bytes and what derives from\n\
         # them, new files are added, listed files must exist. TAB-separated.\n",
    );
    m.push_str(HEADER);
    m.push('\n');
    for l in &layers {
        m.push_str(&format!("compression\t{}\n", l.describe()));
    }
    let mut header = format!(
        "header\tnext-id={}\tsync={}\tmram={:#x}\taram={:#x}\tdvd={:#x}",
        a.next_id, a.sync_ids, a.mram_size, a.aram_size, a.dvd_size
    );
    if a.info_reserved != [0; 5] {
        header.push_str(&format!("\tinfo-reserved={}", hex(&a.info_reserved)));
    }
    if let Some(s) = a.file_size {
        header.push_str(&format!("\tfile-size={s}"));
    }
    m.push_str(&header);
    m.push('\n');
    match split_strings(&a.strings) {
        Some((names, pad)) => {
            m.push_str("strings");
            for n in names {
                m.push('\t');
                m.push_str(&escape(n));
            }
            m.push('\n');
            if pad > 0 {
                m.push_str(&format!("strings-padding\t{pad}\n"));
            }
        }
        None => m.push_str(&format!("strings-hex\t{}\n", hex(&a.strings))),
    }
    let firsts = first_offsets(&a.strings);
    let name_at = |name: &[u8], off: u32| -> String {
        if firsts.get(name) == Some(&off) {
            String::new()
        } else {
            format!("\tname-at={off:#x}")
        }
    };
    let hash_col = |name: &[u8], h: u16| -> String {
        if name_hash(name) == h {
            String::new()
        } else {
            format!("\thash={h:#06x}")
        }
    };
    for (i, n) in a.nodes.iter().enumerate() {
        m.push_str(&format!(
            "node\t{i}\t{}\t{}\tfirst={}\tcount={}{}{}\n",
            escape(&n.ty),
            escape(&n.name),
            n.first_entry,
            n.entry_count,
            hash_col(&n.name, n.hash),
            name_at(&n.name, n.name_offset)
        ));
    }
    // Entries in stored order; file data kept by region.
    let mut files = Vec::new();
    let mut renamed = Vec::new();
    let mut region_users: Vec<usize> = vec![0; a.regions.len()];
    for e in &a.entries {
        if let Target::File { region, .. } = e.target
            && let Some(u) = region_users.get_mut(region)
        {
            *u += 1;
        }
    }
    let mut next_region = 0usize;
    let mut total = 0u64;
    let mut shared: HashMap<SharedKey, (Stored, Vec<u8>)> = HashMap::new();
    for (i, e) in a.entries.iter().enumerate() {
        let mut extra = String::new();
        if e.reserved != 0 {
            extra.push_str(&format!("\treserved={:#x}", e.reserved));
        }
        extra.push_str(&hash_col(&e.name, e.hash));
        extra.push_str(&name_at(&e.name, e.name_offset));
        match e.target {
            Target::Dir(d) => {
                let mut cols = format!("dir\t{}\tnode={}", escape(&e.name), d as i32);
                if e.id != 0xFFFF {
                    cols.push_str(&format!("\tid={}", e.id));
                }
                if e.attr != Attr::DIRECTORY {
                    cols.push_str(&format!("\tattr={:#04x}", e.attr.bits()));
                }
                if e.size != 0x10 {
                    cols.push_str(&format!("\tsize={:#x}", e.size));
                }
                m.push_str(&cols);
                m.push_str(&extra);
                m.push('\n');
            }
            Target::File { region, offset } => {
                let path = p.entry.get(i).cloned().flatten().unwrap_or_default();
                let stored = a.file_data(i).unwrap_or_default();
                let mut cols = format!(
                    "file\t{}\tsize={}\tattr={:#04x}\tid={}",
                    escape(path.as_bytes()),
                    e.size,
                    e.attr.bits(),
                    e.id
                );
                let last = path.rsplit('/').next().unwrap_or_default();
                if name_bytes(last) != e.name {
                    cols.push_str(&format!("\tname={}", escape(&e.name)));
                    renamed.push((escape(&e.name), path.clone()));
                }
                if region != next_region || offset != 0 {
                    cols.push_str(&format!("\tregion={region}"));
                    if offset != 0 {
                        cols.push_str(&format!("\toffset={offset:#x}"));
                    }
                }
                next_region = next_region.max(region + 1);
                if region_users.get(region).copied().unwrap_or(0) > 1 || offset != 0 {
                    cols.push_str(&format!("\tsum={:08x}", sum(stored)));
                }
                // Entries sharing data (RARC-030) are decompressed and identified once.
                let key = (region, offset, e.size, e.attr.contains(Attr::COMPRESSED));
                let (how, bytes) = match shared.get(&key) {
                    Some((how, bytes)) => (Stored::clone(how), Vec::clone(bytes)),
                    None => {
                        let (how, bytes) = member_file(e.attr, stored);
                        if region_users.get(region).copied().unwrap_or(0) > 1 {
                            shared.insert(key, (how.clone(), bytes.clone()));
                        }
                        (how, bytes)
                    }
                };
                match how {
                    Stored::AsIs if e.attr.contains(Attr::COMPRESSED) => {
                        cols.push_str("\tcompressed=stored")
                    }
                    Stored::AsIs => {}
                    Stored::Layer(l) => {
                        cols.push_str(&format!("\tcompressed={}", l.describe().replace('\t', ":")))
                    }
                }
                total += bytes.len() as u64;
                limits.check_alloc(total, 1, u64::from(e.size))?;
                files.push((path, bytes));
                m.push_str(&cols);
                m.push_str(&extra);
                m.push('\n');
            }
        }
    }
    for (i, r) in a.regions.iter().enumerate() {
        if r.gap != default_gap(r.data.len()) {
            m.push_str(&format!("region\t{i}\tgap={}\n", hex(&r.gap)));
        }
    }
    let nodes_end = NODES_AT + a.nodes.len() * 0x10;
    let entries_end = a.after_nodes.at + a.after_nodes.bytes.len() + a.entries.len() * 0x14;
    let strings_end = a.after_entries.at + a.after_entries.bytes.len() + a.strings.len();
    let mut layout = String::new();
    for (key, gap, end) in [
        ("after-nodes", &a.after_nodes, nodes_end),
        ("after-entries", &a.after_entries, entries_end),
        ("after-strings", &a.after_strings, strings_end),
    ] {
        if gap.bytes != default_gap(end) {
            layout.push_str(&format!("\t{key}={}", hex(&gap.bytes)));
        }
    }
    if !a.data_lead.is_empty() {
        layout.push_str(&format!("\tdata-lead={}", hex(&a.data_lead)));
    }
    if !a.tail.is_empty() {
        layout.push_str(&format!("\ttail={}", hex(&a.tail)));
    }
    if !layout.is_empty() {
        m.push_str(&format!("layout{layout}\n"));
    }
    let mut dirs: Vec<String> = p
        .node
        .into_iter()
        .flatten()
        .filter(|d| !d.is_empty())
        .collect();
    dirs.sort_by_key(|d| d.matches('/').count());
    // The decisions of streams no known encoder reproduces, beside the manifest.
    files.extend(
        layers
            .iter()
            .filter_map(|l| l.original.as_ref())
            .map(|o| (o.file.clone(), o.decisions.clone())),
    );
    Ok(Unpacked {
        manifest: m,
        dirs,
        files,
        renamed,
        layers,
    })
}

/// What goes on disk for a member: its payload when it is compressed with a reproducible
/// encoder, else its stored bytes.
fn member_file(attr: Attr, stored: &[u8]) -> (Stored, Vec<u8>) {
    if attr.contains(Attr::COMPRESSED)
        && let Some(Ok((l, payload))) = Layer::peel(stored)
        && l.encoder.is_some()
        && l.wrap(&payload) == stored
    {
        return (Stored::Layer(l), payload);
    }
    (Stored::AsIs, stored.to_vec())
}

/// Key=value columns of a line.
struct Cols<'a> {
    line: usize,
    map: HashMap<&'a str, &'a str>,
}

impl<'a> Cols<'a> {
    fn new(line: usize, cols: &[&'a str]) -> Result<Self> {
        let mut map = HashMap::new();
        for c in cols {
            let (k, v) = c.split_once('=').ok_or_else(|| {
                Error::message(format!(
                    "{MANIFEST} line {line}: expected KEY=VALUE, got {c:?}"
                ))
            })?;
            map.insert(k, v);
        }
        Ok(Cols { line, map })
    }

    fn err(&self, key: &str, v: &str) -> gcio::Error {
        Error::message(format!(
            "{MANIFEST} line {}: {key}={v:?} is not valid",
            self.line
        ))
    }

    fn num(&self, key: &str) -> Result<Option<u64>> {
        self.map
            .get(key)
            .map(|v| {
                let r = match v.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => v.parse(),
                };
                r.map_err(|_| self.err(key, v))
            })
            .transpose()
    }

    fn int<T: TryFrom<u64>>(&self, key: &str) -> Result<Option<T>> {
        self.num(key)?
            .map(|n| T::try_from(n).map_err(|_| self.err(key, &n.to_string())))
            .transpose()
    }

    fn need<T: TryFrom<u64>>(&self, key: &str) -> Result<T> {
        self.int(key)?
            .ok_or_else(|| Error::message(format!("{MANIFEST} line {}: missing {key}=", self.line)))
    }

    fn hex(&self, key: &str) -> Result<Option<Vec<u8>>> {
        self.map.get(key).map(|v| unhex(v)).transpose()
    }
}

/// A file line read back.
struct FileLine {
    entry: usize,
    path: String,
    size: u32,
    region: usize,
    offset: u32,
    sum: Option<u32>,
    compressed: Option<Option<Layer>>,
}

/// Rebuilds an archive from a manifest and the folder's files (`files`: folder-relative paths →
/// bytes, without the manifest; `dirs`: every folder, so new empty ones are added too).
///
/// Listed files missing from `files` are an error naming them; files and folders not listed are
/// added (after their folder's other entries, the way the game's tools append, with the next
/// free ID) and reported in [`Packed::notices`]. Sizes the manifest names are bounded by the
/// default [`Limits`].
pub fn pack(manifest: &str, files: BTreeMap<String, Vec<u8>>, dirs: &[String]) -> Result<Packed> {
    pack_with(manifest, files, dirs, &Limits::default())
}

/// [`pack`] with the caller's `limits` bounding the padding, region count and region sizes the
/// manifest names.
pub fn pack_with(
    manifest: &str,
    mut files: BTreeMap<String, Vec<u8>>,
    dirs: &[String],
    limits: &Limits,
) -> Result<Packed> {
    let mut lines = manifest
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    match lines.next() {
        Some((_, l)) if l == HEADER => {}
        _ => {
            return Err(Error::message(format!(
                "{MANIFEST}: not a gcf RARC manifest version 1 (first line must be {HEADER:?}); re-extract the archive"
            )));
        }
    }
    let mut a = Archive {
        file_size: None,
        mram_size: 0,
        aram_size: 0,
        dvd_size: 0,
        next_id: 0,
        sync_ids: 0,
        info_reserved: [0; 5],
        nodes: Vec::new(),
        entries: Vec::new(),
        strings: Vec::new(),
        regions: Vec::new(),
        after_nodes: Gap::default(),
        after_entries: Gap::default(),
        after_strings: Gap::default(),
        data_lead: Vec::new(),
        tail: Vec::new(),
    };
    let mut layers = Vec::new();
    let mut notices = Vec::new();
    let mut file_lines: Vec<FileLine> = Vec::new();
    let mut region_gaps: HashMap<usize, Vec<u8>> = HashMap::new();
    let mut layout: HashMap<&str, Vec<u8>> = HashMap::new();
    let mut name_ats: Vec<(bool, usize, Option<u32>)> = Vec::new(); // (is node, index, explicit)
    let mut next_region = 0usize;
    for (ln, line) in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        let bad = || Error::message(format!("{MANIFEST} line {ln}: unreadable: {line:?}"));
        match cols.as_slice() {
            ["compression", rest @ ..] => layers.push(Layer::parse(rest)?),
            ["header", rest @ ..] => {
                let c = Cols::new(ln, rest)?;
                a.next_id = c.need("next-id")?;
                a.sync_ids = c.need("sync")?;
                a.mram_size = c.need("mram")?;
                a.aram_size = c.need("aram")?;
                a.dvd_size = c.need("dvd")?;
                a.file_size = c.int("file-size")?;
                if let Some(h) = c.hex("info-reserved")? {
                    a.info_reserved = h.try_into().map_err(|_| c.err("info-reserved", "?"))?;
                }
            }
            ["strings", names @ ..] => {
                for n in names {
                    a.strings.extend_from_slice(&unescape(n)?);
                    a.strings.push(0);
                }
            }
            ["strings-padding", n] => {
                let n: usize = n.parse().map_err(|_| bad())?;
                limits.check_alloc(n as u64, 1, 0)?;
                a.strings.resize(a.strings.len() + n, 0);
            }
            ["strings-hex", h] => a.strings = unhex(h)?,
            ["node", idx, ty, name, rest @ ..] => {
                if idx.parse::<usize>().ok() != Some(a.nodes.len()) {
                    return Err(Error::message(format!(
                        "{MANIFEST} line {ln}: node {idx} out of order (expected {})",
                        a.nodes.len()
                    )));
                }
                let c = Cols::new(ln, rest)?;
                let name = unescape(name)?;
                let ty: [u8; 4] = unescape(ty)?.try_into().map_err(|_| bad())?;
                name_ats.push((true, a.nodes.len(), c.int("name-at")?));
                a.nodes.push(Node {
                    ty,
                    hash: c.int("hash")?.unwrap_or_else(|| name_hash(&name)),
                    name,
                    name_offset: 0,
                    first_entry: c.need("first")?,
                    entry_count: c.need("count")?,
                });
            }
            ["dir", name, rest @ ..] => {
                let c = Cols::new(ln, rest)?;
                let name = unescape(name)?;
                let node: i64 = c
                    .map
                    .get("node")
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(bad)?;
                name_ats.push((false, a.entries.len(), c.int("name-at")?));
                a.entries.push(Entry {
                    id: c.int("id")?.unwrap_or(0xFFFF),
                    hash: c.int("hash")?.unwrap_or_else(|| name_hash(&name)),
                    attr: Attr::from_bits_retain(c.int("attr")?.unwrap_or(Attr::DIRECTORY.bits())),
                    name,
                    name_offset: 0,
                    target: Target::Dir(node as u32),
                    size: c.int("size")?.unwrap_or(0x10),
                    reserved: c.int("reserved")?.unwrap_or(0),
                });
            }
            ["file", path, rest @ ..] => {
                let c = Cols::new(ln, rest)?;
                let path = String::from_utf8(unescape(path)?).map_err(|_| bad())?;
                let name = match c.map.get("name") {
                    Some(n) => unescape(n)?,
                    None => name_bytes(path.rsplit('/').next().unwrap_or_default()),
                };
                let region = match c.int::<usize>("region")? {
                    Some(r) => r,
                    None => next_region,
                };
                next_region = next_region.max(region + 1);
                let compressed = match c.map.get("compressed") {
                    None => None,
                    Some(&"stored") => Some(None),
                    Some(v) => {
                        let parts: Vec<&str> = v.split(':').collect();
                        Some(Some(Layer::parse(&parts)?))
                    }
                };
                let sum = match c.map.get("sum") {
                    Some(s) => Some(u32::from_str_radix(s, 16).map_err(|_| c.err("sum", s))?),
                    None => None,
                };
                file_lines.push(FileLine {
                    entry: a.entries.len(),
                    path,
                    size: c.need("size")?,
                    region,
                    offset: c.int("offset")?.unwrap_or(0),
                    sum,
                    compressed,
                });
                name_ats.push((false, a.entries.len(), c.int("name-at")?));
                a.entries.push(Entry {
                    id: c.need("id")?,
                    hash: c.int("hash")?.unwrap_or_else(|| name_hash(&name)),
                    attr: Attr::from_bits_retain(c.need("attr")?),
                    name,
                    name_offset: 0,
                    target: Target::File {
                        region,
                        offset: c.int("offset")?.unwrap_or(0),
                    },
                    size: c.need("size")?,
                    reserved: c.int("reserved")?.unwrap_or(0),
                });
            }
            ["region", idx, rest @ ..] => {
                let c = Cols::new(ln, rest)?;
                let idx: usize = idx.parse().map_err(|_| bad())?;
                region_gaps.insert(idx, c.hex("gap")?.unwrap_or_default());
            }
            ["layout", rest @ ..] => {
                let c = Cols::new(ln, rest)?;
                for key in [
                    "after-nodes",
                    "after-entries",
                    "after-strings",
                    "data-lead",
                    "tail",
                ] {
                    if let Some(h) = c.hex(key)? {
                        layout.insert(key, h);
                    }
                }
            }
            _ => return Err(bad()),
        }
    }
    // Name offsets: the first copy in the table unless the manifest says otherwise.
    let firsts: HashMap<Vec<u8>, u32> = first_offsets(&a.strings)
        .into_iter()
        .map(|(k, v)| (k.to_vec(), v))
        .collect();
    for (is_node, i, explicit) in name_ats {
        let name = if is_node {
            a.nodes.get(i).map(|n| &n.name)
        } else {
            a.entries.get(i).map(|e| &e.name)
        };
        let off = explicit
            .or_else(|| name.and_then(|n| firsts.get(n).copied()))
            .unwrap_or(u32::MAX);
        if is_node {
            if let Some(n) = a.nodes.get_mut(i) {
                n.name_offset = off;
            }
        } else if let Some(e) = a.entries.get_mut(i) {
            e.name_offset = off;
        }
    }
    // Gaps between tables, where the original had them.
    let nodes_end = NODES_AT + a.nodes.len() * 0x10;
    let gap = |key: &str, end: usize| Gap {
        bytes: layout.get(key).cloned().unwrap_or_else(|| default_gap(end)),
        at: end,
    };
    a.after_nodes = gap("after-nodes", nodes_end);
    let entries_end = nodes_end + a.after_nodes.bytes.len() + a.entries.len() * 0x14;
    a.after_entries = gap("after-entries", entries_end);
    let strings_end = entries_end + a.after_entries.bytes.len() + a.strings.len();
    a.after_strings = gap("after-strings", strings_end);
    a.data_lead = layout.get("data-lead").cloned().unwrap_or_default();
    a.tail = layout.get("tail").cloned().unwrap_or_default();

    // Token files of streams no known encoder reproduces: theirs, not members.
    for l in &mut layers {
        if let Some(o) = &mut l.original {
            std::sync::Arc::make_mut(o).decisions = files.remove(&o.file).unwrap_or_default();
        }
    }
    // Member bytes as stored; missing files are collected into one error.
    let mut missing = Vec::new();
    let mut stored: Vec<Option<Vec<u8>>> = Vec::with_capacity(file_lines.len());
    for f in &file_lines {
        let Some(data) = files.remove(&f.path) else {
            missing.push(f.path.clone());
            stored.push(None);
            continue;
        };
        let data = match &f.compressed {
            Some(Some(l)) => l.wrap(&data),
            _ => data,
        };
        if let Some(Some(l)) = &f.compressed
            && l.encoder.is_none()
        {
            notices.push(format!(
                "{}: original {} encoder unknown, compressed with nintendo",
                f.path,
                l.kind.name()
            ));
        }
        stored.push(Some(data));
    }
    if !missing.is_empty() {
        return Err(Error::message(format!(
            "{} file(s) listed in {MANIFEST} are missing from the folder: {} (restore them, or delete {MANIFEST} to pack the folder as a new archive)",
            missing.len(),
            missing.join(", ")
        )));
    }
    // Regions from the members that did not change; changed ones are replaced afterwards so only
    // their bytes (and what derives from them) move.
    let unchanged = |f: &FileLine, data: &[u8]| {
        data.len() == f.size as usize && f.sum.is_none_or(|s| s == sum(data))
    };
    let region_count = file_lines.iter().map(|f| f.region + 1).max().unwrap_or(0);
    limits.check_elements(region_count as u64, 0)?;
    a.regions = vec![Region::default(); region_count];
    let mut covered: Vec<Vec<bool>> = vec![Vec::new(); region_count];
    let mut changed = Vec::new();
    for pass in [true, false] {
        for (f, data) in file_lines.iter().zip(&stored) {
            let Some(data) = data else { continue };
            let same = unchanged(f, data);
            if same != pass {
                continue;
            }
            if !same {
                changed.push((f.entry, data.clone()));
            }
            let (Some(r), Some(cov)) = (a.regions.get_mut(f.region), covered.get_mut(f.region))
            else {
                continue;
            };
            let start = f.offset as usize;
            let end = start + f.size as usize;
            if r.data.len() < end {
                limits.check_alloc(end as u64, 1, 0)?;
                r.data.resize(end, 0);
                cov.resize(end, false);
            }
            for (k, b) in data.iter().take(f.size as usize).enumerate() {
                if let (Some(d), Some(c)) = (r.data.get_mut(start + k), cov.get_mut(start + k))
                    && !*c
                {
                    *d = *b;
                    *c = true;
                }
            }
        }
    }
    for (i, r) in a.regions.iter_mut().enumerate() {
        r.gap = region_gaps
            .remove(&i)
            .unwrap_or_else(|| default_gap(r.data.len()));
    }
    for (entry, data) in changed {
        a.replace_data(entry, data)?;
        a.file_size = None;
    }
    let added = add_new(&mut a, files, dirs, &mut notices)?;
    let archive = a.write()?;
    settle(&mut layers, &archive, &mut notices);
    Ok(Packed {
        archive,
        layers,
        notices,
        added,
    })
}

/// Settles every layer that gives back an original stream ([`Layer::settle`]), innermost first:
/// the payload of each is what the layers inside it make of `archive`.
fn settle(layers: &mut [Layer], archive: &[u8], notices: &mut Vec<String>) {
    let mut payload = std::borrow::Cow::Borrowed(archive);
    for i in (0..layers.len()).rev() {
        let outer_keeps = layers.iter().take(i).any(|l| l.original.is_some());
        let Some(l) = layers.get_mut(i) else { break };
        notices.extend(l.settle(&payload));
        if outer_keeps {
            payload = std::borrow::Cow::Owned(l.wrap(&payload));
        }
    }
}

/// Adds folders and files that are not in the manifest, parents first, in name order; returns
/// their paths.
fn add_new(
    a: &mut Archive,
    files: BTreeMap<String, Vec<u8>>,
    dirs: &[String],
    notices: &mut Vec<String>,
) -> Result<Vec<String>> {
    let mut added = Vec::new();
    let p = paths(a);
    let mut node_of: HashMap<String, usize> = p
        .node
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.clone().map(|d| (d, i)))
        .collect();
    let mut wanted: Vec<String> = dirs.to_vec();
    for f in files.keys() {
        let mut parts: Vec<&str> = f.split('/').collect();
        parts.pop();
        for k in 1..=parts.len() {
            wanted.push(parts.get(..k).unwrap_or_default().join("/"));
        }
    }
    wanted.sort_by(|x, y| (x.matches('/').count(), x).cmp(&(y.matches('/').count(), y)));
    wanted.dedup();
    for d in wanted {
        if d.is_empty() || node_of.contains_key(&d) {
            continue;
        }
        let (parent, name) = d.rsplit_once('/').unwrap_or(("", &d));
        let parent = *node_of
            .get(parent)
            .ok_or_else(|| Error::message(format!("{d}: parent folder not in the archive")))?;
        let node = a.add_dir(parent, &name_bytes(name))?;
        notices.push(format!("added folder {d} (not in {MANIFEST})"));
        added.push(d.clone());
        node_of.insert(d, node);
    }
    for (path, data) in files {
        let (parent, name) = path.rsplit_once('/').unwrap_or(("", &path));
        let node = *node_of
            .get(parent)
            .ok_or_else(|| Error::message(format!("{path}: folder not in the archive")))?;
        let id = a.next_id;
        added.push(path.clone());
        let at = a.add_file(node, &name_bytes(name), default_attr(&data), data)?;
        notices.push(format!(
            "added {path} (not in {MANIFEST}): entry {at}, id {}, after its folder's other entries",
            a.entries.get(at).map_or(id, |e| e.id)
        ));
        a.file_size = None;
    }
    Ok(added)
}

/// Packs a folder that has no manifest as a new retail-layout archive: folders and files in name
/// order, default attributes; folder nesting is bounded by the default [`Limits`].
pub fn pack_folder(
    root: &[u8],
    files: &BTreeMap<String, Vec<u8>>,
    dirs: &[String],
    opts: PackOptions,
) -> Result<Archive> {
    pack_folder_with(root, files, dirs, opts, &Limits::default())
}

/// [`pack_folder`] with the caller's `limits` bounding the folder nesting.
pub fn pack_folder_with(
    root: &[u8],
    files: &BTreeMap<String, Vec<u8>>,
    dirs: &[String],
    opts: PackOptions,
    limits: &Limits,
) -> Result<Archive> {
    // Every folder: the listed ones and the parents of every file.
    let mut folders: std::collections::BTreeSet<&str> = dirs.iter().map(String::as_str).collect();
    for f in files.keys() {
        let mut p = f.as_str();
        while let Some((parent, _)) = p.rsplit_once('/') {
            folders.insert(parent);
            p = parent;
        }
    }
    fn build(
        name: &[u8],
        prefix: &str,
        folders: &std::collections::BTreeSet<&str>,
        files: &BTreeMap<String, Vec<u8>>,
        depth: u32,
        limits: &Limits,
    ) -> Result<Dir> {
        limits.check_depth(depth, 0)?;
        let child = |p: &str| -> Option<String> {
            let rest = if prefix.is_empty() {
                p
            } else {
                p.strip_prefix(prefix)?.strip_prefix('/')?
            };
            (!rest.is_empty() && !rest.contains('/')).then(|| rest.to_owned())
        };
        let mut items: Vec<(String, Item)> = Vec::new();
        for f in folders.iter().filter(|f| !f.is_empty()) {
            if let Some(n) = child(f) {
                let sub = build(&name_bytes(&n), f, folders, files, depth + 1, limits)?;
                items.push((n, Item::Dir(sub)));
            }
        }
        for (p, data) in files {
            if let Some(n) = child(p) {
                let item = Item::File {
                    name: name_bytes(&n),
                    attr: None,
                    data: data.clone(),
                    id: None,
                };
                items.push((n, item));
            }
        }
        items.sort_by(|x, y| x.0.cmp(&y.0));
        Ok(Dir {
            name: name.to_vec(),
            children: items.into_iter().map(|x| x.1).collect(),
        })
    }
    let tree = build(root, "", &folders, files, 0, limits)?;
    Ok(crate::pack(&tree, opts))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn files(u: &Unpacked) -> BTreeMap<String, Vec<u8>> {
        u.files.iter().cloned().collect()
    }

    #[test]
    fn escapes_round_trip() {
        for b in [&b"a%b\tc"[..], b"\xff\xfe", "日本".as_bytes(), b""] {
            assert_eq!(unescape(&escape(b)).unwrap(), b);
        }
        assert!(!escape(b"a\tb").contains('\t'));
    }

    #[test]
    fn sample_unpacks_and_packs_exactly() {
        let bytes = crate::pack(&crate::sample_tree(), PackOptions::default())
            .write()
            .unwrap();
        let u = unpack(&bytes).unwrap();
        assert!(
            u.manifest.contains("compressed=yaz0:nintendo"),
            "{}",
            u.manifest
        );
        let p = pack(&u.manifest, files(&u), &u.dirs).unwrap();
        assert_eq!(p.archive, bytes);
        assert!(p.notices.is_empty());
        // In Yaz0: the layer comes back too.
        let szs = Layer::new(crate::layer::Kind::Yaz0, crate::layer::DEFAULT_ENCODER).wrap(&bytes);
        let u = unpack(&szs).unwrap();
        assert_eq!(pack(&u.manifest, files(&u), &u.dirs).unwrap().bytes(), szs);
    }

    /// A Yaz0 layer no named encoder makes (Nintendo's tokens with the first long reference
    /// split): its token file gives it back; without the file, or with an edit, the closest
    /// encoder compresses and a notice says why. Two nested unknown layers each keep theirs.
    #[test]
    fn token_files_give_unknown_streams_back() {
        let bytes = crate::pack(&crate::sample_tree(), PackOptions::default())
            .write()
            .unwrap();
        let custom = |data: &[u8]| {
            let mut s = yaz0::Stream::encode(data, crate::layer::DEFAULT_ENCODER);
            let at = s
                .tokens
                .iter()
                .position(|t| matches!(t, yaz0::Token::Match { len, .. } if *len >= 8))
                .unwrap();
            if let yaz0::Token::Match { dist, len } = s.tokens[at] {
                s.tokens[at] = yaz0::Token::Match { dist, len: len - 3 };
                s.tokens.insert(at + 1, yaz0::Token::Match { dist, len: 3 });
            }
            assert!(s.identify(data).is_empty());
            s.write()
        };
        let szs = custom(&bytes);
        let u = unpack(&szs).unwrap();
        let token_file = crate::layer::token_file(0);
        assert!(u.manifest.contains("compression\tyaz0\tunknown\ttokens="));
        assert!(u.files.iter().any(|(p, _)| *p == token_file));
        let p = pack(&u.manifest, files(&u), &u.dirs).unwrap();
        assert_eq!(p.bytes(), szs);
        assert!(p.notices.is_empty(), "{:?}", p.notices);
        // The token file gone: the closest encoder, and a notice naming the file.
        let mut f = files(&u);
        f.remove(&token_file);
        let p = pack(&u.manifest, f, &u.dirs).unwrap();
        assert!(
            p.notices.iter().any(|n| n.contains(&token_file)),
            "{:?}",
            p.notices
        );
        assert_eq!(yaz0::decode(&p.bytes()).unwrap(), bytes);
        assert!(p.layers[0].encoder.is_some());
        // Nested: both layers unknown, both come back.
        let outer = custom(&szs);
        let u = unpack(&outer).unwrap();
        assert_eq!(u.layers.len(), 2);
        assert!(u.layers.iter().all(|l| l.original.is_some()));
        assert_eq!(
            pack(&u.manifest, files(&u), &u.dirs).unwrap().bytes(),
            outer
        );
    }

    #[test]
    fn edits_added_and_missing_files() {
        let bytes = crate::pack(&crate::sample_tree(), PackOptions::default())
            .write()
            .unwrap();
        let u = unpack(&bytes).unwrap();
        // An edit of the same size changes only that member's bytes.
        let mut f = files(&u);
        let text = f.get_mut("camera/CameraParam.bcam").unwrap();
        text[0] = b'X';
        let p = pack(&u.manifest, f, &u.dirs).unwrap();
        let diff: Vec<usize> = (0..bytes.len())
            .filter(|&i| bytes[i] != p.archive[i])
            .collect();
        assert_eq!(diff.len(), 1);
        // A shared member edited: only it moves.
        let mut f = files(&u);
        f.get_mut("jmp/Path/CommonPathInfo").unwrap()[0] ^= 1;
        let p = pack(&u.manifest, f, &u.dirs).unwrap();
        let a = Archive::parse(&p.archive).unwrap();
        let i = a.find("jmp/Placement/ObjInfo").unwrap();
        assert_eq!(a.file_data(i).unwrap()[0], b'B');
        let i = a.find("jmp/Path/CommonPathInfo").unwrap();
        assert_eq!(a.file_data(i).unwrap()[0], b'B' ^ 1);
        // Added file and folder.
        let mut f = files(&u);
        f.insert("camera/New.bin".into(), vec![1, 2, 3]);
        f.insert("extra/deep/x.bin".into(), vec![4]);
        let p = pack(&u.manifest, f, &u.dirs).unwrap();
        assert_eq!(p.notices.len(), 4, "{:?}", p.notices);
        let v = crate::parse(&p.archive).unwrap();
        assert_eq!(
            v.file_bytes(&v.lookup("camera/New.bin").unwrap().unwrap())
                .unwrap(),
            [1, 2, 3]
        );
        assert!(v.lookup("extra/deep/x.bin").unwrap().is_some());
        assert!(
            crate::validate(&p.archive)
                .iter()
                .all(|d| d.severity != gcio::Severity::Error)
        );
        // Missing file: named.
        let mut f = files(&u);
        f.remove("Module.rel");
        let e = pack(&u.manifest, f, &u.dirs).unwrap_err().to_string();
        assert!(e.contains("Module.rel"), "{e}");
    }

    #[test]
    fn awkward_names_get_safe_paths_and_come_back() {
        let tree = Dir {
            name: b"root".to_vec(),
            children: vec![
                Item::File {
                    name: b"..".to_vec(),
                    attr: None,
                    data: vec![1],
                    id: None,
                },
                Item::File {
                    name: b"".to_vec(),
                    attr: None,
                    data: vec![2],
                    id: None,
                },
                Item::File {
                    name: b"\xff\xfe".to_vec(),
                    attr: None,
                    data: vec![3],
                    id: None,
                },
                Item::File {
                    name: b"A.bin".to_vec(),
                    attr: None,
                    data: vec![4],
                    id: None,
                },
                Item::File {
                    name: b"a.bin".to_vec(),
                    attr: None,
                    data: vec![5],
                    id: None,
                },
                Item::File {
                    name: MANIFEST.as_bytes().to_vec(),
                    attr: None,
                    data: vec![6],
                    id: None,
                },
                Item::File {
                    name: b"x/y".to_vec(),
                    attr: None,
                    data: vec![7],
                    id: None,
                },
            ],
        };
        let bytes = crate::pack(&tree, PackOptions::default()).write().unwrap();
        let u = unpack(&bytes).unwrap();
        let mut seen = HashSet::new();
        for (p, _) in &u.files {
            assert!(
                !p.split('/').any(|c| c.is_empty() || c == "." || c == ".."),
                "{p}"
            );
            assert!(seen.insert(p.to_lowercase()), "{p}");
            assert_ne!(p, MANIFEST);
        }
        // `\xff\xfe` is its escaped text on disk (`\xFF\xFE`), not a substitute.
        assert_eq!(u.renamed.len(), 5, "{:?}", u.renamed);
        let rules: Vec<_> = crate::validate(&bytes)
            .into_iter()
            .filter(|d| d.rule == "RARC-029")
            .collect();
        // Not UTF-8 is a fine name for the game (Shift-JIS): not a finding.
        assert_eq!(rules.len(), 5, "{rules:?}");
        assert_eq!(
            pack(&u.manifest, files(&u), &u.dirs).unwrap().archive,
            bytes
        );
    }

    #[test]
    fn folder_without_manifest_packs_in_name_order() {
        let mut f = BTreeMap::new();
        f.insert("b.bin".to_owned(), vec![1]);
        f.insert("a/c.bin".to_owned(), vec![2]);
        let a = pack_folder(
            b"Root",
            &f,
            &["a".into(), "empty".into()],
            PackOptions::default(),
        )
        .unwrap();
        let root: Vec<&[u8]> = a
            .entries
            .iter()
            .take(3)
            .map(|e| e.name.as_slice())
            .collect();
        assert_eq!(root, [&b"a"[..], b"b.bin", b"empty"]);
        assert_eq!(a.nodes.len(), 3);
    }

    #[test]
    fn pack_with_honours_the_callers_limits() {
        let bytes = crate::pack(&crate::sample_tree(), PackOptions::default())
            .write()
            .unwrap();
        let u = unpack(&bytes).unwrap();
        let tiny = Limits {
            max_alloc_bytes: 1,
            ..Limits::default()
        };
        let e = pack_with(&u.manifest, files(&u), &u.dirs, &tiny).unwrap_err();
        assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
        let mut f = BTreeMap::new();
        f.insert("a/c.bin".to_owned(), vec![2]);
        assert!(pack_folder(b"Root", &f, &[], PackOptions::default()).is_ok());
        let flat = Limits {
            max_depth: 0,
            ..Limits::default()
        };
        let e = pack_folder_with(b"Root", &f, &[], PackOptions::default(), &flat).unwrap_err();
        assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    }
}
