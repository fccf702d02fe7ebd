//! [`open`]: a file identified once, with everything the registry can say about it.

use bytes::Bytes;
use gcio::{Diagnostic, Error, ErrorKind, Limits, Result};

use crate::format::{Input, ParseCell};
use crate::{Companions, Detection, Format, Info, Options, Rewrite, UNKNOWN};

/// An opened file's bytes: the caller's, or shared (a member, a decompressed payload).
#[derive(Clone)]
enum Data<'a> {
    Borrowed(&'a [u8]),
    Shared(Bytes),
}

impl Data<'_> {
    fn as_slice(&self) -> &[u8] {
        match self {
            Data::Borrowed(b) => b,
            Data::Shared(b) => b,
        }
    }
}

/// How deep [`Opened::members`] descends into containers (an archive in a Yaz0 stream in an
/// archive …): members of a file this deep have no members of their own.
pub const MAX_NESTING: u32 = 8;

/// A file identified by the registry: its bytes, its format and detection, and the bounds its
/// members are read under. Every question (info, findings, write-back, members, conversions)
/// goes to the format that detected it, without detecting again, and the format's parsed state
/// ([`Format::parse`]) is made on the first question and kept for the others: a Yaz0 payload is
/// decoded once, and its member shares those bytes.
///
/// Members are [`Opened`] files too; a member no registered format recognises is still one
/// ([`Opened::is_known`] is false): opaque bytes that write back as they are.
pub struct Opened<'a> {
    data: Data<'a>,
    name: String,
    format: Option<&'static dyn Format>,
    detection: Detection,
    limits: Limits,
    depth: u32,
    parsed: ParseCell,
}

impl std::fmt::Debug for Opened<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opened")
            .field("name", &self.name)
            .field("format", &self.detection.format)
            .field("detail", &self.detection.detail)
            .field("bytes", &self.bytes().len())
            .field("parsed", &self.parsed.get().is_some())
            .finish()
    }
}

/// What [`open`] reads: bytes borrowed from the caller, bytes the opened file keeps and shares
/// with its members (a `Vec<u8>` or [`Bytes`] handed over), or a file on disk (read whole,
/// named by its path).
#[derive(Debug, Clone)]
pub enum Source<'a> {
    /// The caller's bytes.
    Borrowed(&'a [u8]),
    /// Bytes the opened file owns; members stored as they are share them instead of copying.
    Shared(Bytes),
    /// A file to read.
    Path(&'a std::path::Path),
}

impl<'a> From<&'a [u8]> for Source<'a> {
    fn from(b: &'a [u8]) -> Self {
        Source::Borrowed(b)
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for Source<'a> {
    fn from(b: &'a [u8; N]) -> Self {
        Source::Borrowed(b)
    }
}

impl<'a> From<&'a Vec<u8>> for Source<'a> {
    fn from(b: &'a Vec<u8>) -> Self {
        Source::Borrowed(b)
    }
}

impl From<Vec<u8>> for Source<'_> {
    fn from(b: Vec<u8>) -> Self {
        Source::Shared(b.into())
    }
}

impl From<Bytes> for Source<'_> {
    fn from(b: Bytes) -> Self {
        Source::Shared(b)
    }
}

impl<'a> From<&'a std::path::Path> for Source<'a> {
    fn from(p: &'a std::path::Path) -> Self {
        Source::Path(p)
    }
}

impl<'a> From<&'a std::path::PathBuf> for Source<'a> {
    fn from(p: &'a std::path::PathBuf) -> Self {
        Source::Path(p)
    }
}

/// How [`open_with`] opens a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// The file's name or path: formats without magic (BTI, BMS, weak BCSV) are told by its
    /// extension. A [`Source::Path`] names itself when this is empty.
    pub name: String,
    /// Bounds on every parse and on the members' total size (per container).
    pub limits: Limits,
    /// Give an [`Opened`] for bytes no format recognises ([`Opened::is_known`] false: opaque
    /// bytes, as container members may be) instead of an error.
    pub any: bool,
}

