//! The contract every format crate fulfils: [`FileFormat`], implemented once in the format's own
//! crate, says what the format is called, how its files are recognised, read through both API
//! layers (a zero-copy view, an owned model), written back, validated and converted. A registry
//! (the `gcformats` facade) adapts every implementation with one generic entry, so adding a
//! format touches its crate, one registry line and one feature line.

use crate::{Confidence, Diagnostic, Limits, Result};

/// What a format's detection says about bytes it recognises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// The name `identify` prints: the format's [`FileFormat::NAME`] or one of its
    /// [`FileFormat::ALIASES`] (`j3d-bck` for a BCK of the `j3d-anim` family).
    pub name: &'static str,
    /// How sure detection is: a [`Confidence::Weak`] file is claimed only when its name carries
    /// one of the format's [`FileFormat::EXTENSIONS`].
    pub confidence: Confidence,
    /// Extra detail (a variant, a byte order).
    pub detail: Option<String>,
}

impl Detected {
    /// A detection named `name` at `confidence`, without detail.
    pub fn new(name: &'static str, confidence: Confidence) -> Self {
        Detected {
            name,
            confidence,
            detail: None,
        }
    }

    /// The same detection with `detail`.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Whether a registry claims the file named `name`: always when strong, when weak only if
    /// the name ends in one of `extensions` ([`Confidence::claims`]).
    pub fn claims(&self, name: &str, extensions: &[&str]) -> bool {
        self.confidence.claims(has_extension(name, extensions))
    }
}

/// Whether `name` ends in `.EXT` for one of `extensions` (case-insensitively).
pub fn has_extension(name: &str, extensions: &[&str]) -> bool {
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    extensions.iter().any(|e| e.eq_ignore_ascii_case(ext))
}

/// One conversion a format offers (`gcf convert IN OUT`): what `convert --help` lists and which
/// option keys it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConversionSpec {
    /// Extensions of the input, `""` for a folder, [`ConversionSpec::ANY`] for any file.
    pub from: &'static [&'static str],
    /// Extensions of the output, `""` for a folder, [`ConversionSpec::ANY`] for any name.
    pub to: &'static [&'static str],
    /// Option keys (`-o KEY=VALUE`) with what each does.
    pub options: &'static [(&'static str, &'static str)],
    /// What the conversion makes, in a few words.
    pub help: &'static str,
}

impl ConversionSpec {
    /// Any file or name (`*`): compression takes any file, decompression gives any game file.
    pub const ANY: &'static [&'static str] = &["*"];

    /// `.a/.b -> .c|.d  help`, a line of `gcf convert --help`.
    pub fn line(&self) -> String {
        let exts = |v: &[&str]| {
            v.iter()
                .map(|e| match *e {
                    "" => "FOLDER".to_owned(),
                    "*" => "any file".to_owned(),
                    e => format!(".{e}"),
                })
                .collect::<Vec<_>>()
                .join("/")
        };
        // Inputs a/b, outputs a|b: the hand-written help's convention.
        let mut line = format!("{} -> {}", exts(self.from), exts(self.to).replace('/', "|"));
        line = format!("  {line:<44} {}", self.help);
        for (k, what) in self.options {
            line.push_str(&format!("\n  {:<44}   -o {k}=…: {what}", ""));
        }
        line
    }
}

/// The contract of one file format, implemented by a unit type in the format's crate (e.g.
/// `canm::Format`). The associated functions are the format's API; a registry calls them
/// through one generic adapter.
pub trait FileFormat {
    /// The registry name (`rarc`, `j3d-anim`).
    const NAME: &'static str;
    /// Other names detection reports for variants (`j3d-bck`, `pkx-xd`); a registry resolves
    /// them to this format.
    const ALIASES: &'static [&'static str] = &[];
    /// File extensions, most usual first (without the dot).
    const EXTENSIONS: &'static [&'static str];
    /// The conversions the format offers.
    const CONVERSIONS: &'static [ConversionSpec] = &[];
    /// The format has no signature: detection is never [`Confidence::Strong`], so a registry
    /// asks it only about files named with one of [`FileFormat::EXTENSIONS`] (a BTI texture, a
    /// BMS sequence), and any file's bytes are not parsed on the chance.
    const NEEDS_NAME: bool = false;

    /// The zero-copy view: borrows the file's bytes.
    type View<'a>;
    /// The owned model: edits, then [`FileFormat::write`].
    type Model;

    /// Recognises the format from the bytes alone.
    fn detect(data: &[u8]) -> Option<Detected>;

    /// Parses the view; what it allocates is bounded by `limits`.
    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<Self::View<'a>>;

    /// The owned model of a view; what it allocates is bounded by `limits`.
    fn from_view(view: &Self::View<'_>, limits: &Limits) -> Result<Self::Model>;

    /// Parses the owned model ([`FileFormat::view_with`] then [`FileFormat::from_view`]).
    fn parse_with(data: &[u8], limits: &Limits) -> Result<Self::Model> {
        Self::from_view(&Self::view_with(data, limits)?, limits)
    }

    /// Writes the model: the parsed file's exact bytes when it was not edited.
    fn write(model: &Self::Model) -> Result<Vec<u8>>;

    /// The parts the model keeps as stored bytes rather than typed values (empty when every byte
    /// went through the typed writers).
    fn raw_parts(model: &Self::Model) -> Vec<String> {
        let _ = model;
        Vec::new()
    }

    /// The validator's findings, each citing a rule id.
    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic>;
}

