//! Writing the model: counts, sizes, offsets and the file length are recomputed; everything else
//! (padding, quirks, unknown sections, node and label order) comes from the model.

use gcio::{Endian, Error, ErrorKind, Limits, Reader, Result, Writer};

use crate::model::{Flow, LabelTable, Msbf, SectionKind};
use crate::raw::{HEADER_SIZE, MAGIC, PAD_BYTE, SECTION_ALIGN, SECTION_HEADER_SIZE, bom_bytes};
use crate::view::LabelView;

fn too_many(what: &'static str, n: usize) -> Error {
    Error::without_offset(ErrorKind::Invalid(format!(
        "{n} {what} do not fit the count field"
    )))
}

fn count16(what: &'static str, n: usize) -> Result<u16> {
    u16::try_from(n).map_err(|_| too_many(what, n))
}

fn count32(what: &'static str, n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| too_many(what, n))
}

impl Msbf {
    /// Writes the file. Fails only when a count or size does not fit its field.
    pub fn write(&self) -> Result<Vec<u8>> {
        let e = self.endian;
        let mut w = Writer::with_capacity(self.size_hint());
        let [p0, p1, rest @ ..] = self.header_padding;
        w.bytes(MAGIC)
            .bytes(&bom_bytes(e))
            .bytes(&self.reserved)
            .u8(self.version);
        w.u16_at(count16("sections", self.sections.len())?, e);
        w.bytes(&[p0, p1]);
        let size_at = w.position();
        w.u32(0).bytes(&rest);
        for s in &self.sections {
            let start = w.position();
            w.bytes(&s.magic());
            let size_slot = w.position();
            w.u32(0).bytes(&s.frame.header_padding);
            match &s.kind {
                SectionKind::Flow(f) => flow_into(f, e, &mut w)?,
                SectionKind::Labels(l) => labels_into(l, e, &mut w)?,
                SectionKind::Other { data, .. } => {
                    w.bytes(data);
                }
            }
            w.bytes(&s.frame.trailing);
            let mut size = w.position() - start - SECTION_HEADER_SIZE;
            if s.frame.size_includes_header {
                size += SECTION_HEADER_SIZE;
            }
            w.overwrite(size_slot, &e.put_u32(count32("section bytes", size)?))?;
            match &s.frame.padding {
                Some(p) => w.bytes(p),
                None => w.align(SECTION_ALIGN, PAD_BYTE),
            };
        }
        w.bytes(&self.trailing);
        let len = match self.file_size_field {
            Some(v) => v,
            None => count32("file bytes", w.position())?,
        };
        w.overwrite(size_at, &e.put_u32(len))?;
        Ok(w.into_vec())
    }

    fn size_hint(&self) -> usize {
        self.section_offsets()
            .last()
            .copied()
            .unwrap_or(HEADER_SIZE)
            + self.trailing.len()
    }

    /// File offset of every section as [`Msbf::write`] lays them out, plus the offset where the
    /// bytes after the last section start.
    pub fn section_offsets(&self) -> Vec<usize> {
        let mut at = HEADER_SIZE;
        let mut out = Vec::with_capacity(self.sections.len() + 1);
        for s in &self.sections {
            out.push(at);
            let body = match &s.kind {
                SectionKind::Flow(f) => 8 + f.nodes.len() * 12 + f.branches.len() * 2,
                SectionKind::Labels(l) => match &l.raw {
                    Some(raw) if raw_matches(l, raw, self.endian) => raw.len(),
                    _ => {
                        4 + l.buckets.len() * 8
                            + l.iter().map(|(_, l)| l.name.len() + 5).sum::<usize>()
                    }
                },
                SectionKind::Other { data, .. } => data.len(),
            };
            at += SECTION_HEADER_SIZE + body + s.frame.trailing.len();
            at += match &s.frame.padding {
                Some(p) => p.len(),
                None => gcio::padding_for(at, SECTION_ALIGN),
            };
        }
        out.push(at);
        out
    }
}

fn flow_into(f: &Flow, e: Endian, w: &mut Writer) -> Result<()> {
    w.u16_at(count16("nodes", f.nodes.len())?, e);
    w.u16_at(count16("branch-list entries", f.branches.len())?, e);
    w.bytes(&f.padding);
    for n in &f.nodes {
        let (kind, args) = n.to_raw();
        let mut rec = [0u8; 12];
        for (dst, v) in rec
            .chunks_exact_mut(2)
            .zip(std::iter::once(kind).chain(args))
        {
            dst.copy_from_slice(&match e {
                Endian::Big => v.to_be_bytes(),
                Endian::Little => v.to_le_bytes(),
            });
        }
        w.bytes(&rec);
    }
    for &b in &f.branches {
        w.u16_at(b, e);
    }
    Ok(())
}

/// FEN1 data in the layout every writer uses: bucket table, then the labels bucket by bucket,
/// each bucket's offset pointing where its labels start (also for empty buckets).
pub(crate) fn labels_bytes(t: &LabelTable, e: Endian) -> Result<Vec<u8>> {
    let mut w = Writer::new();
    canonical_labels(t, e, &mut w)?;
    Ok(w.into_vec())
}

fn labels_into(t: &LabelTable, e: Endian, w: &mut Writer) -> Result<()> {
    match &t.raw {
        Some(raw) if raw_matches(t, raw, e) => {
            w.bytes(raw);
            Ok(())
        }
        _ => canonical_labels(t, e, w),
    }
}

fn canonical_labels(t: &LabelTable, e: Endian, w: &mut Writer) -> Result<()> {
    w.u32_at(count32("buckets", t.buckets.len())?, e);
    let mut at = 4 + t.buckets.len() * 8;
    for b in &t.buckets {
        w.u32_at(count32("labels", b.len())?, e);
        w.u32_at(count32("FEN1 offset", at)?, e);
        at += b.iter().map(|l| 1 + l.name.len() + 4).sum::<usize>();
    }
    for l in t.buckets.iter().flatten() {
        let len = u8::try_from(l.name.len()).map_err(|_| {
            Error::without_offset(ErrorKind::Invalid(format!(
                "label of {} bytes (max 255)",
                l.name.len()
            )))
        })?;
        w.u8(len).bytes(&l.name).u32_at(l.node, e);
    }
    Ok(())
}

/// Whether the stored FEN1 bytes still hold exactly the model's labels.
fn raw_matches(t: &LabelTable, raw: &[u8], e: Endian) -> bool {
    let Ok(v) = LabelView::parse(Reader::new(raw), e) else {
        return false;
    };
    if v.buckets.len() != t.buckets.len() {
        return false;
    }
    let mut mine = t.iter();
    // A comparison, not a parse: the iterator allocates nothing and already stops at the
    // `raw.len() / 5` labels the stored bytes can hold, and the walk ends at the first label that
    // differs from the model's, so no caller limit is needed here.
    for l in v.labels(&Limits::UNLIMITED) {
        match (l, mine.next()) {
            (Ok(l), Some((b, m))) if l.bucket == b && l.name == m.name && l.node == m.node => {}
            _ => return false,
        }
    }
    mine.next().is_none()
}
