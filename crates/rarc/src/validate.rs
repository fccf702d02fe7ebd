//! `RARC-*` findings. Never fails on a broken file: reports what it can read.

use gcio::{Diagnostic, Limits};

use crate::attr::{Attr, name_hash, node_type};
use crate::view::{NODES_AT, Rarc};

/// Checks an archive against the `RARC-*` rules (`docs/rules/rarc.md`).
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (an archive over them is the `RARC-001` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let v = match crate::parse_with(data, limits) {
        Ok(v) => v,
        Err(e) => {
            let msg = e.to_string();
            let rule = ["RARC-002", "RARC-003"]
                .into_iter()
                .find(|r| msg.contains(r))
                .unwrap_or("RARC-001");
            out.push(Diagnostic::error(rule, e.offset(), msg));
            return out;
        }
    };
    header(&v, data.len(), &mut out);
    tree(&v, &mut out);
    layout(&v, &mut out);
    aliases(&v, data.len(), &mut out);
    if let Err(e) = v.walk() {
        out.push(Diagnostic::error("RARC-020", e.offset(), e.to_string()));
    }
    out
}

fn header(v: &Rarc<'_>, len: usize, out: &mut Vec<Diagnostic>) {
    let h = v.header;
    if h.file_size.get() as usize != len {
        out.push(Diagnostic::error(
            "RARC-001",
            Some(4),
            format!(
                "header file size {:#x}, file is {len:#x} bytes",
                h.file_size.get()
            ),
        ));
    }
    let (m, a, d) = (h.mram_size.get(), h.aram_size.get(), h.dvd_size.get());
    if u64::from(m) + u64::from(a) + u64::from(d) != u64::from(h.data_len.get()) {
        out.push(Diagnostic::warning(
            "RARC-005",
            Some(0x14),
            format!(
                "MRAM {m:#x} + ARAM {a:#x} + DVD {d:#x} differs from the file-data length {:#x}",
                h.data_len.get()
            ),
        ));
    }
    if v.info.sync_ids > 1 {
        out.push(Diagnostic::warning(
            "RARC-008",
            Some(0x3A),
            format!("sync byte is {}", v.info.sync_ids),
        ));
    }
    if v.info.reserved != [0; 5] {
        out.push(Diagnostic::info(
            "RARC-009",
            Some(0x3B),
            "data-header bytes 0x1B..0x20 are not zero",
        ));
    }
    for (at, what) in [
        (v.entries_at(), "entry table"),
        (v.strings_at(), "string table"),
        (v.data_at(), "file data"),
    ] {
        if !at.is_multiple_of(32) {
            out.push(Diagnostic::warning(
                "RARC-021",
                Some(at as u64),
                format!("{what} not 32-byte aligned"),
            ));
        }
    }
    if !v.strings.len().is_multiple_of(32) {
        out.push(Diagnostic::info(
            "RARC-021",
            Some(0x30),
            "string-table size does not include padding to 32 (tool-written)",
        ));
    }
}

