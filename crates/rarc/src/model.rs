//! The owned model: tables in stored order plus every layout fact (string-table bytes, gaps and
//! padding, data regions shared by entries), so [`Archive::write`] reproduces any parsed archive,
//! and edits change only what they touch.

use gcio::{Context, Error, Limits, Result, Visited};

use crate::attr::{Attr, name_hash, node_type};
use crate::view::{NODES_AT, Rarc};

/// A directory node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Stored type (`ROOT`, first four letters upper-cased).
    pub ty: [u8; 4],
    /// Name.
    pub name: Vec<u8>,
    /// Stored name offset, reused while it still spells `name`.
    pub name_offset: u32,
    /// Stored name hash (kept verbatim; edits recompute it).
    pub hash: u16,
    /// First entry index.
    pub first_entry: u32,
    /// Entry count, "." and ".." included.
    pub entry_count: u16,
}

/// What an entry points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// File bytes: `offset` bytes into data region `region`.
    File {
        /// Index into [`Archive::regions`].
        region: usize,
        /// Offset inside the region.
        offset: u32,
    },
    /// A directory node index (0xFFFFFFFF for the top "..").
    Dir(u32),
}

/// A file entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// File ID (0xFFFF for directories); written back verbatim (RARC-023).
    pub id: u16,
    /// Stored name hash.
    pub hash: u16,
    /// Attributes.
    pub attr: Attr,
    /// Name.
    pub name: Vec<u8>,
    /// Stored name offset, reused while it still spells `name`.
    pub name_offset: u32,
    /// Data or node.
    pub target: Target,
    /// Size field (file size; 0x10 for directories).
    pub size: u32,
    /// Trailing word (0 in files).
    pub reserved: u32,
}

impl Entry {
    /// True for directory entries.
    pub fn is_dir(&self) -> bool {
        matches!(self.target, Target::Dir(_))
    }
}

/// A run of the data section holding one or more files (shared when entries dedup their data),
/// followed by the padding or other bytes up to the next region.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Region {
    /// The region's bytes.
    pub data: Vec<u8>,
    /// Bytes after it (padding to 32, gclib's padding text, …).
    pub gap: Vec<u8>,
}

/// Bytes between two tables, and where the table before them ended when parsed: kept verbatim while
/// that end does not move, else re-made as padding to 32 in the same fill.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Gap {
    /// The stored bytes.
    pub bytes: Vec<u8>,
    /// Absolute offset where they started.
    pub at: usize,
}

impl Gap {
    pub(crate) fn padding_bytes(&self, end: usize) -> Vec<u8> {
        if end == self.at {
            return self.bytes.clone();
        }
        let n = gcio::padding_for(end, 32);
        if self.bytes.is_empty() {
            vec![0; n]
        } else {
            self.bytes.iter().copied().cycle().take(n).collect()
        }
    }
}

/// An archive, editable, that writes back byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archive {
    /// Header 0x04 when it differs from the real file length (kept so such files round-trip;
    /// `None`: written as the length).
    pub file_size: Option<u32>,
    /// Header 0x14: total size of MRAM files (kept; [`Archive::recompute_sizes`] after edits).
    pub mram_size: u32,
    /// Header 0x18: total size of ARAM files.
    pub aram_size: u32,
    /// Header 0x1C: total size of DVD files (0 from some tools, C-06).
    pub dvd_size: u32,
    /// Next free file ID.
    pub next_id: u16,
    /// Sync flag byte (C-07).
    pub sync_ids: u8,
    /// Info block bytes 0x1B..0x20.
    pub info_reserved: [u8; 5],
    /// Directory nodes in stored order.
    pub nodes: Vec<Node>,
    /// Entries in stored order.
    pub entries: Vec<Entry>,
    /// The string table as stored (including its padding).
    pub strings: Vec<u8>,
    /// Data regions in data-section order.
    pub regions: Vec<Region>,
    /// Bytes after the node table.
    pub after_nodes: Gap,
    /// Bytes after the entry table.
    pub after_entries: Gap,
    /// Bytes after the string table, before the data.
    pub after_strings: Gap,
    /// Data-section bytes before the first region.
    pub data_lead: Vec<u8>,
    /// Bytes after the data section.
    pub tail: Vec<u8>,
}

impl Archive {
    /// Parses an archive into the model (default [`Limits`]).
    pub fn parse(data: &[u8]) -> Result<Archive> {
        Self::parse_with(data, &Limits::default())
    }

