//! Just enough of GPL (display-object position and normal arrays) and SKN (SK1/SK2/SKAcc entries)
//! to check facial pose data against the mesh it animates.

use gcio::{Context, Error, Limits, Reader, Result};

use crate::raw::{ArrayHead, DoLayout, GplDescriptor, GplHeader, Sk1, Sk2, SkAcc, SknHeader};

/// GPL `versionNumber` of every vanilla block (GPL-002).
pub const GPL_VERSION: u32 = 0x00B7_49E0;
/// ACT `versionNumber` of every vanilla block (GPL-002).
pub const ACT_VERSION: u32 = 0x007B_7960;
/// Bytes per skinned vertex: interleaved position + normal, 6 × int16.
pub const SKIN_STRIDE: u32 = 12;

/// A GPL vertex attribute array (positions or normals).
#[derive(Debug, Clone, Copy)]
pub struct VertexArray<'a> {
    /// The array's bytes (`count × stride`).
    pub bytes: &'a [u8],
    /// Number of entries.
    pub count: u16,
    /// Quantisation byte.
    pub quantize: u8,
    /// Components per entry.
    pub comp_count: u8,
    /// Absolute file offset of the array.
    pub abs: u64,
}

impl<'a> VertexArray<'a> {
    /// Quantisation formats 0 and 3 are int16 in MSS; others are read as f32 (gpl.md §3.5, C-34).
    pub fn is_s16(&self) -> bool {
        matches!(self.quantize >> 4, 0 | 3)
    }
    /// Bytes per component.
    pub fn comp_size(&self) -> usize {
        if self.is_s16() { 2 } else { 4 }
    }
    /// Bytes per entry.
    pub fn stride(&self) -> usize {
        usize::from(self.comp_count) * self.comp_size()
    }
    /// Entry `i`'s bytes.
    pub fn entry(&self, i: usize) -> Option<&'a [u8]> {
        let s = self.stride();
        self.bytes
            .get(i.checked_mul(s)?..i.checked_mul(s)?.checked_add(s)?)
    }

    fn read(layout: Reader<'a>, head_ptr: u32) -> Result<Option<Self>> {
        if head_ptr == 0 {
            return Ok(None);
        }
        let h: &ArrayHead = layout.get(head_ptr as usize)?;
        let mut v = VertexArray {
            bytes: &[],
            count: h.count.get(),
            quantize: h.quantize,
            comp_count: h.comp_count,
            abs: layout.abs(h.array.get() as usize),
        };
        let len = usize::from(v.count) * v.stride();
        v.bytes = layout
            .bytes(h.array.get() as usize, len)
            .context("vertex array")?;
        Ok(Some(v))
    }
}

/// One GPL display object (submesh).
#[derive(Debug, Clone, Copy)]
pub struct Submesh<'a> {
    /// Position array (3 components, or 6 interleaved with normals on the skinned body).
    pub positions: Option<VertexArray<'a>>,
    /// Normal array from the lighting data.
    pub normals: Option<VertexArray<'a>>,
}

/// One SK1 (`kind` 1) or SK2 (`kind` 2) entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkinEntry {
    /// 1 or 2 bones.
    pub bones: u8,
    /// SKN-relative source pointer.
    pub src: u32,
    /// Destination, relative to submesh 0's position array.
    pub dst: u32,
    /// Vertex count.
    pub count: u16,
    /// Byte offset of the first vertex past `dst`.
    pub src_offset: u8,
    /// Absolute file offset of the entry.
    pub abs: u64,
}

impl SkinEntry {
    /// First vertex slot written.
    pub fn first_slot(&self) -> u32 {
        self.dst.saturating_add(u32::from(self.src_offset)) / SKIN_STRIDE
    }
    /// `src − dst`: equal to the mirror base for every entry whose source is mirrored.
    pub fn source_shift(&self) -> i64 {
        i64::from(self.src) - i64::from(self.dst)
    }
}

/// The skinning section.
#[derive(Debug, Clone)]
pub struct Skin {
    /// Absolute offset of the SKN section.
    pub abs: u64,
    /// posNrmShift (high nibble 0 = int16 data).
    pub pos_nrm_shift: u8,
    /// SK1 entries then SK2 entries.
    pub entries: Vec<SkinEntry>,
    /// Vertex count of each SKAcc entry (kind-0 facial targets index these).
    pub skacc_counts: Vec<u16>,
}

