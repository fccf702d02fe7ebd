//! One error type for every crate: what went wrong, at which file offset, inside which structure.

use std::fmt;

/// What went wrong. `#[non_exhaustive]` so formats can gain kinds without breaking users.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A read of `len` bytes at `offset` does not fit in a buffer of `size` bytes.
    #[error("{len} bytes at offset {offset:#x} past end (size {size:#x})")]
    OutOfBounds {
        /// Absolute offset of the read.
        offset: u64,
        /// Bytes requested.
        len: u64,
        /// Size of the buffer.
        size: u64,
    },
    /// A magic number or signature did not match.
    #[error("bad magic {found:?}, expected {expected:?}")]
    BadMagic {
        /// The bytes expected.
        expected: Vec<u8>,
        /// The bytes found.
        found: Vec<u8>,
    },
    /// A value sized from file data exceeds a configured [`crate::Limits`] bound.
    #[error("limit exceeded: {what} = {requested} (max {max})")]
    Limit {
        /// Which limit.
        what: &'static str,
        /// What the file asked for.
        requested: u64,
        /// The configured maximum.
        max: u64,
    },
    /// Arithmetic on file values overflowed (offset + size, count × stride, …).
    #[error("arithmetic overflow computing {0}")]
    Overflow(&'static str),
    /// A string had no terminator within its bounds.
    #[error("string at {offset:#x} has no terminator")]
    Unterminated {
        /// Absolute offset of the string start.
        offset: u64,
    },
    /// A graph walk revisited a node (pointer or index cycle).
    #[error("cycle: node at {offset:#x} visited twice")]
    Cycle {
        /// Absolute offset (or index) of the revisited node.
        offset: u64,
    },
    /// Any other structural problem, described in words.
    #[error("{0}")]
    Invalid(String),
}

/// An error with the file offset where it happened and a breadcrumb of the structures being read.
///
/// Displays as `SHP1 > shape 3 > matrix group 2: 4 bytes at offset 0x1234 past end (size 0x1000)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    offset: Option<u64>,
    context: Vec<String>,
}

impl Error {
    /// A new error of `kind` at an absolute file offset.
    pub fn new(kind: ErrorKind, offset: u64) -> Self {
        Error {
            kind,
            offset: Some(offset),
            context: Vec::new(),
        }
    }

    /// A new error with no meaningful offset (e.g. a model-level problem found while writing).
    pub fn without_offset(kind: ErrorKind) -> Self {
        Error {
            kind,
            offset: None,
            context: Vec::new(),
        }
    }

    /// An [`ErrorKind::Invalid`] error with no file offset: a problem of a model or of caller
    /// input (a count that does not fit the format, a missing part), not of a byte in a file.
    pub fn message(message: impl Into<String>) -> Self {
        Self::without_offset(ErrorKind::Invalid(message.into()))
    }

    /// Shorthand for an [`ErrorKind::Invalid`] error at `offset`.
    pub fn invalid(offset: u64, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Invalid(message.into()), offset)
    }

    /// Wraps the error in one more level of context (the outer structure). Outer frames are added last
    /// and printed first.
    #[must_use]
    pub fn context(mut self, frame: impl Into<String>) -> Self {
        self.context.push(frame.into());
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Absolute file offset of the problem, when known.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// Structure breadcrumb, outermost first.
    pub fn breadcrumb(&self) -> impl Iterator<Item = &str> {
        self.context.iter().rev().map(String::as_str)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for frame in self.breadcrumb() {
            if !first {
                f.write_str(" > ")?;
            }
            f.write_str(frame)?;
            first = false;
        }
        if !first {
            f.write_str(": ")?;
        }
        write!(f, "{}", self.kind)?;
        // Kinds that name their own offset do not repeat it.
        match (&self.kind, self.offset) {
            (
                ErrorKind::OutOfBounds { .. }
                | ErrorKind::Unterminated { .. }
                | ErrorKind::Cycle { .. },
                _,
            )
            | (_, None) => Ok(()),
            (_, Some(off)) => write!(f, " at offset {off:#x}"),
        }
    }
}

impl std::error::Error for Error {}

/// Result alias used across gcformats.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Adds breadcrumb context to a `Result`.
pub trait Context<T> {
    /// Adds a fixed frame.
    fn context(self, frame: &str) -> Result<T>;
    /// Adds a frame computed only on error (e.g. `|| format!("shape {i}")`).
    fn with_context<S: Into<String>>(self, frame: impl FnOnce() -> S) -> Result<T>;
}

impl<T> Context<T> for Result<T> {
    fn context(self, frame: &str) -> Result<T> {
        self.map_err(|e| e.context(frame))
    }
    fn with_context<S: Into<String>>(self, frame: impl FnOnce() -> S) -> Result<T> {
        self.map_err(|e| e.context(frame()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_breadcrumb_and_offset() {
        let e = Error::new(
            ErrorKind::OutOfBounds {
                offset: 0x1234,
                len: 4,
                size: 0x1000,
            },
            0x1234,
        )
        .context("matrix group 2")
        .context("shape 3")
        .context("SHP1");
        assert_eq!(
            e.to_string(),
            "SHP1 > shape 3 > matrix group 2: 4 bytes at offset 0x1234 past end (size 0x1000)"
        );
        assert_eq!(e.offset(), Some(0x1234));
    }

    #[test]
    fn invalid_prints_offset() {
        let e = Error::invalid(0x10, "bad count");
        assert_eq!(e.to_string(), "bad count at offset 0x10");
        let e = Error::without_offset(ErrorKind::Overflow("size"));
        assert_eq!(e.to_string(), "arithmetic overflow computing size");
    }

    #[test]
    fn context_trait() {
        let r: Result<()> = Err(Error::invalid(1, "x"));
        let r = r.with_context(|| format!("entry {}", 5)).context("TABLE");
        assert_eq!(
            r.unwrap_err().to_string(),
            "TABLE > entry 5: x at offset 0x1"
        );
    }
}
