//! Entry attribute flags and the name hash.

bitflags::bitflags! {
    /// Entry attributes (bits 31..24 of the entry's second word). Unknown bits are kept.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct Attr: u8 {
        /// A file.
        const FILE = 0x01;
        /// A directory.
        const DIRECTORY = 0x02;
        /// Compressed (Yay0 unless YAZ0 is also set).
        const COMPRESSED = 0x04;
        /// Preloaded to main RAM.
        const MRAM = 0x10;
        /// Preloaded to auxiliary RAM (GameCube).
        const ARAM = 0x20;
        /// Loaded from disc when needed.
        const DVD = 0x40;
        /// Yaz0-compressed (with COMPRESSED).
        const YAZ0 = 0x80;
    }
}

impl Attr {
    /// Where the file's data goes in the data section: 0 = MRAM, 1 = ARAM, 2 = DVD (RARC-006);
    /// files without a load flag count as MRAM.
    pub fn load_group(self) -> u8 {
        if self.contains(Attr::DVD) {
            2
        } else if self.contains(Attr::ARAM) {
            1
        } else {
            0
        }
    }

    /// Readable names of the set bits (`FILE|MRAM`).
    pub fn names(self) -> String {
        let mut s: Vec<String> = self.iter_names().map(|(n, _)| n.to_owned()).collect();
        let unknown = self.bits() & !Attr::all().bits();
        if unknown != 0 {
            s.push(format!("{unknown:#04x}"));
        }
        s.join("|")
    }
}

/// The RARC name hash: `h = h * 3 + byte` over the stored bytes, truncated to 16 bits (§6).
pub fn name_hash(name: &[u8]) -> u16 {
    name.iter()
        .fold(0u16, |h, &b| h.wrapping_mul(3).wrapping_add(u16::from(b)))
}

/// The 4-byte node type: the name's first four characters upper-cased, space padded (RARC-010).
pub fn node_type(name: &[u8]) -> [u8; 4] {
    let mut t = [b' '; 4];
    for (d, s) in t.iter_mut().zip(name) {
        *d = s.to_ascii_uppercase();
    }
    t
}