    /// Parses an archive into the model; `limits` bound the counts and the walk.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Archive> {
        Self::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// Builds the model from a view under `limits` (the view may have been parsed with others):
    /// the table counts, and the bytes copied — the file's tables, strings and data once, plus
    /// every name, which many entries may share (a quadratic bomb if uncounted).
    pub fn from_view(v: &Rarc<'_>, limits: &Limits) -> Result<Archive> {
        let data = v.bytes();
        limits.check_elements(v.nodes.len() as u64, 0x20)?;
        limits.check_elements(v.entries.len() as u64, 0x28)?;
        let mut copied = data.len() as u64;
        let mut name = |bytes: &[u8], at: usize| -> Result<Vec<u8>> {
            copied += bytes.len() as u64;
            limits.check_alloc(copied, 1, at as u64)?;
            Ok(bytes.to_vec())
        };
        name(&[], 0)?;
        let mut nodes = Vec::with_capacity(v.nodes.len());
        for (i, n) in v.nodes.iter().enumerate() {
            nodes.push(Node {
                ty: n.ty,
                name: name(v.node_name(i)?, NODES_AT + i * 0x10)?,
                name_offset: n.name_offset.get(),
                hash: n.hash.get(),
                first_entry: n.first_entry.get(),
                entry_count: n.entry_count.get(),
            });
        }
        // Data regions: the union of overlapping file ranges (and ranges sharing a start).
        let mut ranges: Vec<(usize, usize, usize)> = Vec::new();
        for i in 0..v.entries.len() {
            let e = v.entry(i)?;
            if !e.is_dir() {
                let (off, len) = (e.data as usize, e.size as usize);
                if off
                    .checked_add(len)
                    .is_none_or(|end| end > v.file_data.len())
                {
                    return Err(Error::invalid(
                        (v.entries_at() + i * 0x14 + 8) as u64,
                        format!(
                            "entry {i}: data {off:#x}+{len:#x} outside the file data ({:#x} bytes) (RARC-014)",
                            v.file_data.len()
                        ),
                    ));
                }
                ranges.push((off, off + len, i));
            }
        }
        ranges.sort_unstable();
        let mut spans: Vec<(usize, usize)> = Vec::new();
        let mut owner = vec![usize::MAX; v.entries.len()];
        for &(s, e, i) in &ranges {
            match spans.last_mut() {
                Some(last) if s < last.1 || s == last.0 => last.1 = last.1.max(e),
                _ => spans.push((s, e)),
            }
            if let Some(o) = owner.get_mut(i) {
                *o = spans.len() - 1;
            }
        }
        let section = v.file_data;
        let lead_end = spans.first().map_or(section.len(), |s| s.0);
        let mut regions = Vec::with_capacity(spans.len());
        for (k, &(s, e)) in spans.iter().enumerate() {
            let next = spans.get(k + 1).map_or(section.len(), |n| n.0);
            regions.push(Region {
                data: section.get(s..e).unwrap_or_default().to_vec(),
                gap: section.get(e..next).unwrap_or_default().to_vec(),
            });
        }
        let mut entries = Vec::with_capacity(v.entries.len());
        for i in 0..v.entries.len() {
            let e = v.entry(i)?;
            let raw = v.entries.get(i).map_or(0, |r| r.reserved.get());
            let target = if e.is_dir() {
                Target::Dir(e.data)
            } else {
                let region = owner.get(i).copied().unwrap_or(0);
                let start = spans.get(region).map_or(0, |s| s.0);
                Target::File {
                    region,
                    offset: e.data - start as u32,
                }
            };
            entries.push(Entry {
                id: e.id,
                hash: e.hash,
                attr: e.attr,
                name: name(e.name, v.entries_at() + i * 0x14)?,
                name_offset: v
                    .entries
                    .get(i)
                    .map_or(0, |r| r.attr_name.get() & 0x00FF_FFFF),
                target,
                size: e.size,
                reserved: raw,
            });
        }
        let nodes_end = NODES_AT + v.nodes.len() * 0x10;
        let entries_at = v.entries_at();
        let entries_end = entries_at + v.entries.len() * 0x14;
        let strings_at = v.strings_at();
        let strings_end = strings_at + v.strings.len();
        let data_at = v.data_at();
        let data_end = data_at + section.len();
        let gap = |a: usize, b: usize, what: &str| -> Result<Gap> {
            data.get(a..b)
                .map(|bytes| Gap {
                    bytes: bytes.to_vec(),
                    at: a,
                })
                .ok_or_else(|| {
                    Error::invalid(
                        a as u64,
                        format!("{what} overlaps the section before it (tables must follow each other in order)"),
                    )
                })
        };
        let stored_size = v.header.file_size.get();
        Ok(Archive {
            file_size: (stored_size as usize != data.len()).then_some(stored_size),
            mram_size: v.header.mram_size.get(),
            aram_size: v.header.aram_size.get(),
            dvd_size: v.header.dvd_size.get(),
            next_id: v.info.next_id.get(),
            sync_ids: v.info.sync_ids,
            info_reserved: v.info.reserved,
            nodes,
            entries,
            strings: v.strings.to_vec(),
            regions,
            after_nodes: gap(nodes_end, entries_at, "entry table")?,
            after_entries: gap(entries_end, strings_at, "string table")?,
            after_strings: gap(strings_end, data_at, "file data")?,
            data_lead: section.get(..lead_end).unwrap_or_default().to_vec(),
            tail: data.get(data_end..).unwrap_or_default().to_vec(),
        })
    }

