//! DRW1: the matrix table shapes address: each entry is a joint (rigid) or an envelope (skinned).

use gcio::{Context, Limits, Reader, Result, Writer};

use crate::chunk::{header, here, off, u16_of, write_chunk};
use crate::{Pad, raw};

/// What a DRW1 entry points at (open newtype: 0 joint, 1 envelope).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DrwKind(pub u8);

impl DrwKind {
    /// JNT1 index ("single matrix").
    pub const JOINT: DrwKind = DrwKind(0);
    /// EVP1 index ("multi matrix").
    pub const ENVELOPE: DrwKind = DrwKind(1);
}

/// One DRW1 entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DrwEntry {
    /// Joint or envelope.
    pub kind: DrwKind,
    /// Index into JNT1 or EVP1.
    pub id: u16,
}

/// Zero-copy DRW1.
#[derive(Debug, Clone, Copy)]
pub struct Drw1View<'a> {
    r: Reader<'a>,
    h: &'a raw::Drw1Header,
    pub(crate) limits: Limits,
}

impl<'a> Drw1View<'a> {
    /// Reads the chunk `r` with the default [`Limits`].
    pub fn parse(r: Reader<'a>) -> Result<Self> {
        Self::parse_with(r, &Limits::default())
    }

    /// Reads the chunk `r`; what is read from it later (models, tables) stays within
    /// `limits`.
    pub fn parse_with(r: Reader<'a>, limits: &Limits) -> Result<Self> {
        let h = header(&r, b"DRW1").context("DRW1")?;
        Ok(Drw1View {
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
    pub fn header(&self) -> &'a raw::Drw1Header {
        self.h
    }

    /// Entry count.
    pub fn len(&self) -> usize {
        usize::from(self.h.count.get())
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `i`.
    pub fn get(&self, i: usize) -> Result<DrwEntry> {
        Ok(DrwEntry {
            kind: DrwKind(self.r.u8(off(self.h.kinds) + i)?),
            id: self.r.u16(off(self.h.ids) + 2 * i)?,
        })
        .with_context(|| format!("DRW1 > entry {i}"))
    }
}

/// Owned DRW1 (entries kept as found, including Nintendo's duplicated envelope entries).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drw1 {
    /// The u16 at 0x0A.
    pub marker: u16,
    /// Entries.
    pub entries: Vec<DrwEntry>,
    /// Padding style.
    pub pad: Pad,
    /// Alignment before each table beyond its natural one (1 = natural only). Detected on parsing.
    pub align: u8,
}

impl Drw1 {
    /// The table Nintendo's tools write: one entry per rigid joint, then every envelope — twice
    /// (J3D-037, J3D-039).
    pub fn nintendo(joints: &[u16], envelopes: u16) -> Self {
        let j = joints.iter().map(|&id| DrwEntry {
            kind: DrwKind::JOINT,
            id,
        });
        let e = (0..envelopes).chain(0..envelopes).map(|id| DrwEntry {
            kind: DrwKind::ENVELOPE,
            id,
        });
        Drw1 {
            marker: 0xFFFF,
            entries: j.chain(e).collect(),
            pad: Pad::Nintendo,
            align: 1,
        }
    }

    /// Copies a view.
    pub fn from_view(v: &Drw1View<'_>) -> Result<Self> {
        let n = v.limits.check_elements(v.len() as u64, v.r.abs(8))?;
        Ok(Drw1 {
            marker: v.h.pad.get(),
            entries: (0..n).map(|i| v.get(i)).collect::<Result<_>>()?,
            pad: Pad::default(),
            align: 1,
        })
    }

    /// Writes the chunk: kinds, then ids 2-aligned.
    pub fn write(&self) -> Result<Vec<u8>> {
        write_chunk(*b"DRW1", self.pad, |w: &mut Writer| {
            w.u16(u16_of(self.entries.len(), "DRW1 count")?)
                .u16(self.marker);
            let (k, i) = (w.reserve_u32(), w.reserve_u32());
            self.pad.align(w, usize::from(self.align));
            here(w, k)?;
            for e in &self.entries {
                w.u8(e.kind.0);
            }
            self.pad.align(w, usize::from(self.align).max(2));
            here(w, i)?;
            for e in &self.entries {
                w.u16(e.id);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_drw1() {
        let m = Drw1::nintendo(&[0, 2], 1);
        let b = m.write().unwrap();
        let mut expect =
            b"DRW1\0\0\0\x20\0\x04\xFF\xFF\0\0\0\x14\0\0\0\x18\0\0\x01\x01\0\0\0\x02\0\0\0\0"
                .to_vec();
        assert_eq!(b, expect);
        assert_eq!(
            Drw1::from_view(&Drw1View::parse(Reader::new(&b)).unwrap()).unwrap(),
            Drw1 {
                pad: Pad::Nintendo,
                ..m
            }
        );
        expect.truncate(0x1C);
        assert!(
            Drw1View::parse(Reader::new(&expect))
                .unwrap()
                .get(3)
                .is_err()
        );
    }
}