fn tree(v: &Rarc<'_>, out: &mut Vec<Diagnostic>) {
    let entry_at = |i: usize| Some((v.entries_at() + i * 0x14) as u64);
    let mut dvd_total = 0u64;
    let mut last_group = 0u8;
    let mut by_offset: Vec<(u32, u8, usize)> = Vec::new();
    for i in 0..v.entries.len() {
        let e = match v.entry(i) {
            Ok(e) => e,
            Err(err) => {
                out.push(Diagnostic::error("RARC-017", err.offset(), err.to_string()));
                continue;
            }
        };
        if e.hash != name_hash(e.name) {
            out.push(Diagnostic::warning(
                "RARC-018",
                entry_at(i),
                format!(
                    "entry {i} hash {:#06x} does not match its name (expected {:#06x})",
                    e.hash,
                    name_hash(e.name)
                ),
            ));
        }
        if v.entries.get(i).is_some_and(|r| r.reserved.get() != 0) {
            out.push(Diagnostic::info(
                "RARC-019",
                entry_at(i),
                format!("entry {i} trailing word is not 0"),
            ));
        }
        if e.attr.contains(Attr::YAZ0) && !e.attr.contains(Attr::COMPRESSED) {
            out.push(Diagnostic::error(
                "RARC-015",
                entry_at(i),
                format!("entry {i}: YAZ0 without COMPRESSED"),
            ));
        }
        if e.is_dir() {
            if e.id != 0xFFFF {
                out.push(Diagnostic::warning(
                    "RARC-013",
                    entry_at(i),
                    format!("directory entry {i} has ID {:#x}, not 0xFFFF", e.id),
                ));
            }
            if e.data as usize >= v.nodes.len() && !(e.name == b".." && e.data == u32::MAX) {
                out.push(Diagnostic::error(
                    "RARC-013",
                    entry_at(i),
                    format!(
                        "directory entry {i} points at node {} of {}",
                        e.data,
                        v.nodes.len()
                    ),
                ));
            }
            if e.size != 0x10 {
                out.push(Diagnostic::info(
                    "RARC-013",
                    entry_at(i),
                    format!("directory entry {i} size {:#x}, not 0x10", e.size),
                ));
            }
            continue;
        }
        if !e.attr.contains(Attr::FILE) {
            out.push(Diagnostic::warning(
                "RARC-014",
                entry_at(i),
                format!("entry {i} lacks the FILE attribute"),
            ));
        }
        if u64::from(e.data) + u64::from(e.size) > v.file_data.len() as u64 {
            out.push(Diagnostic::error(
                "RARC-014",
                entry_at(i),
                format!(
                    "entry {i} data {:#x}+{:#x} outside the file data",
                    e.data, e.size
                ),
            ));
        }
        if !e.data.is_multiple_of(32) {
            out.push(Diagnostic::error(
                "RARC-007",
                entry_at(i),
                format!("entry {i} data offset {:#x} not 32-byte aligned", e.data),
            ));
        }
        let loads = (e.attr & (Attr::MRAM | Attr::ARAM | Attr::DVD))
            .bits()
            .count_ones();
        if loads != 1 {
            out.push(Diagnostic::warning(
                "RARC-016",
                entry_at(i),
                format!("entry {i} has {loads} load attributes ({})", e.attr.names()),
            ));
        }
        if e.attr.contains(Attr::DVD) {
            dvd_total += u64::from(e.size).div_ceil(32) * 32;
        }
        by_offset.push((e.data, e.attr.load_group(), i));
    }
    by_offset.sort_unstable();
    for &(_, g, i) in &by_offset {
        if g < last_group {
            out.push(Diagnostic::error(
                "RARC-006",
                entry_at(i),
                format!("entry {i}: file data not ordered MRAM, ARAM, DVD"),
            ));
            break;
        }
        last_group = g;
    }
    let stored = v.header.dvd_size.get();
    if u64::from(stored) != dvd_total {
        out.push(Diagnostic::info(
            "RARC-028",
            Some(0x1C),
            format!(
                "header DVD size {stored:#x}, DVD files take {dvd_total:#x} (some tools write 0)"
            ),
        ));
    }
    for i in 0..v.nodes.len() {
        let at = Some((NODES_AT + i * 0x10) as u64);
        let Some(n) = v.nodes.get(i) else { continue };
        let name = match v.node_name(i) {
            Ok(n) => n,
            Err(e) => {
                out.push(Diagnostic::error("RARC-017", e.offset(), e.to_string()));
                continue;
            }
        };
        let want = if i == 0 { *b"ROOT" } else { node_type(name) };
        if n.ty != want {
            out.push(Diagnostic::warning(
                "RARC-010",
                at,
                format!(
                    "node {i} type {:?}, expected {:?}",
                    String::from_utf8_lossy(&n.ty),
                    String::from_utf8_lossy(&want)
                ),
            ));
        }
        if n.hash.get() != name_hash(name) {
            out.push(Diagnostic::warning(
                "RARC-018",
                at,
                format!("node {i} hash does not match its name"),
            ));
        }
        let range = match v.node_entries(i) {
            Ok(r) => r,
            Err(e) => {
                out.push(Diagnostic::error("RARC-020", e.offset(), e.to_string()));
                continue;
            }
        };
        let mut dot = None;
        let mut dotdot = None;
        let mut seen: Vec<Vec<u8>> = Vec::new();
        for k in range {
            if let Ok(e) = v.entry(k) {
                match e.name {
                    b"." if e.is_dir() && dot.is_none() => dot = Some(e.data),
                    b".." if e.is_dir() && dotdot.is_none() => dotdot = Some(e.data),
                    name => names(i, k, name, &mut seen, v, out),
                }
            }
        }
        match (dot, dotdot) {
            (Some(d), Some(_)) if d as usize != i => out.push(Diagnostic::warning(
                "RARC-012",
                at,
                format!("node {i}: \".\" points at node {d}"),
            )),
            (Some(_), Some(_)) => {}
            _ => out.push(Diagnostic::error(
                "RARC-011",
                at,
                format!("node {i} lacks \".\" or \"..\""),
            )),
        }
        if i == 0 && dotdot.is_some_and(|d| d != u32::MAX) {
            out.push(Diagnostic::warning(
                "RARC-012",
                at,
                "root \"..\" is not 0xFFFFFFFF",
            ));
        }
    }
    if v.info.sync_ids == 1 {
        let synced = (0..v.entries.len()).all(|i| {
            v.entry(i)
                .is_ok_and(|e| e.is_dir() || usize::from(e.id) == i)
        });
        if !synced || usize::from(v.info.next_id.get()) != v.entries.len() {
            out.push(Diagnostic::warning(
                "RARC-022",
                Some(0x38),
                "sync on, but file IDs or next-free-id are not entry positions",
            ));
        }
    }
}

