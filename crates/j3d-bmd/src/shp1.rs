//! SHP1: shapes, their vertex index attributes, matrix groups, the weight index table and the
//! primitive display lists.

use gcio::{Context, Error, Limits, Reader, Result, Writer};
use gx::dl::{DisplayList, PrimitiveBuf, VertexDesc};
use gx::vtx::{Attr, AttrType};

use crate::chunk::{gap_align, header, here, off, u16_of, u32_of, write_chunk};
use crate::nametab::NameTable;
use crate::{Pad, raw};

/// Shape matrix type (open newtype, J3D-049).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ShapeMatrixType(pub u8);

impl ShapeMatrixType {
    /// One joint.
    pub const SINGLE: ShapeMatrixType = ShapeMatrixType(0);
    /// Billboard (faces the camera).
    pub const BILLBOARD: ShapeMatrixType = ShapeMatrixType(1);
    /// Billboard rotating about Y.
    pub const Y_BILLBOARD: ShapeMatrixType = ShapeMatrixType(2);
    /// Several joints / envelopes through matrix groups.
    pub const MULTI: ShapeMatrixType = ShapeMatrixType(3);
}

/// One vertex index attribute: attribute and how the display list supplies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct IndexAttr {
    /// GX attribute (0xFF ends a list).
    pub attr: Attr,
    /// 1 direct, 2 u8 index, 3 u16 index (0 on the terminator).
    pub ty: AttrType,
}

impl IndexAttr {
    /// The list terminator.
    pub const END: IndexAttr = IndexAttr {
        attr: Attr::NULL,
        ty: AttrType::NONE,
    };
}

/// The vertex descriptor of an attribute list (up to its terminator).
pub fn vertex_desc(attrs: impl IntoIterator<Item = IndexAttr>) -> Result<VertexDesc> {
    let mut d = VertexDesc::new();
    for a in attrs {
        if a.attr == Attr::NULL {
            break;
        }
        d.push(a.attr, a.ty)?;
    }
    Ok(d)
}

/// Matrix group data: the DRW1 entry of a single-joint group, or a weight-table segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MatrixData {
    /// DRW1 index (single-joint shapes).
    pub drw: u16,
    /// Entries of the weight table this group loads (≤ 10, J3D-063).
    pub count: u16,
    /// First weight-table entry.
    pub start: u32,
}

/// Zero-copy SHP1.
#[derive(Debug, Clone, Copy)]
pub struct Shp1View<'a> {
    r: Reader<'a>,
    h: &'a raw::Shp1Header,
    pub(crate) limits: Limits,
}

/// One matrix group as stored: its data entry, its definition and its primitive bytes.
#[derive(Debug, Clone, Copy)]
pub struct GroupView<'a> {
    /// Matrix group data.
    pub data: MatrixData,
    /// Definition: primitive byte size.
    pub size: u32,
    /// Definition: offset relative to the primitive data.
    pub offset: u32,
    /// The group's primitive bytes (`size` bytes at `offset`).
    pub prims: Reader<'a>,
}

impl<'a> Shp1View<'a> {
    /// Reads the chunk `r` with the default [`Limits`].
    pub fn parse(r: Reader<'a>) -> Result<Self> {
        Self::parse_with(r, &Limits::default())
    }

    /// Reads the chunk `r`; what is read from it later (models, tables) stays within
    /// `limits`.
    pub fn parse_with(r: Reader<'a>, limits: &Limits) -> Result<Self> {
        let h = header(&r, b"SHP1").context("SHP1")?;
        Ok(Shp1View {
            r,
            h,
            limits: *limits,
        })
    }

