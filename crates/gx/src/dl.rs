//! Display lists: primitive commands read through a vertex descriptor, and their expansion to
//! triangles.
//!
//! A draw command is `u8 opcode (primitive type | VAT index), u16 vertex count`, then per vertex one
//! field per descriptor entry in order: an 8- or 16-bit index, or the value itself for direct
//! attributes (PNMTXIDX and TEXnMTXIDX are always direct, 1 byte). J3D SHP1 and HSD PObj lists both
//! end at a 0x00 byte (GX NOP) or at the end of their buffer and are zero-padded to 32 bytes.

use gcio::{Error, Reader, Result, Writer};

use crate::vtx::{ATTR_SLOTS, Attr, AttrType, VertexFormat};

/// A display-list opcode byte: primitive type in the high 5 bits, VAT index in the low 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Opcode(pub u8);

impl Opcode {
    /// No operation; ends J3D/HSD primitive lists.
    pub const NOP: Opcode = Opcode(0x00);
    /// Quads (4 vertices each).
    pub const QUADS: Opcode = Opcode(0x80);
    /// Quad strip (listed by some GX documentation; not used by the model formats).
    pub const QUAD_STRIP: Opcode = Opcode(0x88);
    /// Separate triangles.
    pub const TRIANGLES: Opcode = Opcode(0x90);
    /// Triangle strip.
    pub const TRIANGLE_STRIP: Opcode = Opcode(0x98);
    /// Triangle fan.
    pub const TRIANGLE_FAN: Opcode = Opcode(0xA0);
    /// Separate lines.
    pub const LINES: Opcode = Opcode(0xA8);
    /// Line strip.
    pub const LINE_STRIP: Opcode = Opcode(0xB0);
    /// Points.
    pub const POINTS: Opcode = Opcode(0xB8);

    /// The primitive type with the VAT bits cleared.
    pub fn primitive(self) -> Opcode {
        Opcode(self.0 & 0xF8)
    }

    /// Vertex attribute table index (low 3 bits).
    pub fn vat(self) -> u8 {
        self.0 & 7
    }

    /// True for the draw commands 0x80..=0xB8 (any VAT).
    pub fn is_draw(self) -> bool {
        (0x80..=0xBF).contains(&self.0)
    }

    /// Name of the primitive type.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.primitive() {
            Self::QUADS => "quads",
            Self::QUAD_STRIP => "quad strip",
            Self::TRIANGLES => "triangles",
            Self::TRIANGLE_STRIP => "triangle strip",
            Self::TRIANGLE_FAN => "triangle fan",
            Self::LINES => "lines",
            Self::LINE_STRIP => "line strip",
            Self::POINTS => "points",
            _ => return None,
        })
    }

    /// Whether `count` vertices make whole primitives of this type (triangles ×3, quads ×4,
    /// strips/fans ≥ 3, lines ×2, line strips ≥ 2).
    pub fn count_fits(self, count: usize) -> bool {
        match self.primitive() {
            Self::TRIANGLES => count.is_multiple_of(3),
            Self::QUADS => count.is_multiple_of(4),
            Self::QUAD_STRIP => count >= 4 && count.is_multiple_of(2),
            Self::TRIANGLE_STRIP | Self::TRIANGLE_FAN => count >= 3,
            Self::LINES => count.is_multiple_of(2),
            Self::LINE_STRIP => count >= 2,
            _ => true,
        }
    }
}

/// One descriptor entry: which attribute, how it is supplied, and its bytes per vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DescEntry {
    /// The attribute.
    pub attr: Attr,
    /// Direct or indexed.
    pub kind: AttrType,
    /// Bytes this attribute takes in each vertex of the display list.
    pub size: usize,
}

/// The attributes each display-list vertex carries, in order (GX `VCD` + the direct formats).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VertexDesc {
    entries: Vec<DescEntry>,
    /// (byte offset, size) in a vertex per attribute slot (the last entry wins for a repeated
    /// attribute), so per-vertex look-ups are O(1).
    offsets: [Option<(u16, u16)>; ATTR_SLOTS],
    size: usize,
}

