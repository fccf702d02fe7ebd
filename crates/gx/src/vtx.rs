//! Vertex attributes, their component counts and types, and (de)quantisation of vertex data.
//!
//! All enumerations are open newtypes over the `u32` the file formats store (J3D VTX1/SHP1, HSD
//! VtxDescList), so unknown values survive a round trip.

use gcio::{Error, Reader, Result};

gcio::open_enum! {
    /// A GX vertex attribute (`GXAttr`).
    pub Attr(u32) {
        /// Position/normal matrix index (direct, 1 byte = 3 × matrix slot).
        PNMTXIDX = 0,
        /// Texture matrix index for TEX0 (TEX1..TEX7 follow as 2..8).
        TEX0MTXIDX = 1,
        /// Texture matrix index for TEX7.
        TEX7MTXIDX = 8,
        /// Position.
        POS = 9,
        /// Normal (or normal/binormal/tangent).
        NRM = 10,
        /// Colour 0.
        CLR0 = 11,
        /// Colour 1.
        CLR1 = 12,
        /// Texture coordinate 0 (TEX1..TEX7 follow as 14..20).
        TEX0 = 13,
        /// Texture coordinate 7.
        TEX7 = 20,
        /// Position matrix array (indexed loads only).
        POS_MTX_ARRAY = 21,
        /// Normal matrix array.
        NRM_MTX_ARRAY = 22,
        /// Texture matrix array.
        TEX_MTX_ARRAY = 23,
        /// Light array.
        LIGHT_ARRAY = 24,
        /// Normal/binormal/tangent (J3D "TANGENT").
        NBT = 25,
        /// End of an attribute list.
        NULL = 0xFF,
    }
}

/// Number of attribute slots a vertex can carry (`GXAttr` 0..=25).
pub const ATTR_SLOTS: usize = 26;

impl Attr {
    /// Texture coordinate `n` (0..8).
    pub fn tex(n: u8) -> Attr {
        Attr(Self::TEX0.0 + u32::from(n))
    }

    /// Texture matrix index attribute `n` (0..8).
    pub fn tex_mtx_idx(n: u8) -> Attr {
        Attr(Self::TEX0MTXIDX.0 + u32::from(n))
    }

    /// True for PNMTXIDX and TEXnMTXIDX: per-vertex matrix addresses, always direct, 1 byte.
    pub fn is_matrix_index(self) -> bool {
        self.0 <= Self::TEX7MTXIDX.0
    }

    /// True for CLR0/CLR1, whose component types are colour formats.
    pub fn is_color(self) -> bool {
        self == Self::CLR0 || self == Self::CLR1
    }

    /// Texture-coordinate number for TEX0..TEX7.
    pub fn tex_index(self) -> Option<u8> {
        (Self::TEX0.0..=Self::TEX7.0)
            .contains(&self.0)
            .then(|| (self.0 - Self::TEX0.0) as u8)
    }

    /// Slot number (0..26) for per-vertex look-ups, `None` for NULL and unknown values.
    pub fn slot(self) -> Option<usize> {
        let s = usize::try_from(self.0).ok()?;
        (s < ATTR_SLOTS).then_some(s)
    }
}

gcio::open_enum! {
    /// How a vertex descriptor supplies an attribute (`GXAttrType`).
    pub AttrType(u32) {
        /// Not present (list terminators).
        NONE = 0,
        /// Value stored in the display list itself.
        DIRECT = 1,
        /// 8-bit index into the attribute's array.
        INDEX8 = 2,
        /// 16-bit index into the attribute's array.
        INDEX16 = 3,
    }
}

impl AttrType {
    /// Bytes of an index of this type (`None` for NONE, DIRECT and unknown values).
    pub fn index_size(self) -> Option<usize> {
        match self {
            Self::INDEX8 => Some(1),
            Self::INDEX16 => Some(2),
            _ => None,
        }
    }
}

gcio::open_enum! {
    /// Component count selector (`GXCompCnt`); its meaning depends on the attribute.
    pub CompCount(u32) {
        /// POS: XY. NRM: XYZ. CLR: RGB. TEX: S.
        C0 = 0,
        /// POS: XYZ. NRM: NBT (9 values). CLR: RGBA. TEX: ST.
        C1 = 1,
        /// NRM: NBT3 (three indexed normals).
        C2 = 2,
    }
}

