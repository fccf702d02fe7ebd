//! JNT1: joints (SRT transforms and bounds), the remap table and the optional name table.

use gcio::{Context, Limits, Reader, Result, Writer};

use crate::chunk::{header, here, off, u16_of, write_chunk};
use crate::nametab::NameTable;
use crate::{Pad, raw};

/// An s16 angle (0x7FFF ≙ 180°, J3D-045) in radians.
pub fn angle_to_radians(a: i16) -> f32 {
    f32::from(a) * std::f32::consts::PI / 32767.0
}

/// Radians to the s16 angle encoding (rounded; wraps to −180°..180°).
pub fn radians_to_angle(r: f32) -> i16 {
    let turns = r / (2.0 * std::f32::consts::PI);
    let wrapped = turns - turns.round();
    (wrapped * 2.0 * 32767.0).round() as i16
}

/// One joint entry (0x40 bytes; C-04 layout).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Joint {
    /// Matrix type / flags (u16 at 0x00).
    pub matrix_type: u16,
    /// Parent scale inheritance: 0 follow, 1 ignore (J3D-044).
    pub scale_compensate: u8,
    /// Byte at 0x03 (0xFF).
    pub pad: u8,
    /// Scale.
    pub scale: [f32; 3],
    /// Rotation in the s16 encoding.
    pub rotation: [i16; 3],
    /// u16 after the rotation (0xFFFF).
    pub pad2: u16,
    /// Translation.
    pub translation: [f32; 3],
    /// Bounding-sphere radius.
    pub radius: f32,
    /// AABB min XYZ, max XYZ.
    pub bbox: [f32; 6],
}

impl Joint {
    /// A joint at `translation` with unit scale, no rotation and Nintendo's pad values.
    pub fn at(translation: [f32; 3]) -> Self {
        Joint {
            matrix_type: 0,
            scale_compensate: 0,
            pad: 0xFF,
            scale: [1.0; 3],
            rotation: [0; 3],
            pad2: 0xFFFF,
            translation,
            radius: 0.0,
            bbox: [0.0; 6],
        }
    }

    fn from_raw(j: &raw::JointRaw) -> Self {
        Joint {
            matrix_type: j.matrix_type.get(),
            scale_compensate: j.scale_compensate,
            pad: j.pad,
            scale: j.scale.map(|v| v.get()),
            rotation: j.rotation.map(|v| v.get()),
            pad2: j.pad2.get(),
            translation: j.translation.map(|v| v.get()),
            radius: j.radius.get(),
            bbox: j.bbox.map(|v| v.get()),
        }
    }

    fn write(&self, w: &mut Writer) {
        w.u16(self.matrix_type)
            .u8(self.scale_compensate)
            .u8(self.pad);
        self.scale.iter().for_each(|v| {
            w.f32(*v);
        });
        self.rotation.iter().for_each(|v| {
            w.i16(*v);
        });
        w.u16(self.pad2);
        for v in self
            .translation
            .iter()
            .chain([&self.radius])
            .chain(&self.bbox)
        {
            w.f32(*v);
        }
    }

    /// Local matrix (row-major 3×4): scale, then rotation X, Y, Z, then translation (J3D order).
    pub fn local_matrix(&self) -> [[f32; 4]; 3] {
        gx::mtx::srt(
            self.rotation.map(angle_to_radians),
            self.scale,
            self.translation,
        )
    }
}

/// Zero-copy JNT1.
#[derive(Debug, Clone, Copy)]
pub struct Jnt1View<'a> {
    r: Reader<'a>,
    h: &'a raw::Jnt1Header,
    pub(crate) limits: Limits,
}

impl<'a> Jnt1View<'a> {
    /// Reads the chunk `r` with the default [`Limits`].
    pub fn parse(r: Reader<'a>) -> Result<Self> {
        Self::parse_with(r, &Limits::default())
    }