impl Skin {
    /// `VAR_DATA_OFF`, the SKN-relative base of the source mirror: `SK1[0].src − SK1[0].dst`
    /// (the loader assumes slot 0 at the first SK1 entry; vanilla has `dst = 0` there).
    pub fn mirror_base(&self) -> Option<i64> {
        self.entries
            .iter()
            .find(|e| e.bones == 1)
            .map(SkinEntry::source_shift)
    }

    fn parse(r: Reader<'_>, limits: &Limits) -> Result<Self> {
        let h: &SknHeader = r.get(0).context("SKN header")?;
        let (n1, n2, na) = (
            usize::from(h.num_sk1.get()),
            usize::from(h.num_sk2.get()),
            usize::from(h.num_skacc.get()),
        );
        limits.check_elements((n1 + n2 + na) as u64, r.abs(0))?;
        let mut entries = Vec::with_capacity(n1 + n2);
        let sk1: &[Sk1] = r.table(h.sk1.get() as usize, n1).context("SK1")?;
        for (i, e) in sk1.iter().enumerate() {
            entries.push(SkinEntry {
                bones: 1,
                src: e.src.get(),
                dst: e.dst.get(),
                count: e.count.get(),
                src_offset: e.src_offset,
                abs: r.abs(h.sk1.get() as usize + i * size_of::<Sk1>()),
            });
        }
        let sk2: &[Sk2] = r.table(h.sk2.get() as usize, n2).context("SK2")?;
        for (i, e) in sk2.iter().enumerate() {
            entries.push(SkinEntry {
                bones: 2,
                src: e.src.get(),
                dst: e.dst.get(),
                count: e.count.get(),
                src_offset: e.src_offset,
                abs: r.abs(h.sk2.get() as usize + i * size_of::<Sk2>()),
            });
        }
        let acc: &[SkAcc] = r.table(h.skacc.get() as usize, na).context("SKAcc")?;
        Ok(Skin {
            abs: r.abs(0),
            pos_nrm_shift: h.pos_nrm_shift,
            entries,
            skacc_counts: acc.iter().map(|a| a.count.get()).collect(),
        })
    }
}

/// Submesh arrays and skinning entries of a block.
#[derive(Debug, Clone)]
pub struct Mesh<'a> {
    /// GPL version word.
    pub gpl_version: u32,
    /// Display objects in descriptor order (the facial target index is this position).
    pub submeshes: Vec<Submesh<'a>>,
    /// The SKN section, when the model is skinned.
    pub skin: Option<Skin>,
}

impl<'a> Mesh<'a> {
    /// Reads the GPL section `gpl` and the optional SKN section `skn`.
    pub fn parse(gpl: Reader<'a>, skn: Option<Reader<'a>>, limits: &Limits) -> Result<Self> {
        let h: &GplHeader = gpl.get(0).context("GPL header")?;
        let n = limits.check_elements(u64::from(h.num_descriptors.get()), gpl.abs(0))?;
        let descs: &[GplDescriptor] = gpl
            .table(h.descriptors.get() as usize, n)
            .context("GPL descriptors")?;
        let mut submeshes = Vec::with_capacity(descs.len());
        for (i, d) in descs.iter().enumerate() {
            let ctx = || format!("GPL display object {i}");
            let at = d.layout.get() as usize;
            let lay: &DoLayout = gpl.get(at).with_context(ctx)?;
            let lr = gpl.sub_from(at).with_context(ctx)?;
            submeshes.push(Submesh {
                positions: VertexArray::read(lr, lay.position.get())
                    .with_context(|| format!("{} > positions", ctx()))?,
                normals: VertexArray::read(lr, lay.lighting.get())
                    .with_context(|| format!("{} > normals", ctx()))?,
            });
        }
        let skin = skn.map(|r| Skin::parse(r, limits)).transpose()?;
        Ok(Mesh {
            gpl_version: h.version.get(),
            submeshes,
            skin,
        })
    }

    /// The array a facial attribute of `kind` on `submesh` writes into (kind 1 positions, kind 2
    /// normals).
    pub fn target_array(&self, submesh: u8, kind: u8) -> Result<VertexArray<'a>> {
        let s = self.submeshes.get(usize::from(submesh)).ok_or_else(|| {
            Error::without_offset(gcio::ErrorKind::Invalid(format!("no submesh {submesh}")))
        })?;
        let a = match kind {
            1 => s.positions,
            2 => s.normals,
            _ => None,
        };
        a.ok_or_else(|| {
            Error::without_offset(gcio::ErrorKind::Invalid(format!(
                "submesh {submesh} has no kind-{kind} array"
            )))
        })
    }
}
