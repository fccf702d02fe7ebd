//! Zero-copy view: header fields, the section walk, FLW2 nodes and branch list, FEN1 labels.
//! Nothing is allocated per element; everything is read through [`gcio::Reader`].

use gcio::{Context, Endian, Error, ErrorKind, Limits, Reader, Result, padding_for};

use crate::model::Node;
use crate::raw::{
    self, FEN1, FLOW_HEADER_SIZE, FLW2, HEADER_SIZE, MAGIC, PAD_BYTE, RawBucket, RawNode,
    SECTION_ALIGN, SECTION_HEADER_SIZE,
};

/// A parsed file header and the located sections.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    data: Reader<'a>,
    /// Byte order from the byte-order mark.
    pub endian: Endian,
    /// Version byte at 0x0D.
    pub version: u8,
    /// Section count at 0x0E.
    pub section_count: u16,
    /// File-length field at 0x12.
    pub file_size_field: u32,
}

/// One section as found in the file.
#[derive(Debug, Clone, Copy)]
pub struct SectionView<'a> {
    /// Magic.
    pub magic: [u8; 4],
    /// Absolute offset of the section header.
    pub offset: usize,
    /// The size field as stored.
    pub size_field: u32,
    /// The 8 header padding bytes.
    pub header_padding: [u8; 8],
    /// True when the size field counts the section header too (C-21, Hack.io's FEN1).
    pub size_includes_header: bool,
    /// The section's data (declared size, without header and padding).
    pub data: Reader<'a>,
    /// The padding found after the data (may be short at the end of the file).
    pub padding: &'a [u8],
}

impl SectionView<'_> {
    /// True when the padding is the usual 0xAB fill up to 0x10 (MSBF-003).
    pub fn padding_is_plain(&self) -> bool {
        let end = self.data.base() as usize + self.data.len();
        self.padding.len() == padding_for(end, SECTION_ALIGN)
            && self.padding.iter().all(|&b| b == PAD_BYTE)
    }
}

/// Parses the header with the default [`Limits`] and checks that every section lies inside the
/// file.
pub fn parse(data: &[u8]) -> Result<View<'_>> {
    parse_with(data, &Limits::default())
}

/// [`parse`] (borrowed: sections are walked on demand, so the limits bound
/// [`crate::Msbf::from_view`]).
pub fn parse_with<'a>(data: &'a [u8], _limits: &Limits) -> Result<View<'a>> {
    let r = Reader::new(data);
    r.expect_magic(0, MAGIC).context("MSBF header")?;
    r.bytes(0, HEADER_SIZE).context("MSBF header")?;
    let endian = match r.array::<2>(8)? {
        b if b == raw::bom_bytes(Endian::Big) => Endian::Big,
        b if b == raw::bom_bytes(Endian::Little) => Endian::Little,
        b => {
            return Err(Error::invalid(8, format!("byte-order mark {b:02x?}")))
                .context("MSBF header");
        }
    };
    let view = View {
        data: r,
        endian,
        version: r.u8(0x0D)?,
        section_count: endian.get_u16(r.array(0x0E)?),
        file_size_field: endian.get_u32(r.array(0x12)?),
    };
    view.sections_end()?;
    Ok(view)
}

impl<'a> View<'a> {
    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.data.data()
    }

    /// Bytes 0x0A..0x0D.
    pub fn reserved(&self) -> [u8; 3] {
        self.data.array(0x0A).unwrap_or_default()
    }

    /// Header padding: the u16 at 0x10 and the 10 bytes at 0x16.
    pub fn header_padding(&self) -> [u8; 12] {
        let mut out = [0u8; 12];
        let a = self.data.bytes(0x10, 2).unwrap_or_default();
        let b = self.data.bytes(0x16, 10).unwrap_or_default();
        for (o, i) in out.iter_mut().zip(a.iter().chain(b)) {
            *o = *i;
        }
        out
    }

    /// Walks the `section_count` sections from 0x20.
    pub fn sections(&self) -> Sections<'a> {
        Sections {
            r: self.data,
            endian: self.endian,
            pos: HEADER_SIZE,
            index: 0,
            left: self.section_count,
        }
    }

    /// Offset just past the last section (and its padding).
    pub fn sections_end(&self) -> Result<usize> {
        let mut end = HEADER_SIZE;
        for s in self.sections() {
            let s = s?;
            end = s.data.base() as usize + s.data.len() + s.padding.len();
        }
        Ok(end)
    }

    /// The first FLW2 section.
    pub fn flow(&self) -> Result<Option<FlowView<'a>>> {
        for s in self.sections() {
            let s = s?;
            if s.magic == FLW2 {
                return FlowView::parse(s.data, self.endian).map(Some);
            }
        }
        Ok(None)
    }

    /// The first FEN1 section.
    pub fn labels(&self) -> Result<Option<LabelView<'a>>> {
        for s in self.sections() {
            let s = s?;
            if s.magic == FEN1 {
                return LabelView::parse(s.data, self.endian).map(Some);
            }
        }
        Ok(None)
    }
}