    /// The chunk's bytes.
    pub fn reader(&self) -> Reader<'a> {
        self.r
    }

    /// The header.
    pub fn header(&self) -> &'a raw::Shp1Header {
        self.h
    }

    /// Shape count.
    pub fn len(&self) -> usize {
        usize::from(self.h.count.get())
    }

    /// True without shapes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Shape entry `i`.
    pub fn shape(&self, i: usize) -> Result<&'a raw::ShapeRaw> {
        let at = off(self.h.shapes)
            .checked_add(i.saturating_mul(0x28))
            .ok_or_else(|| self.r.oob(usize::MAX, 0x28))?;
        self.r.get(at).with_context(|| format!("SHP1 > shape {i}"))
    }

    /// Remap entry `i`.
    pub fn remap(&self, i: usize) -> Result<u16> {
        self.r
            .u16(off(self.h.remap) + 2 * i)
            .with_context(|| format!("SHP1 > remap {i}"))
    }

    /// The name table, when present.
    pub fn names(&self) -> Option<Result<NameTable>> {
        match off(self.h.names) {
            0 => None,
            o => Some(NameTable::parse_with(self.r, o, &self.limits).context("SHP1")),
        }
    }

    /// The attribute list at byte offset `rel` of the attribute table, up to and including the
    /// terminator (at most 26 + 1 entries are read).
    pub fn attr_list(&self, rel: usize) -> impl Iterator<Item = Result<IndexAttr>> + 'a {
        let r = self.r;
        let base = off(self.h.attrs).saturating_add(rel);
        let mut done = false;
        (0..27).map_while(move |k| {
            if done {
                return None;
            }
            let e = r
                .get::<raw::IndexAttrRaw>(base + 8 * k)
                .context("SHP1 > attributes")
                .map(|a| IndexAttr {
                    attr: Attr(a.attr.get()),
                    ty: AttrType(a.ty.get()),
                });
            done = !matches!(&e, Ok(a) if a.attr != Attr::NULL);
            Some(e)
        })
    }

    /// The attribute list of shape `i`.
    pub fn shape_attrs(&self, i: usize) -> Result<impl Iterator<Item = Result<IndexAttr>> + 'a> {
        Ok(self.attr_list(usize::from(self.shape(i)?.attr_offset.get())))
    }

    /// The vertex descriptor of shape `i`.
    pub fn shape_desc(&self, i: usize) -> Result<VertexDesc> {
        let attrs = self.shape_attrs(i)?.collect::<Result<Vec<_>>>()?;
        vertex_desc(attrs).with_context(|| format!("SHP1 > shape {i}"))
    }

    /// Matrix group data entry `i`.
    pub fn matrix_data(&self, i: usize) -> Result<MatrixData> {
        let d: &raw::MatrixDataRaw = self
            .r
            .get(off(self.h.matrix_data) + 8 * i)
            .with_context(|| format!("SHP1 > matrix data {i}"))?;
        Ok(MatrixData {
            drw: d.drw.get(),
            count: d.count.get(),
            start: d.start.get(),
        })
    }

    /// Matrix group definition `i`: (size, offset).
    pub fn group_def(&self, i: usize) -> Result<(u32, u32)> {
        let d: &raw::GroupDefRaw = self
            .r
            .get(off(self.h.groups) + 8 * i)
            .with_context(|| format!("SHP1 > matrix group {i}"))?;
        Ok((d.size.get(), d.offset.get()))
    }

    /// Weight-table entry `i` (a DRW1 index, or 0xFFFF = keep the previous matrix in this slot).
    pub fn weight(&self, i: usize) -> Result<u16> {
        self.r
            .u16(off(self.h.weights) + 2 * i)
            .with_context(|| format!("SHP1 > weight index {i}"))
    }

    /// Group `k` of shape `i`.
    pub fn group(&self, i: usize, k: usize) -> Result<GroupView<'a>> {
        let s = self.shape(i)?;
        let ctx = || format!("SHP1 > shape {i} > matrix group {k}");
        let data = self
            .matrix_data(usize::from(s.first_data.get()) + k)
            .with_context(ctx)?;
        let (size, offset) = self
            .group_def(usize::from(s.first_group.get()) + k)
            .with_context(ctx)?;
        let start = off(self.h.prims)
            .checked_add(offset as usize)
            .ok_or_else(|| self.r.oob(usize::MAX, 0))?;
        let prims = self.r.sub(start, size as usize).with_context(ctx)?;
        Ok(GroupView {
            data,
            size,
            offset,
            prims,
        })
    }

    /// Number of matrix group definitions (see [`matrix_data_count`](Self::matrix_data_count)).
    pub fn group_def_count(&self) -> usize {
        let referenced = self.referenced(|s| s.first_group.get());
        fit(self.capacity(off(self.h.groups), 8), referenced, 8)
    }

    /// Number of matrix group data entries. Lengths are not stored: the table runs to the next
    /// table (or the chunk's end); a tail shorter than 32 bytes past the entries the shapes
    /// reference is padding.
    pub fn matrix_data_count(&self) -> usize {
        let referenced = self.referenced(|s| s.first_data.get());
        fit(self.capacity(off(self.h.matrix_data), 8), referenced, 8)
    }

    /// Entries of the weight index table (same rule, referenced by the matrix data).
    pub fn weight_count(&self) -> usize {
        let referenced = (0..self.matrix_data_count())
            .filter_map(|i| self.matrix_data(i).ok())
            .map(|d| d.start as usize + usize::from(d.count))
            .max()
            .unwrap_or(0);
        fit(self.capacity(off(self.h.weights), 2), referenced, 2)
    }

    fn referenced(&self, first: impl Fn(&raw::ShapeRaw) -> u16) -> usize {
        (0..self.len())
            .filter_map(|i| self.shape(i).ok())
            .map(|s| usize::from(first(s)) + usize::from(s.group_count.get()))
            .max()
            .unwrap_or(0)
    }

    /// Whole `elem`-byte entries from `start` to the next table offset or the chunk's end.
    fn capacity(&self, start: usize, elem: usize) -> usize {
        let h = self.h;
        let next = [
            h.shapes,
            h.remap,
            h.names,
            h.attrs,
            h.weights,
            h.prims,
            h.matrix_data,
            h.groups,
        ]
        .iter()
        .map(|v| off(*v))
        .filter(|&o| o > start)
        .min()
        .unwrap_or(self.r.len());
        next.min(self.r.len()).saturating_sub(start) / elem
    }
}