    /// The bytes of a file entry.
    pub fn file_data(&self, entry: usize) -> Option<&[u8]> {
        let e = self.entries.get(entry)?;
        match e.target {
            Target::File { region, offset } => {
                let r = self.regions.get(region)?;
                let s = offset as usize;
                r.data.get(s..s + e.size as usize)
            }
            Target::Dir(_) => None,
        }
    }

    /// Every file as (path, entry index), depth first from the root; cycles are errors. The walk
    /// is bounded by the default [`Limits`].
    pub fn files(&self) -> Result<Vec<(String, usize)>> {
        self.files_with(&Limits::default())
    }

    /// [`Archive::files`] with the caller's `limits` bounding the depth and the nodes visited.
    pub fn files_with(&self, limits: &Limits) -> Result<Vec<(String, usize)>> {
        let mut out = Vec::new();
        if self.nodes.is_empty() {
            return Ok(out);
        }
        let mut visited = Visited::new(*limits);
        let mut stack = vec![(0usize, String::new(), 0u32)];
        while let Some((node, path, depth)) = stack.pop() {
            limits.check_depth(depth, NODES_AT as u64)?;
            visited
                .visit_once(node as u64)
                .with_context(|| format!("directory node {node}"))?;
            let n = self.nodes.get(node).ok_or_else(|| {
                Error::invalid(
                    NODES_AT as u64,
                    format!("directory node {node} out of range"),
                )
            })?;
            let first = n.first_entry as usize;
            let mut subdirs = Vec::new();
            for i in first..first + usize::from(n.entry_count) {
                let Some(e) = self.entries.get(i) else { break };
                let p = if path.is_empty() {
                    crate::name::name_text(&e.name)
                } else {
                    format!("{path}/{}", crate::name::name_text(&e.name))
                };
                match e.target {
                    Target::Dir(d) if e.name != b"." && e.name != b".." => {
                        subdirs.push((d as usize, p, depth + 1));
                    }
                    Target::Dir(_) => {}
                    Target::File { .. } => out.push((p, i)),
                }
            }
            stack.extend(subdirs.into_iter().rev());
        }
        Ok(out)
    }

    /// The entry index of the file or directory at `path` (case-insensitive, like the game).
    pub fn find(&self, path: &str) -> Option<usize> {
        let mut node = 0usize;
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        for (k, part) in parts.iter().enumerate() {
            let n = self.nodes.get(node)?;
            let first = n.first_entry as usize;
            let i = (first..first + usize::from(n.entry_count)).find(|&i| {
                self.entries
                    .get(i)
                    .is_some_and(|e| e.name.eq_ignore_ascii_case(part.as_bytes()))
            })?;
            if k + 1 == parts.len() {
                return Some(i);
            }
            match self.entries.get(i)?.target {
                Target::Dir(d) => node = d as usize,
                Target::File { .. } => return None,
            }
        }
        None
    }

