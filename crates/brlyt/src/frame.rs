//! The NintendoWare for Revolution binary file frame that layouts (`RLYT`), animations (`RLAN`)
//! and fonts share: a 0x10-byte header (magic, byte order mark `FE FF`, version, file size,
//! header size, section count) followed by sections that each start with a 4-byte magic and
//! their size in bytes (header included). Public so the `brlan` crate reads the same frame.

use gcio::{Context, Error, ErrorKind, Limits, Reader, Result};

/// Bytes of the fixed file header.
pub const HEADER_SIZE: usize = 0x10;
/// Bytes of a section header (magic, size).
pub const SECTION_HEADER: usize = 8;
/// The byte order mark of a big-endian file.
pub const BOM: u16 = 0xFEFF;

/// One section of a framed file, borrowed: its magic and its bytes, header included (every
/// offset inside a section counts from its magic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionRef<'a> {
    /// The section's magic (`lyt1`, `pai1`, …).
    pub magic: [u8; 4],
    /// File offset of the magic.
    pub offset: usize,
    /// The whole section, header included.
    pub bytes: &'a [u8],
}

/// A framed file, borrowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameView<'a> {
    /// File magic.
    pub magic: [u8; 4],
    /// Version word (0x000A in every Galaxy file).
    pub version: u16,
    /// The file size word.
    pub file_size: u32,
    /// Bytes between the fixed header and the header size the file declares.
    pub header_extra: &'a [u8],
    /// The sections in file order.
    pub sections: Vec<SectionRef<'a>>,
    /// Bytes after the last counted section.
    pub trailer: &'a [u8],
}

/// What of the frame the owned models keep besides their sections: everything the writer
/// cannot derive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Frame {
    /// Version word.
    pub version: u16,
    /// Bytes between the fixed header and the declared header size (none in real files).
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "crate::json::hex"
        )
    )]
    pub header_extra: Vec<u8>,
    /// Bytes after the last section (none in real files).
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "crate::json::hex"
        )
    )]
    pub trailer: Vec<u8>,
    /// The file size word when it is not the file's length (the loaders do not read it);
    /// `None` derives it.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub declared_size: Option<u32>,
}

/// True when `data` starts with `magic` and the big-endian byte order mark.
pub fn sniff(data: &[u8], magic: &[u8; 4]) -> bool {
    data.get(..4) == Some(magic) && data.get(4..6) == Some(&BOM.to_be_bytes())
}

impl<'a> FrameView<'a> {
    /// The findings every NW4R file shares, under the caller's rule ids: a file size word
    /// other than the file's length (`ids.0`), header bytes past 0x10 or bytes after the sections
    /// (`ids.1`), a version other than 0x000a (`ids.2`); all info, as the loaders read none.
    pub fn findings(
        &self,
        data_len: usize,
        ids: (&'static str, &'static str, &'static str),
        what: &str,
    ) -> Vec<gcio::Diagnostic> {
        use gcio::Diagnostic;
        let mut out = Vec::new();
        if self.file_size as usize != data_len {
            out.push(Diagnostic::info(
                ids.0,
                Some(8),
                format!(
                    "file size word {:#x}, the file has {:#x} bytes (the loader does not read it; kept)",
                    self.file_size, data_len
                ),
            ));
        }
        if !self.header_extra.is_empty() || !self.trailer.is_empty() {
            out.push(Diagnostic::info(
                ids.1,
                None,
                format!(
                    "{} header bytes past 0x10 and {} bytes after the sections, kept",
                    self.header_extra.len(),
                    self.trailer.len()
                ),
            ));
        }
        if self.version != 0x000A {
            out.push(Diagnostic::info(
                ids.2,
                Some(6),
                format!(
                    "version {:#06x}; every known {what} has 0x000a",
                    self.version
                ),
            ));
        }
        out
    }

    /// Reads the header and walks the section headers (`what` names the format in errors).
    pub fn parse(
        data: &'a [u8],
        magic: &[u8; 4],
        what: &str,
        limits: &Limits,
    ) -> Result<FrameView<'a>> {
        let r = Reader::new(data);
        let ctx = || format!("{what} header");
        r.expect_magic(0, magic).with_context(ctx)?;
        let bom = r.u16(4).with_context(ctx)?;
        if bom != BOM {
            return Err(Error::invalid(
                4,
                format!("byte order mark {bom:#06x} is not 0xfeff (big-endian)"),
            )
            .context(ctx()));
        }
        let version = r.u16(6).with_context(ctx)?;
        let file_size = r.u32(8).with_context(ctx)?;
        let header_size = usize::from(r.u16(0x0C).with_context(ctx)?);
        let count = r.u16(0x0E).with_context(ctx)?;
        if header_size < HEADER_SIZE {
            return Err(Error::invalid(
                0x0C,
                format!("header size {header_size:#x} is below 0x10"),
            )
            .context(ctx()));
        }
        let header_extra = r
            .bytes(HEADER_SIZE, header_size - HEADER_SIZE)
            .with_context(ctx)?;
        limits.check_elements(u64::from(count), 0x0E)?;
        let mut sections = Vec::with_capacity(usize::from(count).min(data.len() / SECTION_HEADER));
        let mut at = header_size;
        for i in 0..count {
            let sctx = || format!("{what} section {i} at {at:#x}");
            let m = r.array::<4>(at).with_context(sctx)?;
            let size = r.u32(at + 4).with_context(sctx)? as usize;
            if size < SECTION_HEADER {
                return Err(Error::invalid(
                    (at + 4) as u64,
                    format!("section size {size:#x} is below its 8-byte header"),
                )
                .context(sctx()));
            }
            let bytes = r.bytes(at, size).with_context(sctx)?;
            sections.push(SectionRef {
                magic: m,
                offset: at,
                bytes,
            });
            at += size;
        }
        let trailer = r.rest(at).context("trailer")?;
        Ok(FrameView {
            magic: *magic,
            version,
            file_size,
            header_extra,
            sections,
            trailer,
        })
    }

