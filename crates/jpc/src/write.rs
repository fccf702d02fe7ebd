//! The writer: header (counts, texture offset), resources (block counts and sizes), gap,
//! textures (sizes), trailer.

use gcio::{Error, ErrorKind, Result};

use crate::model::{Block, Jpc, Part, TEX1_NAME_SIZE, VERSION, schema};

fn overflow(what: &'static str) -> Error {
    Error::without_offset(ErrorKind::Overflow(what))
}

impl Block {
    /// Writes the block: tag, derived size, head, parts. A head whose types differ from the
    /// tag's schema is refused (an empty head is written as such: a block too short for it).
    pub fn write_into(&self, out: &mut Vec<u8>) -> Result<()> {
        let s = schema(&self.tag);
        if !self.fields.is_empty()
            && (self.fields.len() != s.len()
                || self.fields.iter().zip(s).any(|(v, (_, t))| v.ty() != *t))
        {
            return Err(Error::message(format!(
                "{} block: the head does not follow the tag's schema",
                self.tag_str()
            )));
        }
        out.extend(self.tag);
        let size = u32::try_from(self.size()).map_err(|_| overflow("JPC block size"))?;
        out.extend(size.to_be_bytes());
        for v in &self.fields {
            v.write(out);
        }
        for p in &self.parts {
            match p {
                Part::F32s(v) => v.iter().for_each(|f| out.extend(f.bits().to_be_bytes())),
                Part::U8s(v) | Part::Pad(v) | Part::Bytes(v) => out.extend(v),
                Part::U16s(v) => v.iter().for_each(|x| out.extend(x.to_be_bytes())),
                Part::Colors(v) => v.iter().for_each(|k| {
                    out.extend(k.frame.to_be_bytes());
                    out.extend(k.rgba.to_be_bytes());
                }),
            }
        }
        Ok(())
    }
}

impl Jpc {
    /// Writes the container. Counts, sizes and the texture table's offset are derived from the
    /// model; a parsed file comes back byte for byte.
    pub fn write(&self) -> Result<Vec<u8>> {
        let resources =
            u16::try_from(self.resources.len()).map_err(|_| overflow("JPC resource count"))?;
        let textures =
            u16::try_from(self.textures.len()).map_err(|_| overflow("JPC texture count"))?;
        let mut body = Vec::new();
        for r in &self.resources {
            let blocks = u16::try_from(r.blocks.len()).map_err(|_| overflow("JPC block count"))?;
            body.extend(r.id.to_be_bytes());
            body.extend(blocks.to_be_bytes());
            body.extend([r.field_count, r.key_count, r.texture_count, r.pad]);
            for b in &r.blocks {
                b.write_into(&mut body)?;
            }
        }
        body.extend(&self.gap);
        let texture_offset =
            u32::try_from(0x10 + body.len()).map_err(|_| overflow("JPC texture offset"))?;
        let mut out = Vec::with_capacity(0x10 + body.len());
        out.extend(VERSION);
        out.extend(resources.to_be_bytes());
        out.extend(textures.to_be_bytes());
        out.extend(texture_offset.to_be_bytes());
        out.extend(body);
        for (i, t) in self.textures.iter().enumerate() {
            let image = t.bti.write()?;
            let size = u32::try_from(0x20 + image.len()).map_err(|_| overflow("TEX1 size"))?;
            if t.name.len() + t.name_rest.len() != TEX1_NAME_SIZE {
                return Err(Error::message(format!(
                    "texture {i}: name and name_rest take {} bytes, the field {TEX1_NAME_SIZE}",
                    t.name.len() + t.name_rest.len()
                )));
            }
            out.extend(b"TEX1");
            out.extend(size.to_be_bytes());
            out.extend(t.unknown_08.to_be_bytes());
            out.extend(&t.name);
            out.extend(&t.name_rest);
            out.extend(image);
        }
        out.extend(&self.trailer);
        Ok(out)
    }
}
