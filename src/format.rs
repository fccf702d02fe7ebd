//! The interface every format crate plugs into: detect, parse, info, check, roundtrip, members,
//! convert, extract, pack and sample generation. One implementation per format lives in
//! `formats/`; the file conversions (`convert`, `extract`, `pack`) exist with the `convert` feature
//! only.
//!
//! A file is parsed once: [`Format::parse`] returns the format's parsed state (an owned model, a
//! decoded payload), which [`crate::Opened`] keeps, and every question ([`Format::info`],
//! [`Format::roundtrip`], [`Format::check`], [`Format::members`], [`Format::facts`]) receives it
//! through its [`Input`] ([`Input::parsed`]), together with the file's bytes.

use std::any::Any;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use bytes::Bytes;
use gcio::{Diagnostic, Error, Limits, Result};

/// What `identify` says about a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detection {
    /// Format name as printed by `gcf identify` (e.g. `rarc`, `j3d-bdl`, `pkx-xd`).
    pub format: &'static str,
    /// Extra detail (for `yaz0`, the inner format).
    pub detail: Option<String>,
}

impl Detection {
    /// A detection without detail.
    pub fn new(format: &'static str) -> Self {
        Detection {
            format,
            detail: None,
        }
    }
}

/// A human-readable and a machine-readable summary of a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    /// Text for the terminal (may span lines).
    pub text: String,
    /// The same facts as JSON for `--json` (`()` without the `json` feature).
    pub json: crate::Json,
}

/// A file inside a container (archive member, decompressed payload, embedded model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Path inside the container (`dir/file.bdl`).
    pub name: String,
    /// The member's bytes, decompressed: shared with the container's parsed state or its input
    /// when stored as is ([`Input::share`]), not copied.
    pub data: Bytes,
}

/// Files made in memory for the caller to write: `/`-separated relative path → bytes. For
/// `Format::extract`, paths inside the extracted folder; for `Format::convert`, paths inside
/// the output folder when the target names one ([`is_folder_name`]), otherwise beside the target:
/// the target itself is the entry named as its file name ([`file_name`]), e.g. `y.obj`, with the
/// files it refers to (`y.mtl`, `y_img0.png`) next to it.
pub type Outputs = Vec<(String, Vec<u8>)>;

/// A folder read into memory (what `Format::pack` and `archive::pack_rarc` pack; feature `convert`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Folder {
    /// Files by folder-relative `/`-separated path.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Every sub-folder, parents first.
    pub dirs: Vec<String>,
}

/// Companion files a check or a conversion reads besides the file itself (e.g. the model an
/// animation binds to, the wave system a sound bank plays from, the DAT a PKX is built around,
/// the animations a glTF export carries), by the option key that names them
/// ([`Format::companions`]) → their bytes. The key is `KEY`, or `KEY:NAME` when the file has a
/// name (its path) or the option takes several files (j3d-bmd's `anim`). The caller reads them;
/// the library opens no path.
pub type Companions = BTreeMap<String, Vec<u8>>;

/// One conversion asked of a format: the bytes of the file named `from`, to be turned into what
/// the name `to` asks for (by its extension; a name without one is a folder), with the options,
/// the extra inputs named by option keys ([`Format::companions`], e.g. pkx's `dat`) and the
/// caller's limits, which bound every parse the conversion makes.
#[cfg(feature = "convert")]
#[derive(Clone, Copy)]
pub struct Conversion<'a> {
    /// The bytes of the file to convert.
    pub input: &'a [u8],
    /// Its name.
    pub from: &'a str,
    /// The name of what to make.
    pub to: &'a str,
    /// `-o KEY=VALUE` options.
    pub opts: &'a Options,
    /// Companion files by option key ([`companion`], [`companion_files`]).
    pub companions: &'a Companions,
    /// Bounds for every parse and allocation the conversion makes.
    pub limits: &'a Limits,
}

/// What a conversion tells its user besides the files it made, one line each (an input it
/// skipped and why): the conversion still succeeded. `gcf` prints each as `gcf: LINE` on stderr.
#[cfg(feature = "convert")]
pub type Notices = Vec<String>;

/// The glTF document of an import's input, with a notice for each thing the reader dropped
/// (line and point primitives, morph targets, textures without a PNG or JPEG source, …:
/// [`gx::scene::Scene::read_glb`]).
#[cfg(feature = "convert")]
pub(crate) fn read_scene(job: &Conversion<'_>, notices: &mut Notices) -> Result<gx::scene::Scene> {
    let (scene, notes) = gx::scene::Scene::read_glb(job.input)?;
    notices.extend(notes.into_iter().map(|n| format!("{}: {n}", job.from)));
    Ok(scene)
}

