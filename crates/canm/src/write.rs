//! The writer: header, track table, gap, value block, trailer; offsets and sizes derived.

use gcio::{Error, ErrorKind, Result};

use crate::model::{Canm, Kind, MAGIC};

impl Canm {
    /// Writes the animation. The value offset and the value block's size are derived from the
    /// model; a parsed file comes back byte for byte.
    pub fn write(&self) -> Result<Vec<u8>> {
        let overflow = || Error::without_offset(ErrorKind::Overflow("CANM size"));
        let value_offset = u32::try_from(self.value_offset()).map_err(|_| overflow())?;
        let value_bytes = u32::try_from(self.values.len().checked_mul(4).ok_or_else(overflow)?)
            .map_err(|_| overflow())?;
        let mut out = Vec::with_capacity(0x84 + 4 * self.values.len() + self.trailer.len());
        out.extend(MAGIC);
        out.extend(self.kind.tag());
        for w in self.header.iter().chain([&self.frames, &value_offset]) {
            out.extend(w.to_be_bytes());
        }
        for t in &self.tracks {
            out.extend(t.count.to_be_bytes());
            out.extend(t.offset.to_be_bytes());
            if self.kind == Kind::Ckan {
                out.extend(t.layout.to_be_bytes());
            }
        }
        out.extend(&self.gap);
        out.extend(value_bytes.to_be_bytes());
        for v in &self.values {
            out.extend(v.to_bits().to_be_bytes());
        }
        out.extend(&self.trailer);
        Ok(out)
    }
}
