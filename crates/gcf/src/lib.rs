//! The engine behind the `gcf` command: the per-file examination used by `roundtrip`, `check` and
//! `survey` (over the library's [`gcformats::Opened`]), the survey report, and file I/O (archive
//! extract/pack folders, output policy, disc images). The format registry and identification are
//! the library's ([`gcformats::registry`]), re-exported here.
//!
//! ```
//! let d = gcf::identify(b"not a game file", "x.bin");
//! assert_eq!(d.format, "unknown");
//! ```
#![forbid(unsafe_code)]

pub mod archive;
#[cfg(feature = "disc")]
pub mod disc;
pub mod output;
pub mod render;
pub mod report;
pub mod survey;

pub use gcformats::{
    Companions, Detection, Format, Info, MAX_NESTING, Member, OpenOptions, Opened, Options,
    Rewrite, UNKNOWN, detect_format, extension, format_by_name, formats, io_error, open, open_with,
    samples,
};

use gcio::{Diagnostic, first_difference};

/// What `gcf convert` can do, from the registry: every conversion each format declares
/// ([`Format::conversions`]), one line each (also printed by `convert --help` and the "no
/// conversion" error).
pub fn conversions_help() -> String {
    let mut text =
        "Conversions (the file names' extensions choose; `-o KEY=VALUE` passes options):\n"
            .to_owned();
    for f in gcformats::registry() {
        for c in f.conversions() {
            text.push_str(&c.line());
            text.push('\n');
        }
    }
    text.push_str("A compressed input (Yaz0/Yay0) converts as its payload.");
    text
}

/// The `-o KEY=VALUE` options of the formats' checks, from the registry
/// ([`Format::check_options`]), for `gcf check --help`.
pub fn check_options_help() -> String {
    let mut text = "Check options (-o KEY=VALUE; a file's format reads its own):\n".to_owned();
    for f in gcformats::registry() {
        for (key, what) in f.check_options() {
            text.push_str(&format!("  {:<12} {key}={what}\n", f.name()));
        }
    }
    text
}

/// Identifies `data` (named `path`); `unknown` when no format claims it.
pub fn identify(data: &[u8], path: &str) -> Detection {
    gcformats::identify_named(data, path).unwrap_or_else(|| Detection::new(UNKNOWN))
}

/// Outcome of parsing and rewriting one file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum RoundTrip {
    /// Rewritten bytes equal the input, every part through the typed writers.
    Identical,
    /// Rewritten bytes equal the input, but these parts were copied as stored bytes (a raw
    /// fallback), so the typed writers are not proven on them.
    Raw {
        /// What the model kept raw ([`Rewrite::raw`]).
        parts: Vec<String>,
    },
    /// Rewritten bytes first differ at this offset.
    Differs {
        /// First differing offset.
        offset: u64,
    },
    /// Parsing or writing failed.
    Error {
        /// The error message (with breadcrumb and offset).
        message: String,
    },
    /// No format recognised the file.
    Unknown,
    /// An archive member no format recognises: opaque bytes, kept as they are (not an error).
    Kept,
}

impl RoundTrip {
    /// Identical bytes (typed or through a raw fallback), or an opaque member kept as is: what
    /// `roundtrip` exits 0 on.
    pub fn is_ok(&self) -> bool {
        matches!(
            self,
            RoundTrip::Identical | RoundTrip::Raw { .. } | RoundTrip::Kept
        )
    }
}

impl std::fmt::Display for RoundTrip {
    /// The third column of `gcf roundtrip` lines.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoundTrip::Identical => f.write_str("identical"),
            RoundTrip::Raw { parts } => write!(f, "identical (raw: {})", parts.join(", ")),
            RoundTrip::Differs { offset } => write!(f, "differs at {offset:#x}"),
            RoundTrip::Error { message } => write!(f, "error: {message}"),
            RoundTrip::Unknown => f.write_str("error: unknown format"),
            RoundTrip::Kept => f.write_str("kept"),
        }
    }
}