/// The notice for a texture an import stored at the size GX samples (`gx::tex::sampled_size`)
/// rather than its glTF size: `what` names it in `from`.
#[cfg(feature = "convert")]
pub(crate) fn resized_notice(
    from: &str,
    what: &str,
    [w, h]: [u32; 2],
    [sw, sh]: [u32; 2],
) -> String {
    format!(
        "{from}: {what} stored at {sw}×{sh}, not {w}×{h}: GX samples at most 1024 texels a side \
         and wraps only power-of-two sides"
    )
}

/// The companion files given under option key `key` ([`Companions`]: `KEY` and every
/// `KEY:NAME`), as (name, bytes) in key order; the name is `""` for a plain `KEY`.
pub fn companion_files<'a>(files: &'a Companions, key: &str) -> Vec<(&'a str, &'a [u8])> {
    files
        .iter()
        .filter_map(|(k, v)| {
            let name = k.strip_prefix(key)?;
            let name = if name.is_empty() {
                name
            } else {
                name.strip_prefix(':')?
            };
            Some((name, v.as_slice()))
        })
        .collect()
}

/// The first companion file given under option key `key` ([`companion_files`]).
pub fn companion<'a>(files: &'a Companions, key: &str) -> Option<&'a [u8]> {
    companion_files(files, key).first().map(|(_, b)| *b)
}

/// Option keys a caller sets for every operation whatever the format (`gcf` passes its byte
/// budget as `budget`); [`check_option_keys`] accepts them.
#[cfg(feature = "convert")]
const CALLER_KEYS: [&str; 1] = ["budget"];

/// Refuses option keys a conversion does not take, so a misspelt `-o` key is an error rather than
/// silently ignored: the error names the unknown keys and lists `known`. `what` names the
/// conversion (e.g. `PNG to BTI`). Any format's [`Format::convert`] can call it with its keys.
#[cfg(feature = "convert")]
pub fn check_option_keys(opts: &Options, known: &[&str], what: &str) -> Result<()> {
    let unknown: Vec<&str> = opts
        .keys()
        .map(String::as_str)
        .filter(|k| !known.contains(k) && !CALLER_KEYS.contains(k))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    Err(Error::message(format!(
        "{what}: unknown option {} (valid keys: {})",
        unknown.join(", "),
        known.join(", ")
    )))
}

/// What [`Format::parse`] returns: the format's parsed state, whatever type it chooses.
pub type Parsed = Box<dyn Any + Send + Sync>;

/// The parse result an [`crate::Opened`] keeps (its first question parses; the rest reuse it).
pub(crate) type ParseCell = OnceLock<Result<Parsed>>;

#[cfg(test)]
thread_local! {
    /// How many times [`Format::parse`] ran on this thread (tests count the parses per file).
    pub(crate) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A file as a format's questions see it: its bytes (`Input` dereferences to `[u8]`), its name,
/// the caller's [`Limits`] and, parsed on first use and then kept, the format's [`Parsed`] state.
pub struct Input<'a> {
    data: &'a [u8],
    shared: Option<&'a Bytes>,
    name: &'a str,
    limits: &'a Limits,
    format: &'a dyn Format,
    parsed: &'a ParseCell,
    companions: Option<&'a Companions>,
}

impl std::ops::Deref for Input<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.data
    }
}

impl<'a> Input<'a> {
    pub(crate) fn new(
        data: &'a [u8],
        shared: Option<&'a Bytes>,
        name: &'a str,
        limits: &'a Limits,
        format: &'a dyn Format,
        parsed: &'a ParseCell,
    ) -> Self {
        Input {
            data,
            shared,
            name,
            limits,
            format,
            parsed,
            companions: None,
        }
    }

    /// The same input with the caller's companion files.
    pub(crate) fn with_companions(mut self, files: &'a Companions) -> Self {
        self.companions = Some(files);
        self
    }

    /// The companion file given under option key `key` ([`Format::companions`]), if any.
    pub fn companion(&self, key: &str) -> Option<&'a [u8]> {
        companion(self.companions?, key)
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The name the file was opened under (`""` when none).
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The bounds the file is read under.
    pub fn limits(&self) -> &'a Limits {
        self.limits
    }

    /// The format's parsed state: [`Format::parse`] runs on the first call, later calls (from any
    /// question) get the same state, or the same parse error.
    pub fn parsed<T: Any>(&self) -> Result<&'a T> {
        let state = self.parsed.get_or_init(|| {
            #[cfg(test)]
            PARSES.with(|n| n.set(n.get() + 1));
            self.format.parse(self.data, self.limits)
        });
        match state {
            Ok(p) => p.downcast_ref::<T>().ok_or_else(|| {
                Error::message(format!(
                    "{}: parsed state is not a {}",
                    self.format.name(),
                    std::any::type_name::<T>()
                ))
            }),
            Err(e) => Err(e.clone()),
        }
    }

    /// `part` (a slice of [`Input::bytes`], e.g. a member stored uncompressed) as [`Bytes`]:
    /// shared with the input when it is held as `Bytes` (a decompressed payload, a member), copied
    /// otherwise.
    pub fn share(&self, part: &[u8]) -> Bytes {
        let inside = self.data.as_ptr_range();
        let p = part.as_ptr_range();
        match self.shared {
            Some(b) if !part.is_empty() && inside.start <= p.start && p.end <= inside.end => {
                b.slice_ref(part)
            }
            _ => Bytes::copy_from_slice(part),
        }
    }
}