/// `referenced` when the entries past it are shorter than a 32-byte pad, else `capacity`.
fn fit(capacity: usize, referenced: usize, elem: usize) -> usize {
    if capacity >= referenced && (capacity - referenced) * elem < 32 {
        referenced
    } else {
        capacity
    }
}

/// A matrix group's primitives and what follows them up to the group's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupPrims {
    /// Draw commands in order.
    pub prims: Vec<PrimitiveBuf>,
    /// Bytes after the last command.
    pub tail: Tail,
}

/// What follows a group's primitives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tail {
    /// Zeros (GX NOPs) up to the next multiple of 32, as the game requires (J3D-061).
    Align32,
    /// These bytes, as found (also used for groups that could not be decoded).
    Bytes(Vec<u8>),
}

/// One shape entry.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Shape {
    /// Matrix type.
    pub matrix_type: ShapeMatrixType,
    /// Byte at 0x01 (0xFF).
    pub pad: u8,
    /// Matrix group count.
    pub group_count: u16,
    /// Attribute list offset in the attribute table.
    pub attr_offset: u16,
    /// First matrix group data entry.
    pub first_data: u16,
    /// First matrix group definition.
    pub first_group: u16,
    /// u16 at 0x0A (0xFFFF).
    pub pad2: u16,
    /// Bounding-sphere radius.
    pub radius: f32,
    /// AABB min XYZ, max XYZ.
    pub bbox: [f32; 6],
}

