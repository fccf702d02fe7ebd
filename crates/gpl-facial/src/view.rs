//! Zero-copy view of a facial pose section. Accessors resolve pointers lazily so a validator can
//! still report on a section whose later parts are broken.

use gcio::{Context, Error, Reader, Result};
use zerocopy::byteorder::big_endian::U32;

use crate::attr::AttrFormat;
use crate::raw::{FacialHeader, ObjectEntry, RawRun, RecordHead, TypeDescriptor};

/// Size of the section header; the type descriptors start here.
pub const HEADER_SIZE: usize = 0x14;
/// Size of an attribute record before its pose pointers.
pub const RECORD_HEAD: usize = 0x0C;

/// Record size an object with `pose_count` poses must have.
pub const fn record_size(pose_count: u16) -> usize {
    RECORD_HEAD + 4 * pose_count as usize
}

/// A parsed facial section over borrowed bytes.
#[derive(Debug, Clone)]
pub struct FacialView<'a> {
    r: Reader<'a>,
    header: &'a FacialHeader,
    /// Sorted pointer targets: a run list ends at the next one (or at its terminator).
    bounds: Vec<usize>,
}

impl<'a> FacialView<'a> {
    /// Views a section (its first byte is the section start; pointers are relative to it).
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        Self::from_reader(Reader::new(data))
    }

    /// Views a section inside a larger file, keeping absolute offsets in errors.
    pub fn from_reader(r: Reader<'a>) -> Result<Self> {
        let header: &FacialHeader = r.get(0).context("facial header")?;
        let mut v = FacialView {
            r,
            header,
            bounds: Vec::new(),
        };
        v.bounds = v.collect_bounds();
        Ok(v)
    }

    /// Every readable pointer target, sorted. Reading stops once the records visited would
    /// exceed the section, so overlapping tables cannot multiply the work.
    fn collect_bounds(&self) -> Vec<usize> {
        let mut b = vec![
            self.header.object_table.get() as usize,
            self.header.descriptors.get() as usize,
        ];
        let mut budget = self.len();
        if let Ok(table) = self.object_table() {
            for o in table {
                let n = usize::from(o.attr_count.get());
                let stride = record_size(o.pose_count.get());
                match budget.checked_sub(n.saturating_mul(stride)) {
                    Some(left) => budget = left,
                    None => break,
                }
                let data = o.data.get() as usize;
                b.push(data);
                for j in 0..n {
                    let at = data.saturating_add(j * stride);
                    let Ok(head) = self.r.get::<RecordHead>(at) else {
                        break;
                    };
                    b.push(head.runs.get() as usize);
                    if let Ok(ptrs) = self
                        .r
                        .table::<U32>(at + RECORD_HEAD, usize::from(o.pose_count.get()))
                    {
                        b.extend(ptrs.iter().map(|p| p.get() as usize));
                    }
                }
            }
        }
        b.retain(|&p| p <= self.len());
        b.sort_unstable();
        b.dedup();
        b
    }

    /// The section's bytes.
    pub fn reader(&self) -> Reader<'a> {
        self.r
    }

    /// Section length in bytes (padding included).
    pub fn len(&self) -> usize {
        self.r.len()
    }

    /// True for an empty section (never: the header is required).
    pub fn is_empty(&self) -> bool {
        self.r.is_empty()
    }

    /// The header.
    pub fn header(&self) -> &'a FacialHeader {
        self.header
    }

    /// Absolute file offset of a section-relative offset.
    pub fn abs(&self, offset: usize) -> u64 {
        self.r.abs(offset)
    }

    /// The type descriptors (at the header's descriptor pointer).
    pub fn descriptors(&self) -> Result<&'a [TypeDescriptor]> {
        self.r.table(
            self.header.descriptors.get() as usize,
            usize::from(self.header.type_count.get()),
        )
    }

    /// The object table (at the header's object-table pointer).
    pub fn object_table(&self) -> Result<&'a [ObjectEntry]> {
        self.r.table(
            self.header.object_table.get() as usize,
            usize::from(self.header.object_count.get()),
        )
    }

    /// Object `i`.
    pub fn object(&self, i: usize) -> Result<ObjectView<'a>> {
        let table = self.object_table()?;
        let entry = table.get(i).ok_or_else(|| {
            Error::invalid(
                self.abs(self.header.object_table.get() as usize),
                format!("no object {i}"),
            )
        })?;
        Ok(ObjectView { r: self.r, entry })
    }

    /// Where the region starting at `offset` ends: the next pointer target, or the section end.
    pub fn region_end(&self, offset: usize) -> usize {
        let i = self.bounds.partition_point(|&b| b <= offset);
        self.bounds.get(i).copied().unwrap_or(self.len())
    }

    /// A record's run list as stored: pairs up to and including the first zero-length one, or up
    /// to the next pointer target when the terminator is missing (the applier would read on).
    pub fn runs(&self, rec: &RecordView<'a>) -> Result<&'a [RawRun]> {
        let start = rec.run_ptr();
        let end = self.region_end(start);
        let avail = end.saturating_sub(start) / 4;
        let all: &[RawRun] = self.r.table(start, avail).context("run list")?;
        let n = all
            .iter()
            .position(|r| r.len.get() == 0)
            .map_or(avail, |i| i + 1);
        Ok(all.get(..n).unwrap_or_default())
    }
}

