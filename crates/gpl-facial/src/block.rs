//! The model block: its 8-word header, section extents, and an owned model that keeps every
//! section's bytes and re-serializes the facial pose section, recomputing the header pointers
//! from section lengths on write.

use gcio::{Context, Error, Limits, Reader, Result, Writer};

use crate::mesh::Mesh;
use crate::model::FacialSection;
use crate::raw::BlockHeader;
use crate::view::FacialView;

/// Size of the model block header.
pub const HEADER_SIZE: usize = 0x20;

/// Header word index of each section pointer.
pub mod slot {
    /// GPL (GeoPalette), +0x04.
    pub const GPL: usize = 1;
    /// ACT (actor), +0x08.
    pub const ACT: usize = 2;
    /// TEX (textures), +0x0C.
    pub const TEX: usize = 3;
    /// SKN (skinning; 0 when not skinned), +0x10.
    pub const SKN: usize = 4;
    /// ptr6, +0x14 (unknown, usually 0).
    pub const PTR6: usize = 5;
    /// ptr7, +0x18: the facial pose section.
    pub const FACIAL: usize = 6;
    /// ptr8, +0x1C (unknown, usually 0).
    pub const PTR8: usize = 7;
    /// Header field names, by word index.
    pub const NAMES: [&str; 8] = [
        "+0x00", "GPL", "ACT", "TEX", "SKN", "ptr6", "facial", "ptr8",
    ];
}

/// A model block over borrowed bytes.
#[derive(Debug, Clone, Copy)]
pub struct BlockView<'a> {
    r: Reader<'a>,
    header: &'a BlockHeader,
    limits: Limits,
}

/// Reads a block header with the default [`Limits`]; every non-null section pointer must lie
/// between the header and the end.
pub fn parse(data: &[u8]) -> Result<BlockView<'_>> {
    BlockView::parse_with(data, &Limits::default())
}

/// [`parse`]; `limits` bound the mesh and facial tables read through the view.
pub fn parse_with<'a>(data: &'a [u8], limits: &Limits) -> Result<BlockView<'a>> {
    BlockView::parse_with(data, limits)
}

impl<'a> BlockView<'a> {
    fn parse_with(data: &'a [u8], limits: &Limits) -> Result<Self> {
        let r = Reader::new(data);
        let header: &BlockHeader = r.get(0).context("model block header")?;
        for (i, w) in header.words.iter().enumerate().skip(1) {
            let p = w.get() as usize;
            if p != 0 && (p < HEADER_SIZE || p > data.len()) {
                return Err(Error::invalid(
                    4 * i as u64,
                    format!(
                        "{} pointer {p:#x} outside the block",
                        slot::NAMES.get(i).unwrap_or(&"?")
                    ),
                ))
                .context("model block header");
            }
        }
        Ok(BlockView {
            r,
            header,
            limits: *limits,
        })
    }

    /// The whole block.
    pub fn reader(&self) -> Reader<'a> {
        self.r
    }

    /// Header word `i` (0..8).
    pub fn word(&self, i: usize) -> u32 {
        self.header.words.get(i).map_or(0, |w| w.get())
    }

    /// Start and end of the section at header word `i`: it runs to the next higher section
    /// pointer or the end of the block. `None` when the pointer is null.
    pub fn extent(&self, i: usize) -> Option<(usize, usize)> {
        let start = self.word(i) as usize;
        if start == 0 || i == 0 {
            return None;
        }
        let end = (1..8)
            .map(|j| self.word(j) as usize)
            .filter(|&p| p > start)
            .min()
            .unwrap_or(self.r.len());
        Some((start, end))
    }

    /// The section at header word `i`, as a reader with absolute offsets.
    pub fn section(&self, i: usize) -> Option<Reader<'a>> {
        let (s, e) = self.extent(i)?;
        self.r.sub(s, e - s).ok()
    }

    /// The facial pose section, if ptr7 is set.
    pub fn facial(&self) -> Option<Result<FacialView<'a>>> {
        self.section(slot::FACIAL)
            .map(|r| FacialView::from_reader(r).context("facial pose section"))
    }

    /// The GPL submesh arrays and SKN entries.
    pub fn mesh(&self) -> Result<Mesh<'a>> {
        let gpl = self
            .section(slot::GPL)
            .ok_or_else(|| Error::invalid(4, "no GPL section"))?;
        Mesh::parse(gpl, self.section(slot::SKN), &self.limits)
    }
}

