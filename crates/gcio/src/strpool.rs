//! A string table builder: NUL-terminated strings, deduplicated, in a configurable order.

use std::collections::HashMap;

/// The order strings are laid out in a [`StringPool`] built with [`StringPool::build`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolOrder {
    /// In the order they are first seen (RARC, BCSV string pools).
    FirstUse,
    /// Byte-wise sorted.
    Sorted,
}

/// NUL-terminated strings with their offsets inside the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringPool {
    bytes: Vec<u8>,
    offsets: HashMap<Vec<u8>, u32>,
    dedup: bool,
}

impl Default for StringPool {
    fn default() -> Self {
        Self::new()
    }
}

impl StringPool {
    /// An empty pool that deduplicates identical strings.
    pub fn new() -> Self {
        StringPool {
            bytes: Vec::new(),
            offsets: HashMap::new(),
            dedup: true,
        }
    }

    /// An empty pool that stores every string again, even when already present (some tools did).
    pub fn without_dedup() -> Self {
        StringPool {
            dedup: false,
            ..Self::new()
        }
    }

    /// A deduplicating pool holding `strings` in the given order.
    pub fn build<'s>(order: PoolOrder, strings: impl IntoIterator<Item = &'s [u8]>) -> Self {
        let mut list: Vec<&[u8]> = strings.into_iter().collect();
        if order == PoolOrder::Sorted {
            list.sort_unstable();
        }
        let mut pool = Self::new();
        for s in list {
            pool.add(s);
        }
        pool
    }

    /// Adds a string (if not deduplicated away) and returns its offset.
    ///
    /// Offsets are `u32` because every string table we write addresses them with 32 bits or fewer;
    /// callers narrowing further check the value.
    pub fn add(&mut self, s: &[u8]) -> u32 {
        if let Some(&off) = self.offsets.get(s).filter(|_| self.dedup) {
            return off;
        }
        let off = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s);
        self.bytes.push(0);
        self.offsets.entry(s.to_vec()).or_insert(off);
        off
    }

    /// Offset of the first copy of `s`, if present.
    pub fn offset_of(&self, s: &[u8]) -> Option<u32> {
        self.offsets.get(s).copied()
    }

    /// Table size in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True when no string was added.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The table bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The table bytes, consuming the pool.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_use_dedups() {
        let mut p = StringPool::new();
        assert!(p.is_empty());
        assert_eq!(p.add(b"b"), 0);
        assert_eq!(p.add(b"a"), 2);
        assert_eq!(p.add(b"b"), 0);
        assert_eq!(p.as_bytes(), b"b\0a\0");
        assert_eq!(p.offset_of(b"a"), Some(2));
        assert_eq!(p.offset_of(b"c"), None);
        assert_eq!(p.len(), 4);
    }

    #[test]
    fn sorted_and_no_dedup() {
        let p = StringPool::build(PoolOrder::Sorted, [&b"b"[..], b"a", b"b"]);
        assert_eq!(p.clone().into_bytes(), b"a\0b\0");
        let p = StringPool::build(PoolOrder::FirstUse, [&b"b"[..], b"a"]);
        assert_eq!(p.as_bytes(), b"b\0a\0");
        let mut p = StringPool::without_dedup();
        assert_eq!(p.add(b"x"), 0);
        assert_eq!(p.add(b"x"), 2);
        assert_eq!(p.offset_of(b"x"), Some(0));
        assert_eq!(StringPool::default(), StringPool::new());
    }
}