impl CompCount {
    /// POS XY.
    pub const POS_XY: CompCount = CompCount(0);
    /// POS XYZ.
    pub const POS_XYZ: CompCount = CompCount(1);
    /// NRM XYZ.
    pub const NRM_XYZ: CompCount = CompCount(0);
    /// NRM NBT.
    pub const NRM_NBT: CompCount = CompCount(1);
    /// NRM NBT3.
    pub const NRM_NBT3: CompCount = CompCount(2);
    /// CLR RGB.
    pub const CLR_RGB: CompCount = CompCount(0);
    /// CLR RGBA.
    pub const CLR_RGBA: CompCount = CompCount(1);
    /// TEX S.
    pub const TEX_S: CompCount = CompCount(0);
    /// TEX ST.
    pub const TEX_ST: CompCount = CompCount(1);
}

gcio::open_enum! {
    /// Component type (`GXCompType`). Non-colour attributes use U8..F32, colours RGB565..RGBA8
    /// (same numbers, so both sets of names are constants of one type).
    pub CompType(u32) {
        /// Unsigned byte.
        U8 = 0,
        /// Signed byte.
        S8 = 1,
        /// Unsigned 16-bit.
        U16 = 2,
        /// Signed 16-bit.
        S16 = 3,
        /// 32-bit float.
        F32 = 4,
        /// Colour: RGBA, 4 bytes.
        RGBA8 = 5,
    }
}

impl CompType {
    /// Colour: 5-6-5 bits RGB, 2 bytes.
    pub const RGB565: CompType = CompType(0);
    /// Colour: RGB, 3 bytes.
    pub const RGB8: CompType = CompType(1);
    /// Colour: RGB plus an unused byte, 4 bytes.
    pub const RGBX8: CompType = CompType(2);
    /// Colour: 4-4-4-4 bits RGBA, 2 bytes.
    pub const RGBA4: CompType = CompType(3);
    /// Colour: 6-6-6-6 bits RGBA, 3 bytes.
    pub const RGBA6: CompType = CompType(4);

    /// Bytes of one non-colour component.
    pub fn component_size(self) -> Option<usize> {
        match self.0 {
            0 | 1 => Some(1),
            2 | 3 => Some(2),
            4 => Some(4),
            _ => None,
        }
    }

    /// Bytes of one colour of this type: 2, 3, 4, 2, 3, 4 for RGB565..RGBA8 (the GX sizes; J3D's
    /// seed lists RGBX8 and RGBA6 swapped, see C-02).
    pub fn color_size(self) -> Option<usize> {
        match self.0 {
            0 | 3 => Some(2),
            1 | 4 => Some(3),
            2 | 5 => Some(4),
            _ => None,
        }
    }
}

/// Up to nine decoded components (NBT normals have nine), stored inline so decoding never allocates.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Components {
    values: [f32; 9],
    len: u8,
}

impl Components {
    /// Components from a slice (at most nine are kept).
    pub fn new(values: &[f32]) -> Self {
        let mut c = Components::default();
        for v in values.iter().take(9) {
            c.push(*v);
        }
        c
    }

    fn push(&mut self, v: f32) {
        if let Some(slot) = self.values.get_mut(usize::from(self.len)) {
            *slot = v;
            self.len += 1;
        }
    }

    /// The decoded values.
    pub fn as_slice(&self) -> &[f32] {
        self.values.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// Component `i`, or 0 when absent (so `c.get(2)` of an XY position is 0).
    pub fn get(&self, i: usize) -> f32 {
        self.as_slice().get(i).copied().unwrap_or(0.0)
    }
}

/// The storage format of one attribute's values: attribute, component count, component type and
/// fraction shift (integers are fixed point: value / 2^shift).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VertexFormat {
    /// Which attribute.
    pub attr: Attr,
    /// Component count selector.
    pub count: CompCount,
    /// Component type (a colour format for CLR0/CLR1).
    pub ty: CompType,
    /// Fixed-point fraction bits for integer types.
    pub frac: u8,
}