/// RARC-029: a name the game (and a folder on disk) can tell apart: not empty, not "." or ".."
/// (other than the directory's own two entries), no path separator, unique in its directory
/// ignoring case (the game's lookup ignores it), not the extract manifest's name.
fn names(
    node: usize,
    entry: usize,
    name: &[u8],
    seen: &mut Vec<Vec<u8>>,
    v: &Rarc<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let at = Some((v.entries_at() + entry * 0x14) as u64);
    let shown = String::from_utf8_lossy(name);
    let why = if name.is_empty() {
        Some("is empty".to_owned())
    } else if name == b"." || name == b".." {
        Some("is a second \".\" or \"..\" (hides members when extracted)".to_owned())
    } else if name.iter().any(|&b| b == b'/' || b == b'\\' || b < 0x20) {
        Some("contains a path separator or control byte".to_owned())
    } else if node == 0 && name.eq_ignore_ascii_case(crate::manifest::MANIFEST.as_bytes()) {
        Some("is the extract manifest's name".to_owned())
    } else if seen.iter().any(|s| s.eq_ignore_ascii_case(name)) {
        Some(
            "repeats another name in its directory (ignoring case, as the game's lookup does)"
                .to_owned(),
        )
    } else {
        None
    };
    seen.push(name.to_vec());
    if let Some(why) = why {
        out.push(Diagnostic::warning(
            "RARC-029",
            at,
            format!(
                "node {node}, entry {entry}: name {shown:?} {why}; extracted under a safe name"
            ),
        ));
    }
}

