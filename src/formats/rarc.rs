//! `rarc`: RARC archives, the crate's contract (`rarc::Format`: detection, parse, write-back, the
//! RARC-* rules) presented with `info` (the tree), survey facts and `members` (decompressed, by
//! path). Extracting to and packing from folders is `gcf`'s (file I/O over the `rarc` crate's
//! manifest, which keeps the layout so that an extracted folder packs back byte for byte).

use std::borrow::Cow;

use bytes::Bytes;
use gcio::Result;
use rarc::{Archive, PackOptions};

use crate::{Info, Input, Member, Present, Registered};

/// The RARC format's presentation.
pub struct Rarc;

/// The registry entry.
pub static ENTRY: Registered<rarc::Format, Rarc> = Registered::new(Rarc);

/// The tree questions read the zero-copy view under the caller's limits (the owned model is the
/// write-back's).
impl Present<rarc::Format> for Rarc {
    fn info(&self, data: &Input<'_>, _: &Archive) -> Result<Info> {
        let v = view(data)?;
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
                rarc::manifest::name_text(d.name),
                d.node
            ));
            for f in files.iter().filter(|f| parent(&f.path) == d.path) {
                let e = &f.entry;
                text.push_str(&format!(
                    "{}{}  {} bytes  {}  id {}\n",
                    "  ".repeat(d.depth as usize + 1),
                    rarc::manifest::name_text(e.name),
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
    fn facts(&self, data: &Input<'_>, _: &Archive) -> Vec<(String, u64)> {
        let Ok(v) = view(data) else {
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

    /// Every member, decompressed; entries sharing another's data are left out (examined once).
    /// The decompressed total is bounded by the allocation limit.
    fn members(&self, data: &Input<'_>) -> Result<Vec<Member>> {
        let limits = data.limits();
        let v = view(data)?;
        let (_, files) = v.walk()?;
        let mut total = 0u64;
        let mut out = Vec::with_capacity(files.len());
        // Entries sharing data (RARC-030, reported by `check`) are examined once, under the
        // first entry's name: many aliases of one compressed member are a decompression bomb.
        let mut seen = std::collections::HashSet::new();
        for f in files {
            if f.entry.size > 0 && !seen.insert((f.entry.data, f.entry.size)) {
                continue;
            }
            let bytes = match v.decompressed(&f.entry)? {
                Cow::Borrowed(stored) => data.share(stored),
                Cow::Owned(decoded) => Bytes::from(decoded),
            };
            total += bytes.len() as u64;
            limits.check_alloc(total, 1, u64::from(f.entry.data))?;
            out.push(Member {
                data: bytes,
                name: f.path,
            });
        }
        Ok(out)
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        rarc::pack(&rarc::sample_tree(), PackOptions::default())
            .write()
            .map(|b| vec![("stage.arc".to_owned(), b)])
            .unwrap_or_default()
    }
}

/// The zero-copy view under the caller's limits.
fn view<'a>(data: &Input<'a>) -> Result<rarc::Rarc<'a>> {
    rarc::parse_with(data.bytes(), data.limits())
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(p, _)| p)
}