/// What a block section holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// Bytes kept as they are (GPL, ACT, TEX, SKN, unknown trailing sections).
    Raw(Vec<u8>),
    /// The facial pose section, re-serialized on write, and any bytes after its padding.
    Facial {
        /// The parsed section.
        section: FacialSection,
        /// Bytes between the section's padded end and the next section.
        tail: Vec<u8>,
    },
}

impl Body {
    fn bytes(&self) -> Result<Vec<u8>> {
        match self {
            Body::Raw(b) => Ok(b.clone()),
            Body::Facial { section, tail } => {
                let mut b = section.write()?;
                b.extend_from_slice(tail);
                Ok(b)
            }
        }
    }
}

/// One section of the block, with the header words that point at it (none for bytes left
/// unreferenced, e.g. a detached facial section).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSection {
    /// Header word indices pointing at this section.
    pub slots: Vec<usize>,
    /// Contents.
    pub body: Body,
}

/// The owned model block. Writing lays the sections out in order and recomputes every header
/// pointer from their lengths, so a re-serialized facial section moves ptr6/ptr7/ptr8 with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Header word +0x00 (0 in vanilla).
    pub reserved: u32,
    /// Bytes between the header and the first section (none in vanilla).
    pub lead: Vec<u8>,
    /// Sections in file order.
    pub sections: Vec<BlockSection>,
}

impl Block {
    /// The parts this model keeps as bytes although it has a typed model for them: a facial
    /// section that does not parse. (GPL, ACT, TEX and SKN sections are bytes by design; the mesh
    /// view reads them.) Empty for every block whose facial section went through the typed model.
    pub fn raw_parts(&self) -> Vec<String> {
        self.sections
            .iter()
            .filter(|s| s.slots.contains(&slot::FACIAL) && matches!(s.body, Body::Raw(_)))
            .map(|_| "facial section (does not parse)".to_owned())
            .collect()
    }

    /// Parses a block. The facial section is parsed into a [`FacialSection`] when it can be;
    /// otherwise its bytes are kept as they are ([`Block::facial`] is then `None`).
    pub fn parse(data: &[u8]) -> Result<Self> {
        Block::parse_with(data, &Limits::default())
    }

