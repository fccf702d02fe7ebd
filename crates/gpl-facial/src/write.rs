//! Serialization with the packing rule: header, descriptors, object table, then per object its
//! records, its run lists (attribute order) and its pose arrays (attribute-major, then pose
//! order), zero-padded to 32. An unchanged vanilla section comes out byte-identical.

use gcio::{Error, Result, Writer};

use crate::model::FacialSection;
use crate::view::{HEADER_SIZE, record_size};

/// Alignment of the section's end.
pub const SECTION_ALIGN: usize = 32;

fn u16_of(n: usize, what: &str) -> Result<u16> {
    u16::try_from(n).map_err(|_| Error::message(format!("{what} {n} exceeds u16")))
}

fn u32_of(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::message(format!("{what} {n:#x} exceeds u32")))
}

impl FacialSection {
    /// Unpadded packed length: where the last pose array ends.
    pub fn packed_len(&self) -> usize {
        let mut off = HEADER_SIZE + 16 * self.descriptors.len() + 12 * self.objects.len();
        for o in &self.objects {
            off += o.attributes.len() * record_size(o.pose_count);
            for a in &o.attributes {
                off += 4 * a.runs.len() + a.poses.iter().map(Vec::len).sum::<usize>();
            }
        }
        off
    }

    /// Writes the section. Fails when a count does not fit its field or when an attribute's pose
    /// arrays disagree with its object's pose count or its entry count.
    pub fn write(&self) -> Result<Vec<u8>> {
        let table = HEADER_SIZE + 16 * self.descriptors.len();
        let mut w = Writer::with_capacity(self.packed_len() + SECTION_ALIGN);
        w.u16(self.max_pose_count)
            .u16(u16_of(self.objects.len(), "object count")?)
            .u16(u16_of(self.descriptors.len(), "type count")?)
            .u16(self.pad)
            .u32(u32_of(table, "object table pointer")?)
            .u32(HEADER_SIZE as u32)
            .u32(self.reserved);
        for d in &self.descriptors {
            w.u16(d.target).u8(d.kind.0).u8(d.format).bytes(&d.reserved);
        }
        // Object table: data pointers follow from the sizes of everything before them.
        let mut off = table + 12 * self.objects.len();
        for (i, o) in self.objects.iter().enumerate() {
            let rs = record_size(o.pose_count);
            w.u16(o.pose_count)
                .u16(u16_of(o.attributes.len(), "attribute count")?)
                .u32(u32_of(rs, "record size")?)
                .u32(u32_of(off, "object data pointer")?);
            off += o.attributes.len() * rs;
            for (j, a) in o.attributes.iter().enumerate() {
                let want = (a.entries as usize).checked_mul(a.format.stride());
                if a.poses.len() != usize::from(o.pose_count)
                    || a.poses.iter().any(|p| Some(p.len()) != want)
                {
                    return Err(Error::invalid(
                        0,
                        format!(
                            "object {i} attribute {j}: pose arrays do not match pose count {} × {} entries",
                            o.pose_count, a.entries
                        ),
                    ));
                }
                off += 4 * a.runs.len() + a.poses.iter().map(Vec::len).sum::<usize>();
            }
        }
        for o in &self.objects {
            let mut runs = w.position() + o.attributes.len() * record_size(o.pose_count);
            let mut pose = runs + o.attributes.iter().map(|a| 4 * a.runs.len()).sum::<usize>();
            for a in &o.attributes {
                w.u32(a.entries)
                    .bytes(&a.format.to_bytes())
                    .u32(u32_of(runs, "run-list pointer")?);
                runs += 4 * a.runs.len();
                for p in &a.poses {
                    w.u32(u32_of(pose, "pose pointer")?);
                    pose += p.len();
                }
            }
            for a in &o.attributes {
                for r in &a.runs {
                    w.u16(r.first).u16(r.len);
                }
            }
            for a in &o.attributes {
                for p in &a.poses {
                    w.bytes(p);
                }
            }
        }
        w.align(SECTION_ALIGN, 0);
        Ok(w.into_vec())
    }
}