impl VertexFormat {
    /// The S16 fixed-point format of `attr` with the most fraction bits whose range holds every
    /// value and whose rounding keeps each within `tol`, else F32: how an importer stores a
    /// float attribute (fixed point where it loses nothing that matters; NaN or huge values
    /// give F32).
    pub fn fitting(attr: Attr, count: CompCount, values: &[f32], tol: f32) -> VertexFormat {
        let max = values.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let fits = (0..=15u8)
            .rev()
            .find(|&f| max * f32::from(1u16 << f) <= 32767.0);
        let exact = |f: u8| {
            let scale = f32::from(1u16 << f);
            values
                .iter()
                .all(|v| ((v * scale).round() / scale - v).abs() <= tol)
        };
        let (ty, frac) = match fits {
            Some(f) if exact(f) => (CompType::S16, f),
            _ => (CompType::F32, 0),
        };
        VertexFormat {
            attr,
            count,
            ty,
            frac,
        }
    }

    /// Number of values per element (POS 2/3, NRM 3/9, TEX 1/2, colour 4), `None` when the
    /// attribute or count is unknown.
    pub fn components(&self) -> Option<usize> {
        let c = self.count.0;
        match self.attr {
            Attr::POS => [2, 3].get(c as usize).copied(),
            Attr::NRM | Attr::NBT => [3, 9, 3].get(c as usize).copied(),
            a if a.is_color() => Some(4),
            a if a.tex_index().is_some() => [1, 2].get(c as usize).copied(),
            _ => None,
        }
    }

    /// Bytes of one element (the array stride when values are packed).
    pub fn element_size(&self) -> Option<usize> {
        if self.attr.is_color() {
            self.ty.color_size()
        } else {
            self.components()?.checked_mul(self.ty.component_size()?)
        }
    }

    fn scale(&self) -> f32 {
        (-f32::from(self.frac)).exp2()
    }

    /// Dequantises one non-colour element from `bytes` (at least `element_size` long).
    pub fn decode(&self, bytes: &[u8]) -> Option<Components> {
        let n = self.components()?;
        let size = self.ty.component_size()?;
        let scale = if self.ty == CompType::F32 {
            1.0
        } else {
            self.scale()
        };
        let mut out = Components::default();
        for i in 0..n {
            let at = i.checked_mul(size)?;
            let b = bytes.get(at..at.checked_add(size)?)?;
            let v = match (self.ty, b) {
                (CompType::U8, [x]) => f32::from(*x) * scale,
                (CompType::S8, [x]) => f32::from(*x as i8) * scale,
                (CompType::U16, [x, y]) => f32::from(u16::from_be_bytes([*x, *y])) * scale,
                (CompType::S16, [x, y]) => f32::from(i16::from_be_bytes([*x, *y])) * scale,
                (CompType::F32, [a, b, c, d]) => f32::from_be_bytes([*a, *b, *c, *d]),
                _ => return None,
            };
            out.push(v);
        }
        Some(out)
    }

    /// Quantises `values` (missing components are 0) and appends them: rounds to nearest and
    /// saturates to the type's range, the inverse of [`decode`](Self::decode) for representable values.
    pub fn encode(&self, values: &[f32], out: &mut Vec<u8>) -> Option<()> {
        let n = self.components()?;
        let scale = f32::from(self.frac).exp2();
        for i in 0..n {
            let v = values.get(i).copied().unwrap_or(0.0);
            let q = (v * scale).round();
            match self.ty {
                CompType::U8 => out.push(q as u8),
                CompType::S8 => out.push(q as i8 as u8),
                CompType::U16 => out.extend_from_slice(&(q as u16).to_be_bytes()),
                CompType::S16 => out.extend_from_slice(&(q as i16).to_be_bytes()),
                CompType::F32 => out.extend_from_slice(&v.to_be_bytes()),
                _ => return None,
            }
        }
        Some(())
    }

