//! A RARC whose member and folder names are Shift-JIS: `gcf info` prints them as Japanese text,
//! and `gcf extract` → `gcf pack` writes them as readable file names and gives the archive back
//! byte for byte (undecodable bytes as `\xHH`).
#![allow(clippy::unwrap_used)]

use std::process::Command;

use rarc::{Dir, Item, PackOptions};

fn file(name: &[u8], data: &[u8]) -> Item {
    Item::File {
        name: name.to_vec(),
        attr: None,
        data: data.to_vec(),
        id: None,
    }
}

fn archive() -> Vec<u8> {
    let tree = Dir {
        name: b"root".to_vec(),
        children: vec![
            // ステージ / マリオ.bcsv
            Item::Dir(Dir {
                name: b"\x83\x58\x83\x65\x81\x5B\x83\x57".to_vec(),
                children: vec![file(b"\x83\x7D\x83\x8A\x83\x49.bcsv", b"table")],
            }),
            file(b"bad\x81.bin", b"lead byte"),
        ],
    };
    rarc::pack(&tree, PackOptions::default()).write().unwrap()
}

fn gcf(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_gcf"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn japanese_names_print_extract_and_pack_back() {
    let dir = std::env::temp_dir().join(format!("gcf-sjis-names-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let arc = dir.join("a.arc");
    let bytes = archive();
    std::fs::write(&arc, &bytes).unwrap();

    let info = gcf(&["info".as_ref(), arc.as_os_str()]);
    let text = String::from_utf8(info.stdout).unwrap();
    assert!(
        text.contains("ステージ/") && text.contains("マリオ.bcsv"),
        "{text}"
    );
    assert!(text.contains("bad\\x81.bin"), "{text}");

    let out = dir.join("out");
    gcf(&["extract".as_ref(), arc.as_os_str(), out.as_os_str()]);
    assert_eq!(
        std::fs::read(out.join("ステージ").join("マリオ.bcsv")).unwrap(),
        b"table"
    );
    assert_eq!(
        std::fs::read(out.join("bad\\x81.bin")).unwrap(),
        b"lead byte"
    );
    let back = dir.join("b.arc");
    gcf(&["pack".as_ref(), out.as_os_str(), back.as_os_str()]);
    assert_eq!(std::fs::read(&back).unwrap(), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}