/// Writes `file` back from its model and compares the rewrite with its bytes.
pub fn roundtrip_of(file: &Opened<'_>) -> RoundTrip {
    if !file.is_known() {
        return RoundTrip::Unknown;
    }
    match file.rewrite() {
        Ok(out) => match first_difference(file.bytes(), &out.bytes) {
            None if out.raw.is_empty() => RoundTrip::Identical,
            None => RoundTrip::Raw { parts: out.raw },
            Some(offset) => RoundTrip::Differs {
                offset: offset as u64,
            },
        },
        Err(e) => RoundTrip::Error {
            message: e.to_string(),
        },
    }
}

/// Everything `gcf` learns about one file (or archive member).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Examined {
    /// Path, with `:` separating container and member (`a.arc:dir/b.bcsv`).
    pub path: String,
    /// Detected format (`unknown` when none).
    pub format: &'static str,
    /// Detection detail (inner format of a compressed stream).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// File size in bytes.
    pub bytes: u64,
    /// Round-trip outcome.
    pub roundtrip: RoundTrip,
    /// Validator findings (empty when the file did not parse).
    pub diagnostics: Vec<Diagnostic>,
    /// Error from the validator or member listing, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Facts the format collected (see [`Format::facts`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<(String, u64)>,
    /// Seconds spent on this file (excluding members).
    pub seconds: f64,
}

/// The option key (see [`Options`]) holding the byte budget: the most bytes one input may
/// expand to (members and payloads decompressed, at every nesting level; files extracted).
pub const BUDGET_KEY: &str = "budget";

/// The byte budget in `opts` ([`BUDGET_KEY`]), or [`output::DEFAULT_BUDGET`] (4 GiB).
pub fn budget(opts: &Options) -> u64 {
    opts.get(BUDGET_KEY)
        .and_then(|v| parse_size(v).ok())
        .unwrap_or(output::DEFAULT_BUDGET)
}

/// A byte count with an optional binary suffix: `4294967296`, `512M`, `4G`, `64KiB`.
///
/// ```
/// assert_eq!(gcf::parse_size("4G"), Ok(4 << 30));
/// assert_eq!(gcf::parse_size("64KiB"), Ok(64 << 10));
/// assert!(gcf::parse_size("12X").is_err());
/// ```
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(digits);
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("size {s:?}: expected a number with K, M, G or T")),
    };
    n.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("size {s:?}: expected a number with K, M, G or T"))
}

/// Bytes decompressed so far from one input against its [`budget`].
#[derive(Debug, Clone, Copy)]
pub struct Spent {
    /// Bytes charged so far.
    pub bytes: u64,
    /// The budget.
    pub budget: u64,
}

impl Spent {
    /// A fresh count against `opts`'s budget.
    pub fn new(opts: &Options) -> Spent {
        Spent {
            bytes: 0,
            budget: budget(opts),
        }
    }

    /// Charges `n` bytes; an error naming the budget once the total passes it.
    pub fn charge(&mut self, n: u64) -> Result<(), String> {
        self.bytes = self.bytes.saturating_add(n);
        if self.bytes > self.budget {
            return Err(format!(
                "expands past the budget of {} bytes (decompression bomb? raise it with --budget)",
                self.budget
            ));
        }
        Ok(())
    }
}

/// Identifies, round-trips and validates `data`, appending one [`Examined`] per file to `out` (the
/// container first). Compression layers (Yaz0, Yay0) are always seen through to their payload;
/// with `deep`, so is every member of an archive. A member of no known format is opaque bytes:
/// [`RoundTrip::Kept`], not an error.
///
/// Everything decompressed from `data` (members and payloads at every level; shared data once)
/// counts against the [`budget`] in `opts`: past it, the container reports the error and its
/// members are not examined.
pub fn examine(path: &str, data: &[u8], deep: bool, opts: &Options, out: &mut Vec<Examined>) {
    match gcformats::open_with(data, &OpenOptions::named(path).any()) {
        Ok(file) => examine_opened(&file, deep, opts, out),
        // Bytes always open with `any`; an error here is still reported, never dropped.
        Err(e) => out.push(Examined {
            path: path.to_owned(),
            format: UNKNOWN,
            detail: None,
            bytes: data.len() as u64,
            roundtrip: RoundTrip::Error {
                message: e.to_string(),
            },
            diagnostics: Vec::new(),
            error: Some(e.to_string()),
            facts: Vec::new(),
            seconds: 0.0,
        }),
    }
}