/// A file written back without edits, and the parts the model kept as stored bytes rather than
/// typed values (the crate's `raw_parts()`): bytes equal to the input prove the typed writers
/// only when `raw` is empty.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rewrite {
    /// The written bytes.
    pub bytes: Vec<u8>,
    /// The parts copied rather than rewritten (e.g. `SHP1`, `string pool`).
    pub raw: Vec<String>,
}

impl From<Vec<u8>> for Rewrite {
    /// A rewrite that kept nothing raw (formats without a raw fallback).
    fn from(bytes: Vec<u8>) -> Self {
        Rewrite {
            bytes,
            raw: Vec::new(),
        }
    }
}

/// Free-form `key=value` options given on the command line (`--format cmpr`, `--dat model.dat`,
/// `-o yaz0=best`); each format reads the keys it knows.
pub type Options = BTreeMap<String, String>;

/// One file format of the registry. Methods that a format does not support return
/// `None` (for optional operations) or a default, so new formats implement only what they have.
///
/// [`Format::parse`] is the one parse step: the questions get its state from
/// [`Input::parsed`] (parsed on the first question that asks, then kept by [`crate::Opened`]), so
/// a file is parsed, and a compressed payload decoded, once however many questions are asked.
/// Questions that work from the bytes alone (a validator over the raw file) ignore it.
pub trait Format: Sync {
    /// Registry name; the primary `identify` name (e.g. `rarc`).
    fn name(&self) -> &'static str;

    /// Other names detection reports for the format's variants (`j3d-bck` of `j3d-anim`):
    /// [`crate::format_by_name`] resolves them too.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// The `-o KEY=VALUE` options its check reads, with what each does (what `gcf check --help`
    /// lists); companion files among them are also in [`Format::companions`].
    fn check_options(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// The conversions the format offers (what `gcf convert --help` lists).
    fn conversions(&self) -> &'static [gcio::ConversionSpec] {
        &[]
    }

    /// The file extensions the format's files carry, most usual first (`bcsv`, `tbl`, …);
    /// conversions into a file named without one (an archive member such as
    /// `jmp/Placement/ObjInfo`) use the first. Empty when the format names none.
    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    /// Recognises the file from its bytes (and, only as a tie-breaker, its path).
    fn detect(&self, data: &[u8], path: &str) -> Option<Detection>;

    /// [`Format::detect`], handing over the parse state when detecting already made it (a
    /// compressed stream decodes its payload to name the format inside): [`crate::Opened`]
    /// keeps it as if [`Format::parse`] had returned it, so the work is not done twice. The
    /// default detects only.
    fn detect_parsed(&self, data: &[u8], path: &str) -> Option<(Detection, Option<Parsed>)> {
        self.detect(data, path).map(|d| (d, None))
    }

    /// Parses the file once into the state the questions share ([`Input::parsed`]); the default
    /// keeps nothing (`()`), for formats whose questions read the bytes directly.
    fn parse(&self, _data: &[u8], _limits: &Limits) -> Result<Parsed> {
        Ok(Box::new(()))
    }

