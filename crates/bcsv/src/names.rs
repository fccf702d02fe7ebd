//! The built-in dictionary of known field names, so hashes print as names.
//!
//! `data/fields.tsv` is the project's `bcsv-fields.tsv` (seed 004 schemas, public samples, seed prose)
//! with its hashes; `data/extra-names.txt` adds names seen in public code and tools, each with its
//! source. Both are embedded; hashes are computed once on first use.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::hash::jgadget_hash;

const FIELDS_TSV: &str = include_str!("../data/fields.tsv");
const EXTRA_NAMES: &str = include_str!("../data/extra-names.txt");

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Every known name, in dictionary order (TSV names first).
pub fn all() -> impl Iterator<Item = &'static str> {
    let tsv = lines(FIELDS_TSV).filter_map(|l| l.split('\t').nth(1));
    tsv.chain(lines(EXTRA_NAMES))
}

fn table() -> &'static HashMap<u32, &'static str> {
    static TABLE: OnceLock<HashMap<u32, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map = HashMap::new();
        for name in all() {
            map.entry(jgadget_hash(name.as_bytes())).or_insert(name);
        }
        map
    })
}

/// The known name whose JGadget hash is `hash`.
pub fn lookup(hash: u32) -> Option<&'static str> {
    table().get(&hash).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_match() {
        let mut n = 0;
        for line in lines(FIELDS_TSV) {
            let cols: Vec<&str> = line.split('\t').collect();
            let (hash, name) = (cols[0], cols[1]);
            let want = u32::from_str_radix(hash.trim_start_matches("0x"), 16).unwrap();
            assert_eq!(jgadget_hash(name.as_bytes()), want, "{name}");
            assert_eq!(lookup(want), Some(name));
            n += 1;
        }
        assert!(n >= 180, "{n} names");
        assert!(lookup(jgadget_hash(b"Camera_through")).is_some());
        assert_eq!(lookup(jgadget_hash(b"ShapeModelNo")), Some("ShapeModelNo"));
    }

    #[test]
    fn reference_tsv_is_embedded() {
        // When the shared reference is present, every row of it is in the embedded copy.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/reference/bcsv-fields.tsv"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let hash = u32::from_str_radix(cols[3].trim_start_matches("0x"), 16).unwrap();
            assert_eq!(lookup(hash), Some(cols[1]), "{line}");
        }
    }
}