impl OpenOptions {
    /// Options naming the file `name`.
    pub fn named(name: impl Into<String>) -> Self {
        OpenOptions {
            name: name.into(),
            ..OpenOptions::default()
        }
    }

    /// The same options under `limits`.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The same options, opening unrecognised bytes too ([`OpenOptions::any`]).
    pub fn any(mut self) -> Self {
        self.any = true;
        self
    }
}

/// Opens a file (bytes, a buffer to keep, or a path: [`Source`]) with the default options: an
/// error when no registered format recognises it.
///
/// ```
/// assert!(gcformats::open(b"\0\0\0\0").is_err());
/// ```
pub fn open<'a>(source: impl Into<Source<'a>>) -> Result<Opened<'a>> {
    open_with(source, &OpenOptions::default())
}

/// [`open`] with options: the file's name, limits, and whether unrecognised bytes open too.
pub fn open_with<'a>(source: impl Into<Source<'a>>, opts: &OpenOptions) -> Result<Opened<'a>> {
    let (data, name) = match source.into() {
        Source::Borrowed(b) => (Data::Borrowed(b), opts.name.clone()),
        Source::Shared(b) => (Data::Shared(b), opts.name.clone()),
        Source::Path(p) => {
            let bytes = std::fs::read(p).map_err(|e| crate::io_error(p, e))?;
            let name = if opts.name.is_empty() {
                p.display().to_string()
            } else {
                opts.name.clone()
            };
            (Data::Shared(bytes.into()), name)
        }
    };
    let o = Opened::new(data, name, &opts.limits, 0);
    if o.is_known() || opts.any {
        Ok(o)
    } else {
        Err(Error::without_offset(ErrorKind::Invalid(format!(
            "{}: no registered format recognises this file",
            if o.name.is_empty() { "input" } else { &o.name }
        ))))
    }
}

impl<'a> Opened<'a> {
    fn new(data: Data<'a>, name: String, limits: &Limits, depth: u32) -> Self {
        let parsed = ParseCell::new();
        let found = crate::formats::FORMATS.iter().find_map(|f| {
            f.detect_parsed(data.as_slice(), &name)
                .map(|(d, state)| (*f, d, state))
        });
        let (format, detection) = match found {
            Some((f, d, state)) => {
                if let Some(state) = state {
                    let _ = parsed.set(Ok(state));
                }
                (Some(f), d)
            }
            None => (None, Detection::new(UNKNOWN)),
        };
        Opened {
            data,
            name,
            format,
            detection,
            limits: *limits,
            depth,
            parsed,
        }
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.data.as_slice()
    }