/// Owned SHP1, close to the file: flat tables whose cross-references (attribute offsets, first
/// indices, weight-table segments) are kept as found. Derived on writing: table offsets, counts
/// and the group definitions (offset and size of each group's primitive bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Shp1 {
    /// The u16 at 0x0A.
    pub marker: u16,
    /// Shape entries.
    pub shapes: Vec<Shape>,
    /// Remap (identity in known files).
    pub remap: Vec<u16>,
    /// Optional names (usually absent).
    pub names: Option<NameTable>,
    /// Concatenated attribute lists, terminators included.
    pub attrs: Vec<IndexAttr>,
    /// Weight index table.
    pub weights: Vec<u16>,
    /// Primitive groups, one per matrix group definition, in definition order.
    pub groups: Vec<GroupPrims>,
    /// Matrix group data.
    pub matrix_data: Vec<MatrixData>,
    /// Padding style.
    pub pad: Pad,
    /// Alignment each table starts on, in writing order: shapes, remap, names, attribute lists,
    /// weights, primitives, matrix data, group definitions. Detected on parsing (retail files pack
    /// the shapes right after the header but start the attribute lists and primitives on 32).
    pub aligns: [u8; 8],
}

/// A shape to add with [`Shp1::push_shape`].
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeSpec {
    /// Matrix type.
    pub matrix_type: ShapeMatrixType,
    /// Attributes in display-list order (no terminator).
    pub attrs: Vec<IndexAttr>,
    /// Matrix groups.
    pub groups: Vec<GroupSpec>,
    /// Bounding-sphere radius.
    pub radius: f32,
    /// AABB.
    pub bbox: [f32; 6],
}

/// A matrix group to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupSpec {
    /// DRW1 index for single-joint use.
    pub drw: u16,
    /// Weight-table segment (DRW1 indices, 0xFFFF = keep previous).
    pub matrices: Vec<u16>,
    /// Primitives.
    pub prims: Vec<PrimitiveBuf>,
}

impl Default for Shp1 {
    fn default() -> Self {
        Shp1 {
            marker: 0xFFFF,
            shapes: Vec::new(),
            remap: Vec::new(),
            names: None,
            attrs: Vec::new(),
            weights: Vec::new(),
            groups: Vec::new(),
            matrix_data: Vec::new(),
            pad: Pad::Nintendo,
            aligns: [32; 8],
        }
    }
}

