//! Writes an [`Archive`]: recomputes counts, offsets and sizes, keeps every stored byte that is
//! still valid (name offsets, gaps, padding, region order and sharing).

use gcio::{Result, Writer};

use crate::model::{Archive, Target};
use crate::view::NODES_AT;

/// Resolves names to string-table offsets: a stored offset that still spells the name is kept,
/// otherwise an existing copy is reused, otherwise the name is appended (after cutting the old
/// padding) and the table re-padded to 32.
struct Names {
    table: Vec<u8>,
    used_end: usize,
    appended: bool,
}

impl Names {
    fn spells(table: &[u8], off: u32, name: &[u8]) -> bool {
        let s = off as usize;
        table.get(s..s + name.len()) == Some(name) && table.get(s + name.len()) == Some(&0)
    }

    fn find(&self, name: &[u8]) -> Option<u32> {
        let mut start = 0;
        while start < self.used_end {
            let len = self.table.get(start..)?.iter().position(|&b| b == 0)?;
            if self.table.get(start..start + len) == Some(name) {
                return Some(start as u32);
            }
            start += len + 1;
        }
        None
    }

    fn resolve(&mut self, off: u32, name: &[u8]) -> u32 {
        if Self::spells(&self.table, off, name) {
            return off;
        }
        if let Some(o) = self.find(name) {
            return o;
        }
        if !self.appended {
            self.table.truncate(self.used_end);
            self.appended = true;
        }
        let o = self.table.len() as u32;
        self.table.extend_from_slice(name);
        self.table.push(0);
        self.used_end = self.table.len();
        o
    }
}

impl Archive {
    /// Writes the archive.
    pub fn write(&self) -> Result<Vec<u8>> {
        // Names: first the ones whose stored offsets still hold, to know where the used part ends.
        let mut used_end = 0;
        let all_names = self
            .nodes
            .iter()
            .map(|n| (n.name_offset, &n.name))
            .chain(self.entries.iter().map(|e| (e.name_offset, &e.name)));
        for (off, name) in all_names.clone() {
            if Names::spells(&self.strings, off, name) {
                used_end = used_end.max(off as usize + name.len() + 1);
            }
        }
        let mut names = Names {
            table: self.strings.clone(),
            used_end,
            appended: false,
        };
        let offsets: Vec<u32> = all_names
            .map(|(off, name)| names.resolve(off, name))
            .collect();
        if names.appended {
            let pad = gcio::padding_for(names.table.len(), 32);
            names.table.resize(names.table.len() + pad, 0);
        }
        let (node_names, entry_names) = offsets.split_at(self.nodes.len());

        // Layout.
        let nodes_end = NODES_AT + self.nodes.len() * 0x10;
        let gap1 = self.after_nodes.padding_bytes(nodes_end);
        let entries_at = nodes_end + gap1.len();
        let entries_end = entries_at + self.entries.len() * 0x14;
        let gap2 = self.after_entries.padding_bytes(entries_end);
        let strings_at = entries_end + gap2.len();
        let strings_end = strings_at + names.table.len();
        let gap3 = self.after_strings.padding_bytes(strings_end);
        let data_at = strings_end + gap3.len();
        let mut region_at = Vec::with_capacity(self.regions.len());
        let mut pos = self.data_lead.len();
        for r in &self.regions {
            region_at.push(pos);
            pos += r.data.len() + r.gap.len();
        }
        let data_len = pos;
        let total = data_at + data_len + self.tail.len();

        let u32_of = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        let mut w = Writer::with_capacity(total);
        w.bytes(b"RARC")
            .u32(self.file_size.unwrap_or(u32_of(total)))
            .u32(0x20)
            .u32(u32_of(data_at - 0x20))
            .u32(u32_of(data_len))
            .u32(self.mram_size)
            .u32(self.aram_size)
            .u32(self.dvd_size);
        w.u32(u32_of(self.nodes.len()))
            .u32(0x20)
            .u32(u32_of(self.entries.len()))
            .u32(u32_of(entries_at - 0x20))
            .u32(u32_of(names.table.len()))
            .u32(u32_of(strings_at - 0x20))
            .u16(self.next_id)
            .u8(self.sync_ids)
            .bytes(&self.info_reserved);
        for (n, &off) in self.nodes.iter().zip(node_names) {
            w.bytes(&n.ty)
                .u32(off)
                .u16(n.hash)
                .u16(n.entry_count)
                .u32(n.first_entry);
        }
        w.bytes(&gap1);
        for (e, &off) in self.entries.iter().zip(entry_names) {
            let data = match e.target {
                Target::Dir(d) => d,
                Target::File { region, offset } => {
                    u32_of(region_at.get(region).copied().unwrap_or(0)).wrapping_add(offset)
                }
            };
            w.u16(e.id)
                .u16(e.hash)
                .u32(u32::from(e.attr.bits()) << 24 | (off & 0x00FF_FFFF))
                .u32(data)
                .u32(e.size)
                .u32(e.reserved);
        }
        w.bytes(&gap2).bytes(&names.table).bytes(&gap3);
        w.bytes(&self.data_lead);
        for r in &self.regions {
            w.bytes(&r.data).bytes(&r.gap);
        }
        w.bytes(&self.tail);
        Ok(w.into_vec())
    }
}