/// What a registry shows of a file beyond the contract — its `info` summary, survey counters,
/// the JSON form and sample files — given by the format crate itself. A registry presents such
/// a format with one generic entry (the facade's `Described`), so registering it needs no code
/// outside its crate. Every method but [`Describe::describe`] defaults to "none".
pub trait Describe: FileFormat {
    /// The `info` summary of `model` (parsed from `data`): a first line saying what the file is,
    /// then indented detail lines.
    fn describe(data: &[u8], model: &Self::Model) -> String;

    /// Survey counters, `(name, count)`; the facts a survey tallies over many files.
    fn facts(model: &Self::Model) -> Vec<(String, u64)> {
        let _ = model;
        Vec::new()
    }

    /// The model as JSON text (`convert x.EXT x.json`, with [`FileFormat::EXTENSIONS`]' first
    /// as EXT); `None` when the crate has no JSON form (or its feature is off).
    fn to_json(model: &Self::Model) -> Option<Result<Vec<u8>>> {
        let _ = model;
        None
    }

    /// A model from JSON text [`Describe::to_json`] wrote (`convert x.json x.EXT`); `None` as
    /// there.
    fn from_json(json: &[u8], limits: &Limits) -> Option<Result<Self::Model>> {
        let _ = (json, limits);
        None
    }

    /// Sample files, `(path, bytes)`, for a registry's `samples/` (test fixtures; default none).
    fn samples() -> Vec<(String, Vec<u8>)> {
        Vec::new()
    }
}

/// Checks that `F` honours its limits on `data` (a file it parses): with every bound at zero,
/// parsing fails with a [`crate::ErrorKind::Limit`] error, and with the defaults it succeeds. The
/// per-crate test of the contract; `Err` says what did not hold.
#[cfg(feature = "test-support")]
pub fn check_limits<F: FileFormat>(data: &[u8]) -> std::result::Result<(), String> {
    F::parse_with(data, &Limits::default())
        .map_err(|e| format!("{}: the sample does not parse: {e}", F::NAME))?;
    let zero = Limits {
        max_alloc_bytes: 0,
        max_elements: 0,
        max_nodes: 0,
        max_depth: 0,
    };
    match F::parse_with(data, &zero) {
        Err(e) if matches!(e.kind(), crate::ErrorKind::Limit { .. }) => Ok(()),
        Err(e) => Err(format!(
            "{}: zero limits gave another error than a limit: {e}",
            F::NAME
        )),
        Ok(_) => Err(format!("{}: parse_with ignored zero limits", F::NAME)),
    }
}

/// The bounds [`check_each_limit`] sets to zero one at a time, by name.
#[cfg(feature = "test-support")]
pub const BOUNDS: [&str; 4] = ["bytes", "elements", "nodes", "depth"];

/// Checks that `F` fails on `data` with a limit error under each of `bounds` ([`BOUNDS`] names)
/// set to zero alone, the other bounds at their defaults: the bounds a format's parse must check
/// (an all-zero [`Limits`] may be refused by the first check alone).
#[cfg(feature = "test-support")]
pub fn check_each_limit<F: FileFormat>(
    data: &[u8],
    bounds: &[&str],
) -> std::result::Result<(), String> {
    for bound in bounds {
        let mut tight = Limits::default();
        match *bound {
            "bytes" => tight.max_alloc_bytes = 0,
            "elements" => tight.max_elements = 0,
            "nodes" => tight.max_nodes = 0,
            "depth" => tight.max_depth = 0,
            other => return Err(format!("no bound {other:?} (one of {BOUNDS:?})")),
        }
        match F::parse_with(data, &tight) {
            Err(e) if matches!(e.kind(), crate::ErrorKind::Limit { .. }) => {}
            Err(e) => return Err(format!("{}: {bound} at zero gave {e}", F::NAME)),
            Ok(_) => return Err(format!("{}: {bound} at zero was not checked", F::NAME)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_detections_need_the_extension() {
        let d = Detected::new("x", Confidence::Weak);
        assert!(d.claims("a/b.BMS", &["bms"]));
        assert!(!d.claims("a/b.bin", &["bms"]));
        assert!(Detected::new("x", Confidence::Strong).claims("b.bin", &["bms"]));
    }

    #[test]
    fn conversion_lines_name_folders_and_options() {
        let c = ConversionSpec {
            from: &["tpl"],
            to: &[""],
            options: &[("like", "keep settings")],
            help: "one PNG per image",
        };
        let line = c.line();
        assert!(line.starts_with("  .tpl -> FOLDER"), "{line}");
        assert!(line.contains("-o like=…: keep settings"), "{line}");
    }
}