impl Shp1 {
    /// Copies a view. Group primitives are decoded with the descriptor of the shape that owns the
    /// group; undecodable groups keep their bytes.
    pub fn from_view(v: &Shp1View<'_>) -> Result<Self> {
        let lim = v.limits;
        let n = lim.check_elements(v.len() as u64, v.r.abs(8))?;
        let mut shapes = Vec::with_capacity(n);
        for i in 0..n {
            let s = v.shape(i)?;
            shapes.push(Shape {
                matrix_type: ShapeMatrixType(s.matrix_type),
                pad: s.pad,
                group_count: s.group_count.get(),
                attr_offset: s.attr_offset.get(),
                first_data: s.first_data.get(),
                first_group: s.first_group.get(),
                pad2: s.pad2.get(),
                radius: s.radius.get(),
                bbox: s.bbox.map(|x| x.get()),
            });
        }
        let remap = (0..n).map(|i| v.remap(i)).collect::<Result<_>>()?;
        // Attribute table: every list from its start to the weight table.
        let attr_end = [v.h.weights, v.h.prims, v.h.matrix_data, v.h.groups]
            .iter()
            .map(|o| off(*o))
            .filter(|&o| o > off(v.h.attrs))
            .min()
            .unwrap_or(off(v.h.attrs));
        let attr_n = lim.check_elements(((attr_end - off(v.h.attrs)) / 8) as u64, v.r.abs(0x18))?;
        let mut attrs = Vec::with_capacity(attr_n);
        let mut last_end = 0;
        for k in 0..attr_n {
            let a: &raw::IndexAttrRaw = v.r.get(off(v.h.attrs) + 8 * k)?;
            let a = IndexAttr {
                attr: Attr(a.attr.get()),
                ty: AttrType(a.ty.get()),
            };
            attrs.push(a);
            if a.attr == Attr::NULL {
                last_end = attrs.len();
            }
        }
        attrs.truncate(last_end);
        let weights = (0..lim.check_elements(v.weight_count() as u64, v.r.abs(0x1C))?)
            .map(|i| v.weight(i))
            .collect::<Result<Vec<_>>>()?;
        let nd = lim.check_elements(v.matrix_data_count() as u64, v.r.abs(0x24))?;
        let matrix_data = (0..nd).map(|i| v.matrix_data(i)).collect::<Result<_>>()?;
        let ng = lim.check_elements(v.group_def_count() as u64, v.r.abs(0x28))?;
        let mut groups = Vec::with_capacity(ng);
        let owners = group_owners(&shapes, ng);
        let mut budget = v.r.len();
        for g in 0..ng {
            let (size, offset) = v.group_def(g)?;
            // Overlapping groups would copy the same bytes again and again.
            budget = budget.checked_sub(size as usize).ok_or_else(|| {
                Error::invalid(
                    v.r.abs(0x28),
                    "matrix groups overlap: more primitive bytes than SHP1 holds",
                )
            })?;
            let start = off(v.h.prims)
                .checked_add(offset as usize)
                .ok_or_else(|| v.r.oob(usize::MAX, 0))?;
            let bytes =
                v.r.sub(start, size as usize)
                    .with_context(|| format!("SHP1 > matrix group {g}"))?;
            let owner = owners.get(g).copied().flatten();
            let desc = owner.map(|i| v.shape_desc(i)).transpose().ok().flatten();
            groups.push(decode_group(
                bytes,
                desc.as_ref(),
                off(v.h.prims) + offset as usize,
            ));
        }
        Ok(Shp1 {
            marker: v.h.pad.get(),
            shapes,
            remap,
            names: v.names().transpose()?,
            attrs,
            weights,
            groups,
            matrix_data,
            pad: Pad::default(),
            aligns: [32; 8],
        }
        .with_detected_aligns(v))
    }

    /// The table alignments of the parsed chunk: each table's start against where the previous
    /// one ended (32 where no alignment explains the gap, so the rewrite differs and the chunk
    /// stays raw).
    fn with_detected_aligns(mut self, v: &Shp1View<'_>) -> Self {
        let h = &v.h;
        let groups_end = off(h.prims)
            + (0..self.groups.len())
                .filter_map(|g| v.group_def(g).ok())
                .map(|(size, _)| size as usize)
                .sum::<usize>();
        let names = self.names.as_ref().map(|n| (off(h.names), n.byte_len()));
        // (start, length) of each table in writing order; absent names are skipped.
        let tables = [
            Some((off(h.shapes), 0x28 * self.shapes.len())),
            Some((off(h.remap), 2 * self.remap.len())),
            names,
            Some((off(h.attrs), 8 * self.attrs.len())),
            Some((off(h.weights), 2 * self.weights.len())),
            Some((off(h.prims), groups_end - off(h.prims))),
            Some((off(h.matrix_data), 8 * self.matrix_data.len())),
            Some((off(h.groups), 0)),
        ];
        let mut end = size_of::<raw::Shp1Header>();
        for (k, t) in tables.into_iter().enumerate() {
            let Some((start, len)) = t else {
                // No name table: its padding is still written; find the step (if any) that splits
                // the gap before the attribute lists into two runs of one padding style.
                let next = off(h.attrs);
                let gap = v.r.data().get(end..next).unwrap_or_default();
                let step = [32u8, 4, 8, 16, 1, 2].into_iter().find(|&a| {
                    let cut = gcio::padding_for(end, usize::from(a));
                    let (x, y) = gap.split_at_checked(cut).unwrap_or_default();
                    cut <= gap.len() && Pad::ALL.iter().any(|p| p.matches(x) && p.matches(y))
                });
                if let Some(a) = self.aligns.get_mut(k) {
                    *a = step.unwrap_or(32);
                }
                end += gcio::padding_for(end, usize::from(step.unwrap_or(32)));
                continue;
            };
            if let Some(a) = self.aligns.get_mut(k) {
                let natural = [4, 2, 4, 4, 2, 32, 4, 4].get(k).copied().unwrap_or(1);
                *a = gap_align(end, start, 32, natural).unwrap_or(32);
            }
            end = start + len;
        }
        self
    }

