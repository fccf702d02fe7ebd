//! What the CLI tests share: running `gcf`, scratch folders, the committed samples and archive
//! fixtures built in code. Each test file includes it with `mod support;`.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

pub mod blender;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A finished `gcf` run.
pub struct Run {
    /// Whether it exited 0.
    pub ok: bool,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    fn from(out: Output) -> Self {
        Run {
            ok: out.status.success(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Asserts a clean failure (exit 1, no panic) whose message contains every one of `want`.
    pub fn fails_with(&self, want: &[&str]) {
        assert!(
            !self.ok,
            "expected a failure:\n{}{}",
            self.stdout, self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        for w in want {
            assert!(
                self.stderr.contains(w),
                "expected {w:?} in:\n{}",
                self.stderr
            );
        }
    }

    /// Asserts success.
    pub fn succeeds(&self) -> &Self {
        assert!(self.ok, "gcf failed:\n{}{}", self.stdout, self.stderr);
        self
    }
}

/// Runs `gcf ARGS` in the test's folder.
pub fn gcf<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcf"))
        .args(args)
        .output()
        .unwrap()
}

/// [`gcf`] as a [`Run`].
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Run {
    Run::from(gcf(args))
}

/// [`run`] as (success, stdout followed by stderr).
pub fn gcf_text(args: &[&str]) -> (bool, String) {
    let r = run(args);
    (r.ok, r.stdout + &r.stderr)
}

/// `gcf check FILE` passes with no error line.
pub fn checks_clean(file: &Path) {
    let r = run(&["check", file.to_str().unwrap()]);
    r.succeeds();
    assert!(!r.stdout.contains("\terror\t"), "{}", r.stdout);
}

/// Runs `gcf ARGS` in `dir`.
pub fn gcf_in(dir: &Path, args: &[&str]) -> Run {
    Run::from(
        Command::new(env!("CARGO_BIN_EXE_gcf"))
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap(),
    )
}

/// Runs `gcf ARGS` with `input` on its standard input.
pub fn gcf_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut c = Command::new(env!("CARGO_BIN_EXE_gcf"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(input).unwrap();
    c.wait_with_output().unwrap()
}

/// The JSON chunk of a `.glb` (glTF binary) file.
pub fn glb_json(glb: &[u8]) -> serde_json::Value {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

/// Bytes of a command's output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh folder under the system's temporary folder, unique to this process and `tag`.
pub fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcf-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Names in `dir`, sorted: what a command left behind.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The generated sample `format/name` (as in `samples/`).
pub fn sample(name: &str) -> Vec<u8> {
    gcf::samples()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no sample {name}"))
        .1
}

/// A RARC file member named `name` with default attributes and ID.
pub fn file(name: &str, data: Vec<u8>) -> rarc::Item {
    rarc::Item::File {
        name: name.as_bytes().to_vec(),
        attr: None,
        data,
        id: None,
    }
}

/// The RARC of `tree` in the retail layout.
pub fn pack(tree: &rarc::Dir) -> Vec<u8> {
    rarc::pack(tree, rarc::PackOptions::default())
        .write()
        .unwrap()
}

/// A RARC named `Stage` holding `jmp/ObjInfo` (the `every_type` table sample), an opaque
/// `jmp/Other` and `after.bin`: a Galaxy-style archive with a table member without extension.
pub fn table_archive() -> Vec<u8> {
    pack(&rarc::Dir {
        name: b"Stage".to_vec(),
        children: vec![
            rarc::Item::Dir(rarc::Dir {
                name: b"jmp".to_vec(),
                children: vec![
                    file("ObjInfo", sample("bcsv/every_type.bcsv")),
                    file("Other", vec![1; 64]),
                ],
            }),
            file("after.bin", vec![7; 100]),
        ],
    })
}
