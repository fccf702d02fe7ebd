//! J3D name tables (JUTNameTab): `u16 count, u16 0xFFFF, {u16 key, u16 offset} × count, strings`.

use gcio::{Context, Error, Limits, Reader, Result, Writer};

/// The name-table key: `h = h * 3 + c` over the bytes taken as signed chars, truncated to 16 bits
/// (J3D-078; the sign matters for Shift-JIS names).
pub fn name_hash(name: &[u8]) -> u16 {
    name.iter().fold(0u16, |h, &c| {
        h.wrapping_mul(3).wrapping_add(c as i8 as i16 as u16)
    })
}

/// One stored name with its key as found.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NameEntry {
    /// Stored key (normally [`name_hash`] of the name).
    pub key: u16,
    /// Name bytes (Shift-JIS or ASCII), without the terminator.
    pub name: Vec<u8>,
}

/// An owned name table. String offsets are derived on writing (strings follow the entries in order).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NameTable {
    /// The u16 after the count (0xFFFF).
    pub marker: u16,
    /// Entries in order.
    pub entries: Vec<NameEntry>,
}

impl NameTable {
    /// A table of `names` with computed keys.
    pub fn new<N: AsRef<[u8]>>(names: impl IntoIterator<Item = N>) -> Self {
        NameTable {
            marker: 0xFFFF,
            entries: names
                .into_iter()
                .map(|n| NameEntry {
                    key: name_hash(n.as_ref()),
                    name: n.as_ref().to_vec(),
                })
                .collect(),
        }
    }

    /// Reads the table at `offset` of `r` with the default [`Limits`].
    pub fn parse(r: Reader<'_>, offset: usize) -> Result<Self> {
        Self::parse_with(r, offset, &Limits::default())
    }

    /// Reads the table at `offset` of `r`; `limits` bound the name count.
    pub fn parse_with(r: Reader<'_>, offset: usize, limits: &Limits) -> Result<Self> {
        let t = r.sub_from(offset).context("name table")?;
        let count = t.u16(0)?;
        let marker = t.u16(2)?;
        let n = limits.check_elements(u64::from(count), t.abs(0))?;
        let mut entries = Vec::with_capacity(n.min(t.len() / 4));
        for i in 0..n {
            let key = t.u16(4 + i * 4).with_context(|| format!("name {i}"))?;
            let off = t.u16(6 + i * 4)?;
            let name = t
                .cstr(usize::from(off))
                .with_context(|| format!("name {i}"))?;
            entries.push(NameEntry {
                key,
                name: name.to_vec(),
            });
        }
        Ok(NameTable { marker, entries })
    }

    /// Name `i` as text: Shift-JIS decoded, bytes that do not decode as `\xHH` (lossless).
    pub fn name(&self, i: usize) -> Option<String> {
        self.entries
            .get(i)
            .map(|e| gcio::text::Encoding::ShiftJis.to_text(&e.name))
    }

    /// Bytes [`write`](Self::write) emits: header, entries and the NUL-terminated names.
    pub fn byte_len(&self) -> usize {
        4 + self.entries.iter().map(|e| 5 + e.name.len()).sum::<usize>()
    }

    /// Writes the table at the writer's position.
    pub fn write(&self, w: &mut Writer) -> Result<()> {
        let count = u16::try_from(self.entries.len())
            .map_err(|_| Error::message("more than 65535 names"))?;
        w.u16(count).u16(self.marker);
        let mut off = 4 + 4 * self.entries.len();
        for e in &self.entries {
            let o = u16::try_from(off).map_err(|_| Error::message("name table over 64 KiB"))?;
            w.u16(e.key).u16(o);
            off += e.name.len() + 1;
        }
        for e in &self.entries {
            w.cstr(&e.name);
        }
        Ok(())
    }
}

#[cfg(feature = "import")]
/// The name-table bytes of `text` (Shift-JIS, reversing [`NameTable::name`]); a character
/// Shift-JIS cannot hold becomes `_`.
pub fn name_bytes(text: &str) -> Vec<u8> {
    let sjis = gcio::text::Encoding::ShiftJis;
    sjis.from_text(text).unwrap_or_else(|_| {
        let plain: String = text
            .chars()
            .map(|c| {
                if sjis.from_text(&c.to_string()).is_ok() {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        sjis.from_text(&plain).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_table() {
        let t = NameTable::new(["ab", "c"]);
        let mut w = Writer::new();
        t.write(&mut w).unwrap();
        let key_ab = (u16::from(b'a') * 3 + u16::from(b'b')).to_be_bytes();
        let expect = [
            &[0, 2, 0xFF, 0xFF][..],
            &key_ab,
            &[0, 12, 0, 0x63, 0, 15],
            b"ab\0c\0",
        ]
        .concat();
        assert_eq!(w.as_slice(), expect.as_slice());
        assert_eq!(NameTable::parse(Reader::new(&expect), 0).unwrap(), t);
        assert_eq!(name_hash(&[0x82]), 0xFF82, "bytes are signed chars");
        assert!(NameTable::parse(Reader::new(&expect[..10]), 0).is_err());
    }

    #[test]
    fn shift_jis_names_read_as_text() {
        // "マリオ" in Shift-JIS, and a lone lead byte that does not decode.
        let t = NameTable::new([&b"\x83\x7D\x83\x8A\x83\x49"[..], b"m\x81"]);
        assert_eq!(t.name(0).as_deref(), Some("マリオ"));
        assert_eq!(t.name(1).as_deref(), Some("m\\x81"));
        let limited = Limits {
            max_elements: 1,
            ..Limits::default()
        };
        let mut w = Writer::new();
        t.write(&mut w).unwrap();
        assert!(NameTable::parse_with(Reader::new(w.as_slice()), 0, &limited).is_err());
    }
}