    /// What the registered format's questions receive: the bytes and the parse kept for them.
    fn input(&self) -> Result<Input<'_>> {
        let format = self.known()?;
        let shared = match &self.data {
            Data::Shared(b) => Some(b),
            Data::Borrowed(_) => None,
        };
        Ok(Input::new(
            self.bytes(),
            shared,
            &self.name,
            &self.limits,
            format,
            &self.parsed,
        ))
    }

    /// The name it was opened under (a member's path inside its container).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Format name (`rarc`, `j3d-bdl`, `yaz0`, …; `unknown` for an unrecognised member).
    pub fn format(&self) -> &'static str {
        self.detection.format
    }

    /// Detection detail (for a compressed stream, the payload's format).
    pub fn detail(&self) -> Option<&str> {
        self.detection.detail.as_deref()
    }

    /// The payload size a compressed stream's header declares, before decoding
    /// ([`Format::expands_to`]); `None` for files that do not expand.
    pub fn expands_to(&self) -> Option<u64> {
        self.format?.expands_to(self.bytes())
    }

    /// The whole detection.
    pub fn detection(&self) -> &Detection {
        &self.detection
    }

    /// The registry entry that recognised the file (`None` for an unrecognised member).
    pub fn registered(&self) -> Option<&'static dyn Format> {
        self.format
    }

    /// Whether a registered format recognised the file.
    pub fn is_known(&self) -> bool {
        self.format.is_some()
    }

    /// How many containers this file is inside (0 for an opened file).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether the file is a compression layer (Yaz0, Yay0) whose one member is its payload.
    pub fn is_compressed(&self) -> bool {
        matches!(self.format(), "yaz0" | "yay0")
    }

    fn known(&self) -> Result<&'static dyn Format> {
        self.format.ok_or_else(|| {
            Error::without_offset(ErrorKind::Invalid(format!("{}: unknown format", self.name)))
        })
    }

    /// A summary: text for a terminal and the same facts as JSON.
    pub fn info(&self) -> Result<Info> {
        self.known()?.info(&self.input()?)
    }

    /// The validator's findings (empty for an unrecognised member: nothing to check).
    pub fn validate(&self) -> Result<Vec<Diagnostic>> {
        self.validate_with(&Options::new(), &Companions::new())
    }

    /// [`Opened::validate`] with format options (e.g. hsd-dat's `order`) and the companion files
    /// the format checks against, read by the caller: option key ([`Format::companions`], e.g.
    /// j3d-anim's `model`, ibnk's `wsys`) → bytes.
    pub fn validate_with(&self, opts: &Options, files: &Companions) -> Result<Vec<Diagnostic>> {
        match self.format {
            Some(f) => f.check(&self.input()?.with_companions(files), opts),
            None => Ok(Vec::new()),
        }
    }

    /// The file written back from its model without edits, with the parts kept as stored bytes
    /// ([`Rewrite::raw`]). An unrecognised member writes back as its bytes.
    pub fn rewrite(&self) -> Result<Rewrite> {
        match self.format {
            Some(f) => f.roundtrip(&self.input()?),
            None => Ok(Rewrite::from(self.bytes().to_vec())),
        }
    }

    /// The parts the model keeps as stored bytes rather than typed values.
    pub fn raw_parts(&self) -> Result<Vec<String>> {
        self.rewrite().map(|r| r.raw)
    }

    /// Counters for a survey (see [`Format::facts`]).
    pub fn facts(&self) -> Vec<(String, u64)> {
        match (self.format, self.input()) {
            (Some(f), Ok(input)) => f.facts(&input),
            _ => Vec::new(),
        }
    }

    /// The members, each opened (decompressed; a compressed stream's one member is its payload,
    /// named `payload`). Empty for plain files, for unrecognised ones and past [`MAX_NESTING`].
    /// Errors when the container does not list, or when its members together pass
    /// `limits.max_alloc_bytes`.
    pub fn members(&self) -> Result<Vec<Opened<'static>>> {
        let Some(f) = self.format else {
            return Ok(Vec::new());
        };
        if self.depth >= MAX_NESTING {
            return Ok(Vec::new());
        }
        let members = f.members(&self.input()?)?;
        let total: u64 = members.iter().map(|m| m.data.len() as u64).sum();
        self.limits.check_alloc(total, 1, 0)?;
        Ok(members
            .into_iter()
            .map(|m| Opened::new(Data::Shared(m.data), m.name, &self.limits, self.depth + 1))
            .collect())
    }

    /// Converts the file into what the name `to` asks for (by its extension: `.png`, `.glb`,
    /// `.obj`, `.csv`, `.json`, `.mid`, …; a folder without one), in memory ([`crate::Outputs`],
    /// which the caller writes), with the companion files the conversion reads (e.g. `dat`).
    /// `Ok(None)` when the format has no conversion to that kind of file.
    #[cfg(feature = "convert")]
    pub fn convert(
        &self,
        to: &str,
        opts: &Options,
        files: &Companions,
    ) -> Result<Option<crate::Outputs>> {
        match self.format {
            Some(f) => f.convert(&crate::format::Conversion {
                input: self.bytes(),
                from: &self.name,
                to,
                opts,
                companions: files,
                limits: &self.limits,
            }),
            None => Ok(None),
        }
    }

    /// Takes ownership of the bytes (for keeping a borrowed file past its buffer).
    pub fn into_owned(self) -> Opened<'static> {
        let data = match self.data {
            Data::Borrowed(b) => Bytes::copy_from_slice(b),
            Data::Shared(b) => b,
        };
        Opened {
            data: Data::Shared(data),
            name: self.name,
            format: self.format,
            detection: self.detection,
            limits: self.limits,
            depth: self.depth,
            parsed: self.parsed,
        }
    }
}

