//! The Colosseum/XD `bound_box` root: per-frame AABBs grouped by animation set. Set 0 is flat;
//! every later set is prefixed by its own u32 frame count (HSD-026), so the tail is not a flat
//! array of 24-byte boxes.

use gcio::{Context, Error, Result, Writer};

use crate::field::Struct;
use crate::types::BoundBoxHeader;
use crate::view::Archive;

/// One axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Aabb {
    /// Minimum corner.
    pub min: [f32; 3],
    /// Maximum corner.
    pub max: [f32; 3],
}

/// The decoded `bound_box` root.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoundBox {
    /// Header padding bytes 2..4, kept as stored.
    pub pad: u16,
    /// One list of per-frame boxes per animation set.
    pub sets: Vec<Vec<Aabb>>,
}

impl BoundBox {
    /// Reads the root at data offset `off`.
    pub fn read(a: &Archive<'_>, off: u32) -> Result<BoundBox> {
        let d = a.data();
        let h: BoundBoxHeader = a.read(off).context("bound_box")?;
        let limits = a.limits();
        let mut sets = Vec::new();
        let mut at = off as usize + <BoundBoxHeader as Struct<u32>>::SIZE;
        let mut count = h.first_frame_count;
        for s in 0..h.anim_set_count {
            if s > 0 {
                count = d.u32(at).with_context(|| format!("bound_box set {s}"))?;
                at += 4;
            }
            let n = limits.check_elements(u64::from(count), d.abs(at))?;
            // Refuse counts the data cannot hold before allocating.
            d.bytes(
                at,
                n.checked_mul(24)
                    .ok_or_else(|| Error::invalid(d.abs(at), "box count overflow"))?,
            )?;
            let mut boxes = Vec::with_capacity(n);
            for _ in 0..n {
                let v: [f32; 6] = crate::field::Field::get(&d, at)?;
                boxes.push(Aabb {
                    min: [v[0], v[1], v[2]],
                    max: [v[3], v[4], v[5]],
                });
                at += 24;
            }
            sets.push(boxes);
        }
        Ok(BoundBox { pad: h.pad, sets })
    }

    /// Bytes the root covers.
    pub fn size(&self) -> usize {
        8 + self.sets.iter().map(|s| s.len() * 24).sum::<usize>()
            + 4 * self.sets.len().saturating_sub(1)
    }

    /// Serialises the root (header, set 0 flat, later sets count-prefixed).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.size());
        w.u16(self.sets.len() as u16)
            .u16(self.pad)
            .u32(self.sets.first().map_or(0, |s| s.len() as u32));
        for (i, set) in self.sets.iter().enumerate() {
            if i > 0 {
                w.u32(set.len() as u32);
            }
            for b in set {
                for v in b.min.iter().chain(&b.max) {
                    w.f32(*v);
                }
            }
        }
        w.into_vec()
    }
}