impl VertexDesc {
    /// An empty descriptor.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an attribute. Indexed attributes take 1 or 2 bytes; direct matrix indices take 1 byte.
    /// Direct data of other attributes needs its format: use [`push_direct`](Self::push_direct).
    pub fn push(&mut self, attr: Attr, kind: AttrType) -> Result<&mut Self> {
        let size = match kind.index_size() {
            Some(s) => s,
            None if kind == AttrType::DIRECT && attr.is_matrix_index() => 1,
            None => {
                return Err(Error::without_offset(gcio::ErrorKind::Invalid(format!(
                    "attribute {} with type {} has no size in a display list",
                    attr.0, kind.0
                ))));
            }
        };
        Ok(self.push_entry(DescEntry { attr, kind, size }))
    }

    /// Adds a direct attribute whose values sit in the display list in `format`.
    pub fn push_direct(&mut self, format: VertexFormat) -> Result<&mut Self> {
        let size = format.element_size().ok_or_else(|| {
            Error::without_offset(gcio::ErrorKind::Invalid(format!(
                "direct attribute {} has no element size",
                format.attr.0
            )))
        })?;
        Ok(self.push_entry(DescEntry {
            attr: format.attr,
            kind: AttrType::DIRECT,
            size,
        }))
    }

    /// Adds an entry with an explicit size (e.g. NBT3 normals: three indices per vertex).
    pub fn push_entry(&mut self, e: DescEntry) -> &mut Self {
        if let (Some(slot), Ok(off), Ok(size)) = (
            e.attr.slot(),
            u16::try_from(self.size),
            u16::try_from(e.size),
        ) && let Some(o) = self.offsets.get_mut(slot)
        {
            *o = Some((off, size));
        }
        self.size = self.size.saturating_add(e.size);
        self.entries.push(e);
        self
    }

    /// The entries in vertex order.
    pub fn entries(&self) -> &[DescEntry] {
        &self.entries
    }

    /// Bytes per vertex.
    pub fn vertex_size(&self) -> usize {
        self.size
    }

    /// Whether the descriptor carries `attr`.
    pub fn has(&self, attr: Attr) -> bool {
        self.field(attr).is_some()
    }

    /// (offset, size) of `attr` within a vertex.
    fn field(&self, attr: Attr) -> Option<(usize, usize)> {
        let slot = attr.slot()?;
        let (o, s) = self.offsets.get(slot).copied().flatten()?;
        Some((usize::from(o), usize::from(s)))
    }
}

/// PNMTXIDX (and TEXnMTXIDX) values address matrix memory in rows: slot = value / 3. `None` when
/// the value is not a multiple of 3.
pub fn matrix_slot(value: u32) -> Option<u32> {
    (value.is_multiple_of(3)).then_some(value / 3)
}

/// One vertex of a primitive: its bytes, read through the descriptor.
#[derive(Debug, Clone, Copy)]
pub struct Vertex<'a> {
    bytes: &'a [u8],
    desc: &'a VertexDesc,
}

impl<'a> Vertex<'a> {
    /// The vertex's raw bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Raw bytes of `attr` in this vertex (index or direct value).
    pub fn raw(&self, attr: Attr) -> Option<&'a [u8]> {
        let (off, size) = self.desc.field(attr)?;
        self.bytes.get(off..off.checked_add(size)?)
    }

    /// The index of an indexed attribute, or the value of a 1-byte direct one (PNMTXIDX).
    pub fn index(&self, attr: Attr) -> Option<u32> {
        match self.raw(attr)? {
            [a] => Some(u32::from(*a)),
            [a, b] => Some(u32::from(u16::from_be_bytes([*a, *b]))),
            _ => None,
        }
    }

    /// Every (entry, raw bytes) pair in descriptor order.
    pub fn fields(&self) -> impl Iterator<Item = (DescEntry, &'a [u8])> + 'a {
        let bytes = self.bytes;
        self.desc.entries.iter().scan(0usize, move |pos, e| {
            let start = *pos;
            *pos = pos.saturating_add(e.size);
            Some((*e, bytes.get(start..*pos).unwrap_or_default()))
        })
    }
}