/// Iterator over the sections; stops after the first error.
#[derive(Debug, Clone)]
pub struct Sections<'a> {
    r: Reader<'a>,
    endian: Endian,
    pos: usize,
    index: usize,
    left: u16,
}

impl<'a> Iterator for Sections<'a> {
    type Item = Result<SectionView<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let index = self.index;
        self.index += 1;
        let out = self.read().with_context(|| format!("section {index}"));
        if out.is_err() {
            self.left = 0;
        }
        Some(out)
    }
}

impl<'a> Sections<'a> {
    fn read(&mut self) -> Result<SectionView<'a>> {
        let r = self.r;
        let offset = self.pos;
        let head = r.bytes(offset, SECTION_HEADER_SIZE)?;
        let magic = r.array::<4>(offset)?;
        let size_field = self.endian.get_u32(r.array(offset + 4)?);
        let header_padding = r.array::<8>(offset + 8)?;
        let start = offset + head.len();
        let size = size_field as usize;
        let fits = |n: usize| start.checked_add(n).is_some_and(|e| e <= r.len());
        let (len, size_includes_header) = if fits(size) {
            (size, false)
        } else if size >= SECTION_HEADER_SIZE && fits(size - SECTION_HEADER_SIZE) {
            (size - SECTION_HEADER_SIZE, true)
        } else {
            return Err(r.oob(start, size)).with_context(|| magic_name(magic));
        };
        let data = r.sub(start, len)?;
        let end = start + len;
        let pad = padding_for(end, SECTION_ALIGN).min(r.len() - end);
        let padding = r.bytes(end, pad)?;
        self.pos = end + pad;
        Ok(SectionView {
            magic,
            offset,
            size_field,
            header_padding,
            size_includes_header,
            data,
            padding,
        })
    }
}

fn magic_name(m: [u8; 4]) -> String {
    String::from_utf8_lossy(&m).into_owned()
}

/// FLW2 content.
#[derive(Debug, Clone, Copy)]
pub struct FlowView<'a> {
    endian: Endian,
    /// The node table.
    pub nodes: &'a [RawNode],
    /// The branch list as stored.
    pub branches: &'a [[u8; 2]],
    /// The 4 padding bytes after the counts.
    pub padding: [u8; 4],
    /// Bytes of the section data after the branch list.
    pub trailing: &'a [u8],
}

impl<'a> FlowView<'a> {
    /// Reads FLW2 from its section data.
    pub fn parse(data: Reader<'a>, endian: Endian) -> Result<Self> {
        let node_count = endian.get_u16(data.array(0).context("FLW2")?);
        let branch_count = endian.get_u16(data.array(2).context("FLW2")?);
        let padding = data.array(4).context("FLW2")?;
        let nodes = data
            .table::<RawNode>(FLOW_HEADER_SIZE, usize::from(node_count))
            .context("FLW2 nodes")?;
        let at = FLOW_HEADER_SIZE + size_of_val(nodes);
        let branches = data
            .table::<[u8; 2]>(at, usize::from(branch_count))
            .context("FLW2 branch list")?;
        let trailing = data.rest(at + size_of_val(branches))?;
        Ok(FlowView {
            endian,
            nodes,
            branches,
            padding,
            trailing,
        })
    }

    /// Node `i`, typed.
    pub fn node(&self, i: usize) -> Option<Node> {
        self.nodes.get(i).map(|n| {
            let (kind, args) = n.decode(self.endian);
            Node::from_raw(kind, args)
        })
    }