    /// [`Block::parse`]; `limits` bound the section list and the facial section's tables.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Self> {
        Block::from_view(&parse_with(data, limits)?, limits)
    }

    /// The owned block of a parsed view.
    pub fn from_view(v: &BlockView<'_>, limits: &Limits) -> Result<Self> {
        let data = v.r.data();
        let mut starts: Vec<usize> = (1..8)
            .map(|i| v.word(i) as usize)
            .filter(|&p| p != 0)
            .collect();
        starts.sort_unstable();
        starts.dedup();
        let first = starts.first().copied().unwrap_or(data.len());
        let lead = v.r.bytes(HEADER_SIZE, first - HEADER_SIZE)?;
        limits.check_alloc(lead.len() as u64, 1, HEADER_SIZE as u64)?;
        let lead = lead.to_vec();
        let mut sections = Vec::with_capacity(starts.len());
        for (k, &s) in starts.iter().enumerate() {
            let e = starts.get(k + 1).copied().unwrap_or(data.len());
            let bytes = v.r.bytes(s, e - s)?;
            // Every section is copied (a facial one as its model plus its tail), so each copy is
            // bounded by the caller's limits like any other allocation sized by the file.
            limits.check_alloc(bytes.len() as u64, 1, s as u64)?;
            let slots: Vec<usize> = (1..8).filter(|&i| v.word(i) as usize == s).collect();
            // A facial section that does not parse is kept as bytes, so a broken block still
            // round-trips and can be detached; the validator says what is wrong with it.
            let facial = if slots.contains(&slot::FACIAL) {
                FacialView::from_reader(v.r.sub(s, e - s)?)
                    .and_then(|f| FacialSection::from_view(&f, limits))
                    .ok()
            } else {
                None
            };
            let body = match facial {
                Some(section) => {
                    let used = section.write().map(|b| b.len()).unwrap_or(bytes.len());
                    Body::Facial {
                        section,
                        tail: bytes.get(used..).unwrap_or_default().to_vec(),
                    }
                }
                None => Body::Raw(bytes.to_vec()),
            };
            sections.push(BlockSection { slots, body });
        }
        Ok(Block {
            reserved: v.word(0),
            lead,
            sections,
        })
    }

    /// Writes the block.
    pub fn write(&self) -> Result<Vec<u8>> {
        let bodies = self
            .sections
            .iter()
            .map(|s| s.body.bytes())
            .collect::<Result<Vec<_>>>()?;
        let mut words = [0u32; 8];
        words[0] = self.reserved;
        let mut off = HEADER_SIZE + self.lead.len();
        for (s, b) in self.sections.iter().zip(&bodies) {
            let p = u32::try_from(off).map_err(|_| Error::message("block exceeds 4 GiB"))?;
            for &i in &s.slots {
                if let Some(w) = words.get_mut(i) {
                    *w = p;
                }
            }
            off += b.len();
        }
        let mut w = Writer::with_capacity(off);
        for x in words {
            w.u32(x);
        }
        w.bytes(&self.lead);
        for b in &bodies {
            w.bytes(b);
        }
        Ok(w.into_vec())
    }

    fn facial_index(&self) -> Option<usize> {
        self.sections
            .iter()
            .position(|s| s.slots.contains(&slot::FACIAL))
    }

    /// The facial pose section, if ptr7 references one that parses.
    pub fn facial(&self) -> Option<&FacialSection> {
        match &self.sections.get(self.facial_index()?)?.body {
            Body::Facial { section, .. } => Some(section),
            Body::Raw(_) => None,
        }
    }

    /// The facial pose section, mutably.
    pub fn facial_mut(&mut self) -> Option<&mut FacialSection> {
        let i = self.facial_index()?;
        match &mut self.sections.get_mut(i)?.body {
            Body::Facial { section, .. } => Some(section),
            Body::Raw(_) => None,
        }
    }

    /// Replaces the facial section (or appends one at the end of the block). The trailing
    /// pointers after it are recomputed on write from the new length.
    pub fn set_facial(&mut self, section: FacialSection) {
        match self.facial_index().and_then(|i| self.sections.get_mut(i)) {
            Some(s) => match &mut s.body {
                Body::Facial { section: old, .. } => *old = section,
                body => {
                    *body = Body::Facial {
                        section,
                        tail: Vec::new(),
                    }
                }
            },
            None => self.sections.push(BlockSection {
                slots: vec![slot::FACIAL],
                body: Body::Facial {
                    section,
                    tail: Vec::new(),
                },
            }),
        }
    }

    /// Detaches the facial section: model header +0x18 becomes 0 and the section's bytes stay in
    /// the block, unreferenced (the game then runs without blink or mouth animation).
    pub fn detach_facial(&mut self) -> Result<()> {
        let Some(s) = self.facial_index().and_then(|i| self.sections.get_mut(i)) else {
            return Ok(());
        };
        s.slots.retain(|&i| i != slot::FACIAL);
        s.body = Body::Raw(s.body.bytes()?);
        Ok(())
    }
}
