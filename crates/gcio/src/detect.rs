//! How sure a format's `detect` function is that bytes are its format.

/// What a format crate's `detect(&[u8]) -> Option<Confidence>` says about bytes it recognises.
/// A registry claims a [`Confidence::Strong`] file outright and a [`Confidence::Weak`] one only
/// when the file's name agrees (its extension is the format's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Confidence {
    /// Structurally readable, but a format without magic whose checks other files can pass too:
    /// claim it only when the file name says so.
    Weak,
    /// A signature or every structural check holds.
    Strong,
}

impl Confidence {
    /// Whether a registry claims the file: always when strong, when weak only if `named` (the
    /// file's name has the format's extension).
    ///
    /// ```
    /// use gcio::Confidence;
    /// assert!(Confidence::Strong.claims(false));
    /// assert!(!Confidence::Weak.claims(false) && Confidence::Weak.claims(true));
    /// ```
    pub fn claims(self, named: bool) -> bool {
        self == Confidence::Strong || named
    }
}
