//! The zero-copy view: headers decoded, texel and palette bytes borrowed from the input.

use gcio::{Context, Error, Limits, Reader, Result};

use crate::model::{
    Entry, FILE_HEADER_SIZE, Fill, IMAGE_HEADER_SIZE, ImageHeader, MAGIC, PALETTE_HEADER_SIZE,
    Palette, PaletteHeader, TABLE_ENTRY_SIZE, Tpl,
};

/// One image as found: its table entry, headers and borrowed bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntryView<'a> {
    /// File offset of the image header.
    pub header_offset: u32,
    /// The image header.
    pub header: ImageHeader,
    /// Texel data of every level.
    pub data: &'a [u8],
    /// Palette header offset, header and entries, when the table entry names one.
    pub palette: Option<(u32, PaletteHeader, &'a [u8])>,
}

impl<'a> EntryView<'a> {
    /// A zero-copy GX texture over the texels (and palette), for decoding.
    pub fn texture(&self) -> Option<gx::tex::Texture<'a>> {
        crate::model::texture(
            &self.header,
            self.data,
            self.palette.as_ref().map(|(_, p, d)| (p, *d)),
        )
    }
}

/// A parsed TPL over borrowed bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct View<'a> {
    data: &'a [u8],
    /// File offset of the image table.
    pub table_offset: u32,
    /// The images in table order.
    pub entries: Vec<EntryView<'a>>,
}

/// True when `data` starts with the TPL magic and a table offset inside the file.
pub fn sniff(data: &[u8]) -> bool {
    let r = Reader::new(data);
    r.u32(0).ok() == Some(MAGIC)
        && r.u32(8)
            .is_ok_and(|t| (t as usize) >= FILE_HEADER_SIZE && (t as usize) <= data.len())
}

fn image_header(r: &Reader<'_>, at: usize) -> Result<ImageHeader> {
    let b = r.bytes(at, IMAGE_HEADER_SIZE)?;
    let w = |i: usize| r.u32(at + 4 * i);
    Ok(ImageHeader {
        height: r.u16(at)?,
        width: r.u16(at + 2)?,
        format: w(1)?,
        data_offset: w(2)?,
        wrap_s: w(3)?,
        wrap_t: w(4)?,
        min_filter: w(5)?,
        mag_filter: w(6)?,
        lod_bias: f32::from_bits(w(7)?),
        edge_lod: b.get(0x20).copied().unwrap_or(0),
        min_lod: b.get(0x21).copied().unwrap_or(0),
        max_lod: b.get(0x22).copied().unwrap_or(0),
        unpacked: b.get(0x23).copied().unwrap_or(0),
    })
}

fn palette_header(r: &Reader<'_>, at: usize) -> Result<PaletteHeader> {
    let b = r.bytes(at, PALETTE_HEADER_SIZE)?;
    Ok(PaletteHeader {
        entries: r.u16(at)?,
        unpacked: b.get(2).copied().unwrap_or(0),
        pad: b.get(3).copied().unwrap_or(0),
        format: r.u32(at + 4)?,
        data_offset: r.u32(at + 8)?,
    })
}

