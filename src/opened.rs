//! [`open`]: a file identified once, with everything the registry can say about it.

use std::borrow::Cow;

use gcio::{Diagnostic, Error, ErrorKind, Limits, Result};

use crate::{Detection, Format, Info, Options, Rewrite, UNKNOWN};

/// How deep [`Opened::members`] descends into containers (an archive in a Yaz0 stream in an
/// archive …): members of a file this deep have no members of their own.
pub const MAX_NESTING: u32 = 8;

/// A file identified by the registry: its bytes, its format and detection, and the bounds its
/// members are read under. Every question (info, findings, write-back, members, conversions)
/// goes to the format that detected it, without detecting again.
///
/// Members are [`Opened`] files too; a member no registered format recognises is still one
/// ([`Opened::is_known`] is false): opaque bytes that write back as they are.
pub struct Opened<'a> {
    data: Cow<'a, [u8]>,
    name: String,
    format: Option<&'static dyn Format>,
    detection: Detection,
    limits: Limits,
    depth: u32,
}

impl std::fmt::Debug for Opened<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opened")
            .field("name", &self.name)
            .field("format", &self.detection.format)
            .field("detail", &self.detection.detail)
            .field("bytes", &self.data.len())
            .finish()
    }
}

/// Opens `data` with the default [`Limits`]: an error when no registered format recognises it.
///
/// ```
/// assert!(gcformats::open(b"\0\0\0\0").is_err());
/// ```
pub fn open(data: &[u8]) -> Result<Opened<'_>> {
    open_with(data, "", &Limits::default())
}

/// [`open`] with the file's name (formats without magic, BTI and BMS, are told by extension).
pub fn open_named<'a>(data: &'a [u8], name: &str) -> Result<Opened<'a>> {
    open_with(data, name, &Limits::default())
}

/// An [`Opened`] for any bytes: unrecognised ones included ([`Opened::is_known`] false), as
/// container members are.
pub fn open_any<'a>(data: &'a [u8], name: &str, limits: &Limits) -> Opened<'a> {
    Opened::new(Cow::Borrowed(data), name.to_owned(), limits, 0)
}

/// [`open_named`] under caller `limits`: members decompressed past `limits.max_alloc_bytes` in
/// total (per container) are refused.
pub fn open_with<'a>(data: &'a [u8], name: &str, limits: &Limits) -> Result<Opened<'a>> {
    let o = open_any(data, name, limits);
    if o.is_known() {
        Ok(o)
    } else {
        Err(Error::without_offset(ErrorKind::Invalid(format!(
            "{}: no registered format recognises this file",
            if name.is_empty() { "input" } else { name }
        ))))
    }
}

impl<'a> Opened<'a> {
    fn new(data: Cow<'a, [u8]>, name: String, limits: &Limits, depth: u32) -> Self {
        let (format, detection) = match crate::detect_format(&data, &name) {
            Some((f, d)) => (Some(f), d),
            None => (None, Detection::new(UNKNOWN)),
        };
        Opened {
            data,
            name,
            format,
            detection,
            limits: *limits,
            depth,
        }
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.data
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
        self.known()?.info(&self.data)
    }

    /// The validator's findings (empty for an unrecognised member: nothing to check).
    pub fn validate(&self) -> Result<Vec<Diagnostic>> {
        self.validate_with(&Options::new())
    }

    /// [`Opened::validate`] with format options (e.g. hsd-dat's `order`).
    pub fn validate_with(&self, opts: &Options) -> Result<Vec<Diagnostic>> {
        match self.format {
            Some(f) => f.check(&self.data, opts),
            None => Ok(Vec::new()),
        }
    }

    /// The file written back from its model without edits, with the parts kept as stored bytes
    /// ([`Rewrite::raw`]). An unrecognised member writes back as its bytes.
    pub fn rewrite(&self) -> Result<Rewrite> {
        match self.format {
            Some(f) => f.roundtrip(&self.data),
            None => Ok(Rewrite::from(self.data.to_vec())),
        }
    }

    /// The parts the model keeps as stored bytes rather than typed values.
    pub fn raw_parts(&self) -> Result<Vec<String>> {
        self.rewrite().map(|r| r.raw)
    }

    /// Counters for a survey (see [`Format::facts`]).
    pub fn facts(&self) -> Vec<(String, u64)> {
        self.format.map(|f| f.facts(&self.data)).unwrap_or_default()
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
        let members = f.members(&self.data)?;
        let total: u64 = members.iter().map(|m| m.data.len() as u64).sum();
        self.limits.check_alloc(total, 1, 0)?;
        Ok(members
            .into_iter()
            .map(|m| Opened::new(Cow::Owned(m.data), m.name, &self.limits, self.depth + 1))
            .collect())
    }

    /// Converts the file into `to` (a file or folder, by its extension: `.png`, `.glb`, `.obj`,
    /// `.csv`, `.json`, `.mid`, …). `None` when the format has no conversion to that kind of file.
    #[cfg(feature = "convert")]
    pub fn convert(&self, to: &std::path::Path, opts: &Options) -> Option<Result<()>> {
        self.format?
            .convert(&self.data, std::path::Path::new(&self.name), to, opts)
    }

    /// Takes ownership of the bytes (for keeping a borrowed file past its buffer).
    pub fn into_owned(self) -> Opened<'static> {
        Opened {
            data: Cow::Owned(self.data.into_owned()),
            name: self.name,
            format: self.format,
            detection: self.detection,
            limits: self.limits,
            depth: self.depth,
        }
    }
}
