//! VTX1: attribute formats and vertex data buffers.

use gcio::{Context, Error, Limits, Reader, Result, Writer};
use gx::vtx::{Attr, CompCount, CompType, Value, VertexArray, VertexFormat};

use crate::chunk::{header, here, off, write_chunk};
use crate::{Pad, raw};

/// Buffer slot order of the 13 VTX1 offsets.
pub const BUFFER_ATTRS: [Attr; 13] = [
    Attr::POS,
    Attr::NRM,
    Attr::NBT,
    Attr::CLR0,
    Attr::CLR1,
    Attr(13),
    Attr(14),
    Attr(15),
    Attr(16),
    Attr(17),
    Attr(18),
    Attr(19),
    Attr(20),
];

/// Slot (0..13) of an attribute's buffer offset.
pub fn buffer_slot(attr: Attr) -> Option<usize> {
    BUFFER_ATTRS.iter().position(|a| *a == attr)
}

/// One stored attribute format, with its three pad bytes as found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AttrFormat {
    /// Attribute, count, type, shift.
    pub format: VertexFormat,
    /// The bytes after the shift (0xFF × 3).
    pub pad: [u8; 3],
}

impl AttrFormat {
    /// A format with 0xFF padding.
    pub fn new(attr: Attr, count: CompCount, ty: CompType, frac: u8) -> Self {
        AttrFormat {
            format: VertexFormat {
                attr,
                count,
                ty,
                frac,
            },
            pad: [0xFF; 3],
        }
    }

    /// The list terminator as Nintendo's tools write it (attribute 0xFF, count 1, type 0).
    pub fn terminator() -> Self {
        Self::new(Attr::NULL, CompCount(1), CompType(0), 0)
    }
}

/// Zero-copy VTX1.
#[derive(Debug, Clone, Copy)]
pub struct Vtx1View<'a> {
    r: Reader<'a>,
    h: &'a raw::Vtx1Header,
    pub(crate) limits: Limits,
}

impl<'a> Vtx1View<'a> {
    /// Reads the chunk `r` with the default [`Limits`].
    pub fn parse(r: Reader<'a>) -> Result<Self> {
        Self::parse_with(r, &Limits::default())
    }

    /// Reads the chunk `r`; what is read from it later (models, tables) stays within
    /// `limits`.
    pub fn parse_with(r: Reader<'a>, limits: &Limits) -> Result<Self> {
        let h = header(&r, b"VTX1").context("VTX1")?;
        Ok(Vtx1View {
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
    pub fn header(&self) -> &'a raw::Vtx1Header {
        self.h
    }

    /// Format entries up to and including the 0xFF terminator (or the chunk's end).
    pub fn formats(&self) -> impl Iterator<Item = Result<AttrFormat>> + 'a {
        let r = self.r;
        let mut pos = Some(off(self.h.formats));
        std::iter::from_fn(move || {
            let p = pos?;
            if p >= r.len() || p == 0 {
                pos = None;
                return None;
            }
            let f = r
                .get::<raw::VtxFormatRaw>(p)
                .context("VTX1 > formats")
                .map(|f| AttrFormat {
                    format: VertexFormat {
                        attr: Attr(f.attr.get()),
                        count: CompCount(f.count.get()),
                        ty: CompType(f.ty.get()),
                        frac: f.frac,
                    },
                    pad: f.pad,
                });
            pos = match &f {
                Ok(f) if f.format.attr != Attr::NULL => Some(p + 0x10),
                _ => None,
            };
            Some(f)
        })
    }

    /// The format of `attr`, if listed (the first entry wins).
    pub fn format(&self, attr: Attr) -> Option<VertexFormat> {
        self.formats()
            .map_while(Result::ok)
            .map(|f| f.format)
            .find(|f| f.attr == attr)
    }

    /// Stored offset of the buffer in slot `slot` (0 = unused).
    pub fn buffer_offset(&self, slot: usize) -> usize {
        self.h.buffers.get(slot).map_or(0, |v| off(*v))
    }

    /// The bytes of buffer `slot`: from its offset to the next larger buffer offset or the chunk's
    /// end (lengths are not stored; this includes trailing padding).
    pub fn buffer_bytes(&self, slot: usize) -> Option<Result<Reader<'a>>> {
        let start = self.buffer_offset(slot);
        if start == 0 {
            return None;
        }
        let end = self
            .h
            .buffers
            .iter()
            .map(|v| off(*v))
            .filter(|&o| o > start)
            .min()
            .unwrap_or(self.r.len())
            .min(self.r.len());
        Some(
            self.r
                .sub(start, end.saturating_sub(start))
                .with_context(|| format!("VTX1 > buffer {slot}")),
        )
    }

