//! The zero-copy view: the file frame and its sections, borrowed from the input.

use gcio::{Limits, Result};

use crate::model::MAGIC;
use brlyt::frame::FrameView;

/// A parsed animation over borrowed bytes: the header and every section's extent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View<'a> {
    /// The frame: header words and sections.
    pub frame: FrameView<'a>,
    /// Length of the input.
    pub data_len: usize,
}

/// True when `data` starts with `RLAN` and the big-endian byte order mark.
pub fn sniff(data: &[u8]) -> bool {
    brlyt::frame::sniff(data, &MAGIC)
}

impl<'a> View<'a> {
    /// Parses the header and walks the section headers; nothing sized from the file is copied
    /// but the section list (bounded by the limits' element count).
    pub(crate) fn parse_with(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        Ok(View {
            frame: FrameView::parse(data, &MAGIC, "RLAN", limits)?,
            data_len: data.len(),
        })
    }
}
