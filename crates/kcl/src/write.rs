//! The writer: header with derived offsets, the pools, then the octree (root grid, blocks in model
//! order, list stream). Byte-identical to the input for every file [`crate::Kcl::parse`] accepts.

use gcio::{Error, ErrorKind, Result, Writer};

use crate::model::{Kcl, Node};
use crate::view::{LEAF_FLAG, PRISM_SIZE, VEC_SIZE};

fn too_big(what: &'static str) -> Error {
    Error::without_offset(ErrorKind::Overflow(what))
}

impl Kcl {
    /// Serialises the model.
    pub fn write(&self) -> Result<Vec<u8>> {
        let h = &self.header;
        let pos = h.size();
        let nrm = pos + self.positions.len() * VEC_SIZE;
        let prism = nrm + self.normals.len() * VEC_SIZE;
        let octree = prism + self.prisms.len() * PRISM_SIZE;
        let root_end = self.octree.root.len() * 4;
        let blocks_end = root_end + self.octree.blocks.len() * 32;
        let size =
            octree + blocks_end + self.octree.lists.len() * 2 + usize::from(self.tail.is_some());
        let u32_of = |v: usize, what: &'static str| u32::try_from(v).map_err(|_| too_big(what));
        let mut w = Writer::with_capacity(size);
        w.u32(u32_of(pos, "position offset")?)
            .u32(u32_of(nrm, "normal offset")?)
            .u32(u32_of(prism.wrapping_sub(0x10), "prism offset")?)
            .u32(u32_of(octree, "octree offset")?)
            .f32(h.prism_thickness);
        for v in h.area_min {
            w.f32(v);
        }
        for m in h.area_masks {
            w.u32(m);
        }
        w.u32(h.block_width_shift)
            .u32(h.area_x_blocks_shift)
            .u32(h.area_xy_blocks_shift);
        if let Some(r) = h.sphere_radius {
            w.f32(r);
        }
        for v in self.positions.iter().chain(&self.normals) {
            for c in v {
                w.f32(*c);
            }
        }
        for p in &self.prisms {
            w.f32(p.height).u16(p.pos).u16(p.face_normal);
            for e in p.edge_normals {
                w.u16(e);
            }
            w.u16(p.attribute);
        }
        let word = |n: &Node, node_base: usize| -> Result<u32> {
            match *n {
                Node::Branch(b) => {
                    let t = root_end + b as usize * 32;
                    if b as usize >= self.octree.blocks.len() || t <= node_base {
                        return Err(Error::without_offset(ErrorKind::Invalid(format!(
                            "octree: branch to block {b} (of {}) does not point forward",
                            self.octree.blocks.len()
                        ))));
                    }
                    u32_of(t - node_base, "branch offset")
                }
                Node::Leaf(i) => {
                    let t = (blocks_end + i as usize * 2)
                        .checked_sub(2 + node_base)
                        .ok_or(too_big("leaf offset"))?;
                    let v = u32_of(t, "leaf offset")?;
                    if v & LEAF_FLAG != 0 {
                        return Err(too_big("leaf offset"));
                    }
                    Ok(v | LEAF_FLAG)
                }
            }
        };
        for n in &self.octree.root {
            w.u32(word(n, 0)?);
        }
        for (b, block) in self.octree.blocks.iter().enumerate() {
            for n in block {
                w.u32(word(n, root_end + b * 32)?);
            }
        }
        for v in &self.octree.lists {
            w.u16(*v);
        }
        if let Some(t) = self.tail {
            w.u8(t);
        }
        Ok(w.into_vec())
    }
}