    /// The frame's owned part.
    pub fn to_frame(&self, length: usize) -> Frame {
        Frame {
            version: self.version,
            header_extra: self.header_extra.to_vec(),
            trailer: self.trailer.to_vec(),
            declared_size: (self.file_size as usize != length).then_some(self.file_size),
        }
    }
}

impl Frame {
    /// `raw_parts()` of a model framed by this: its sections kept as bytes (`raw`: index and
    /// section), then the header's extra bytes and the trailer.
    pub fn raw_parts<'a>(
        &self,
        raw: impl IntoIterator<Item = (usize, &'a crate::model::Raw)>,
    ) -> Vec<String> {
        let mut out: Vec<String> = raw
            .into_iter()
            .map(|(i, r)| format!("section {i} `{}` ({} bytes)", r.magic, r.body.len()))
            .collect();
        if !self.header_extra.is_empty() {
            out.push(format!(
                "header bytes past 0x10 ({})",
                self.header_extra.len()
            ));
        }
        if !self.trailer.is_empty() {
            out.push(format!("bytes after the sections ({})", self.trailer.len()));
        }
        out
    }

    /// Writes the header, the sections (each one's bytes, header included, as given) and the
    /// trailer; the size, header size and count words are derived unless the frame keeps a
    /// declared size.
    pub fn write(&self, magic: &[u8; 4], sections: &[Vec<u8>]) -> Result<Vec<u8>> {
        let overflow = |what| Error::without_offset(ErrorKind::Overflow(what));
        let header_size = u16::try_from(HEADER_SIZE + self.header_extra.len())
            .map_err(|_| overflow("header size"))?;
        let count = u16::try_from(sections.len()).map_err(|_| overflow("section count"))?;
        let body: usize = sections.iter().map(Vec::len).sum();
        let total = usize::from(header_size) + body + self.trailer.len();
        let size = match self.declared_size {
            Some(s) => s,
            None => u32::try_from(total).map_err(|_| overflow("file size"))?,
        };
        let mut out = Vec::with_capacity(total);
        out.extend(magic);
        out.extend(BOM.to_be_bytes());
        out.extend(self.version.to_be_bytes());
        out.extend(size.to_be_bytes());
        out.extend(header_size.to_be_bytes());
        out.extend(count.to_be_bytes());
        out.extend(&self.header_extra);
        for s in sections {
            out.extend(s);
        }
        out.extend(&self.trailer);
        Ok(out)
    }
}

/// A section's bytes from its magic and body: the size word is derived (body + 8).
pub fn section(magic: &[u8; 4], body: &[u8]) -> Result<Vec<u8>> {
    let size = u32::try_from(body.len() + SECTION_HEADER)
        .map_err(|_| Error::without_offset(ErrorKind::Overflow("section size")))?;
    let mut out = Vec::with_capacity(body.len() + SECTION_HEADER);
    out.extend(magic);
    out.extend(size.to_be_bytes());
    out.extend(body);
    Ok(out)
}