    /// The alignments a writer that pads every table to at least `align` (beyond each table's
    /// natural alignment) uses; primitives always start on 32.
    pub fn uniform_aligns(align: u8) -> [u8; 8] {
        let n = |natural: u8| align.max(natural);
        [n(4), n(2), n(4), n(4), n(2), 32, n(4), n(4)]
    }

    /// The attribute list starting at byte offset `rel` (without the terminator).
    pub fn attr_list(&self, rel: u16) -> &[IndexAttr] {
        let start = usize::from(rel) / 8;
        let rest = self.attrs.get(start..).unwrap_or_default();
        let end = rest
            .iter()
            .position(|a| a.attr == Attr::NULL)
            .unwrap_or(rest.len());
        rest.get(..end).unwrap_or_default()
    }

    /// The vertex descriptor of shape `i`.
    pub fn desc(&self, i: usize) -> Result<VertexDesc> {
        let s = self
            .shapes
            .get(i)
            .ok_or_else(|| Error::message(format!("no shape {i}")))?;
        vertex_desc(self.attr_list(s.attr_offset).iter().copied())
    }

    /// Appends a shape: its attribute list (shared with an identical earlier list, as Nintendo's
    /// tools do), weight-table segments, matrix data and groups. Returns its index.
    pub fn push_shape(&mut self, spec: ShapeSpec) -> Result<usize> {
        let mut list = spec.attrs.clone();
        list.push(IndexAttr::END);
        let mut starts = vec![0];
        starts.extend(
            self.attrs
                .iter()
                .enumerate()
                .filter(|(_, a)| a.attr == Attr::NULL)
                .map(|(k, _)| k + 1),
        );
        let found = starts
            .into_iter()
            .find(|&s| self.attrs.get(s..s + list.len()) == Some(&list[..]));
        let at = match found {
            Some(s) => s,
            None => {
                let s = self.attrs.len();
                self.attrs.extend(list);
                s
            }
        };
        let index = self.shapes.len();
        self.shapes.push(Shape {
            matrix_type: spec.matrix_type,
            pad: 0xFF,
            group_count: u16_of(spec.groups.len(), "group count")?,
            attr_offset: u16_of(at * 8, "attribute offset")?,
            first_data: u16_of(self.matrix_data.len(), "matrix data index")?,
            first_group: u16_of(self.groups.len(), "matrix group index")?,
            pad2: 0xFFFF,
            radius: spec.radius,
            bbox: spec.bbox,
        });
        self.remap.push(u16_of(index, "shape index")?);
        for g in spec.groups {
            self.matrix_data.push(MatrixData {
                drw: g.drw,
                count: u16_of(g.matrices.len(), "matrix count")?,
                start: u32_of(self.weights.len(), "weight index")?,
            });
            self.weights.extend(g.matrices);
            self.groups.push(GroupPrims {
                prims: g.prims,
                tail: Tail::Align32,
            });
        }
        Ok(index)
    }