#[cfg(all(test, feature = "rarc"))]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    /// One decode per examination: every question of a Yaz0 file shares the payload detection
    /// decoded, and a stored member shares its archive's bytes.
    #[test]
    fn questions_share_one_parse_and_members_share_bytes() {
        let arc = rarc::pack(&rarc::sample_tree(), rarc::PackOptions::default())
            .write()
            .unwrap();
        let szs = yaz0::encode(&arc, yaz0::Encoder::Matching(yaz0::Matching::Nintendo));
        let file = crate::open_with(&szs, &crate::OpenOptions::named("stage.szs")).unwrap();
        let first = file.members().unwrap();
        assert!(file.validate().unwrap().is_empty());
        assert_eq!(file.rewrite().unwrap().bytes, szs);
        let again = file.members().unwrap();
        assert_eq!(first[0].bytes(), &arc[..]);
        assert_eq!(first[0].bytes().as_ptr(), again[0].bytes().as_ptr());
        let payload = &first[0];
        let members = payload.members().unwrap();
        let stored = members.iter().find(|m| !m.bytes().is_empty()).unwrap();
        let inside = payload.bytes().as_ptr_range();
        assert!(
            inside.contains(&stored.bytes().as_ptr()),
            "{}",
            stored.name()
        );
    }
}

#[cfg(test)]
mod parse_once {
    #![allow(clippy::unwrap_used)]

    /// Every sample of every registered format, opened once, answers info, write-back, check,
    /// members and facts with one run of [`crate::Format::parse`] at most (none when detection
    /// handed its decoded payload over), and the members' own questions parse them once each.
    #[test]
    fn every_question_shares_one_parse() {
        let samples = crate::samples();
        assert!(!samples.is_empty() || crate::registry().is_empty());
        for (name, bytes) in &samples {
            let file = crate::open_with(bytes, &crate::OpenOptions::named(name).any()).unwrap();
            if !file.is_known() {
                continue;
            }
            let before = crate::format::PARSES.with(std::cell::Cell::get);
            let _ = file.info();
            let _ = file.rewrite();
            let _ = file.validate();
            let members = file.members().unwrap_or_default();
            let _ = file.facts();
            let _ = file.info();
            let parses = crate::format::PARSES.with(std::cell::Cell::get) - before;
            let handed_over = file.is_compressed();
            assert!(
                parses == usize::from(!handed_over) || (handed_over && parses <= 1),
                "{name} ({}): parsed {parses} times",
                file.format()
            );
            for m in members.iter().filter(|m| m.is_known()) {
                let before = crate::format::PARSES.with(std::cell::Cell::get);
                let _ = m.rewrite();
                let _ = m.validate();
                let _ = m.facts();
                let _ = m.info();
                let parses = crate::format::PARSES.with(std::cell::Cell::get) - before;
                assert!(parses <= 1, "{name}:{}: parsed {parses} times", m.name());
            }
        }
    }
}

#[cfg(test)]
mod caller_limits {
    /// Opened under limits no file meets, every sample's summary is refused (the model, or the
    /// view it reads, is parsed under the caller's [`gcio::Limits`]), and so is its write-back
    /// wherever the model charges what it copies: the caller's limits reach the questions. An
    /// empty table has nothing to bound.
    #[test]
    fn zero_limits_refuse_the_questions() {
        let none = gcio::Limits {
            max_alloc_bytes: 0,
            max_elements: 0,
            max_nodes: 0,
            max_depth: 0,
        };
        let mut passed = Vec::new();
        let mut refused = 0;
        for (name, bytes) in crate::samples() {
            let file =
                crate::open_with(&bytes, &crate::OpenOptions::named(&name).limits(none).any())
                    .unwrap();
            if !file.is_known() || file.is_compressed() || name == "bcsv/empty.bcsv" {
                continue;
            }
            if file.info().is_ok() {
                passed.push(format!("{name} ({})", file.format()));
            }
            refused += usize::from(file.rewrite().is_err());
        }
        assert!(passed.is_empty(), "{passed:#?}");
        assert!(refused > 0 || crate::registry().is_empty());
    }
}