    /// Replaces a file's bytes. A region used only by this file is overwritten in place (its padding
    /// re-made); a shared region is left to the other entries and the file gets a new region at the
    /// end of its load group (RARC-006). Header sizes are recomputed.
    pub fn replace_data(&mut self, entry: usize, data: Vec<u8>) -> Result<()> {
        let e = self.entries.get(entry).ok_or_else(|| {
            Error::without_offset(gcio::ErrorKind::Invalid(format!("no entry {entry}")))
        })?;
        let Target::File { region, .. } = e.target else {
            return Err(Error::without_offset(gcio::ErrorKind::Invalid(format!(
                "entry {entry} is a directory"
            ))));
        };
        let group = e.attr.load_group();
        let shared = self.entries.iter().enumerate().any(|(i, o)| {
            i != entry && matches!(o.target, Target::File { region: r, .. } if r == region)
        });
        let size = data.len() as u32;
        let new_region = if shared {
            self.insert_region(group, data)
        } else {
            if let Some(r) = self.regions.get_mut(region) {
                r.gap = vec![0; gcio::padding_for(data.len(), 32)];
                r.data = data;
            }
            region
        };
        if let Some(e) = self.entries.get_mut(entry) {
            e.target = Target::File {
                region: new_region,
                offset: 0,
            };
            e.size = size;
        }
        self.recompute_sizes();
        Ok(())
    }

    /// Inserts a region (padded to 32) after the last region of load group `group` or lower.
    fn insert_region(&mut self, group: u8, data: Vec<u8>) -> usize {
        let mut at = 0;
        for (i, _) in self.regions.iter().enumerate() {
            if self.region_group(i).is_some_and(|g| g <= group) {
                at = i + 1;
            }
        }
        let gap = vec![0; gcio::padding_for(data.len(), 32)];
        self.regions.insert(at, Region { data, gap });
        for e in &mut self.entries {
            if let Target::File { region, .. } = &mut e.target
                && *region >= at
            {
                *region += 1;
            }
        }
        at
    }

    fn region_group(&self, region: usize) -> Option<u8> {
        self.entries.iter().find_map(|e| match e.target {
            Target::File { region: r, .. } if r == region => Some(e.attr.load_group()),
            _ => None,
        })
    }

    /// Renames an entry (and its directory node); the hash and node type follow the new name.
    pub fn rename(&mut self, entry: usize, name: &[u8]) -> Result<()> {
        let e = self.entries.get_mut(entry).ok_or_else(|| {
            Error::without_offset(gcio::ErrorKind::Invalid(format!("no entry {entry}")))
        })?;
        e.name = name.to_vec();
        e.hash = name_hash(name);
        if let Target::Dir(d) = e.target
            && let Some(n) = self.nodes.get_mut(d as usize)
        {
            n.name = name.to_vec();
            n.hash = name_hash(name);
            if d != 0 {
                n.ty = node_type(name);
            }
        }
        Ok(())
    }

    /// Adds a file to directory node `node`, after its other children and before "." and "..".
    /// With sync on, every ID becomes its entry position again; otherwise the file takes the next
    /// free ID. Returns the new entry's index.
    pub fn add_file(
        &mut self,
        node: usize,
        name: &[u8],
        attr: Attr,
        data: Vec<u8>,
    ) -> Result<usize> {
        self.nodes
            .get(node)
            .ok_or_else(|| Error::message(format!("no directory node {node}")))?;
        let size = data.len() as u32;
        let region = self.insert_region(attr.load_group(), data);
        let entry = Entry {
            id: self.next_id,
            hash: name_hash(name),
            attr,
            name: name.to_vec(),
            name_offset: u32::MAX,
            target: Target::File { region, offset: 0 },
            size,
            reserved: 0,
        };
        self.next_id = self.next_id.wrapping_add(1);
        let at = self.attach(node, entry)?;
        self.after_edit();
        Ok(at)
    }

    /// Adds an empty directory named `name` to directory node `parent` (its entry after the
    /// parent's other children, before "." and ".."; its node and its "." / ".." block at the end
    /// of their tables). Returns the new node's index.
    pub fn add_dir(&mut self, parent: usize, name: &[u8]) -> Result<usize> {
        self.nodes
            .get(parent)
            .ok_or_else(|| Error::message(format!("no directory node {parent}")))?;
        let node = self.nodes.len();
        let first = self.entries.len() as u32;
        self.entries.push(dir_entry(b".".to_vec(), node as u32));
        self.entries.push(dir_entry(b"..".to_vec(), parent as u32));
        self.nodes.push(Node {
            ty: node_type(name),
            name: name.to_vec(),
            name_offset: u32::MAX,
            hash: name_hash(name),
            first_entry: first,
            entry_count: 2,
        });
        self.attach(parent, dir_entry(name.to_vec(), node as u32))?;
        self.after_edit();
        Ok(node)
    }