    /// Writes the chunk. Tables follow the header in offset order, each padded to 32; each group's
    /// primitives are followed by its tail; the definitions are recomputed from what was written.
    pub fn write(&self) -> Result<Vec<u8>> {
        let descs: Vec<Option<VertexDesc>> = group_owners(&self.shapes, self.groups.len())
            .into_iter()
            .map(|owner| owner.and_then(|i| self.desc(i).ok()))
            .collect();
        write_chunk(*b"SHP1", self.pad, |w: &mut Writer| {
            w.u16(u16_of(self.shapes.len(), "shape count")?)
                .u16(self.marker);
            let slots: Vec<_> = (0..8).map(|_| w.reserve_u32()).collect();
            let [
                a_shapes,
                a_remap,
                a_names,
                a_attrs,
                a_weights,
                a_prims,
                a_data,
                a_defs,
            ] = self.aligns.map(usize::from);
            let slot = |k: usize| slots.get(k).copied().ok_or_else(|| Error::message("slot"));
            self.pad.align(w, a_shapes);
            here(w, slot(0)?)?;
            for s in &self.shapes {
                w.u8(s.matrix_type.0)
                    .u8(s.pad)
                    .u16(s.group_count)
                    .u16(s.attr_offset);
                w.u16(s.first_data)
                    .u16(s.first_group)
                    .u16(s.pad2)
                    .f32(s.radius);
                s.bbox.iter().for_each(|v| {
                    w.f32(*v);
                });
            }
            self.pad.align(w, a_remap);
            here(w, slot(1)?)?;
            for r in &self.remap {
                w.u16(*r);
            }
            // Nintendo's tools pad to the name table's position even when they write none.
            self.pad.align(w, a_names);
            if let Some(names) = &self.names {
                here(w, slot(2)?)?;
                names.write(w)?;
            }
            self.pad.align(w, a_attrs);
            here(w, slot(3)?)?;
            for a in &self.attrs {
                w.u32(a.attr.0).u32(a.ty.0);
            }
            self.pad.align(w, a_weights);
            here(w, slot(4)?)?;
            for v in &self.weights {
                w.u16(*v);
            }
            self.pad.align(w, a_prims);
            here(w, slot(5)?)?;
            let prim_start = w.position();
            let mut defs = Vec::with_capacity(self.groups.len());
            for (g, desc) in self.groups.iter().zip(&descs) {
                let start = w.position();
                if !g.prims.is_empty() {
                    let desc = desc
                        .as_ref()
                        .ok_or_else(|| Error::message("matrix group without a shape"))?;
                    for p in &g.prims {
                        p.write(w, desc)?;
                    }
                }
                match &g.tail {
                    Tail::Align32 => {
                        w.align(32, 0);
                    }
                    Tail::Bytes(b) => {
                        w.bytes(b);
                    }
                }
                defs.push((w.position() - start, start - prim_start));
            }
            self.pad.align(w, a_data);
            here(w, slot(6)?)?;
            for d in &self.matrix_data {
                w.u16(d.drw).u16(d.count).u32(d.start);
            }
            self.pad.align(w, a_defs);
            here(w, slot(7)?)?;
            for (size, offset) in defs {
                w.u32(u32_of(size, "group size")?)
                    .u32(u32_of(offset, "group offset")?);
            }
            Ok(())
        })
    }
}

/// The shape owning each of `n` matrix groups (the shape whose range holds it; ranges do not
/// overlap in valid files, where they do the latest-starting range wins). O((shapes + n) log shapes),
/// so hostile shape tables cannot make this quadratic.
fn group_owners(shapes: &[Shape], n: usize) -> Vec<Option<usize>> {
    let mut ranges: Vec<(usize, usize, usize)> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| (usize::from(s.first_group), usize::from(s.group_count), i))
        .collect();
    ranges.sort_by_key(|&(first, _, i)| (first, std::cmp::Reverse(i)));
    let mut out = vec![None; n];
    let mut next = ranges.into_iter().peekable();
    let mut current = None;
    for (g, slot) in out.iter_mut().enumerate() {
        while let Some(r) = next.next_if(|r| r.0 <= g) {
            current = Some(r);
        }
        if let Some((first, count, i)) = current
            && g < first + count
        {
            *slot = Some(i);
        }
    }
    out
}

