//! Zero-copy view: header, info block, node and entry tables, names and member bytes, all borrowed.

use std::borrow::Cow;

use gcio::{Context, Error, Limits, Reader, Result, Visited};

use crate::attr::{Attr, name_hash};
use crate::raw;

/// Start of the node table (0x20 + the info block's node offset 0x20).
pub(crate) const NODES_AT: usize = 0x40;

/// A parsed archive borrowing the input.
#[derive(Debug, Clone, Copy)]
pub struct Rarc<'a> {
    data: &'a [u8],
    /// The file header.
    pub header: &'a raw::Header,
    /// The data header.
    pub info: &'a raw::Info,
    /// Directory nodes in stored order.
    pub nodes: &'a [raw::Node],
    /// File entries in stored order.
    pub entries: &'a [raw::Entry],
    /// The string table (as sized by the info block).
    pub strings: &'a [u8],
    /// The file-data section (as sized by the header).
    pub file_data: &'a [u8],
    limits: Limits,
}

/// One entry, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryRef<'a> {
    /// Position in the entry table.
    pub index: usize,
    /// File ID (0xFFFF for directories).
    pub id: u16,
    /// Stored name hash.
    pub hash: u16,
    /// Attributes.
    pub attr: Attr,
    /// Name bytes (without terminator).
    pub name: &'a [u8],
    /// Data offset (files) or node index (directories).
    pub data: u32,
    /// Size (files) or 0x10 (directories).
    pub size: u32,
}

impl EntryRef<'_> {
    /// True for directory entries (including "." and "..").
    pub fn is_dir(&self) -> bool {
        self.attr.contains(Attr::DIRECTORY)
    }

    /// True for "." and "..".
    pub fn is_dot(&self) -> bool {
        self.name == b"." || self.name == b".."
    }
}

/// A member file reached by walking the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRef<'a> {
    /// Path from the root (without the root's name), `/`-separated.
    pub path: String,
    /// The entry.
    pub entry: EntryRef<'a>,
}

/// A directory reached by walking the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirRef<'a> {
    /// Path from the root (`""` for the root).
    pub path: String,
    /// Node index.
    pub node: usize,
    /// Directory name.
    pub name: &'a [u8],
    /// Depth (root 0).
    pub depth: u32,
}

/// Parses an archive with the default [`Limits`].
pub fn parse(data: &[u8]) -> Result<Rarc<'_>> {
    parse_with(data, &Limits::default())
}

/// Parses an archive; counts, the directory walk and member decoding pass through `limits`.
pub fn parse_with<'a>(data: &'a [u8], limits: &Limits) -> Result<Rarc<'a>> {
    let limits = *limits;
    let r = Reader::new(data);
    r.expect_magic(0, b"RARC").context("RARC header")?;
    let header: &raw::Header = r.get(0).context("RARC header")?;
    if header.info_offset.get() != 0x20 {
        return Err(Error::invalid(
            8,
            "data-header offset is not 0x20 (RARC-002)",
        ));
    }
    let info: &raw::Info = r.get(0x20).context("RARC info block")?;
    if info.node_offset.get() != 0x20 {
        return Err(Error::invalid(
            0x24,
            "node table offset is not 0x20 (RARC-003)",
        ));
    }
    let node_count = limits.check_elements(u64::from(info.node_count.get()), 0x20)?;
    let entry_count = limits.check_elements(u64::from(info.entry_count.get()), 0x28)?;
    let nodes = r
        .table::<raw::Node>(NODES_AT, node_count)
        .context("directory nodes")?;
    let entry_at = rel(info.entry_offset.get(), 0x2C)?;
    let entries = r
        .table::<raw::Entry>(entry_at, entry_count)
        .context("file entries")?;
    let strings = r
        .bytes(
            rel(info.string_offset.get(), 0x34)?,
            info.string_size.get() as usize,
        )
        .context("string table")?;
    let file_data = r
        .bytes(
            rel(header.data_offset.get(), 0x0C)?,
            header.data_len.get() as usize,
        )
        .context("file data")?;
    Ok(Rarc {
        data,
        header,
        info,
        nodes,
        entries,
        strings,
        file_data,
        limits,
    })
}

