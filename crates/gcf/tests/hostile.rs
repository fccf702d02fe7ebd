#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]
//! Hostile input for the whole CLI (issue 25): each case is built here in code (nothing is
//! committed) and `gcf` runs under a 2 GB address-space limit (`prlimit --as`, when the tool
//! exists) with a timeout. Every case must end in a clean error exit (or a bounded, correct
//! result): no abort, no panic, no hang, nothing written outside the target and no partial output.

mod support;

use std::path::Path;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{listing, scratch};

/// The address-space limit every run gets (2 GB: room for one copy of a 1 GiB payload, not two).
const ADDRESS_SPACE: &str = "--as=2000000000";

/// Longest one case may run.
const TIMEOUT: Duration = Duration::from_secs(40);

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn has_prlimit() -> bool {
    Command::new("prlimit")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `gcf ARGS` in `dir` under the limits; fails the test on a timeout.
fn gcf(dir: &Path, args: &[&str]) -> Run {
    let exe = env!("CARGO_BIN_EXE_gcf");
    let mut cmd = if has_prlimit() {
        let mut c = Command::new("prlimit");
        c.args([ADDRESS_SPACE, "--", exe]);
        c
    } else {
        Command::new(exe)
    };
    let mut child = cmd
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gcf {args:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A clean error: exit status 1 (not a signal, not a panic's 101), a message containing `want`,
/// and no panic text.
fn clean_error(r: &Run, want: &str) {
    assert_eq!(r.code, Some(1), "stdout {}\nstderr {}", r.stdout, r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(
        r.stderr.contains(want) || r.stdout.contains(want),
        "expected {want:?} in:\n{}{}",
        r.stdout,
        r.stderr
    );
}

/// A PNG chunk: length, type, data, CRC.
fn chunk(out: &mut Vec<u8>, ty: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(ty);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A small PNG declaring `width × height` RGBA8 whose image data is a few bytes of deflate.
fn png_declaring(width: u32, height: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    // zlib: an empty stored block.
    chunk(
        &mut out,
        b"IDAT",
        &[0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0, 0, 0, 1],
    );
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A valid Yaz0 stream of `size` zero bytes: one literal, then back-references of the longest
/// kind (distance 1, 0x111 bytes), then literals for the rest.
fn yaz0_zeros(size: u32) -> Vec<u8> {
    // (is a literal, bytes)
    let mut tokens: Vec<(bool, Vec<u8>)> = vec![(true, vec![0])];
    let mut left = size - 1;
    while left >= 0x12 {
        let n = left.min(0x111);
        tokens.push((false, vec![0, 0, (n - 0x12) as u8]));
        left -= n;
    }
    tokens.extend((0..left).map(|_| (true, vec![0])));
    let mut out = b"Yaz0".to_vec();
    out.extend_from_slice(&size.to_be_bytes());
    out.extend_from_slice(&[0; 8]);
    for group in tokens.chunks(8) {
        let flags = group
            .iter()
            .enumerate()
            .fold(0u8, |f, (k, (lit, _))| f | (u8::from(*lit) << (7 - k)));
        out.push(flags);
        for (_, t) in group {
            out.extend_from_slice(t);
        }
    }
    out
}

/// An archive of `count` members that all name one compressed member of `size` zero bytes.
fn alias_bomb(count: usize, size: u32) -> Vec<u8> {
    let stream = yaz0_zeros(size);
    let children = (0..count)
        .map(|i| rarc::Item::File {
            name: format!("m{i}.bin").into_bytes(),
            attr: None,
            data: stream.clone(),
            id: None,
        })
        .collect();
    rarc::pack(
        &rarc::Dir {
            name: b"bomb".to_vec(),
            children,
        },
        rarc::PackOptions::default(),
    )
    .write()
    .unwrap()
}

#[test]
fn yaz0_bomb_builder_is_valid() {
    let s = yaz0_zeros(5000);
    assert_eq!(yaz0::decode(&s).unwrap(), vec![0u8; 5000]);
    let a = alias_bomb(3, 1000);
    let v = rarc::parse(&a).unwrap();
    let (_, files) = v.walk().unwrap();
    assert_eq!(files.len(), 3);
    assert!(files.iter().all(|f| f.entry.data == files[0].entry.data));
}

#[test]
fn declared_table_sizes() {
    let d = scratch("bcsv");
    let json = r#"{"endian": "big", "entry_size": 1073741824,
        "fields": [{"name": "a", "type": "LONG", "offset": 0}], "rows": [[1], [2], [3], [4], [5]]}"#;
    std::fs::write(d.join("t.json"), json).unwrap();
    clean_error(&gcf(&d, &["convert", "t.json", "t.bcsv"]), "allocation");
    std::fs::write(
        d.join("t.csv"),
        "#bcsv entry_size=1073741824\na:Int\n1\n2\n3\n4\n5\n",
    )
    .unwrap();
    clean_error(&gcf(&d, &["convert", "t.csv", "t.bcsv"]), "allocation");
    assert_eq!(
        listing(&d),
        ["t.csv", "t.json"],
        "no output, no temporary file"
    );
}

#[test]
fn declared_image_sizes() {
    let d = scratch("png");
    for (w, h) in [(65535, 65535), (1, 1 << 31), (16384, 16384)] {
        std::fs::write(d.join("x.png"), png_declaring(w, h)).unwrap();
        let r = gcf(&d, &["convert", "x.png", "x.bti"]);
        assert_eq!(r.code, Some(1), "{w}x{h}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert_eq!(listing(&d), ["x.png"], "{w}x{h}: no output");
    }
}

#[test]
fn yaz0_bomb_identify_and_info() {
    let d = scratch("yaz0");
    // 1 GiB of zeros in about 12 MB.
    let bomb = yaz0_zeros((1 << 30) - 7);
    std::fs::write(d.join("bomb.szs"), &bomb).unwrap();
    let start = Instant::now();
    let r = gcf(&d, &["identify", "bomb.szs"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("yaz0"), "{}", r.stdout);
    // Naming the payload decodes a prefix only.
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // `info` refuses a payload past the budget before decoding it.
    clean_error(
        &gcf(&d, &["--budget", "256M", "info", "bomb.szs"]),
        "budget",
    );
    clean_error(
        &gcf(&d, &["--budget", "256M", "check", "bomb.szs"]),
        "budget",
    );
    // `survey` reports it as the file's error and goes on; `--fail-on error` fails.
    let r = gcf(&d, &["--budget", "256M", "--json", "survey", "."]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("budget"), "{}", r.stdout);
    let r = gcf(
        &d,
        &["--budget", "256M", "survey", ".", "--fail-on", "error"],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
}

/// A 1 GiB payload, within the default budget, under the 2 GB address-space limit: `info`,
/// `check`, `roundtrip` and `convert` hold one copy of it at a time (detection walks no
/// payload-sized buffer, `convert` drops the payload it looked into before decompressing) and
/// finish; an allocation the limit refuses would be a clean error, never an abort.
#[test]
fn yaz0_bomb_within_the_budget() {
    let d = scratch("yaz0-1g");
    let size = (1u32 << 30) - 7;
    std::fs::write(d.join("bomb.szs"), yaz0_zeros(size)).unwrap();
    let ok = |args: &[&str]| {
        let r = gcf(&d, args);
        assert_eq!(r.code, Some(0), "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        r
    };
    let r = ok(&["info", "bomb.szs"]);
    assert!(
        r.stdout
            .contains(&format!("decompressed size: {size} bytes")),
        "{}",
        r.stdout
    );
    ok(&["check", "bomb.szs"]);
    let r = ok(&["roundtrip", "bomb.szs"]);
    assert!(
        r.stdout.contains("bomb.szs\tyaz0\tidentical"),
        "{}",
        r.stdout
    );
    ok(&["convert", "bomb.szs", "bomb.bin"]);
    let out = d.join("bomb.bin");
    let len = std::fs::metadata(&out).unwrap().len();
    std::fs::remove_file(&out).unwrap();
    assert_eq!(len, u64::from(size));
    assert_eq!(listing(&d), ["bomb.szs"]);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn aliased_members() {
    let d = scratch("alias");
    // 300 entries naming one 4 MiB compressed member: 1.2 GB if each were extracted.
    std::fs::write(d.join("bomb.arc"), alias_bomb(300, 4 << 20)).unwrap();
    // Past the default budget's allocation limit: a clean error, no folder.
    let r = gcf(&d, &["extract", "bomb.arc", "out"]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    clean_error(
        &gcf(&d, &["--budget", "64M", "extract", "bomb.arc", "out"]),
        "--budget",
    );
    assert_eq!(listing(&d), ["bomb.arc"], "no partial output");
    // Under the budget but past 64x the archive's size (40 x 256 KiB from a few KB): refused
    // unless the user sets a budget.
    std::fs::write(d.join("small.arc"), alias_bomb(40, 256 << 10)).unwrap();
    clean_error(&gcf(&d, &["extract", "small.arc", "out"]), "64x");
    assert_eq!(listing(&d), ["bomb.arc", "small.arc"], "no partial output");
    let r = gcf(&d, &["--budget", "64M", "extract", "small.arc", "out"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    std::fs::remove_dir_all(d.join("out")).unwrap();
    // `check` names the aliases (RARC-030) and examines the shared member once.
    let r = gcf(&d, &["check", "bomb.arc"]);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(r.stdout.contains("RARC-030"), "{}", r.stdout);
    assert_eq!(r.stdout.matches("bomb.arc:").count(), 0, "{}", r.stdout);
    let r = gcf(&d, &["--json", "check", "bomb.arc"]);
    let rows: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 2, "archive + one member");
}

#[test]
fn outputs_stay_inside_the_target() {
    let d = scratch("links");
    let arc = rarc::pack(&rarc::sample_tree(), rarc::PackOptions::default())
        .write()
        .unwrap();
    std::fs::write(d.join("a.arc"), &arc).unwrap();
    // `convert a.arc a.arc` never replaces its input.
    let r = gcf(&d, &["--force", "convert", "a.arc", "a.arc"]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert_eq!(std::fs::read(d.join("a.arc")).unwrap(), arc);
    // A link in the target folder named like a member, and a linked sub-folder: the file
    // outside is never written.
    let (_, files) = rarc::parse(&arc).unwrap().walk().unwrap();
    let member = files.iter().find(|f| !f.path.contains('/')).unwrap();
    let outside = d.join("outside.txt");
    std::fs::write(&outside, b"keep").unwrap();
    std::fs::create_dir(d.join("out")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, d.join("out").join(&member.path)).unwrap();
    let r = gcf(&d, &["--force", "extract", "a.arc", "out"]);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
    // `pack` refuses a FIFO (it would hang) and a link out of the folder.
    #[cfg(unix)]
    {
        let src = d.join("src");
        std::fs::create_dir(&src).unwrap();
        std::fs::write(src.join("a.bin"), b"a").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", src.join("link")).unwrap();
        clean_error(&gcf(&d, &["pack", "src", "p.arc"]), "symbolic link");
        std::fs::remove_file(src.join("link")).unwrap();
        if Command::new("mkfifo")
            .arg(src.join("fifo"))
            .status()
            .is_ok_and(|s| s.success())
        {
            clean_error(&gcf(&d, &["pack", "src", "p.arc"]), "FIFO");
        }
        assert!(!d.join("p.arc").exists());
    }
}
