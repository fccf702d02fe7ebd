//! The command line's conventions, through the real binary: exit codes, batches that keep going,
//! usage errors, `-` for stdin/stdout, JSON errors, refusal to overwrite, temp-and-rename (no
//! partial outputs), the pack/extract safety rules and Shift-JIS names. Fixtures are built in code.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Command;

use support::{gcf, gcf_stdin, scratch, text};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A Galaxy-style `.arc`: Yaz0 around a RARC with a table, an unknown-format member and a folder.
fn galaxy_arc() -> Vec<u8> {
    let table = support::sample("bcsv/every_type.bcsv");
    let file = support::file;
    let tree = rarc::Dir {
        name: b"Stage".to_vec(),
        children: vec![
            rarc::Item::Dir(rarc::Dir {
                name: b"jmp".to_vec(),
                children: vec![file("ObjInfo", table)],
            }),
            file(
                "Anim.brk",
                b"J3D1brk1 an animation gcf does not know".to_vec(),
            ),
        ],
    };
    yaz0::encode(
        &support::pack(&tree),
        yaz0::Encoder::Matching(yaz0::Matching::Nintendo),
    )
}

#[test]
fn batches_keep_going_and_exit_non_zero() {
    let d = scratch("batch");
    let arc = d.join("stage.arc");
    std::fs::write(&arc, galaxy_arc()).unwrap();
    let o = gcf(&["identify", "missing-a", s(&arc), "missing-b"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("stage.arc\tyaz0\trarc"));
    let err = text(&o.stderr);
    assert!(
        err.contains("missing-a") && err.contains("missing-b"),
        "{err}"
    );
    for cmd in ["identify", "check", "roundtrip"] {
        let o = gcf(&[cmd]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: usage error");
        assert!(text(&o.stderr).contains("Usage"), "{cmd}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn stdin_and_stdout() {
    let arc = galaxy_arc();
    let o = gcf_stdin(&["identify", "-"], &arc);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout), "-\tyaz0\trarc\n");
    let o = gcf_stdin(&["roundtrip", "--deep", "-"], &arc);
    assert!(o.status.success(), "{}", text(&o.stdout));
    // pack to stdout: the bytes and nothing else.
    let d = scratch("stdout");
    let x = d.join("x");
    assert!(gcf_stdin(&["extract", "-", s(&x)], &arc).status.success());
    let o = gcf(&["pack", s(&x), "-"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(o.stdout, arc);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn json_errors() {
    let o = gcf(&["--json", "info", "no-such-file"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["error"].as_str().unwrap().contains("no-such-file"));
    let o = gcf(&["--json", "identify"]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["kind"], "usage");
    let o = gcf(&["--json", "identify", "no-such-file"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v[0]["error"].is_string());
}

#[test]
fn convert_lists_what_exists() {
    let o = gcf(&["convert", "--help"]);
    assert!(text(&o.stdout).contains(".bcsv/.bcam"));
    let d = scratch("convert");
    let a = d.join("a.bin");
    std::fs::write(&a, b"nothing known").unwrap();
    let o = gcf(&["convert", s(&a), s(&d.join("b.xyz"))]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("no conversion") && err.contains(".bms -> .txt"),
        "{err}"
    );
    // Nothing left behind by the failed conversion.
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
    // Output = input is refused, even with --force.
    let arc = d.join("stage.arc");
    std::fs::write(&arc, galaxy_arc()).unwrap();
    let o = gcf(&["--force", "convert", s(&arc), s(&arc)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("input"));
    assert_eq!(std::fs::read(&arc).unwrap(), galaxy_arc());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn outputs_are_not_overwritten_without_force() {
    let d = scratch("force");
    let arc = d.join("stage.arc");
    std::fs::write(&arc, galaxy_arc()).unwrap();
    let x = d.join("x");
    assert!(gcf(&["extract", s(&arc), s(&x)]).status.success());
    // Non-empty folder: refused, then allowed with --force.
    let o = gcf(&["extract", s(&arc), s(&x)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--force"));
    assert!(
        gcf(&["--force", "extract", s(&arc), s(&x)])
            .status
            .success()
    );
    // Existing output file: refused, untouched; --force replaces it.
    let out = d.join("out.arc");
    std::fs::write(&out, b"keep me").unwrap();
    let o = gcf(&["pack", s(&x), s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
    assert!(gcf(&["--force", "pack", s(&x), s(&out)]).status.success());
    assert_eq!(std::fs::read(&out).unwrap(), galaxy_arc());
    // No temporary files left anywhere.
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("gcf-tmp")), "{names:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn extract_pack_replace_see_through_yaz0() {
    let d = scratch("yaz0");
    let arc = d.join("stage.arc");
    std::fs::write(&arc, galaxy_arc()).unwrap();
    let x = d.join("x");
    let o = gcf(&["extract", s(&arc), s(&x)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("inside yaz0 nintendo"));
    // Same name, original encoder: identical. --yaz0 for any name; none for a plain RARC.
    let back = d.join("back.arc");
    assert!(gcf(&["pack", s(&x), s(&back)]).status.success());
    assert_eq!(std::fs::read(&back).unwrap(), galaxy_arc());
    let fast = d.join("fast.arc");
    assert!(
        gcf(&["pack", s(&x), s(&fast), "--yaz0", "fast"])
            .status
            .success()
    );
    let f = std::fs::read(&fast).unwrap();
    assert!(f.starts_with(b"Yaz0"));
    let inner = rarc::layer::peel_all(&galaxy_arc(), 4).unwrap().1;
    assert_eq!(rarc::layer::peel_all(&f, 4).unwrap().1, inner);
    let plain = d.join("plain.arc");
    assert!(
        gcf(&["pack", s(&x), s(&plain), "--yaz0", "none"])
            .status
            .success()
    );
    assert_eq!(std::fs::read(&plain).unwrap(), inner);
    // A folder without a manifest packs by extension: .szs is Yaz0.
    let fresh = d.join("fresh");
    std::fs::create_dir_all(fresh.join("sub")).unwrap();
    std::fs::write(fresh.join("sub/a.bin"), [1, 2, 3]).unwrap();
    let szs = d.join("fresh.szs");
    assert!(gcf(&["pack", s(&fresh), s(&szs)]).status.success());
    assert!(std::fs::read(&szs).unwrap().starts_with(b"Yaz0"));
    // Added file: refused unless --add, then included with a notice; missing file: a clear
    // error naming it.
    std::fs::write(x.join("jmp/New.bin"), [9; 5]).unwrap();
    let added = d.join("added.arc");
    let o = gcf(&["pack", s(&x), s(&added)]);
    assert!(!o.status.success() && text(&o.stderr).contains("jmp/New.bin"));
    let o = gcf(&["pack", s(&x), s(&added), "--add"]);
    assert!(o.status.success());
    assert!(
        text(&o.stderr).contains("added jmp/New.bin"),
        "{}",
        text(&o.stderr)
    );
    std::fs::remove_file(x.join("Anim.brk")).unwrap();
    let o = gcf(&["pack", s(&x), s(&d.join("missing.arc")), "--add"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("Anim.brk"));
    // replace: one member swapped in place, the encoder kept, every other member the same.
    let new = d.join("new.bin");
    std::fs::write(&new, b"J3D1brk1 a new animation, longer than the old one").unwrap();
    let o = gcf(&["replace", s(&arc), "Anim.brk", s(&new)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let after = std::fs::read(&arc).unwrap();
    let s0 = yaz0::Stream::parse(&after).unwrap();
    let payload = s0.decode();
    assert_eq!(
        s0.identify(&payload).first().map(|e| e.name()),
        Some("nintendo")
    );
    let v = rarc::parse(&payload).unwrap();
    let e = v.lookup("Anim.brk").unwrap().unwrap();
    assert_eq!(v.file_bytes(&e).unwrap(), std::fs::read(&new).unwrap());
    let old = rarc::parse(&inner).unwrap();
    let t0 = old.lookup("jmp/ObjInfo").unwrap().unwrap();
    let t1 = v.lookup("jmp/ObjInfo").unwrap().unwrap();
    assert_eq!(old.file_bytes(&t0).unwrap(), v.file_bytes(&t1).unwrap());
    let o = gcf(&["replace", s(&arc), "nope", s(&new)]);
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn deep_roundtrip_keeps_unknown_members_and_check_sees_members() {
    let d = scratch("deep");
    let arc = d.join("stage.arc");
    std::fs::write(&arc, galaxy_arc()).unwrap();
    let o = gcf(&["roundtrip", "--deep", s(&arc)]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    let out = text(&o.stdout);
    assert!(out.contains("Anim.brk\tunknown\tkept"), "{out}");
    assert!(out.contains(":payload\trarc\tidentical"), "{out}");
    let o = gcf(&["--json", "check", s(&arc)]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let paths: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert!(
        paths.iter().any(|p| p.ends_with(":jmp/ObjInfo")),
        "{paths:?}"
    );
    // A damaged stream: still yaz0, with the offset where decoding failed.
    let mut bad = galaxy_arc();
    bad.truncate(bad.len() - 40);
    let dmg = d.join("damaged.arc");
    std::fs::write(&dmg, &bad).unwrap();
    let o = gcf(&["identify", s(&dmg)]);
    let out = text(&o.stdout);
    assert!(
        out.contains("\tyaz0\tdamaged:") && out.contains("0x"),
        "{out}"
    );
    let o = gcf(&["check", s(&dmg)]);
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&d);
}

#[cfg(unix)]
#[test]
fn pack_refuses_links_and_special_files() {
    let d = scratch("special");
    let src = d.join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(d.join("secret"), b"outside").unwrap();
    std::os::unix::fs::symlink(d.join("secret"), src.join("link.bin")).unwrap();
    let out = d.join("o.arc");
    let o = gcf(&["pack", s(&src), s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("symbolic link"));
    assert!(!out.exists());
    let o = gcf(&["pack", "--follow-symlinks", s(&src), s(&out)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    std::fs::remove_file(src.join("link.bin")).unwrap();
    let fifo = src.join("pipe");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let o = gcf(&["pack", s(&src), s(&d.join("p.arc"))]);
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains("not a regular file"));
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Shift-JIS member and folder names (ステージ/マリオ.bcsv, and a lone lead byte): `info` prints
/// them as Japanese text, `extract` writes them as readable file names (`\xHH` for bytes that do
/// not decode) and `pack` gives the archive back byte for byte.
#[test]
fn japanese_names_print_extract_and_pack_back() {
    let file = |name: &[u8], data: &[u8]| rarc::Item::File {
        name: name.to_vec(),
        attr: None,
        data: data.to_vec(),
        id: None,
    };
    let tree = rarc::Dir {
        name: b"root".to_vec(),
        children: vec![
            rarc::Item::Dir(rarc::Dir {
                name: b"\x83\x58\x83\x65\x81\x5B\x83\x57".to_vec(),
                children: vec![file(b"\x83\x7D\x83\x8A\x83\x49.bcsv", b"table")],
            }),
            file(b"bad\x81.bin", b"lead byte"),
        ],
    };
    let bytes = rarc::pack(&tree, rarc::PackOptions::default())
        .write()
        .unwrap();
    let d = scratch("sjis");
    let (arc, out, back) = (d.join("a.arc"), d.join("out"), d.join("b.arc"));
    std::fs::write(&arc, &bytes).unwrap();
    let info = text(&gcf(&["info", s(&arc)]).stdout);
    assert!(
        info.contains("ステージ/") && info.contains("マリオ.bcsv"),
        "{info}"
    );
    assert!(info.contains("bad\\x81.bin"), "{info}");
    assert!(gcf(&["extract", s(&arc), s(&out)]).status.success());
    let member = out.join("ステージ").join("マリオ.bcsv");
    assert_eq!(std::fs::read(member).unwrap(), b"table");
    assert_eq!(
        std::fs::read(out.join("bad\\x81.bin")).unwrap(),
        b"lead byte"
    );
    assert!(gcf(&["pack", s(&out), s(&back)]).status.success());
    assert_eq!(std::fs::read(&back).unwrap(), bytes);
}