/// One draw command read from a display list (zero-copy).
#[derive(Debug, Clone, Copy)]
pub struct Primitive<'a> {
    op: Opcode,
    count: u16,
    offset: u64,
    data: &'a [u8],
    desc: &'a VertexDesc,
}

impl<'a> Primitive<'a> {
    /// The opcode (primitive type and VAT).
    pub fn opcode(&self) -> Opcode {
        self.op
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        usize::from(self.count)
    }

    /// True for a command with no vertices.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Absolute file offset of the opcode byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The vertex bytes (count × vertex size).
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Vertex `i`.
    pub fn vertex(&self, i: usize) -> Option<Vertex<'a>> {
        let size = self.desc.vertex_size();
        let start = i.checked_mul(size)?;
        let bytes = self.data.get(start..start.checked_add(size)?)?;
        Some(Vertex {
            bytes,
            desc: self.desc,
        })
    }

    /// All vertices in order.
    pub fn vertices(&self) -> impl Iterator<Item = Vertex<'a>> + '_ {
        (0..self.len()).filter_map(|i| self.vertex(i))
    }

    /// Triangles as vertex positions within this primitive (see [`triangles`]).
    pub fn triangles(&self) -> Triangles {
        triangles(self.op, self.len())
    }

    /// An owned copy.
    pub fn to_buf(&self) -> PrimitiveBuf {
        PrimitiveBuf {
            op: self.op,
            data: self.data.to_vec(),
        }
    }
}

/// Iterator over the draw commands of a display list. Stops at a 0x00 (NOP) opcode, at the end of
/// the data, or after the first error.
#[derive(Debug, Clone)]
pub struct DisplayList<'a> {
    r: Reader<'a>,
    desc: &'a VertexDesc,
    pos: usize,
    done: bool,
}

impl<'a> DisplayList<'a> {
    /// Reads `r` (the list's bytes) with vertices laid out by `desc`.
    pub fn new(r: Reader<'a>, desc: &'a VertexDesc) -> Self {
        DisplayList {
            r,
            desc,
            pos: 0,
            done: false,
        }
    }

    /// Offset (relative to the list) just past the last command read: where the terminator or
    /// padding starts once iteration has finished.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn read(&mut self) -> Result<Option<Primitive<'a>>> {
        if self.pos >= self.r.len() {
            return Ok(None);
        }
        let op = Opcode(self.r.u8(self.pos)?);
        if op == Opcode::NOP {
            return Ok(None);
        }
        if !op.is_draw() {
            return Err(Error::invalid(
                self.r.abs(self.pos),
                format!("display-list opcode {:#04x} is not a draw command", op.0),
            ));
        }
        let count = self.r.u16(self.pos + 1)?;
        if count > 0 && self.desc.vertex_size() == 0 {
            // Zero-byte vertices would let 3 bytes claim 65,535 vertices.
            return Err(Error::invalid(
                self.r.abs(self.pos),
                "draw command with vertices but an empty vertex descriptor",
            ));
        }
        let len = usize::from(count)
            .checked_mul(self.desc.vertex_size())
            .ok_or_else(|| {
                Error::new(
                    gcio::ErrorKind::Overflow("primitive size"),
                    self.r.abs(self.pos),
                )
            })?;
        let data = self.r.bytes(self.pos + 3, len)?;
        let p = Primitive {
            op,
            count,
            offset: self.r.abs(self.pos),
            data,
            desc: self.desc,
        };
        self.pos += 3 + len;
        Ok(Some(p))
    }
}

