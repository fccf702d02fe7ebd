//! The dictionary of known field names, so hashes print as names.
//!
//! Built in, in priority order (the first name of a hash wins; the lists share no hash today):
//! - `data/fields.tsv`: the project's `bcsv-fields.tsv` (known table schemas, public samples, format notes)
//!   with its hashes;
//! - `data/real-names.tsv`: names the real game tables needed, each with the hash it was seen under
//!   and the table;
//! - `data/extra-names.txt`: names seen in public code and tools, each with its source;
//! - `data/lib-bcsv-jmap/strings_SMG.txt`: the ~1,450 Super Mario Galaxy names shipped by the
//!   crates.io package `lib-bcsv-jmap` 0.1.0 (MIT, © 2026 Demorck; licence text beside the file),
//!   kept verbatim.
//!
//! Users add names for the rest of the process with [`add`] or [`add_list`] (`gcf --names FILE`);
//! a user name takes precedence over a built-in one of the same hash. Hashes are computed once, on
//! first use.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use gcio::{Error, Result};

use crate::hash::{jgadget_hash, parse_name};

const FIELDS_TSV: &str = include_str!("../data/fields.tsv");
const REAL_NAMES_TSV: &str = include_str!("../data/real-names.tsv");
const EXTRA_NAMES: &str = include_str!("../data/extra-names.txt");
const LIB_BCSV_JMAP: &str = include_str!("../data/lib-bcsv-jmap/strings_SMG.txt");

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The name column of a `hash<TAB>name<TAB>source` list.
fn tsv_names(text: &str) -> impl Iterator<Item = &str> {
    lines(text).filter_map(|l| l.split('\t').nth(1))
}

/// Every built-in name, in priority order (user additions are not included).
pub fn all() -> impl Iterator<Item = &'static str> {
    tsv_names(FIELDS_TSV)
        .chain(tsv_names(REAL_NAMES_TSV))
        .chain(lines(EXTRA_NAMES))
        .chain(lines(LIB_BCSV_JMAP))
}

fn builtin() -> &'static HashMap<u32, &'static str> {
    static TABLE: OnceLock<HashMap<u32, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map = HashMap::new();
        for name in all() {
            map.entry(jgadget_hash(name.as_bytes())).or_insert(name);
        }
        map
    })
}

fn user() -> &'static RwLock<HashMap<u32, Box<str>>> {
    static USER: OnceLock<RwLock<HashMap<u32, Box<str>>>> = OnceLock::new();
    USER.get_or_init(|| RwLock::new(HashMap::new()))
}

/// The printable name of `hash`: the dictionary name, or `[XXXXXXXX]` (uppercase hex) when unknown.
pub fn display_name(hash: u32) -> String {
    match lookup(hash) {
        Some(n) => n.into_owned(),
        None => format!("[{hash:08X}]"),
    }
}

/// The known name whose JGadget hash is `hash`: a user-added name first, then the built-in one.
pub fn lookup(hash: u32) -> Option<Cow<'static, str>> {
    // A poisoned lock only means another thread panicked mid-insert; the map is still whole.
    let users = user().read().unwrap_or_else(|e| e.into_inner());
    if let Some(name) = users.get(&hash) {
        return Some(Cow::Owned(name.to_string()));
    }
    builtin().get(&hash).map(|n| Cow::Borrowed(*n))
}

/// Adds `name` to the dictionary for the rest of the process and returns its hash. A name of the
/// form `[XXXXXXXX]` stands for a raw hash and is not added.
pub fn add(name: &str) -> u32 {
    let hash = parse_name(name);
    if hash == jgadget_hash(name.as_bytes()) {
        let mut users = user().write().unwrap_or_else(|e| e.into_inner());
        users.insert(hash, name.into());
    }
    hash
}

/// Adds every name of a list and returns how many lines named one. The format is the one of
/// pyjmap's and lib-bcsv-jmap's lists, plus checked hashes:
/// - empty lines and lines starting with `#` are skipped;
/// - `NAME` adds a name;
/// - `HASH<TAB>NAME[<TAB>anything]` (`HASH` as `XXXXXXXX`, `0xXXXXXXXX` or `[XXXXXXXX]`) adds the
///   name only after checking that it hashes to `HASH` — a mismatch is an error naming the line,
///   and nothing of the list is added.
pub fn add_list(text: &str) -> Result<usize> {
    let mut names = Vec::new();
    let mut at = 0usize;
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        let line = raw.trim_end_matches(['\n', '\r']);
        let start = at;
        at += raw.len();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cols = line.split('\t');
        let (first, second) = (cols.next().unwrap_or(""), cols.next());
        let name = match second {
            None => first,
            Some(name) => {
                let want = stated_hash(first).ok_or_else(|| {
                    Error::invalid(
                        start as u64,
                        format!("names list line {}: `{first}` is not a hash", n + 1),
                    )
                })?;
                let got = jgadget_hash(name.as_bytes());
                if got != want {
                    return Err(Error::invalid(
                        start as u64,
                        format!(
                            "names list line {}: `{name}` hashes to {got:08X}, not {want:08X}",
                            n + 1
                        ),
                    ));
                }
                name
            }
        };
        names.push(name);
    }
    for name in &names {
        add(name);
    }
    Ok(names.len())
}