    /// The direction `unit` as this fixed-point format stores it: the grid point next to
    /// `unit × 2^frac` (each component within one step of it) that points along `unit` within
    /// float noise, else `unit` itself (for [`encode`](Self::encode) to round). Stored normals
    /// are seldom unit length (HAL's lie between 0.988 and 1.012), so a glTF normal — made unit
    /// from one — rounds to a neighbour of the stored value as often as not, and two stored
    /// values a step apart would merge; the direction tells the stored one apart. Of points on
    /// the same ray, the one nearest unit length. F32 formats return `unit`.
    pub fn grid_direction(&self, unit: [f32; 3]) -> [f32; 3] {
        // Within about 1e-4 rad: a neighbour one step off turns by about 1 / 2^frac.
        const NOISE: f64 = 1e-8;
        let range = match self.ty {
            CompType::U8 => 0.0..=255.0,
            CompType::S8 => -128.0..=127.0,
            CompType::U16 => 0.0..=65535.0,
            CompType::S16 => -32768.0..=32767.0,
            _ => return unit,
        };
        let scale = f64::from(f32::from(self.frac).exp2());
        let len = |c: &[f64; 3]| c.iter().map(|x| x * x).sum::<f64>().sqrt();
        let u = unit.map(f64::from);
        let ul = len(&u);
        if (ul - 1.0).abs() > 1e-3 {
            return unit;
        }
        let u = u.map(|x| x / ul);
        let base = u.map(|x| (x * scale).round());
        let mut best: Option<([f64; 3], f64, f64)> = None;
        for k in 0..27 {
            let d = [k % 3, k / 3 % 3, k / 9].map(|i| f64::from(i) - 1.0);
            let c = [base[0] + d[0], base[1] + d[1], base[2] + d[2]];
            let l = len(&c);
            if l == 0.0 || !c.iter().all(|x| range.contains(x)) {
                continue;
            }
            let off = 1.0 - (c[0] * u[0] + c[1] * u[1] + c[2] * u[2]) / l;
            let from_unit = (l - scale).abs();
            let better = best.is_none_or(|(_, o, f)| {
                if (off - o).abs() <= NOISE * 1e-3 {
                    from_unit < f
                } else {
                    off < o
                }
            });
            if better {
                best = Some((c, off, from_unit));
            }
        }
        match best {
            Some((c, off, _)) if off <= NOISE => c.map(|x| (x / scale) as f32),
            _ => unit,
        }
    }

    /// Decodes one colour element to RGBA8 (RGB types get alpha 255).
    pub fn decode_color(&self, bytes: &[u8]) -> Option<[u8; 4]> {
        let size = self.ty.color_size()?;
        let b = bytes.get(..size)?;
        let x5 = |v: u32| ((v << 3) | (v >> 2)) as u8;
        let x6 = |v: u32| ((v << 2) | (v >> 4)) as u8;
        let x4 = |v: u32| (v * 17) as u8;
        Some(match (self.ty, b) {
            (CompType::RGB565, [h, l]) => {
                let v = u32::from(u16::from_be_bytes([*h, *l]));
                [x5(v >> 11), x6((v >> 5) & 0x3F), x5(v & 0x1F), 255]
            }
            (CompType::RGB8, [r, g, b]) | (CompType::RGBX8, [r, g, b, _]) => [*r, *g, *b, 255],
            (CompType::RGBA4, [h, l]) => {
                let v = u32::from(u16::from_be_bytes([*h, *l]));
                [
                    x4(v >> 12),
                    x4((v >> 8) & 15),
                    x4((v >> 4) & 15),
                    x4(v & 15),
                ]
            }
            (CompType::RGBA6, [a, b, c]) => {
                let v = u32::from_be_bytes([0, *a, *b, *c]);
                [
                    x6(v >> 18),
                    x6((v >> 12) & 63),
                    x6((v >> 6) & 63),
                    x6(v & 63),
                ]
            }
            (CompType::RGBA8, [r, g, b, a]) => [*r, *g, *b, *a],
            _ => return None,
        })
    }

