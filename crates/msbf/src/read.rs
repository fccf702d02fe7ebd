//! Building the owned model from the view, remembering every byte the writer cannot derive.

use gcio::{Context, Limits, Result};

use crate::model::{Flow, Frame, Label, LabelTable, Msbf, Section, SectionKind};
use crate::raw::{FEN1, FLW2};
use crate::view::{self, FlowView, LabelView, SectionView, View};
use crate::write;

impl Msbf {
    /// Parses a whole file with the default [`Limits`].
    pub fn parse(data: &[u8]) -> Result<Msbf> {
        Msbf::parse_with(data, &Limits::default())
    }

    /// Parses a whole file; `limits` bounds the label count.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Msbf> {
        Msbf::from_view(&view::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view; `limits` bound the bytes it copies and the section,
    /// node, branch and label counts.
    pub fn from_view(v: &View<'_>, limits: &Limits) -> Result<Msbf> {
        let data = v.bytes();
        // What the model keeps as bytes (padding, trailing bytes, unknown sections, a label
        // table it cannot re-lay) are disjoint regions of the file, so its size bounds them.
        limits.check_alloc(data.len() as u64, 1, 0)?;
        let count = limits.check_elements(u64::from(v.section_count), 0x0E)?;
        let mut sections = Vec::with_capacity(count.min(16));
        for s in v.sections() {
            sections.push(section(s?, v.endian, limits)?);
        }
        let end = v.sections_end()?;
        let trailing = data.get(end..).unwrap_or_default().to_vec();
        let mut m = Msbf {
            endian: v.endian,
            version: v.version,
            reserved: v.reserved(),
            header_padding: v.header_padding(),
            file_size_field: None,
            sections,
            trailing,
        };
        if u64::from(v.file_size_field) != data.len() as u64 {
            m.file_size_field = Some(v.file_size_field);
        }
        Ok(m)
    }
}

fn section(s: SectionView<'_>, endian: gcio::Endian, limits: &Limits) -> Result<Section> {
    let mut frame = Frame {
        header_padding: s.header_padding,
        size_includes_header: s.size_includes_header,
        trailing: Vec::new(),
        padding: (!s.padding_is_plain()).then(|| s.padding.to_vec()),
    };
    let kind = match s.magic {
        FLW2 => {
            let f = FlowView::parse(s.data, endian)?;
            let n = limits.check_elements(f.nodes.len() as u64, s.data.base())?;
            let mut nodes = Vec::with_capacity(n);
            nodes.extend(f.iter());
            frame.trailing = f.trailing.to_vec();
            let mut branches =
                Vec::with_capacity(limits.check_elements(f.branches.len() as u64, s.data.base())?);
            branches.extend(f.branch_iter());
            SectionKind::Flow(Flow {
                nodes,
                branches,
                padding: f.padding,
            })
        }
        FEN1 => {
            let lv = LabelView::parse(s.data, endian)?;
            let mut table = LabelTable::new(0);
            let n = limits.check_elements(lv.buckets.len() as u64, s.data.base())?;
            table.buckets.reserve_exact(n);
            table.buckets.resize_with(n, Vec::new);
            for l in lv.labels(limits) {
                let l = l?;
                if let Some(b) = table.buckets.get_mut(l.bucket) {
                    b.push(Label {
                        name: l.name.to_vec(),
                        node: l.node,
                    });
                }
            }
            // Keep the stored bytes when the canonical layout would not reproduce them.
            let canonical = write::labels_bytes(&table, endian).context("FEN1")?;
            let data = s.data.data();
            match data.strip_prefix(canonical.as_slice()) {
                Some(rest) => frame.trailing = rest.to_vec(),
                None => table.raw = Some(data.to_vec()),
            }
            SectionKind::Labels(table)
        }
        magic => SectionKind::Other {
            magic,
            data: s.data.data().to_vec(),
        },
    };
    Ok(Section { kind, frame })
}
