//! The zero-copy view: the NW4R frame (header and blocks) borrowed from the input, with the
//! pointer lookup the model resolves its links through.

use brlyt::frame::{FrameView, SECTION_HEADER};
use gcio::{Error, Limits, Result};

use crate::model::{Link, MAGIC};

/// A parsed font over borrowed bytes: its frame, blocks unparsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View<'a> {
    /// The whole input.
    pub data: &'a [u8],
    /// Header words and the blocks in file order.
    pub frame: FrameView<'a>,
}

/// True when `data` starts with `RFNT` and the big-endian byte order mark.
pub fn sniff(data: &[u8]) -> bool {
    brlyt::frame::sniff(data, MAGIC)
}

impl<'a> View<'a> {
    /// Reads the header and walks the block headers (sizes checked against the file).
    pub(crate) fn parse_with(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        Ok(View {
            data,
            frame: FrameView::parse(data, MAGIC, "BRFNT", limits)?,
        })
    }

    /// File offset of block `i`'s data (the byte after its header): what pointers name.
    pub fn data_offset(&self, i: usize) -> Option<usize> {
        self.frame
            .sections
            .get(i)
            .map(|s| s.offset + SECTION_HEADER)
    }

    /// The block whose data `ptr` (stored at file offset `at`) names, `None` for 0; any other
    /// value is an error, as the model could not write it back.
    pub fn link(&self, ptr: u32, at: usize, what: &str) -> Result<Link> {
        if ptr == 0 {
            return Ok(None);
        }
        self.frame
            .sections
            .binary_search_by_key(&(ptr as usize), |s| s.offset + SECTION_HEADER)
            .map(Some)
            .map_err(|_| {
                Error::invalid(
                    at as u64,
                    format!("{what} {ptr:#x} does not name a block's data (a block's offset + 8)"),
                )
            })
    }
}