    /// Every node, typed, in file order.
    pub fn iter(&self) -> impl Iterator<Item = Node> + 'a {
        let endian = self.endian;
        self.nodes.iter().map(move |n| {
            let (kind, args) = n.decode(endian);
            Node::from_raw(kind, args)
        })
    }

    /// Branch-list entry `i`.
    pub fn branch(&self, i: usize) -> Option<u16> {
        self.branches.get(i).map(|b| self.endian.get_u16(*b))
    }

    /// The branch list.
    pub fn branch_iter(&self) -> impl Iterator<Item = u16> + 'a {
        let endian = self.endian;
        self.branches.iter().map(move |b| endian.get_u16(*b))
    }
}

/// FEN1 content: the bucket table over the section data.
#[derive(Debug, Clone, Copy)]
pub struct LabelView<'a> {
    data: Reader<'a>,
    endian: Endian,
    /// The bucket table.
    pub buckets: &'a [RawBucket],
}

/// One label as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelRef<'a> {
    /// Bucket index.
    pub bucket: usize,
    /// Offset of the label's length byte from the FEN1 data start.
    pub offset: usize,
    /// The name bytes.
    pub name: &'a [u8],
    /// The entry-node index.
    pub node: u32,
}

impl<'a> LabelView<'a> {
    /// Reads the bucket table from FEN1 data.
    pub fn parse(data: Reader<'a>, endian: Endian) -> Result<Self> {
        let count = endian.get_u32(data.array(0).context("FEN1")?) as usize;
        let buckets = data.table::<RawBucket>(4, count).context("FEN1 buckets")?;
        Ok(LabelView {
            data,
            endian,
            buckets,
        })
    }

    /// Label count and first-label offset of bucket `i`.
    pub fn bucket(&self, i: usize) -> Option<(u32, u32)> {
        self.buckets
            .get(i)
            .map(|b| (self.endian.get_u32(b.count), self.endian.get_u32(b.offset)))
    }

    /// Every label, bucket by bucket. The total is capped at what the data can hold (5 bytes per
    /// label) and by `limits`, so overlapping buckets with huge counts cannot make it spin.
    pub fn labels(&self, limits: &Limits) -> impl Iterator<Item = Result<LabelRef<'a>>> + 'a {
        let this = *self;
        let cap = (self.data.len() / 5) as u64;
        let max = limits.max_elements;
        let mut total = 0u64;
        let mut failed = false;
        (0..self.buckets.len())
            .flat_map(move |b| {
                let (count, offset) = this.bucket(b).unwrap_or_default();
                (0..count).scan(offset as usize, move |pos, i| {
                    let at = *pos;
                    let out = this.label_at(b, at).inspect(|l| {
                        *pos = at + 1 + l.name.len() + 4;
                    });
                    Some(out.with_context(|| format!("FEN1 bucket {b} label {i}")))
                })
            })
            .map_while(move |l| {
                if failed {
                    return None;
                }
                total += 1;
                let l = if total > cap.min(max) {
                    Err(Error::new(
                        ErrorKind::Limit {
                            what: "FEN1 labels",
                            requested: total,
                            max: cap.min(max),
                        },
                        this.data.base(),
                    ))
                } else {
                    l
                };
                failed = l.is_err();
                Some(l)
            })
    }

    fn label_at(&self, bucket: usize, offset: usize) -> Result<LabelRef<'a>> {
        let (name, end) = self.data.pstr(offset, 1)?;
        let node = self.endian.get_u32(self.data.array(end)?);
        Ok(LabelRef {
            bucket,
            offset,
            name,
            node,
        })
    }

    /// Looks `name` up by hash, as the game does.
    pub fn find(&self, name: &[u8]) -> Option<u32> {
        let n = u32::try_from(self.buckets.len()).ok().filter(|&n| n > 0)?;
        let b = (crate::model::label_hash(name) % n) as usize;
        let (count, offset) = self.bucket(b)?;
        let mut pos = offset as usize;
        for _ in 0..count.min((self.data.len() / 5) as u32) {
            let l = self.label_at(b, pos).ok()?;
            if l.name == name {
                return Some(l.node);
            }
            pos = l.offset + 1 + l.name.len() + 4;
        }
        None
    }
}