    /// Summary for `gcf info`.
    fn info(&self, data: &Input<'_>) -> Result<Info>;

    /// Parses and writes back without edits; `gcf roundtrip` compares the result with the input
    /// and reports the parts the model kept raw.
    fn roundtrip(&self, data: &Input<'_>) -> Result<Rewrite>;

    /// Validator findings for `gcf check`; companion files are in [`Input::companion`].
    fn check(&self, data: &Input<'_>, opts: &Options) -> Result<Vec<Diagnostic>>;

    /// The bytes the file expands to, as its header declares before anything is decoded (a
    /// compressed stream's payload size): what a caller charges against a decompression budget
    /// first. `None` for formats that do not expand.
    fn expands_to(&self, _data: &[u8]) -> Option<u64> {
        None
    }

    /// Option keys whose values name companion files the check or the conversion reads (e.g.
    /// `model`, `wsys`, `dat`, `anim`): the caller reads each and passes its bytes
    /// ([`Companions`]).
    fn companions(&self) -> &'static [&'static str] {
        &[]
    }

    /// Members of a container, decompressed; empty for plain files.
    fn members(&self, _data: &Input<'_>) -> Result<Vec<Member>> {
        Ok(Vec::new())
    }

    #[cfg(feature = "convert")]
    /// Converts `job.input` into what `job.to` asks for ([`Conversion`]). Returns the files made,
    /// in memory ([`Outputs`]: a single file is one entry); `Ok(None)` when this format does not
    /// convert between those names, so the registry can ask the next one.
    fn convert(&self, _job: &Conversion<'_>) -> Result<Option<Outputs>> {
        Ok(None)
    }

    #[cfg(feature = "convert")]
    /// [`Format::convert`] that may also leave [`Notices`] in `notices`: what the conversion
    /// skipped and why (e.g. a companion animation that does not fit the model). The default
    /// leaves none; a format that skips inputs overrides this and has `convert` call it.
    fn convert_noting(
        &self,
        job: &Conversion<'_>,
        notices: &mut Notices,
    ) -> Result<Option<Outputs>> {
        let _ = notices;
        self.convert(job)
    }

    #[cfg(feature = "convert")]
    /// The files an extracted folder holds (folder-relative `/`-separated path → bytes), in
    /// memory: the caller writes them. `Ok(None)` for files this format does not extract.
    fn extract(&self, _data: &[u8]) -> Result<Option<Outputs>> {
        Ok(None)
    }

    #[cfg(feature = "convert")]
    /// Builds a container from `folder` (read into memory by the caller) for the output named
    /// `out`; `Ok(None)` when this format is not the one `out` asks for.
    fn pack(&self, _folder: &Folder, _out: &Path, _opts: &Options) -> Result<Option<Vec<u8>>> {
        Ok(None)
    }

    /// A layout comparison of two files of the format, as text lines (`gcf compare A B`: how far
    /// `b`'s layout is from the reference `a`); `None` when the format offers none.
    fn compare(&self, _a: &[u8], _b: &[u8]) -> Option<Result<String>> {
        None
    }

    /// The file laid out afresh the way the game's own tools lay it out (not the
    /// layout-preserving writer), with the validator's findings on the result (`gcf rebuild`;
    /// options such as hsd-dat's `order`); `None` when the format offers none.
    fn rebuild(&self, _data: &[u8], _opts: &Options) -> Option<Result<(Vec<u8>, Vec<Diagnostic>)>> {
        None
    }

    /// Facts for the survey (e.g. `("sync-id flag=1", 1)`, `("opcode 0xc1", 34)`): counters summed per
    /// format across all files, so claims like "every block has a terminated run list" can be
    /// re-checked on any disc.
    fn facts(&self, _data: &Input<'_>) -> Vec<(String, u64)> {
        Vec::new()
    }

    /// Files generated by the crate's builders for `samples/` (file name, bytes).
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        Vec::new()
    }
}

/// Extensions of the files conversions export (models, images, tables and listings as text):
/// never the name of a game file, so a container is not decompressed or copied under one.
pub const EXPORT_EXTENSIONS: &[&str] = &[
    "glb", "gltf", "obj", "mtl", "png", "csv", "json", "txt", "mid", "midi", "dot", "gv",
];

/// Extension of `path`, lower-cased (`""` when none).
pub fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Extension of the name `name`, lower-cased (`""` when none).
pub fn extension_of(name: &str) -> String {
    extension(Path::new(name))
}

/// Whether a file named `name` is compressed by its extension (`.szs`, `.yaz0`, `.carc`: Yaz0).
pub fn is_compressed_name(name: &str) -> bool {
    matches!(extension_of(name).as_str(), "szs" | "yaz0" | "carc")
}

/// Whether the output name `to` names a folder: it has no extension (`out`, `out/`, `.`).
pub fn is_folder_name(to: &str) -> bool {
    extension_of(to).is_empty()
}

/// The last component of `name` (`"out"` when it has none, e.g. `..`).
pub fn file_name(name: &str) -> String {
    Path::new(name)
        .file_name()
        .map_or_else(|| "out".to_owned(), |n| n.to_string_lossy().into_owned())
}

/// The file stem of `name` (its file name without the extension; `model` when none).
pub fn file_stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map_or_else(|| "model".to_owned(), |n| n.to_string_lossy().into_owned())
}

/// A conversion's one output file, named as the target ([`Outputs`]).
pub fn one_file(to: &str, bytes: Vec<u8>) -> Outputs {
    vec![(file_name(to), bytes)]
}

/// Wraps an I/O error into a gcio error (no file offset applies).
pub fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::without_offset(gcio::ErrorKind::Invalid(format!("{}: {e}", path.display())))
}