#[cfg(all(
    test,
    feature = "convert",
    feature = "pkx",
    feature = "bcsv",
    feature = "rarc"
))]
mod convert_in_memory {
    #![allow(clippy::unwrap_used)]
    use crate::{Companions, Options};

    /// [`crate::convert`] with no options.
    #[cfg(feature = "convert")]
    fn convert_with(
        input: &[u8],
        from: &str,
        to: &str,
        companions: &Companions,
        limits: &gcio::Limits,
    ) -> gcio::Result<Option<crate::Outputs>> {
        crate::convert(&crate::Conversion {
            input,
            from,
            to,
            opts: &Options::new(),
            companions,
            limits,
        })
    }

    /// Conversions return their files and read their extra inputs from [`Companions`]: a table
    /// inside a Yaz0 stream converts to one CSV entry named as the target, and a PKX rebuilt
    /// from its JSON and its DAT (the `dat` companion) is the original file, with no path opened.
    #[test]
    fn conversions_take_bytes_and_return_files() {
        let (opts, none) = (Options::new(), Companions::new());
        let (name, table) = bcsv::build::samples().into_iter().next().unwrap();
        let szs = yaz0::encode(&table, yaz0::Encoder::Matching(yaz0::Matching::Nintendo));
        let csv = convert_with(&szs, &name, "out/t.csv", &none, &gcio::Limits::default()).unwrap();
        let [(file, text)] = &csv.unwrap()[..] else {
            panic!("one file")
        };
        assert_eq!(file, "t.csv");
        let back = convert_with(text, "t.csv", "t.bcsv", &none, &gcio::Limits::default()).unwrap();
        assert_eq!(back, Some(crate::one_file("t.bcsv", table)));

        let (_, pkx) = pkx::build::samples().unwrap().into_iter().next().unwrap();
        let file = crate::open_with(&pkx, &crate::OpenOptions::named("x.pkx")).unwrap();
        let json = file.convert("x.json", &opts, &none).unwrap().unwrap();
        let dat = file.members().unwrap().remove(0).bytes().to_vec();
        let files = Companions::from([("dat:model.dat".to_owned(), dat)]);
        let json = &json[0].1;
        assert!(convert_with(json, "x.json", "y.pkx", &none, &gcio::Limits::default()).is_err());
        let built =
            convert_with(json, "x.json", "y.pkx", &files, &gcio::Limits::default()).unwrap();
        assert_eq!(built, Some(crate::one_file("y.pkx", pkx.clone())));
        assert!(matches!(file.convert("x.wav", &opts, &none), Ok(None)));
        assert!(crate::companion_keys().contains(&"dat"));
    }

    /// `convert` parses with the caller's limits: a table that converts under the defaults is
    /// refused with a limit error under tiny ones, through [`crate::convert`] and through
    /// [`crate::Opened::convert`] (which passes the limits it was opened with).
    #[test]
    fn conversions_honour_the_callers_limits() {
        let (opts, none) = (Options::new(), Companions::new());
        let (name, table) = bcsv::build::samples().into_iter().next().unwrap();
        let tiny = gcio::Limits {
            max_alloc_bytes: 1,
            max_elements: 1,
            ..gcio::Limits::default()
        };
        let is_limit = |r: gcio::Result<Option<crate::Outputs>>| {
            matches!(
                r.map_err(|e| e.kind().clone()),
                Err(gcio::ErrorKind::Limit { .. })
            )
        };
        let ok = convert_with(&table, &name, "t.csv", &none, &gcio::Limits::default());
        assert!(ok.unwrap().is_some());
        assert!(is_limit(convert_with(&table, &name, "t.csv", &none, &tiny)));
        let file =
            crate::open_with(&table, &crate::OpenOptions::named(&name).limits(tiny).any()).unwrap();
        assert!(is_limit(file.convert("t.csv", &opts, &none)));
    }
}