impl<'a> Iterator for DisplayList<'a> {
    type Item = Result<Primitive<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.read();
        match r {
            Ok(Some(p)) => Some(Ok(p)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// An owned draw command: opcode and vertex bytes (count = bytes / vertex size). Build one with
/// [`push`](Self::push), write it with [`write`](Self::write).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PrimitiveBuf {
    /// Primitive type and VAT.
    pub op: Opcode,
    /// Vertex bytes in descriptor layout.
    pub data: Vec<u8>,
}

impl PrimitiveBuf {
    /// An empty command of type `op`.
    pub fn new(op: Opcode) -> Self {
        PrimitiveBuf {
            op,
            data: Vec::new(),
        }
    }

    /// Appends a vertex given one value per descriptor entry (an index, or a 1-byte direct value);
    /// values are truncated to the entry's size. Entries wider than 2 bytes take the value
    /// big-endian in their low bytes.
    pub fn push(&mut self, desc: &VertexDesc, values: &[u32]) -> &mut Self {
        for (i, e) in desc.entries().iter().enumerate() {
            let v = values.get(i).copied().unwrap_or(0).to_be_bytes();
            let pad = e.size.saturating_sub(4);
            self.data.extend(std::iter::repeat_n(0, pad));
            self.data
                .extend_from_slice(v.get(4usize.saturating_sub(e.size)..).unwrap_or_default());
        }
        self
    }

    /// Number of whole vertices for `desc`.
    pub fn len(&self, desc: &VertexDesc) -> usize {
        self.data.len().checked_div(desc.vertex_size()).unwrap_or(0)
    }

    /// Reads this command back through a descriptor.
    pub fn view<'a>(&'a self, desc: &'a VertexDesc) -> Primitive<'a> {
        Primitive {
            op: self.op,
            count: u16::try_from(self.len(desc)).unwrap_or(u16::MAX),
            offset: 0,
            data: &self.data,
            desc,
        }
    }

    /// Writes `op, u16 count, vertices`. Fails when the data is not whole vertices or has more than
    /// 65,535 of them.
    pub fn write(&self, w: &mut Writer, desc: &VertexDesc) -> Result<()> {
        let size = desc.vertex_size();
        let count = self.len(desc);
        let whole = count.checked_mul(size) == Some(self.data.len());
        let count = u16::try_from(count).ok().filter(|_| whole).ok_or_else(|| {
            Error::without_offset(gcio::ErrorKind::Invalid(format!(
                "primitive of {} bytes is not a whole number (≤ 65535) of {size}-byte vertices",
                self.data.len()
            )))
        })?;
        w.u8(self.op.0).u16(count).bytes(&self.data);
        Ok(())
    }
}

/// Triangles of a primitive as vertex positions, in GX order: strips alternate winding so every
/// triangle keeps the first one's facing; fans pivot on vertex 0; quads split along 0–2. Lines and
/// points give none.
pub fn triangles(op: Opcode, count: usize) -> Triangles {
    let n = match op.primitive() {
        Opcode::TRIANGLES => count / 3,
        Opcode::TRIANGLE_STRIP | Opcode::TRIANGLE_FAN => count.saturating_sub(2),
        Opcode::QUADS => count / 4 * 2,
        Opcode::QUAD_STRIP => count.saturating_sub(2) / 2 * 2,
        _ => 0,
    };
    Triangles {
        op: op.primitive(),
        i: 0,
        n,
    }
}

/// Iterator returned by [`triangles`].
#[derive(Debug, Clone)]
pub struct Triangles {
    op: Opcode,
    i: usize,
    n: usize,
}

impl Iterator for Triangles {
    type Item = [usize; 3];

    fn next(&mut self) -> Option<[usize; 3]> {
        if self.i >= self.n {
            return None;
        }
        let i = self.i;
        self.i += 1;
        Some(match self.op {
            Opcode::TRIANGLES => [3 * i, 3 * i + 1, 3 * i + 2],
            Opcode::TRIANGLE_STRIP if i.is_multiple_of(2) => [i, i + 1, i + 2],
            Opcode::TRIANGLE_STRIP => [i + 1, i, i + 2],
            Opcode::TRIANGLE_FAN => [0, i + 1, i + 2],
            Opcode::QUADS if i.is_multiple_of(2) => [2 * i, 2 * i + 1, 2 * i + 2],
            Opcode::QUADS => [2 * i - 2, 2 * i, 2 * i + 1],
            // Quad strip: quad k uses vertices 2k..2k+4 as (0, 1, 3, 2).
            _ if i.is_multiple_of(2) => [i, i + 1, i + 3],
            _ => [i - 1, i + 2, i + 1],
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.n - self.i;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Triangles {}

/// Fuzz body: reads `data` as a display list under a descriptor chosen by its first bytes, touching
/// every vertex and triangle. Never panics.
pub fn fuzz_display_list(data: &[u8]) {
    let mut desc = VertexDesc::new();
    let (head, rest) = data.split_at(data.len().min(4));
    for (i, b) in head.iter().enumerate() {
        let attr = Attr(u32::from(b & 0x1F));
        let _ = desc.push(attr, AttrType(u32::from(b >> 6)));
        if i == 3 {
            let _ = desc.push_direct(VertexFormat {
                attr: Attr::CLR0,
                ty: crate::vtx::CompType(u32::from(b & 7)),
                ..VertexFormat::default()
            });
        }
    }
    for p in DisplayList::new(Reader::new(rest), &desc).flatten() {
        for v in p.vertices() {
            let _ = v.index(Attr::POS);
            let _ = v.fields().count();
        }
        let _ = p.triangles().count();
        let mut w = Writer::new();
        let _ = p.to_buf().write(&mut w, &desc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc() -> VertexDesc {
        let mut d = VertexDesc::new();
        d.push(Attr::PNMTXIDX, AttrType::DIRECT).unwrap();
        d.push(Attr::POS, AttrType::INDEX16).unwrap();
        d.push(Attr::CLR0, AttrType::INDEX8).unwrap();
        d
    }

    /// Golden table: (primitive, bytes) drives both reading and writing.
    fn golden() -> Vec<(Opcode, Vec<[u32; 3]>, Vec<u8>)> {
        vec![
            (
                Opcode::TRIANGLES,
                vec![[0, 1, 2], [3, 0x102, 4], [6, 5, 0]],
                vec![0x90, 0, 3, 0, 0, 1, 2, 3, 1, 2, 4, 6, 0, 5, 0],
            ),
            (
                Opcode(0x9A),
                vec![[0, 7, 1]; 3],
                vec![0x9A, 0, 3, 0, 0, 7, 1, 0, 0, 7, 1, 0, 0, 7, 1],
            ),
        ]
    }

    #[test]
    fn golden_read_write() {
        let d = desc();
        assert_eq!(d.vertex_size(), 4);
        for (op, verts, bytes) in golden() {
            let mut b = PrimitiveBuf::new(op);
            for v in &verts {
                b.push(&d, v);
            }
            let mut w = Writer::new();
            b.write(&mut w, &d).unwrap();
            assert_eq!(w.as_slice(), bytes.as_slice());
            let mut list = DisplayList::new(Reader::with_base(&bytes, 0x40), &d);
            let p = list.next().unwrap().unwrap();
            assert!(list.next().is_none());
            assert_eq!(list.position(), bytes.len());
            assert_eq!((p.opcode(), p.len(), p.offset()), (op, verts.len(), 0x40));
            let got: Vec<[u32; 3]> = p
                .vertices()
                .map(|v| [Attr::PNMTXIDX, Attr::POS, Attr::CLR0].map(|a| v.index(a).unwrap()))
                .collect();
            assert_eq!(got, verts);
            assert_eq!(p.to_buf(), b);
        }
    }

    #[test]
    fn list_ends_at_nop_and_reports_errors() {
        let d = desc();
        let bytes = [0x98, 0, 1, 3, 0, 1, 2, 0, 0xFF, 0xFF];
        let mut l = DisplayList::new(Reader::new(&bytes), &d);
        assert_eq!(l.next().unwrap().unwrap().len(), 1);
        assert!(l.next().is_none());
        assert_eq!(l.position(), 7);
        let bad = [0x61, 0, 0];
        let e = DisplayList::new(Reader::with_base(&bad, 0x100), &d)
            .next()
            .unwrap()
            .unwrap_err();
        assert_eq!(e.offset(), Some(0x100));
        let empty = VertexDesc::new();
        assert!(
            DisplayList::new(Reader::new(&[0x90, 0, 3]), &empty)
                .next()
                .unwrap()
                .is_err()
        );
        assert!(
            DisplayList::new(Reader::new(&[0x90, 0, 0]), &empty)
                .next()
                .unwrap()
                .is_ok()
        );
        let short = [0x90, 0xFF, 0xFF, 0];
        assert!(
            DisplayList::new(Reader::new(&short), &d)
                .next()
                .unwrap()
                .is_err()
        );
        let mut l = DisplayList::new(Reader::new(&short), &d);
        let _ = l.next();
        assert!(l.next().is_none(), "stops after an error");
    }

    #[test]
    fn triangulation() {
        let t = |op, n| triangles(op, n).collect::<Vec<_>>();
        assert_eq!(t(Opcode::TRIANGLES, 6), vec![[0, 1, 2], [3, 4, 5]]);
        assert_eq!(
            t(Opcode::TRIANGLE_STRIP, 5),
            vec![[0, 1, 2], [2, 1, 3], [2, 3, 4]]
        );
        assert_eq!(
            t(Opcode::TRIANGLE_FAN, 5),
            vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]
        );
        assert_eq!(
            t(Opcode::QUADS, 8),
            vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]]
        );
        assert_eq!(t(Opcode::QUAD_STRIP, 6).len(), 4);
        assert!(t(Opcode::LINES, 4).is_empty());
        assert!(t(Opcode::TRIANGLE_STRIP, 2).is_empty());
        assert!(Opcode::TRIANGLES.count_fits(6) && !Opcode::TRIANGLES.count_fits(4));
        assert!(!Opcode::TRIANGLE_FAN.count_fits(2));
        assert_eq!(Opcode(0x9B).name(), Some("triangle strip"));
        assert_eq!(Opcode(0x9B).vat(), 3);
        assert_eq!(matrix_slot(27), Some(9));
        assert_eq!(matrix_slot(4), None);
    }

    #[test]
    fn direct_and_descriptor_errors() {
        let mut d = VertexDesc::new();
        assert!(d.push(Attr::POS, AttrType::DIRECT).is_err());
        assert!(d.push(Attr::POS, AttrType::NONE).is_err());
        d.push_direct(VertexFormat {
            attr: Attr::CLR0,
            count: crate::vtx::CompCount::CLR_RGBA,
            ty: crate::vtx::CompType::RGBA8,
            frac: 0,
        })
        .unwrap();
        d.push(Attr::TEX0, AttrType::INDEX16).unwrap();
        assert_eq!(d.vertex_size(), 6);
        let mut b = PrimitiveBuf::new(Opcode::POINTS);
        b.push(&d, &[0x11223344, 9]);
        assert_eq!(b.data, vec![0x11, 0x22, 0x33, 0x44, 0, 9]);
        let p = b.view(&d);
        let v = p.vertex(0).unwrap();
        assert_eq!(v.raw(Attr::CLR0), Some(&[0x11, 0x22, 0x33, 0x44][..]));
        assert_eq!(v.index(Attr::CLR0), None);
        assert_eq!(v.index(Attr::TEX0), Some(9));
        assert_eq!(v.fields().count(), 2);
        assert!(!d.has(Attr::POS));
        b.data.push(1);
        assert!(b.write(&mut Writer::new(), &d).is_err());
        fuzz_display_list(&[0x49, 0x8A, 0xCB, 0x05, 0x90, 0, 1, 1, 2, 3, 4, 5, 6, 7]);
    }
}