    /// Entries of `attr`'s buffer: its bytes up to the next buffer, minus trailing padding any
    /// padding style would have written (lengths are not stored). 0 when absent.
    pub fn count(&self, attr: Attr) -> usize {
        let (Some(slot), Some(size)) = (
            buffer_slot(attr),
            self.format(attr).and_then(|f| f.element_size()),
        ) else {
            return 0;
        };
        let Some(Ok(bytes)) = self.buffer_bytes(slot) else {
            return 0;
        };
        let start = self.buffer_offset(slot);
        Pad::ALL
            .iter()
            .map(|p| trim_padding(bytes.data(), start, size, *p, 32).len() / size.max(1))
            .min()
            .unwrap_or(0)
    }

    /// Whole elements of `attr`'s buffer up to the next buffer, padding included: what an index
    /// can reach in the game, which does not know where the data ends. 0 when absent.
    pub fn capacity(&self, attr: Attr) -> usize {
        let (Some(slot), Some(size)) = (
            buffer_slot(attr),
            self.format(attr).and_then(|f| f.element_size()),
        ) else {
            return 0;
        };
        match self.buffer_bytes(slot) {
            Some(Ok(bytes)) => bytes.len() / size.max(1),
            _ => 0,
        }
    }

    /// The array of `attr` (its format over its buffer, padding included; see
    /// [`count`](Self::count)); `None` when either is absent.
    pub fn array(&self, attr: Attr) -> Option<Result<VertexArray<'a>>> {
        let slot = buffer_slot(attr)?;
        let fmt = self.format(attr)?;
        let bytes = self.buffer_bytes(slot)?;
        Some(
            bytes
                .and_then(|b| VertexArray::new(fmt, b))
                .with_context(|| format!("VTX1 > attribute {}", attr.0)),
        )
    }
}

/// One attribute's stored data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    /// Slot (0..13, see [`BUFFER_ATTRS`]).
    pub slot: usize,
    /// Element bytes (without the padding to 32 that follows).
    pub data: Vec<u8>,
}

/// Owned VTX1: formats as listed (terminator included) and buffers in slot order, each padded to 32.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vtx1 {
    /// Format list, normally ending with [`AttrFormat::terminator`].
    pub formats: Vec<AttrFormat>,
    /// Buffers in ascending slot order.
    pub buffers: Vec<Buffer>,
    /// Padding style.
    pub pad: Pad,
    /// Alignment of every buffer (at least 4; 32 in Nintendo-style files). Detected on parsing.
    pub align: u8,
}

impl Vtx1 {
    /// Copies a view; each buffer drops the trailing bytes `pad` would write back.
    pub fn from_view(v: &Vtx1View<'_>, pad: Pad, align: u8) -> Result<Self> {
        let formats = v.formats().collect::<Result<Vec<_>>>()?;
        let mut buffers = Vec::new();
        for slot in 0..13 {
            let Some(bytes) = v.buffer_bytes(slot) else {
                continue;
            };
            let bytes = bytes?;
            let stride = BUFFER_ATTRS
                .get(slot)
                .and_then(|a| v.format(*a))
                .and_then(|f| f.element_size())
                .unwrap_or(1);
            let data = trim_padding(
                bytes.data(),
                v.buffer_offset(slot),
                stride,
                pad,
                Self::buffer_align(align),
            );
            v.limits
                .check_alloc(data.len() as u64, 1, v.r.abs(v.buffer_offset(slot)))?;
            buffers.push(Buffer {
                slot,
                data: data.to_vec(),
            });
        }
        Ok(Vtx1 {
            formats,
            buffers,
            pad,
            align,
        })
    }

    fn buffer_align(align: u8) -> usize {
        usize::from(align).max(4)
    }

    /// The format of `attr`.
    pub fn format(&self, attr: Attr) -> Option<VertexFormat> {
        self.formats
            .iter()
            .map(|f| f.format)
            .find(|f| f.attr == attr)
    }

    /// The buffer of `attr`.
    pub fn buffer(&self, attr: Attr) -> Option<&Buffer> {
        let slot = buffer_slot(attr)?;
        self.buffers.iter().find(|b| b.slot == slot)
    }

