//! The crate's contract with a registry ([`gcio::FileFormat`]): the zero-copy [`Rarc`] view and
//! the owned [`Archive`] model, both under the caller's [`Limits`].

use gcio::{Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Archive, Rarc};

/// The RARC archive format, as a registry sees it. Extracting to and packing from folders are
/// file I/O (the facade's and `gcf`'s, over [`crate::manifest`]), not conversions of one file.
pub struct Format;

impl FileFormat for Format {
    const NAME: &'static str = "rarc";
    const EXTENSIONS: &'static [&'static str] = &["arc", "rarc"];

    type View<'a> = Rarc<'a>;
    type Model = Archive;

    /// The `RARC` magic.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::detect(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with<'a>(data: &'a [u8], limits: &Limits) -> Result<Rarc<'a>> {
        crate::parse_with(data, limits)
    }

    fn from_view(view: &Rarc<'_>, limits: &Limits) -> Result<Archive> {
        Archive::from_view(view, limits)
    }

    fn write(model: &Archive) -> Result<Vec<u8>> {
        model.write()
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}
