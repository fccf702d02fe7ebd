//! `gcf --names FILE`: user field names print in place of `[HASH]`, and a list line whose stated
//! hash does not match its name is refused with the line number.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod support;

use bcsv::{FieldType, Table, jgadget_hash};
use support::{gcf, scratch};

#[test]
fn names_file_names_columns() {
    let dir = scratch("ok");
    let mut t = Table::new(&[("GcfCliOnlyName", FieldType::LONG)]);
    t.push_default_row();
    let table = dir.join("t.bcsv");
    std::fs::write(&table, t.write().unwrap()).unwrap();
    let hash = format!("[{:08X}]", jgadget_hash(b"GcfCliOnlyName"));

    let plain = gcf(&["info".as_ref(), table.as_os_str()]);
    assert!(plain.status.success());
    assert!(String::from_utf8_lossy(&plain.stdout).contains(&hash));

    let list = dir.join("names.txt");
    std::fs::write(&list, "# mine\nGcfCliOnlyName\n").unwrap();
    let named = gcf(&[
        "--names".as_ref(),
        list.as_os_str(),
        "convert".as_ref(),
        table.as_os_str(),
        dir.join("t.csv").as_os_str(),
    ]);
    assert!(named.status.success(), "{named:?}");
    let csv = std::fs::read_to_string(dir.join("t.csv")).unwrap();
    assert!(csv.starts_with("GcfCliOnlyName:LONG"), "{csv}");

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "GcfCliOnlyName\n0x12345678\tGcfCliOnlyName\n").unwrap();
    let refused = gcf(&[
        "--names".as_ref(),
        bad.as_os_str(),
        "info".as_ref(),
        table.as_os_str(),
    ]);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("line 2") && err.contains("12345678"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