/// Conventions of game-written (retail) archives: data after the tables (RARC-004), string table
/// starting with the root name then "." and ".." (RARC-024), BFS nodes / DFS entry blocks
/// (RARC-025), identical payloads shared (RARC-026). Tool-written archives differ: info only.
fn layout(v: &Rarc<'_>, out: &mut Vec<Diagnostic>) {
    let strings_end = v.strings_at() + v.strings.len();
    if v.data_at() < strings_end || v.strings_at() < v.entries_at() + v.entries.len() * 0x14 {
        out.push(Diagnostic::error(
            "RARC-004",
            Some(0x0C),
            "tables overlap: file data must follow the string table, which follows the entries",
        ));
    }
    let root = v.node_name(0).unwrap_or_default();
    let mut want = Vec::new();
    for s in [root, b".", b".."] {
        want.extend_from_slice(s);
        want.push(0);
    }
    if !v.strings.starts_with(&want) {
        out.push(Diagnostic::info(
            "RARC-024",
            Some(v.strings_at() as u64),
            "string table does not start with the root name, \".\", \"..\" (tool-written layout)",
        ));
    }
    // BFS node order: the subdirectory entries met block by block in node order must name nodes
    // 1, 2, 3, … in turn; DFS blocks: each node's block starts where the previous one (in DFS
    // order) ended.
    let mut expect_node = 1u32;
    let mut bfs = true;
    for i in 0..v.nodes.len() {
        for k in v.node_entries(i).unwrap_or(0..0) {
            if let Ok(e) = v.entry(k)
                && e.is_dir()
                && !e.is_dot()
            {
                bfs &= e.data == expect_node;
                expect_node += 1;
            }
        }
    }
    if !bfs {
        out.push(Diagnostic::info(
            "RARC-025",
            Some(0x40),
            "directory nodes are not in breadth-first order (tool-written layout)",
        ));
    }
    if let Ok((dirs, _)) = v.walk() {
        let mut next = 0u32;
        let mut dfs = true;
        for d in &dirs {
            let first = v.nodes.get(d.node).map_or(0, |n| n.first_entry.get());
            dfs &= first == next;
            next = first
                + v.nodes
                    .get(d.node)
                    .map_or(0, |n| u32::from(n.entry_count.get()));
        }
        if !dfs {
            out.push(Diagnostic::info(
                "RARC-025",
                Some(v.entries_at() as u64),
                "entry blocks are not in depth-first order of the tree",
            ));
        }
    }
    let mut seen: std::collections::HashMap<&[u8], u32> = std::collections::HashMap::new();
    let mut unshared = 0usize;
    for k in 0..v.entries.len() {
        let Ok(e) = v.entry(k) else { continue };
        if e.is_dir() || e.size == 0 {
            continue;
        }
        let Ok(bytes) = v.file_bytes(&e) else {
            continue;
        };
        match seen.get(bytes) {
            Some(&off) if off != e.data => unshared += 1,
            Some(_) => {}
            None => {
                seen.insert(bytes, e.data);
            }
        }
    }
    if unshared > 0 {
        out.push(Diagnostic::info(
            "RARC-026",
            Some(v.data_at() as u64),
            format!("{unshared} file(s) store a payload identical to an earlier one instead of sharing it"),
        ));
    }
}

/// How many times its own size an archive may expand to through entries sharing data before
/// RARC-030 warns (a decompression bomb: many entries naming one compressed member).
const ALIAS_EXPANSION_WARN: u64 = 16;

/// RARC-030: entries whose compressed data range is an earlier entry's. Sharing is legitimate
/// (RARC-026) but every such alias is decompressed and extracted again, so the count and what
/// the aliases expand to are reported; a warning when they expand past
/// [`ALIAS_EXPANSION_WARN`] times the archive's size.
fn aliases(v: &Rarc<'_>, len: usize, out: &mut Vec<Diagnostic>) {
    let mut first: std::collections::HashMap<(u32, u32), usize> = std::collections::HashMap::new();
    let (mut count, mut expanded) = (0u64, 0u64);
    let mut at = None;
    for k in 0..v.entries.len() {
        let Ok(e) = v.entry(k) else { continue };
        if e.is_dir() || e.size == 0 {
            continue;
        }
        if first.insert((e.data, e.size), k).is_none() {
            continue;
        }
        // A compressed member expands to its stream's declared size (header word 4); sharing
        // plain data is the retail convention (RARC-026) and costs nothing to report.
        let stored = v.file_bytes(&e).unwrap_or_default();
        let Some(declared) = (e.attr.contains(Attr::COMPRESSED)
            && (yaz0::is_yaz0(stored) || yaz0::yay0::is_yay0(stored)))
        .then(|| stored.get(4..8))
        .flatten()
        .and_then(|w| w.try_into().ok())
        .map(u32::from_be_bytes) else {
            continue;
        };
        count += 1;
        at.get_or_insert((v.entries_at() + k * 0x14) as u64);
        expanded += u64::from(declared);
    }
    if count == 0 {
        return;
    }
    let msg = format!(
        "{count} file entr{} share the compressed data of an earlier entry ({expanded} bytes when extracted)",
        if count == 1 { "y" } else { "ies" }
    );
    out.push(
        if expanded > ALIAS_EXPANSION_WARN.saturating_mul(len as u64) {
            Diagnostic::warning(
                "RARC-030",
                at,
                format!(
                    "{msg}, {}x the archive's size",
                    expanded / (len as u64).max(1)
                ),
            )
        } else {
            Diagnostic::info("RARC-030", at, msg)
        },
    );
}
