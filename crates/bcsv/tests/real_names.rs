//! Name coverage on the real tables: every `.bcsv`/`.tbl` member of the shared real archives
//! (Yaz0 → RARC → table, nested archives included) has fewer than 2 % of its field columns
//! without a dictionary name, and no string column is packed. Skips when the shared corpus is
//! absent; when present, asserts how many archives and tables it read.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::collections::BTreeMap;
use std::path::PathBuf;

fn real_rarc() -> Option<PathBuf> {
    gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "real/rarc",
        "bcsv real field names",
    )
}

/// Every table reachable from `data` (a Yaz0 stream, an archive, or a table), with its path.
fn tables(path: &str, data: &[u8], out: &mut Vec<(String, Vec<u8>)>) {
    if yaz0::is_yaz0(data) {
        tables(path, &yaz0::decode(data).unwrap(), out);
    } else if rarc::is_rarc(data) {
        let arc = rarc::parse(data).unwrap();
        for f in arc.walk().unwrap().1 {
            let bytes = arc.decompressed(&f.entry).unwrap();
            tables(&format!("{path}/{}", f.path), &bytes, out);
        }
    } else if match bcsv::sniff(data) {
        Some(bcsv::Confidence::Strong) => true,
        Some(bcsv::Confidence::Weak) => bcsv::has_bcsv_extension(path),
        None => false,
    } {
        // Detected the way `gcf` detects a table: strong header arithmetic, or weak plus the extension.
        out.push((path.to_owned(), data.to_vec()));
    }
}

#[test]
fn unknown_hashes_under_two_percent() {
    let Some(root) = real_rarc() else {
        return;
    };
    let files = gcio::corpus::files(&root);
    assert_eq!(files.len(), 28, "the shared real archives");
    let mut found = Vec::new();
    for f in &files {
        tables(
            &f.display().to_string(),
            &std::fs::read(f).unwrap(),
            &mut found,
        );
    }
    let (mut columns, mut unknown) = (0usize, BTreeMap::<u32, Vec<String>>::new());
    for (path, data) in &found {
        let view = bcsv::parse(data).unwrap_or_else(|e| panic!("{path}: {e}"));
        for f in view.fields() {
            columns += 1;
            // The game reads string offsets unmasked (Petari's string getter), this crate through
            // mask and shift: the two agree because no real string column is packed.
            if f.kind == bcsv::FieldType::STRING_OFFSET {
                assert!(f.is_plain(), "{path}: packed string column {f:?}");
            }
            if bcsv::names::lookup(f.hash).is_none() {
                let short = path.rsplit("/rarc/").next().unwrap_or(path).to_owned();
                unknown.entry(f.hash).or_default().push(short);
            }
        }
    }
    assert_eq!(found.len(), 104, "tables in the real archives");
    let misses: usize = unknown.values().map(Vec::len).sum();
    for (h, at) in &unknown {
        eprintln!("{h:08X}\t{}", at.join(" "));
    }
    eprintln!(
        "{} tables, {columns} columns, {misses} without a name",
        found.len()
    );
    assert!(
        misses * 50 < columns,
        "{misses} of {columns} columns unnamed"
    );
}