    /// Reads the chunk `r`; what is read from it later (models, tables) stays within
    /// `limits`.
    pub fn parse_with(r: Reader<'a>, limits: &Limits) -> Result<Self> {
        let h = header(&r, b"JNT1").context("JNT1")?;
        Ok(Jnt1View {
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
    pub fn header(&self) -> &'a raw::Jnt1Header {
        self.h
    }

    /// Joint count.
    pub fn len(&self) -> usize {
        usize::from(self.h.count.get())
    }

    /// True without joints.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Remap entry `i` (index of joint `i`'s data entry).
    pub fn remap(&self, i: usize) -> Result<u16> {
        self.r
            .u16(off(self.h.remap) + 2 * i)
            .with_context(|| format!("JNT1 > remap {i}"))
    }

    /// Number of stored data entries: up to the next table, else the joint count.
    pub fn data_len(&self) -> usize {
        let (d, r) = (off(self.h.data), off(self.h.remap));
        if r > d { (r - d) / 0x40 } else { self.len() }
    }

    /// Data entry `i` (not remapped).
    pub fn data(&self, i: usize) -> Result<Joint> {
        let at = off(self.h.data)
            .checked_add(i.saturating_mul(0x40))
            .ok_or_else(|| self.r.oob(usize::MAX, 0x40))?;
        Ok(Joint::from_raw(
            self.r
                .get::<raw::JointRaw>(at)
                .with_context(|| format!("JNT1 > joint {i}"))?,
        ))
    }

    /// Joint `i` through the remap table.
    pub fn joint(&self, i: usize) -> Result<Joint> {
        self.data(usize::from(self.remap(i)?))
    }

    /// The name table, when present.
    pub fn names(&self) -> Option<Result<NameTable>> {
        match off(self.h.names) {
            0 => None,
            o => Some(NameTable::parse_with(self.r, o, &self.limits).context("JNT1")),
        }
    }
}

/// Owned JNT1.
#[derive(Debug, Clone, PartialEq)]
pub struct Jnt1 {
    /// The u16 at 0x0A.
    pub marker: u16,
    /// Data entries (reached through `remap`).
    pub joints: Vec<Joint>,
    /// Remap table, one per joint.
    pub remap: Vec<u16>,
    /// Optional names.
    pub names: Option<NameTable>,
    /// Padding style.
    pub pad: Pad,
    /// Alignment before each table beyond its natural one (1 = natural only). Detected on parsing.
    pub align: u8,
}

impl Jnt1 {
    /// Joints with an identity remap and names.
    pub fn new(joints: Vec<Joint>, names: Option<NameTable>) -> Self {
        let remap = (0..joints.len() as u16).collect();
        Jnt1 {
            marker: 0xFFFF,
            joints,
            remap,
            names,
            pad: Pad::Nintendo,
            align: 1,
        }
    }

    /// Copies a view.
    pub fn from_view(v: &Jnt1View<'_>) -> Result<Self> {
        let n = v
            .limits
            .check_elements(v.data_len() as u64, v.r.abs(0x10))?;
        let count = v.len();
        Ok(Jnt1 {
            marker: v.h.pad.get(),
            joints: (0..n).map(|i| v.data(i)).collect::<Result<_>>()?,
            remap: (0..count).map(|i| v.remap(i)).collect::<Result<_>>()?,
            names: v.names().transpose()?,
            pad: Pad::default(),
            align: 1,
        })
    }

    /// Joint `i` through the remap table.
    pub fn joint(&self, i: usize) -> Option<&Joint> {
        self.joints.get(usize::from(*self.remap.get(i)?))
    }

    /// Writes the chunk: joints, remap, then the name table 4-aligned.
    pub fn write(&self) -> Result<Vec<u8>> {
        write_chunk(*b"JNT1", self.pad, |w: &mut Writer| {
            w.u16(u16_of(self.remap.len(), "joint count")?)
                .u16(self.marker);
            let (d, r, n) = (w.reserve_u32(), w.reserve_u32(), w.reserve_u32());
            self.pad.align(w, usize::from(self.align).max(4));
            here(w, d)?;
            for j in &self.joints {
                j.write(w);
            }
            self.pad.align(w, usize::from(self.align).max(2));
            here(w, r)?;
            for v in &self.remap {
                w.u16(*v);
            }
            if let Some(names) = &self.names {
                self.pad.align(w, usize::from(self.align).max(4));
                here(w, n)?;
                names.write(w)?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_jnt1() {
        let mut j = Joint::at([1.0, 2.0, 3.0]);
        j.rotation = [0x4000, 0, -0x7FFF];
        let m = Jnt1::new(vec![j], Some(NameTable::new(["root"])));
        let b = m.write().unwrap();
        assert_eq!(
            &b[0x08..0x18],
            &[
                0, 1, 0xFF, 0xFF, 0, 0, 0, 0x18, 0, 0, 0, 0x58, 0, 0, 0, 0x5C
            ]
        );
        assert_eq!(&b[0x18..0x1C], &[0, 0, 0, 0xFF]);
        assert_eq!(&b[0x28..0x30], &[0x40, 0, 0, 0, 0x80, 0x01, 0xFF, 0xFF]);
        assert_eq!(b.len(), 0x80);
        let v = Jnt1View::parse(Reader::new(&b)).unwrap();
        assert_eq!(v.joint(0).unwrap(), j);
        assert_eq!(Jnt1::from_view(&v).unwrap(), m);
        assert_eq!(radians_to_angle(std::f32::consts::PI / 2.0), 0x4000);
        assert!((angle_to_radians(-0x7FFF) + std::f32::consts::PI).abs() < 1e-6);
        let mtx = j.local_matrix();
        assert_eq!(mtx[0][3], 1.0);
    }
}
