//! The writer: header (count derived), entries, trailer.

use gcio::{Error, ErrorKind, Result};

use crate::model::{Bas, HEADER_SIZE, SOUND_SIZE};

impl Bas {
    /// Writes the table. The count is derived from [`Bas::sounds`]; a parsed file comes back
    /// byte for byte.
    pub fn write(&self) -> Result<Vec<u8>> {
        let count = u16::try_from(self.sounds.len())
            .map_err(|_| Error::without_offset(ErrorKind::Overflow("BAS sound count (u16)")))?;
        let mut out =
            Vec::with_capacity(HEADER_SIZE + SOUND_SIZE * self.sounds.len() + self.trailer.len());
        out.extend(count.to_be_bytes());
        out.extend(self.pad.to_be_bytes());
        out.extend(self.control.to_be_bytes());
        for s in &self.sounds {
            out.extend(s.to_bytes());
        }
        out.extend(&self.trailer);
        Ok(out)
    }
}
