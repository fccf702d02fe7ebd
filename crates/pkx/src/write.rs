//! The writer: derives sizes, counts and region offsets from the model and keeps everything else.

use gcio::{Error, ErrorKind, Result, Writer};

use crate::model::{AnimEntry, Header, PartAnim, Pkx, Shiny};

fn word(len: usize, what: &'static str) -> Result<u32> {
    u32::try_from(len).map_err(|_| Error::without_offset(ErrorKind::Overflow(what)))
}

/// Writes `stored` when it is exactly the padding to 32 the layout needs here, else zeros.
fn pad(w: &mut Writer, stored: &[u8]) {
    let need = gcio::padding_for(w.position(), 32);
    if stored.len() == need {
        w.bytes(stored);
    } else {
        w.fill(0, need);
    }
}

impl AnimEntry {
    /// Appends the 0xD0-byte entry.
    pub fn write_to(&self, w: &mut Writer) {
        w.u32(self.anim_type.0)
            .u32(self.sub_anim_count)
            .u32(self.damage_flags);
        w.u32(self.reserved_0c);
        for t in self.timing.raw() {
            w.u32(t);
        }
        w.bytes(&self.reserved_20);
        for b in self.body_map {
            w.i32(b);
        }
        for s in &self.sub_anims {
            w.u32(s.motion_type).u32(s.anim_index);
        }
        w.u32(self.terminator);
    }
}

impl PartAnim {
    /// Appends the 19-byte XD PartAnimData block.
    pub fn write_to(&self, w: &mut Writer) {
        w.u8(self.has_data)
            .u8(self.sub_param)
            .bytes(&self.parts)
            .bytes(&self.selectors);
        w.u8(self.anim_index);
    }
}

impl Shiny {
    /// Appends the 20-byte Colosseum trailer (routing, ARGB brightness).
    pub fn write_colosseum(&self, w: &mut Writer) {
        for r in self.route {
            w.u32(r);
        }
        w.u32(self.argb());
    }
}

impl Pkx {
    /// Serialises the file. Parsed files come back byte for byte.
    pub fn write(&self) -> Result<Vec<u8>> {
        let dat_size = word(self.dat.len(), "DAT size")?;
        let gpt1_len = word(self.gpt1.len(), "GPT1 length")?;
        let count = word(self.entries.len(), "anim entry count")?;
        let mut w = Writer::with_capacity(
            self.dat_offset()
                + self.dat.len()
                + self.entries.len() * 0xD0
                + self.trailer.len()
                + 0x80,
        );
        match &self.header {
            Header::Xd(h) => {
                w.u32(dat_size)
                    .u32(h.reserved_04)
                    .u32(gpt1_len)
                    .u32(h.reserved_0c)
                    .u32(count);
                w.i32(h.particle_orientation)
                    .u16(h.species_id)
                    .u16(h.type_id);
                for p in &h.part_anims {
                    p.write_to(&mut w);
                }
                w.u8(h.flags.bits())
                    .u8(h.unknown_69)
                    .u16(h.distortion_param);
                w.u8(h.distortion_type).u8(h.reserved_6d).u16(h.head_bone);
                for r in h.shiny.route {
                    w.u32(r);
                }
                w.bytes(&h.shiny.brightness);
                for e in &self.entries {
                    e.write_to(&mut w);
                }
                pad(&mut w, &self.pads.before_gpt1);
                w.bytes(&self.gpt1);
                pad(&mut w, &self.pads.after_gpt1);
                w.bytes(&self.dat).bytes(&self.trailer);
            }
            Header::Colosseum(h) => {
                w.u32(dat_size)
                    .u32(gpt1_len)
                    .u32(count)
                    .i32(h.particle_orientation);
                w.u32(h.unknown_10).i32(h.unknown_14);
                for r in h.part_anim_refs {
                    w.i32(r);
                }
                w.bytes(&h.reserved).bytes(&self.dat);
                pad(&mut w, &self.pads.before_gpt1);
                w.bytes(&self.gpt1);
                pad(&mut w, &self.pads.after_gpt1);
                for e in &self.entries {
                    e.write_to(&mut w);
                }
                w.bytes(&self.trailer);
                h.shiny.write_colosseum(&mut w);
            }
        }
        Ok(w.into_vec())
    }
}