fn decode_group(bytes: Reader<'_>, desc: Option<&VertexDesc>, abs_start: usize) -> GroupPrims {
    let raw = || GroupPrims {
        prims: Vec::new(),
        tail: Tail::Bytes(bytes.data().to_vec()),
    };
    let Some(desc) = desc else { return raw() };
    let mut list = DisplayList::new(bytes, desc);
    let mut prims = Vec::new();
    for p in list.by_ref() {
        match p {
            Ok(p) => prims.push(p.to_buf()),
            Err(_) => return raw(),
        }
    }
    let rest = bytes.data().get(list.position()..).unwrap_or_default();
    let aligned = (abs_start + bytes.len()).is_multiple_of(32)
        && rest.len() < 32
        && rest.iter().all(|&b| b == 0);
    let aligned = aligned && crate::chunk::pad_len(abs_start + list.position()) == rest.len();
    GroupPrims {
        prims,
        tail: if aligned {
            Tail::Align32
        } else {
            Tail::Bytes(rest.to_vec())
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gx::dl::Opcode;

    #[test]
    fn golden_shp1() {
        let attrs = vec![
            IndexAttr {
                attr: Attr::PNMTXIDX,
                ty: AttrType::DIRECT,
            },
            IndexAttr {
                attr: Attr::POS,
                ty: AttrType::INDEX16,
            },
        ];
        let desc = vertex_desc(attrs.clone()).unwrap();
        let mut tri = PrimitiveBuf::new(Opcode::TRIANGLES);
        for (m, p) in [(0, 0), (3, 1), (0, 2)] {
            tri.push(&desc, &[m, p]);
        }
        let mut m = Shp1::default();
        let spec = ShapeSpec {
            matrix_type: ShapeMatrixType::MULTI,
            attrs: attrs.clone(),
            groups: vec![GroupSpec {
                drw: 0,
                matrices: vec![0, 1],
                prims: vec![tri],
            }],
            radius: 1.0,
            bbox: [0.0; 6],
        };
        m.push_shape(spec.clone()).unwrap();
        m.push_shape(spec).unwrap();
        // The second shape shares the first one's attribute list.
        assert_eq!(m.attrs.len(), 3);
        assert_eq!(m.shapes[1].attr_offset, 0);
        let b = m.write().unwrap();
        let offsets: Vec<u32> = (0..8)
            .map(|k| u32::from_be_bytes(b[0x0C + 4 * k..0x10 + 4 * k].try_into().unwrap()))
            .collect();
        // shapes, remap, (no names), attributes, weights, primitives, matrix data, definitions.
        assert_eq!(offsets, [0x40, 0xA0, 0, 0xC0, 0xE0, 0x100, 0x140, 0x160]);
        assert_eq!(
            &b[0x40..0x4C],
            &[3, 0xFF, 0, 1, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
        );
        assert_eq!(&b[0x4C..0x50], &1.0f32.to_be_bytes());
        assert_eq!(
            &b[0xC0..0xD8],
            &[
                0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 3, 0, 0, 0, 0xFF, 0, 0, 0, 0
            ]
        );
        assert_eq!(&b[0xE0..0xE8], &[0, 0, 0, 1, 0, 0, 0, 1]);
        assert_eq!(&b[0x100..0x10C], &[0x90, 0, 3, 0, 0, 0, 3, 0, 1, 0, 0, 2]);
        assert!(b[0x10C..0x120].iter().all(|&x| x == 0), "NOP padding to 32");
        assert_eq!(
            &b[0x140..0x150],
            &[0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2]
        );
        assert_eq!(
            &b[0x160..0x170],
            &[0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0x20]
        );
        assert_eq!(b.len(), 0x180);
        let v = Shp1View::parse(Reader::new(&b)).unwrap();
        let back = Shp1::from_view(&v).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.write().unwrap(), b);
        assert_eq!(v.matrix_data_count(), 2);
        assert_eq!(v.group_def_count(), 2);
        assert_eq!(v.weight_count(), 4);
        let g = v.group(1, 0).unwrap();
        assert_eq!((g.size, g.offset, g.data.start), (0x20, 0x20, 2));
    }
}