    /// Encodes an RGBA8 colour in this element's colour type (the inverse of
    /// [`decode_color`](Self::decode_color) for colours the type can represent; RGBX8 writes 0xFF as
    /// its unused byte).
    pub fn encode_color(&self, c: [u8; 4], out: &mut Vec<u8>) -> Option<()> {
        let [r, g, b, a] = c.map(u32::from);
        match self.ty {
            CompType::RGB565 => {
                let v = ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3);
                out.extend_from_slice(&(v as u16).to_be_bytes());
            }
            CompType::RGB8 => out.extend_from_slice(&[c[0], c[1], c[2]]),
            CompType::RGBX8 => out.extend_from_slice(&[c[0], c[1], c[2], 0xFF]),
            CompType::RGBA4 => {
                let v = ((r >> 4) << 12) | ((g >> 4) << 8) | ((b >> 4) << 4) | (a >> 4);
                out.extend_from_slice(&(v as u16).to_be_bytes());
            }
            CompType::RGBA6 => {
                let v = ((r >> 2) << 18) | ((g >> 2) << 12) | ((b >> 2) << 6) | (a >> 2);
                out.extend_from_slice(&v.to_be_bytes()[1..]);
            }
            CompType::RGBA8 => out.extend_from_slice(&c),
            _ => return None,
        }
        Some(())
    }
}

/// A decoded element: numbers for positions/normals/texcoords, RGBA8 for colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// Dequantised components.
    Float(Components),
    /// An RGBA8 colour.
    Color([u8; 4]),
}

/// An attribute's array: a format over bytes with a stride (HSD stores the stride; J3D packs
/// elements, so the stride is the element size).
#[derive(Debug, Clone, Copy)]
pub struct VertexArray<'a> {
    format: VertexFormat,
    data: Reader<'a>,
    stride: usize,
    elem: usize,
}

impl<'a> VertexArray<'a> {
    /// A packed array (stride = element size). Fails when the format has no known size.
    pub fn new(format: VertexFormat, data: Reader<'a>) -> Result<Self> {
        let elem = format
            .element_size()
            .ok_or_else(|| unsized_format(&format, &data))?;
        Ok(VertexArray {
            format,
            data,
            stride: elem,
            elem,
        })
    }

    /// An array with an explicit stride (must be ≥ the element size).
    pub fn with_stride(format: VertexFormat, data: Reader<'a>, stride: usize) -> Result<Self> {
        let mut a = Self::new(format, data)?;
        if stride < a.elem {
            return Err(Error::invalid(
                data.abs(0),
                format!("stride {stride} below element size {}", a.elem),
            ));
        }
        a.stride = stride;
        Ok(a)
    }

    /// The storage format.
    pub fn format(&self) -> VertexFormat {
        self.format
    }

    /// Bytes between elements.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Number of whole elements in the data.
    pub fn len(&self) -> usize {
        match self.data.len().checked_sub(self.elem) {
            Some(rest) => rest / self.stride + 1,
            None => 0,
        }
    }

    /// True when no whole element fits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Raw bytes of element `i`.
    pub fn raw(&self, i: usize) -> Result<&'a [u8]> {
        let at = i
            .checked_mul(self.stride)
            .ok_or_else(|| self.data.oob(usize::MAX, self.elem))?;
        self.data.bytes(at, self.elem)
    }

    /// Element `i` decoded (colour or dequantised numbers).
    pub fn get(&self, i: usize) -> Result<Value> {
        let raw = self.raw(i)?;
        let v = if self.format.attr.is_color() {
            self.format.decode_color(raw).map(Value::Color)
        } else {
            self.format.decode(raw).map(Value::Float)
        };
        v.ok_or_else(|| unsized_format(&self.format, &self.data))
    }

    /// Element `i` as numbers (colours become 0..1 floats).
    pub fn get_f32(&self, i: usize) -> Result<Components> {
        Ok(match self.get(i)? {
            Value::Float(c) => c,
            Value::Color(c) => Components::new(&c.map(|x| f32::from(x) / 255.0)),
        })
    }
}