/// [`examine`] of a file already opened (e.g. from a buffer it keeps, whose members
/// stored as they are share its bytes).
pub fn examine_opened(file: &Opened<'_>, deep: bool, opts: &Options, out: &mut Vec<Examined>) {
    examine_with(file, deep, opts, &Companions::new(), out);
}

/// [`examine_opened`] with the companion files the checks read (see [`read_companions`]).
pub fn examine_with(
    file: &Opened<'_>,
    deep: bool,
    opts: &Options,
    files: &Companions,
    out: &mut Vec<Examined>,
) {
    let mut cx = Cx {
        deep,
        opts,
        files,
        out,
    };
    examine_at(file.name(), file, &mut cx, &mut Spent::new(opts));
}

/// Reads the companion files named in `opts` (the option keys of
/// [`gcformats::companion_keys`], e.g. `wsys=waves.ws`, `model=x.bdl`, `dat=model.dat`; one path
/// per line where an option is repeated, as `anim`): each under `KEY:PATH`. The library checks
/// and converts with their bytes and opens no path itself.
pub fn read_companions(opts: &Options) -> Result<Companions, String> {
    read_companions_of(opts, &gcformats::companion_keys())
}

/// The input of a conversion made self-contained: a `.gltf` whose buffers and images are
/// separate files (Blender's "glTF Separate" export) gets them from beside it
/// ([`gcformats::embed_external`]; each at most [`gcio::Limits::default`]'s allocation bound);
/// any other input comes back as it is.
pub fn self_contained(input: &std::path::Path, data: Vec<u8>) -> Result<Vec<u8>, String> {
    let gltf = input
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
    if !gltf {
        return Ok(data);
    }
    let dir = input.parent().unwrap_or(std::path::Path::new(""));
    let most = gcio::Limits::default().max_alloc_bytes;
    gcformats::embed_external(&data, |name| {
        let path = dir.join(name);
        let size = std::fs::metadata(&path)
            .map_err(|e| gcio::Error::message(format!("{}: {e}", path.display())))?
            .len();
        if size > most {
            return Err(gcio::Error::message(format!(
                "{}: {size} bytes, past the {most} read at most",
                path.display()
            )));
        }
        std::fs::read(&path).map_err(|e| gcio::Error::message(format!("{}: {e}", path.display())))
    })
    .map_err(|e| format!("{}: {e}", input.display()))
}

/// [`read_companions`] for the option keys `keys` only (a conversion's,
/// [`gcformats::companion_keys_for`]).
pub fn read_companions_of(opts: &Options, keys: &[&str]) -> Result<Companions, String> {
    let mut files = Companions::new();
    for &key in keys {
        for path in opts.get(key).into_iter().flat_map(|v| v.lines()) {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            files.insert(format!("{key}:{path}"), bytes);
        }
    }
    Ok(files)
}