impl<'a> View<'a> {
    /// Parses the file header, image table and every header; borrows texels and palettes.
    /// Errors name the structure and the file offset.
    pub(crate) fn parse_with(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        let r = Reader::new(data);
        r.expect_magic(0, &MAGIC.to_be_bytes())
            .context("TPL header")?;
        let count = r.u32(4).context("TPL header")?;
        let table_offset = r.u32(8).context("TPL header")?;
        let table_len = (count as usize)
            .checked_mul(TABLE_ENTRY_SIZE)
            .ok_or_else(|| Error::invalid(4, format!("image count {count} overflows")))?;
        r.bytes(table_offset as usize, table_len)
            .context("image table")?;
        let mut entries = Vec::with_capacity(limits.check_elements(u64::from(count), 4)?);
        for i in 0..count as usize {
            let ctx = || format!("image {i}");
            let at = table_offset as usize + i * TABLE_ENTRY_SIZE;
            let header_offset = r.u32(at).with_context(ctx)?;
            let palette_offset = r.u32(at + 4).with_context(ctx)?;
            let header = image_header(&r, header_offset as usize)
                .context("image header")
                .with_context(ctx)?;
            let size = header.data_size().ok_or_else(|| {
                Error::invalid(
                    u64::from(header_offset) + 4,
                    format!("unknown texture format {:#x}", header.format),
                )
                .context(ctx())
            })?;
            let texels = r
                .bytes(header.data_offset as usize, size)
                .context("texel data")
                .with_context(ctx)?;
            let palette = if palette_offset == 0 {
                None
            } else {
                let p = palette_header(&r, palette_offset as usize)
                    .context("palette header")
                    .with_context(ctx)?;
                let bytes = r
                    .bytes(p.data_offset as usize, p.data_size())
                    .context("palette entries")
                    .with_context(ctx)?;
                Some((palette_offset, p, bytes))
            };
            entries.push(EntryView {
                header_offset,
                header,
                data: texels,
                palette,
            });
        }
        Ok(View {
            data,
            table_offset,
            entries,
        })
    }

    /// The bytes the view was parsed from.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// Byte ranges every structure occupies (header, table, headers, texels, palettes), with the
    /// structure's name, in file order of the table walk.
    pub fn spans(&self) -> Vec<(usize, usize, String)> {
        let mut out = vec![
            (0, FILE_HEADER_SIZE, "file header".to_owned()),
            (
                self.table_offset as usize,
                self.entries.len() * TABLE_ENTRY_SIZE,
                "image table".to_owned(),
            ),
        ];
        for (i, e) in self.entries.iter().enumerate() {
            out.push((
                e.header_offset as usize,
                IMAGE_HEADER_SIZE,
                format!("image {i} header"),
            ));
            out.push((
                e.header.data_offset as usize,
                e.data.len(),
                format!("image {i} texels"),
            ));
            if let Some((off, p, d)) = e.palette {
                out.push((
                    off as usize,
                    PALETTE_HEADER_SIZE,
                    format!("image {i} palette header"),
                ));
                out.push((
                    p.data_offset as usize,
                    d.len(),
                    format!("image {i} palette"),
                ));
            }
        }
        out
    }

    /// Non-zero runs of bytes that no structure covers.
    pub fn fill(&self) -> Vec<Fill> {
        let len = self.data.len();
        let mut spans: Vec<(usize, usize)> = self
            .spans()
            .into_iter()
            .map(|(s, n, _)| (s.min(len), s.saturating_add(n).min(len)))
            .collect();
        spans.sort_unstable();
        let mut out: Vec<Fill> = Vec::new();
        let mut at = 0;
        for (s, e) in spans.into_iter().chain([(len, len)]) {
            for (i, &b) in self.data.get(at..s).unwrap_or_default().iter().enumerate() {
                if b == 0 {
                    continue;
                }
                let i = at + i;
                match out.last_mut() {
                    Some(f) if f.offset as usize + f.bytes.len() == i => f.bytes.push(b),
                    _ => out.push(Fill {
                        offset: i as u32,
                        bytes: vec![b],
                    }),
                }
            }
            at = at.max(e);
        }
        out
    }

    /// The owned model ([`Tpl::from_view`]).
    pub(crate) fn to_model(&self, limits: &Limits) -> Result<Tpl> {
        limits.check_alloc(self.data.len() as u64, 1, 0)?;
        let size =
            u32::try_from(self.data.len()).map_err(|_| Error::message("file larger than 4 GiB"))?;
        Ok(Tpl {
            table_offset: self.table_offset,
            images: self
                .entries
                .iter()
                .map(|e| Entry {
                    header_offset: e.header_offset,
                    header: e.header,
                    data: e.data.to_vec(),
                    palette: e.palette.map(|(off, header, d)| Palette {
                        header_offset: off,
                        header,
                        data: d.to_vec(),
                    }),
                })
                .collect(),
            size,
            fill: self.fill(),
        })
    }
}