/// Absolute offset of a field stored relative to 0x20.
pub(crate) fn rel(v: u32, at: u64) -> Result<usize> {
    (v as usize)
        .checked_add(0x20)
        .ok_or_else(|| Error::invalid(at, "offset overflows"))
}

impl<'a> Rarc<'a> {
    /// The whole input.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// Absolute offset of the entry table.
    pub fn entries_at(&self) -> usize {
        self.info.entry_offset.get() as usize + 0x20
    }

    /// Absolute offset of the string table.
    pub fn strings_at(&self) -> usize {
        self.info.string_offset.get() as usize + 0x20
    }

    /// Absolute offset of the file data.
    pub fn data_at(&self) -> usize {
        self.header.data_offset.get() as usize + 0x20
    }

    /// The NUL-terminated name at `offset` in the string table (RARC-017).
    pub fn name(&self, offset: u32) -> Result<&'a [u8]> {
        Reader::with_base(self.strings, self.strings_at() as u64)
            .cstr(offset as usize)
            .context("string table")
    }

    /// Entry `i`, decoded.
    pub fn entry(&self, i: usize) -> Result<EntryRef<'a>> {
        let e = self
            .entries
            .get(i)
            .ok_or_else(|| Error::invalid(self.entries_at() as u64, format!("no entry {i}")))?;
        let an = e.attr_name.get();
        Ok(EntryRef {
            index: i,
            id: e.id.get(),
            hash: e.hash.get(),
            attr: Attr::from_bits_retain((an >> 24) as u8),
            name: self
                .name(an & 0x00FF_FFFF)
                .with_context(|| format!("entry {i}"))?,
            data: e.data.get(),
            size: e.size.get(),
        })
    }

    /// Name of directory node `i`.
    pub fn node_name(&self, i: usize) -> Result<&'a [u8]> {
        let n = self.node(i)?;
        self.name(n.name_offset.get())
            .with_context(|| format!("node {i}"))
    }

    fn node(&self, i: usize) -> Result<&'a raw::Node> {
        self.nodes
            .get(i)
            .ok_or_else(|| Error::invalid(NODES_AT as u64, format!("no directory node {i}")))
    }

    /// Entry indices of node `i`'s block, checked against the table (RARC-020).
    pub fn node_entries(&self, i: usize) -> Result<std::ops::Range<usize>> {
        let n = self.node(i)?;
        let first = n.first_entry.get() as usize;
        let end = first + usize::from(n.entry_count.get());
        if end > self.entries.len() {
            return Err(Error::invalid(
                (NODES_AT + i * 0x10 + 0x0A) as u64,
                format!(
                    "node {i}: entries {first}..{end} exceed the {} entries",
                    self.entries.len()
                ),
            ));
        }
        Ok(first..end)
    }

    /// Bytes of a file entry (borrowed, possibly compressed).
    pub fn file_bytes(&self, e: &EntryRef<'_>) -> Result<&'a [u8]> {
        Reader::with_base(self.file_data, self.data_at() as u64)
            .bytes(e.data as usize, e.size as usize)
            .with_context(|| format!("entry {} data", e.index))
    }

    /// Bytes of a file entry, decompressed when flagged COMPRESSED (Yaz0 with YAZ0, else Yay0;
    /// YAZ0-005) and the data carries the matching magic.
    pub fn decompressed(&self, e: &EntryRef<'_>) -> Result<Cow<'a, [u8]>> {
        let b = self.file_bytes(e)?;
        if e.attr.contains(Attr::COMPRESSED) {
            if yaz0::is_yaz0(b) {
                return yaz0::decode_with(b, &self.limits).map(Cow::Owned);
            }
            if yaz0::yay0::is_yay0(b) {
                return yaz0::yay0::decode_with(b, &self.limits).map(Cow::Owned);
            }
        }
        Ok(Cow::Borrowed(b))
    }

    /// Every directory, depth first from node 0, and every file with its path. Cycles and
    /// repeated nodes are errors; the walk is bounded by the limits.
    pub fn walk(&self) -> Result<(Vec<DirRef<'a>>, Vec<FileRef<'a>>)> {
        let mut dirs = Vec::new();
        // Sized by the entry table (bounded by the input): one allocation for the file list.
        let mut files = Vec::with_capacity(self.entries.len().min(1 << 16));
        if self.nodes.is_empty() {
            return Ok((dirs, files));
        }
        // Node indices are checked against the table before they are pushed, so a flag per node
        // replaces a hashed set (same errors: a repeat, or more nodes than the limits allow).
        let mut seen = vec![false; self.nodes.len()];
        let mut seen_count = 0u64;
        let mut stack = vec![(0usize, String::new(), 0u32)];
        let mut children = Vec::new();
        while let Some((node, path, depth)) = stack.pop() {
            let at = (NODES_AT + node * 0x10) as u64;
            self.limits.check_depth(depth, at)?;
            let flag = seen.get_mut(node);
            let repeat = flag.as_ref().is_none_or(|f| **f);
            if repeat
                || self
                    .limits
                    .check_nodes(seen_count + 1, node as u64)
                    .is_err()
            {
                return Err(Error::new(gcio::ErrorKind::Cycle { offset: at }, at))
                    .with_context(|| format!("directory node {node} reached twice"));
            }
            if let Some(f) = flag {
                *f = true;
            }
            seen_count += 1;
            let name = self.node_name(node)?;
            for i in self.node_entries(node)? {
                let e = self.entry(i)?;
                if e.is_dir() {
                    if !e.is_dot() {
                        let target = e.data as usize;
                        if target >= self.nodes.len() {
                            return Err(Error::invalid(
                                (self.entries_at() + i * 0x14 + 8) as u64,
                                format!("entry {i}: directory node {target} out of range"),
                            ));
                        }
                        children.push((target, join(&path, e.name), depth + 1));
                    }
                } else {
                    files.push(FileRef {
                        path: join(&path, e.name),
                        entry: e,
                    });
                }
            }
            dirs.push(DirRef {
                path,
                node,
                name,
                depth,
            });
            stack.extend(children.drain(..).rev());
        }
        Ok((dirs, files))
    }

    /// Looks a path up from the root, case-insensitively like the game. Returns the entry.
    pub fn lookup(&self, path: &str) -> Result<Option<EntryRef<'a>>> {
        let mut node = 0usize;
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let mut visited = Visited::new(self.limits);
        for (k, part) in parts.iter().enumerate() {
            visited.visit_once(node as u64)?;
            // The game hashes the lower-cased query and compares names; stored hashes follow the
            // stored case (SMG2 keeps it), so the stored hash only short-cuts exact-case hits.
            let part = crate::name::name_bytes(part);
            let h = name_hash(&part);
            let mut found = None;
            for i in self.node_entries(node)? {
                let e = self.entry(i)?;
                if (e.hash == h && e.name == part.as_slice()) || e.name.eq_ignore_ascii_case(&part)
                {
                    found = Some(e);
                    break;
                }
            }
            let Some(e) = found else { return Ok(None) };
            if k + 1 == parts.len() {
                return Ok(Some(e));
            }
            if !e.is_dir() {
                return Ok(None);
            }
            node = e.data as usize;
        }
        Ok(None)
    }
}

fn join(dir: &str, name: &[u8]) -> String {
    let name = crate::name::name_text(name);
    if dir.is_empty() {
        return name;
    }
    let mut out = String::with_capacity(dir.len() + 1 + name.len());
    out.push_str(dir);
    out.push('/');
    out.push_str(&name);
    out
}