    /// The array of `attr`.
    pub fn array(&self, attr: Attr) -> Option<Result<VertexArray<'_>>> {
        let f = self.format(attr)?;
        let b = self.buffer(attr)?;
        Some(VertexArray::new(f, Reader::new(&b.data)))
    }

    /// Number of elements of `attr` (0 when absent).
    pub fn len(&self, attr: Attr) -> usize {
        self.array(attr).and_then(Result::ok).map_or(0, |a| a.len())
    }

    /// Sets `attr`'s format and encodes `values` as its buffer (replacing any previous one). The
    /// terminator stays last.
    pub fn set(&mut self, format: VertexFormat, values: &[Value]) -> Result<()> {
        let slot = buffer_slot(format.attr).ok_or_else(|| {
            Error::message(format!("attribute {} has no VTX1 buffer", format.attr.0))
        })?;
        let mut data = Vec::new();
        for v in values {
            let ok = match v {
                Value::Float(c) => format.encode(c.as_slice(), &mut data),
                Value::Color(c) => format.encode_color(*c, &mut data),
            };
            ok.ok_or_else(|| {
                Error::invalid(
                    0,
                    format!(
                        "cannot encode attribute {} as type {}",
                        format.attr.0, format.ty.0
                    ),
                )
            })?;
        }
        match self
            .formats
            .iter_mut()
            .find(|f| f.format.attr == format.attr)
        {
            Some(f) => f.format = format,
            None => {
                let at = self
                    .formats
                    .iter()
                    .position(|f| f.format.attr == Attr::NULL)
                    .unwrap_or(self.formats.len());
                self.formats.insert(
                    at,
                    AttrFormat {
                        format,
                        pad: [0xFF; 3],
                    },
                );
            }
        }
        self.buffers.retain(|b| b.slot != slot);
        let at = self
            .buffers
            .iter()
            .position(|b| b.slot > slot)
            .unwrap_or(self.buffers.len());
        self.buffers.insert(at, Buffer { slot, data });
        Ok(())
    }

    /// Writes the chunk.
    pub fn write(&self) -> Result<Vec<u8>> {
        write_chunk(*b"VTX1", self.pad, |w: &mut Writer| {
            let formats = w.reserve_u32();
            let slots: Vec<_> = (0..13).map(|_| w.reserve_u32()).collect();
            here(w, formats)?;
            for f in &self.formats {
                let v = f.format;
                w.u32(v.attr.0)
                    .u32(v.count.0)
                    .u32(v.ty.0)
                    .u8(v.frac)
                    .bytes(&f.pad);
            }
            for b in &self.buffers {
                self.pad.align(w, Self::buffer_align(self.align));
                if let Some(slot) = slots.get(b.slot) {
                    here(w, *slot)?;
                }
                w.bytes(&b.data);
            }
            Ok(())
        })
    }
}

/// The data part of a buffer read up to the next offset: drops the longest tail (< `align` bytes,
/// ending aligned, after a whole number of elements) that equals what `pad` writes. Real data
/// rarely equals the padding sentence; for zero padding, trailing zero elements count as padding
/// (the bytes written back are the same either way).
pub(crate) fn trim_padding(
    bytes: &[u8],
    start: usize,
    stride: usize,
    pad: Pad,
    align: usize,
) -> &[u8] {
    let (len, stride, align) = (bytes.len(), stride.max(1), align.max(1));
    if !(start + len).is_multiple_of(align) {
        return bytes;
    }
    let first = len.saturating_sub(align - 1).div_ceil(stride) * stride;
    (first..=len)
        .step_by(stride)
        .find(|&k| pad.matches(bytes.get(k..).unwrap_or_default()))
        .and_then(|k| bytes.get(..k))
        .unwrap_or(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gx::vtx::Components;

    #[test]
    fn golden_vtx1() {
        let mut m = Vtx1 {
            formats: vec![AttrFormat::terminator()],
            buffers: vec![],
            pad: Pad::Nintendo,
            align: 32,
        };
        let pos = VertexFormat {
            attr: Attr::POS,
            count: CompCount::POS_XYZ,
            ty: CompType::S16,
            frac: 4,
        };
        m.set(pos, &[Value::Float(Components::new(&[1.0, 2.0, -0.5]))])
            .unwrap();
        let bytes = m.write().unwrap();
        assert_eq!(&bytes[..4], b"VTX1");
        assert_eq!(bytes.len(), 0x80);
        // formats at 0x40, POS buffer at 0x60, CLR and the rest unused.
        assert_eq!(&bytes[8..16], &[0, 0, 0, 0x40, 0, 0, 0, 0x60]);
        assert_eq!(
            &bytes[0x40..0x50],
            &[0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 3, 4, 0xFF, 0xFF, 0xFF]
        );
        assert_eq!(&bytes[0x60..0x66], &[0, 0x10, 0, 0x20, 0xFF, 0xF8]);
        assert_eq!(&bytes[0x66..0x80], &crate::NINTENDO_PAD[..26]);
        let v = Vtx1View::parse(Reader::new(&bytes)).unwrap();
        let a = v.array(Attr::POS).unwrap().unwrap();
        assert_eq!(a.get_f32(0).unwrap().as_slice(), &[1.0, 2.0, -0.5]);
        assert_eq!(Vtx1::from_view(&v, Pad::Nintendo, 32).unwrap(), m);
        assert_eq!(m.len(Attr::POS), 1);
    }
}