/// One facial object.
#[derive(Debug, Clone, Copy)]
pub struct ObjectView<'a> {
    r: Reader<'a>,
    entry: &'a ObjectEntry,
}

impl<'a> ObjectView<'a> {
    /// The raw table entry.
    pub fn entry(&self) -> &'a ObjectEntry {
        self.entry
    }
    /// Pose count.
    pub fn pose_count(&self) -> u16 {
        self.entry.pose_count.get()
    }
    /// Attribute count.
    pub fn attr_count(&self) -> u16 {
        self.entry.attr_count.get()
    }
    /// Record stride from the object's own pose count (GPL-007), not from the stored size.
    pub fn record_stride(&self) -> usize {
        record_size(self.pose_count())
    }
    /// Absolute offset of the first record.
    pub fn data_abs(&self) -> u64 {
        self.r.abs(self.entry.data.get() as usize)
    }
    /// Attribute record `j`.
    pub fn record(&self, j: usize) -> Result<RecordView<'a>> {
        let offset = (self.entry.data.get() as usize)
            .checked_add(j.saturating_mul(self.record_stride()))
            .ok_or_else(|| self.r.oob(usize::MAX, RECORD_HEAD))?;
        let head: &RecordHead = self.r.get(offset).context("attribute record")?;
        let pose_ptrs = self
            .r
            .table(offset + RECORD_HEAD, usize::from(self.pose_count()))
            .context("pose pointers")?;
        Ok(RecordView {
            r: self.r,
            offset,
            head,
            pose_ptrs,
        })
    }
}

/// One attribute record.
#[derive(Debug, Clone, Copy)]
pub struct RecordView<'a> {
    r: Reader<'a>,
    offset: usize,
    head: &'a RecordHead,
    pose_ptrs: &'a [U32],
}

impl<'a> RecordView<'a> {
    /// Section-relative offset of the record.
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// Absolute file offset of the record.
    pub fn abs(&self) -> u64 {
        self.r.abs(self.offset)
    }
    /// Mapped entries per pose.
    pub fn entries(&self) -> u32 {
        self.head.entries.get()
    }
    /// Format bytes.
    pub fn format(&self) -> AttrFormat {
        AttrFormat::from_bytes(self.head.format)
    }
    /// Section-relative run-list pointer.
    pub fn run_ptr(&self) -> usize {
        self.head.runs.get() as usize
    }
    /// Section-relative pose-array pointers.
    pub fn pose_ptrs(&self) -> &'a [U32] {
        self.pose_ptrs
    }
    /// Byte length of one pose array (`None` on overflow).
    pub fn pose_len(&self) -> Option<usize> {
        (self.entries() as usize).checked_mul(self.format().stride())
    }
    /// Pose `p`'s bytes.
    pub fn pose(&self, p: usize) -> Result<&'a [u8]> {
        let ptr = self
            .pose_ptrs
            .get(p)
            .ok_or_else(|| Error::invalid(self.abs(), format!("no pose {p}")))?;
        let len = self
            .pose_len()
            .ok_or_else(|| Error::invalid(self.abs(), "pose array size overflows"))?;
        self.r.bytes(ptr.get() as usize, len)
    }
}
