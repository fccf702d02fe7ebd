//! Member and folder names as text: Shift-JIS names are extracted as their Japanese text,
//! undecodable bytes as `\xHH`, and packing gives back the exact bytes.

use std::collections::BTreeMap;

use rarc::manifest::{name_bytes, name_text, pack, unpack};
use rarc::{Dir, Item, PackOptions};

fn file(name: &[u8], data: &[u8]) -> Item {
    Item::File {
        name: name.to_vec(),
        attr: None,
        data: data.to_vec(),
        id: None,
    }
}

/// "ステージ" (stage) and "マリオ.bcsv" in Shift-JIS, and names with bytes Shift-JIS does not
/// decode (a lone lead byte, 0xFF) or that need escaping (a backslash).
fn japanese_tree() -> Dir {
    let stage = b"\x83\x58\x83\x65\x81\x5B\x83\x57".to_vec();
    let mario = b"\x83\x7D\x83\x8A\x83\x49.bcsv".to_vec();
    Dir {
        name: b"root".to_vec(),
        children: vec![
            Item::Dir(Dir {
                name: stage,
                children: vec![file(&mario, b"table"), file(b"a\\b", b"slash")],
            }),
            file(b"bad\x81.bin", b"lead byte"),
            file(b"\xff\xfe", b"not text"),
            file(b"plain.arc", b"ascii"),
        ],
    }
}

#[test]
fn shift_jis_names_extract_as_text_and_pack_to_the_same_bytes() {
    let bytes = rarc::pack(&japanese_tree(), PackOptions::default())
        .write()
        .unwrap();
    let u = unpack(&bytes).unwrap();
    let paths: Vec<&str> = u.files.iter().map(|(p, _)| p.as_str()).collect();
    assert!(paths.contains(&"ステージ/マリオ.bcsv"), "{paths:?}");
    assert!(paths.contains(&"ステージ/a\\\\b"), "{paths:?}");
    assert!(paths.contains(&"bad\\x81.bin"), "{paths:?}");
    assert!(paths.contains(&"\\xFF\\xFE"), "{paths:?}");
    assert!(u.dirs.iter().any(|d| d == "ステージ"), "{:?}", u.dirs);
    // Every name is its own text on disk: nothing needed a substitute.
    assert!(u.renamed.is_empty(), "{:?}", u.renamed);
    let files: BTreeMap<String, Vec<u8>> = u.files.iter().cloned().collect();
    assert_eq!(pack(&u.manifest, files, &u.dirs).unwrap().archive, bytes);
}

#[test]
fn name_text_round_trips_any_bytes() {
    for b in [
        &b"\x83\x7D\x83\x8A\x83\x49"[..],
        b"\x81",
        b"\xff\xfe\\x",
        b"plain",
        b"",
    ] {
        assert_eq!(name_bytes(&name_text(b)), b, "{b:?}");
    }
    assert_eq!(name_text(b"\x83\x7D\x83\x8A\x83\x49"), "マリオ");
}

#[test]
fn view_paths_are_text_and_look_up_by_text() {
    let bytes = rarc::pack(&japanese_tree(), PackOptions::default())
        .write()
        .unwrap();
    let v = rarc::parse(&bytes).unwrap();
    let (_, files) = v.walk().unwrap();
    assert!(files.iter().any(|f| f.path == "ステージ/マリオ.bcsv"));
    let e = v.lookup("ステージ/マリオ.bcsv").unwrap().unwrap();
    assert_eq!(v.file_bytes(&e).unwrap(), b"table");
}