/// Writes the files a conversion made ([`gcformats::Outputs`]) for the target `to` under
/// `policy`: into the folder `to` when it names one ([`gcformats::is_folder_name`]), otherwise
/// beside it (`to` itself is the entry named as its file name). Every path must be relative and
/// stay inside; every file must read back as what its name says ([`gcformats::read_back`]) and
/// every target is checked before the first is written; the files appear together or not at all.
pub fn write_outputs(
    policy: &output::Policy,
    to: &std::path::Path,
    files: &gcformats::Outputs,
) -> Result<(), String> {
    use std::path::{Component, Path};
    for (name, _) in files {
        let p = Path::new(name);
        if name.is_empty() || !p.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(format!(
                "{}: output path {name:?} leaves the target",
                to.display()
            ));
        }
    }
    gcformats::read_back_all(files, &gcio::Limits::default())
        .map_err(|e| format!("{}: refusing to write it: {e}", to.display()))?;
    if gcformats::is_folder_name(&to.to_string_lossy()) {
        return policy.write_folder(to, |dir| {
            for (name, bytes) in files {
                let p = dir.join(name);
                if let Some(parent) = p.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("{}: {e}", to.join(name).display()))?;
                }
                std::fs::write(&p, bytes)
                    .map_err(|e| format!("{}: {e}", to.join(name).display()))?;
            }
            Ok(())
        });
    }
    let dir = to.parent().unwrap_or(Path::new(""));
    let paths: Vec<_> = files
        .iter()
        .map(|(n, b)| (dir.join(n), b.as_slice()))
        .collect();
    policy.write_files(&paths)
}

/// Writes `bytes`, a file of a new layout (a packed archive, a rebuilt model, an archive with a
/// replaced member), to `out` after reading it back ([`gcformats::read_back`]): what would not
/// read back is refused, never written.
pub fn write_checked(
    policy: &output::Policy,
    out: &std::path::Path,
    bytes: &[u8],
) -> Result<(), String> {
    gcformats::read_back(&out.to_string_lossy(), bytes, &gcio::Limits::default())
        .map_err(|e| format!("{}: refusing to write it: {e}", out.display()))?;
    policy.write_file(out, bytes)
}

/// What every level of one examination shares.
struct Cx<'a> {
    deep: bool,
    opts: &'a Options,
    files: &'a Companions,
    out: &'a mut Vec<Examined>,
}

/// Examines one opened file (identified once, by [`gcformats::open_with`]) and its members.
fn examine_at(path: &str, file: &gcformats::Opened<'_>, cx: &mut Cx<'_>, spent: &mut Spent) {
    let start = std::time::Instant::now();
    let data = file.bytes();
    let depth = file.depth();
    let det = file.detection().clone();
    if !file.is_known() {
        cx.out.push(Examined {
            path: path.to_owned(),
            format: UNKNOWN,
            detail: None,
            bytes: data.len() as u64,
            roundtrip: if depth > 0 {
                RoundTrip::Kept
            } else {
                RoundTrip::Unknown
            },
            diagnostics: Vec::new(),
            error: None,
            facts: Vec::new(),
            seconds: start.elapsed().as_secs_f64(),
        });
        return;
    };
    let layer = file.is_compressed();
    if layer && let Err(e) = spent.charge(file.expands_to().unwrap_or(0)) {
        // A compressed stream past the budget is not decoded at all (check, facts, members).
        cx.out.push(Examined {
            path: path.to_owned(),
            format: det.format,
            detail: det.detail,
            bytes: data.len() as u64,
            roundtrip: RoundTrip::Error { message: e.clone() },
            diagnostics: Vec::new(),
            error: Some(e),
            facts: Vec::new(),
            seconds: start.elapsed().as_secs_f64(),
        });
        return;
    }
    let roundtrip = roundtrip_of(file);
    let (diagnostics, mut error) = match file.validate_with(cx.opts, cx.files) {
        Ok(d) => (d, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let facts = file.facts();
    let mut members = if cx.deep || layer {
        file.members().unwrap_or_else(|e| {
            error.get_or_insert_with(|| e.to_string());
            Vec::new()
        })
    } else {
        Vec::new()
    };
    // A stream's payload was charged by its declared size above.
    let expanded = if layer {
        0
    } else {
        members.iter().map(|m| m.bytes().len() as u64).sum()
    };
    if let Err(e) = spent.charge(expanded) {
        error.get_or_insert(e);
        members.clear();
    }
    cx.out.push(Examined {
        path: path.to_owned(),
        format: det.format,
        detail: det.detail,
        bytes: data.len() as u64,
        roundtrip,
        diagnostics,
        error,
        facts,
        seconds: start.elapsed().as_secs_f64(),
    });
    for m in members {
        examine_at(&format!("{path}:{}", m.name()), &m, cx, spent);
    }
}