/// `XXXXXXXX`, `0xXXXXXXXX` or `[XXXXXXXX]` (hex, any case).
fn stated_hash(s: &str) -> Option<u32> {
    let s = s.trim();
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_prefix('[').and_then(|r| r.strip_suffix(']')))
        .unwrap_or(s);
    if hex.is_empty() || hex.len() > 8 {
        return None;
    }
    u32::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `hash<TAB>name` row of a built-in list: the name hashes to the stated hash and the
    /// dictionary gives it back.
    fn check_tsv(text: &str) -> usize {
        let mut n = 0;
        for line in lines(text) {
            let cols: Vec<&str> = line.split('\t').collect();
            let (hash, name) = (cols[0], cols[1]);
            let want = stated_hash(hash).unwrap();
            assert_eq!(jgadget_hash(name.as_bytes()), want, "{name}");
            assert_eq!(builtin().get(&want), Some(&name));
            n += 1;
        }
        n
    }

    #[test]
    fn hashes_match() {
        assert!(check_tsv(FIELDS_TSV) >= 180);
        assert!(check_tsv(REAL_NAMES_TSV) >= 16);
        assert!(lookup(jgadget_hash(b"Camera_through")).is_some());
        assert_eq!(
            lookup(jgadget_hash(b"ShapeModelNo")).as_deref(),
            Some("ShapeModelNo")
        );
    }

    #[test]
    fn lib_bcsv_jmap_list_is_whole() {
        // The adopted list, verbatim: every name in it, no two names of the whole dictionary
        // sharing a hash (so priority order never hides a name).
        let adopted: Vec<&str> = lines(LIB_BCSV_JMAP).collect();
        assert_eq!(adopted.len(), 1454);
        for name in [
            "Obj_arg4",
            "Obj_arg7",
            "CastId",
            "ViewGroupId",
            "CommonPath_ID",
        ] {
            assert!(adopted.contains(&name), "{name}");
            assert_eq!(lookup(jgadget_hash(name.as_bytes())).as_deref(), Some(name));
        }
        let mut seen = HashMap::new();
        for name in all() {
            if let Some(other) = seen.insert(jgadget_hash(name.as_bytes()), name) {
                assert_eq!(other, name, "hash collision");
            }
        }
        assert!(seen.len() >= 1480, "{} names", seen.len());
    }

    #[test]
    fn user_names() {
        // Names no built-in list has (so the test does not depend on other tests' additions).
        let hash = add("GcfTestUserName");
        assert_eq!(hash, jgadget_hash(b"GcfTestUserName"));
        assert_eq!(lookup(hash).as_deref(), Some("GcfTestUserName"));
        assert_eq!(add("[0000BEEF]"), 0xBEEF);
        assert_eq!(lookup(0xBEEF), None);

        let good = format!(
            "# comment\n\nGcfTestListA\r\n{:08X}\tGcfTestListB\tsome table\n[{:08x}]\tGcfTestListC\n",
            jgadget_hash(b"GcfTestListB"),
            jgadget_hash(b"GcfTestListC")
        );
        assert_eq!(add_list(&good).unwrap(), 3);
        for n in ["GcfTestListA", "GcfTestListB", "GcfTestListC"] {
            assert_eq!(lookup(jgadget_hash(n.as_bytes())).as_deref(), Some(n));
        }

        let bad = "GcfTestListD\n0x12345678\tGcfTestListE\n";
        let err = add_list(bad).unwrap_err().to_string();
        assert!(
            err.contains("GcfTestListE") && err.contains("12345678"),
            "{err}"
        );
        assert!(err.contains("line 2"), "{err}");
        assert_eq!(lookup(jgadget_hash(b"GcfTestListD")), None, "nothing added");
        assert!(add_list("zz\tGcfTestListF\n").is_err());
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
            assert_eq!(lookup(hash).as_deref(), Some(cols[1]), "{line}");
        }
    }
}