fn unsized_format(f: &VertexFormat, r: &Reader<'_>) -> Error {
    Error::invalid(
        r.abs(0),
        format!(
            "attribute {} has no element size (count {}, type {})",
            f.attr.0, f.count.0, f.ty.0
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fitting`: the most fraction bits the range allows when they keep every value, else
    /// F32 (a value between steps, NaN, or one past the s16 range at frac 0).
    #[test]
    fn fitting_prefers_exact_fixed_point() {
        let f = |v: &[f32], tol: f32| {
            let x = VertexFormat::fitting(Attr::POS, CompCount::POS_XYZ, v, tol);
            (x.ty, x.frac)
        };
        assert_eq!(f(&[1.5, -2.25, 100.0], 0.0), (CompType::S16, 8));
        assert_eq!(f(&[0.25, 0.5], 0.0), (CompType::S16, 15));
        assert_eq!(f(&[0.1], 0.0), (CompType::F32, 0));
        assert_eq!(f(&[0.1], 1e-4), (CompType::S16, 15));
        assert_eq!(f(&[40000.0], 1.0), (CompType::F32, 0));
        assert_eq!(f(&[f32::NAN], 1.0), (CompType::F32, 0));
        assert_eq!(f(&[], 0.0), (CompType::S16, 15));
    }

    /// `grid_direction` over every s8 normal with 6 fraction bits within 2 % of unit length
    /// (HAL's are within 1.2 %): made unit, each comes back as itself, or as a point on the
    /// same ray nearer unit length (only those are ambiguous), where plain rounding misses
    /// about half of them.
    #[test]
    fn grid_direction_finds_stored_normals() {
        let f = fmt(Attr::NRM, 0, CompType::S8, 6);
        let (mut total, mut rounded_off, mut collinear) = (0, 0, 0);
        for x in -64i8..=64 {
            for y in -64i8..=64 {
                for z in -64i8..=64 {
                    let v = [x, y, z].map(f32::from);
                    let len = v.iter().map(|a| a * a).sum::<f32>().sqrt();
                    if (len / 64.0 - 1.0).abs() > 0.02 {
                        continue;
                    }
                    total += 1;
                    let unit = v.map(|a| a / len);
                    let back = f.grid_direction(unit).map(|a| a * 64.0);
                    if unit.map(|a| (a * 64.0).round()) != v {
                        rounded_off += 1;
                    }
                    if back != v {
                        let cross = [
                            v[1] * back[2] - v[2] * back[1],
                            v[2] * back[0] - v[0] * back[2],
                            v[0] * back[1] - v[1] * back[0],
                        ];
                        let back_len = back.iter().map(|a| a * a).sum::<f32>().sqrt();
                        assert!(
                            cross == [0.0; 3] && (back_len - 64.0).abs() < (len - 64.0).abs(),
                            "{v:?} → {back:?}"
                        );
                        collinear += 1;
                    }
                }
            }
        }
        assert!(total > 10_000, "{total}");
        assert!(rounded_off > total / 3, "{rounded_off} of {total}");
        assert!(collinear < total / 100, "{collinear} of {total}");
        // Not a grid format, or no unit vector: unchanged.
        let float = fmt(Attr::NRM, 0, CompType::F32, 0);
        assert_eq!(float.grid_direction([0.6, 0.8, 0.0]), [0.6, 0.8, 0.0]);
        assert_eq!(f.grid_direction([0.0, 2.0, 0.0]), [0.0, 2.0, 0.0]);
    }

    fn fmt(attr: Attr, count: u32, ty: CompType, frac: u8) -> VertexFormat {
        VertexFormat {
            attr,
            count: CompCount(count),
            ty,
            frac,
        }
    }

    /// Golden table: (format, bytes, decoded values).
    fn golden() -> Vec<(VertexFormat, Vec<u8>, Vec<f32>)> {
        vec![
            (
                fmt(Attr::POS, 1, CompType::F32, 0),
                [1.5f32, -2.0, 0.25]
                    .iter()
                    .flat_map(|v| v.to_be_bytes())
                    .collect(),
                vec![1.5, -2.0, 0.25],
            ),
            (
                fmt(Attr::POS, 1, CompType::S16, 8),
                vec![0x01, 0x80, 0xFF, 0x00, 0x00, 0x40],
                vec![1.5, -1.0, 0.25],
            ),
            (
                fmt(Attr::POS, 0, CompType::U16, 0),
                vec![0x12, 0x34, 0x00, 0x01],
                vec![4660.0, 1.0],
            ),
            (
                fmt(Attr::NRM, 0, CompType::S8, 6),
                vec![0x40, 0xC0, 0x00],
                vec![1.0, -1.0, 0.0],
            ),
            (
                fmt(Attr::TEX0, 1, CompType::U8, 1),
                vec![3, 4],
                vec![1.5, 2.0],
            ),
            (
                fmt(Attr::tex(7), 0, CompType::S16, 0),
                vec![0xFF, 0xFE],
                vec![-2.0],
            ),
        ]
    }

    #[test]
    fn golden_decode_encode() {
        for (f, bytes, vals) in golden() {
            assert_eq!(f.element_size(), Some(bytes.len()), "{f:?}");
            assert_eq!(
                f.decode(&bytes).unwrap().as_slice(),
                vals.as_slice(),
                "{f:?}"
            );
            let mut out = Vec::new();
            f.encode(&vals, &mut out).unwrap();
            assert_eq!(out, bytes, "{f:?}");
        }
    }

    #[test]
    fn golden_colors() {
        let table: &[(CompType, &[u8], [u8; 4])] = &[
            (CompType::RGB565, &[0xF8, 0x1F], [255, 0, 255, 255]),
            (CompType::RGB8, &[1, 2, 3], [1, 2, 3, 255]),
            (CompType::RGBX8, &[1, 2, 3, 0xFF], [1, 2, 3, 255]),
            (CompType::RGBA4, &[0xF0, 0x0F], [255, 0, 0, 255]),
            (CompType::RGBA6, &[0xFC, 0x00, 0x3F], [255, 0, 0, 255]),
            (CompType::RGBA8, &[9, 8, 7, 6], [9, 8, 7, 6]),
        ];
        for (ty, bytes, rgba) in table {
            let f = fmt(Attr::CLR0, 1, *ty, 0);
            assert_eq!(f.element_size(), Some(bytes.len()));
            assert_eq!(f.decode_color(bytes), Some(*rgba), "{ty:?}");
            let mut out = Vec::new();
            f.encode_color(*rgba, &mut out).unwrap();
            assert_eq!(out, *bytes, "{ty:?}");
        }
        assert_eq!(CompType(6).color_size(), None);
    }

    #[test]
    fn names_and_slots() {
        assert_eq!(Attr::POS.name(), Some("POS"));
        assert_eq!(Attr(99).name(), None);
        assert_eq!(Attr::tex(3).tex_index(), Some(3));
        assert!(Attr::tex_mtx_idx(7).is_matrix_index());
        assert_eq!(Attr::NULL.slot(), None);
        assert_eq!(AttrType::INDEX16.index_size(), Some(2));
        assert_eq!(CompType::RGBA8.name(), Some("RGBA8"));
    }

    #[test]
    fn arrays_bounds_and_stride() {
        let data = [0u8, 1, 2, 3, 4, 5, 6, 7, 8];
        let f = fmt(Attr::TEX0, 1, CompType::U8, 0);
        let a = VertexArray::new(f, Reader::new(&data)).unwrap();
        assert_eq!(a.len(), 4);
        assert_eq!(a.get_f32(3).unwrap().as_slice(), &[6.0, 7.0]);
        assert!(a.get(4).is_err());
        assert!(a.raw(usize::MAX).is_err());
        let s = VertexArray::with_stride(f, Reader::new(&data), 4).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s.get_f32(1).unwrap().as_slice(), &[4.0, 5.0]);
        assert!(VertexArray::with_stride(f, Reader::new(&data), 1).is_err());
        let c = fmt(Attr::CLR1, 1, CompType::RGBA8, 0);
        let ca = VertexArray::new(c, Reader::new(&data)).unwrap();
        assert_eq!(ca.get(1).unwrap(), Value::Color([4, 5, 6, 7]));
        assert!(VertexArray::new(fmt(Attr::POS, 7, CompType::U8, 0), Reader::new(&data)).is_err());
    }
}