    /// Removes a file entry (its data region goes when no other entry uses it).
    pub fn remove_file(&mut self, entry: usize) -> Result<()> {
        let e = self.detach(entry)?;
        if let Target::File { region, .. } = e.target {
            let used = self
                .entries
                .iter()
                .any(|e| matches!(e.target, Target::File { region: r, .. } if r == region));
            if !used {
                self.regions.remove(region);
                for e in &mut self.entries {
                    if let Target::File { region: r, .. } = &mut e.target
                        && *r > region
                    {
                        *r -= 1;
                    }
                }
            }
        }
        self.after_edit();
        Ok(())
    }

    /// Moves a file entry into directory node `node` (after its children, before "." and "..");
    /// its ID, attributes and data stay. Returns the entry's new index.
    pub fn move_file(&mut self, entry: usize, node: usize) -> Result<usize> {
        self.nodes
            .get(node)
            .ok_or_else(|| Error::message(format!("no directory node {node}")))?;
        let e = self.detach(entry)?;
        let at = self.attach(node, e)?;
        self.after_edit();
        Ok(at)
    }

    /// Takes a file entry out of the table, closing the gap in the node blocks.
    fn detach(&mut self, entry: usize) -> Result<Entry> {
        match self.entries.get(entry) {
            Some(e) if !e.is_dir() => {}
            _ => return Err(Error::message(format!("entry {entry} is not a file"))),
        }
        let e = self.entries.remove(entry);
        for n in &mut self.nodes {
            let first = n.first_entry as usize;
            if (first..first + usize::from(n.entry_count)).contains(&entry) {
                n.entry_count -= 1;
            } else if first > entry {
                n.first_entry -= 1;
            }
        }
        Ok(e)
    }

    /// Inserts `e` into node `node`'s block before its "." and ".." entries.
    fn attach(&mut self, node: usize, e: Entry) -> Result<usize> {
        let n = self
            .nodes
            .get(node)
            .ok_or_else(|| Error::message(format!("no directory node {node}")))?;
        let first = n.first_entry as usize;
        let count = usize::from(n.entry_count);
        let dots = (first..first + count)
            .filter(|&i| {
                self.entries
                    .get(i)
                    .is_some_and(|e| e.name == b"." || e.name == b"..")
            })
            .count();
        let at = (first + count - dots).min(self.entries.len());
        self.entries.insert(at, e);
        for (i, n) in self.nodes.iter_mut().enumerate() {
            if i == node {
                n.entry_count = n.entry_count.saturating_add(1);
            } else if n.first_entry as usize >= at {
                n.first_entry += 1;
            }
        }
        Ok(at)
    }

    /// Game rules after a structural edit: IDs follow positions when sync is on; sizes are
    /// recomputed.
    fn after_edit(&mut self) {
        if self.sync_ids != 0 {
            self.sync_file_ids();
        }
        self.recompute_sizes();
    }

    /// Turns sync on: every file's ID becomes its entry position, next-free-id the entry count
    /// (RARC-022).
    pub fn sync_file_ids(&mut self) {
        self.sync_ids = 1;
        for (i, e) in self.entries.iter_mut().enumerate() {
            if !e.is_dir() {
                e.id = i as u16;
            }
        }
        self.next_id = self.entries.len() as u16;
    }

    /// Recomputes the header's MRAM/ARAM/DVD totals from the regions (padded sizes). A stored DVD
    /// total of 0 stays 0 (the gclib convention, C-06).
    pub fn recompute_sizes(&mut self) {
        let mut sums = [0u32; 3];
        for (i, r) in self.regions.iter().enumerate() {
            let g = usize::from(self.region_group(i).unwrap_or(0));
            if let Some(s) = sums.get_mut(g) {
                *s += (r.data.len() + r.gap.len()) as u32;
            }
        }
        let [m, a, d] = sums;
        self.mram_size = m;
        self.aram_size = a;
        if self.dvd_size != 0 || d == 0 {
            self.dvd_size = d;
        }
    }
}

/// A folder's entry (`.`, `..` or a sub-folder) pointing at node `node`.
pub(crate) fn dir_entry(name: Vec<u8>, node: u32) -> Entry {
    Entry {
        id: 0xFFFF,
        hash: name_hash(&name),
        attr: Attr::DIRECTORY,
        name,
        name_offset: u32::MAX,
        target: Target::Dir(node),
        size: 0x10,
        reserved: 0,
    }
}
