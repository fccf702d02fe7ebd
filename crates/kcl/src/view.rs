//! The zero-copy view: header values and section spans over the file's bytes, pool entries decoded
//! on demand; [`crate::Kcl::from_view`] walks the octree into the owned model.

use std::collections::VecDeque;

use gcio::{Error, ErrorKind, Limits, Reader, Result};

use crate::geom::Vec3;
use crate::model::{Header, Kcl, Node, Octree, Prism};

/// Bytes per position or normal.
pub const VEC_SIZE: usize = 12;
/// Bytes per prism.
pub const PRISM_SIZE: usize = 16;
/// Set on a leaf node word.
pub const LEAF_FLAG: u32 = 0x8000_0000;

/// A parsed-in-place KCL file.
#[derive(Debug, Clone)]
pub struct View<'a> {
    data: &'a [u8],
    header: Header,
    positions: (usize, usize),
    normals: (usize, usize),
    prisms: (usize, usize),
    octree: usize,
}

fn bad(offset: usize, what: &str, msg: String) -> Error {
    Error::invalid(offset as u64, msg).context(what.to_owned())
}

/// Whether `data` looks like a KCL file (header offsets ordered, sized by whole entries, inside the
/// file, and the octree walks); used by `gcf identify`. KCL has no magic number.
pub fn sniff(data: &[u8]) -> bool {
    crate::parse(data).and_then(|v| v.octree()).is_ok()
}

impl<'a> View<'a> {
    /// Reads the header and checks the section spans (borrowed: the limits bound
    /// [`crate::Kcl::from_view`]).
    pub(crate) fn parse_with(data: &'a [u8], _limits: &Limits) -> Result<View<'a>> {
        let r = Reader::new(data);
        let pos = r.u32(0)? as usize;
        let sphere_radius = match pos {
            0x38 => None,
            0x3C => Some(r.f32(0x38)?),
            _ => {
                return Err(bad(
                    0,
                    "header",
                    format!("position offset {pos:#x} is neither 0x38 nor 0x3c"),
                ));
            }
        };
        let nrm = r.u32(4)? as usize;
        let prism_base = r.u32(8)? as usize;
        let prism = prism_base
            .checked_add(0x10)
            .ok_or(Error::new(ErrorKind::Overflow("prism offset"), 8))?;
        let octree = r.u32(12)? as usize;
        let header = Header {
            prism_thickness: r.f32(0x10)?,
            area_min: [r.f32(0x14)?, r.f32(0x18)?, r.f32(0x1C)?],
            area_masks: [r.u32(0x20)?, r.u32(0x24)?, r.u32(0x28)?],
            block_width_shift: r.u32(0x2C)?,
            area_x_blocks_shift: r.u32(0x30)?,
            area_xy_blocks_shift: r.u32(0x34)?,
            sphere_radius,
        };
        let span = |start: usize, end: usize, size: usize, what: &str, field: usize| {
            if start > end || end > data.len() || !(end - start).is_multiple_of(size) {
                Err(bad(
                    field,
                    "header",
                    format!(
                        "{what} span {start:#x}..{end:#x} is not whole {size}-byte entries inside the file (size {:#x})",
                        data.len()
                    ),
                ))
            } else {
                Ok((start, (end - start) / size))
            }
        };
        Ok(View {
            data,
            positions: span(pos, nrm, VEC_SIZE, "position", 0)?,
            normals: span(nrm, prism, VEC_SIZE, "normal", 4)?,
            prisms: span(prism, octree, PRISM_SIZE, "prism", 8)?,
            octree,
            header,
        })
    }

    /// Header values.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Number of positions.
    pub fn position_count(&self) -> usize {
        self.positions.1
    }

    /// Number of normals.
    pub fn normal_count(&self) -> usize {
        self.normals.1
    }

    /// Number of prisms.
    pub fn prism_count(&self) -> usize {
        self.prisms.1
    }

    /// File offset of the octree.
    pub fn octree_offset(&self) -> usize {
        self.octree
    }

    fn vec3(&self, at: usize) -> Result<Vec3> {
        let r = Reader::new(self.data);
        Ok([r.f32(at)?, r.f32(at + 4)?, r.f32(at + 8)?])
    }

    /// Position `i`.
    pub fn position(&self, i: usize) -> Result<Vec3> {
        self.vec3(self.positions.0 + i * VEC_SIZE)
    }

    /// Normal `i`.
    pub fn normal(&self, i: usize) -> Result<Vec3> {
        self.vec3(self.normals.0 + i * VEC_SIZE)
    }

    /// Prism `i` (0-based; leaf lists say `i + 1`).
    pub fn prism(&self, i: usize) -> Result<Prism> {
        let r = Reader::new(self.data);
        let at = self.prisms.0 + i * PRISM_SIZE;
        Ok(Prism {
            height: r.f32(at)?,
            pos: r.u16(at + 4)?,
            face_normal: r.u16(at + 6)?,
            edge_normals: [r.u16(at + 8)?, r.u16(at + 10)?, r.u16(at + 12)?],
            attribute: r.u16(at + 14)?,
        })
    }

    /// Walks the octree: root grid, branch blocks (must be contiguous after the root), list stream.
    pub fn octree(&self) -> Result<(Octree, Option<u8>)> {
        self.octree_with(&Limits::default())
    }

    /// [`View::octree`] under `limits`: the root grid and the list stream are element counts,
    /// the branch blocks the walk's nodes.
    pub fn octree_with(&self, limits: &Limits) -> Result<(Octree, Option<u8>)> {
        let r = Reader::new(self.data);
        let base = self.octree;
        let avail = self.data.len() - base;
        let root_len = self
            .header
            .root_len()
            .filter(|&n| n.checked_mul(4).is_some_and(|b| b <= avail))
            .ok_or_else(|| {
                bad(
                    0x20,
                    "header",
                    "root grid (masks >> block shift) does not fit in the file".to_owned(),
                )
            })?;
        limits.check_elements(root_len as u64, 0x20)?;
        let root_end = root_len * 4;
        // Breadth-first walk of branch words; block index = (target - root_end) / 32.
        let mut raw_blocks: Vec<Option<[u32; 8]>> = Vec::new();
        let mut queue: VecDeque<usize> = VecDeque::new();
        let word = |rel: usize| r.u32(base + rel);
        let branch_target = |node_base: usize, v: u32, at: usize| -> Result<usize> {
            let t = node_base + v as usize;
            if v == 0 || t < root_end || !(t - root_end).is_multiple_of(32) || t + 32 > avail {
                return Err(bad(
                    base + at,
                    "octree",
                    format!("branch word {v:#x} does not point at a block of eight children"),
                ));
            }
            Ok((t - root_end) / 32)
        };
        let mut root_words = Vec::with_capacity(root_len);
        for i in 0..root_len {
            let v = word(i * 4)?;
            root_words.push(v);
            if v & LEAF_FLAG == 0 {
                queue.push_back(branch_target(0, v, i * 4)?);
            }
        }
        while let Some(b) = queue.pop_front() {
            if raw_blocks.len() <= b {
                limits.check_nodes(b as u64 + 1, (base + root_end + b * 32) as u64)?;
                raw_blocks.resize(b + 1, None);
            }
            if raw_blocks.get(b).is_some_and(Option::is_some) {
                continue;
            }
            let bbase = root_end + b * 32;
            let mut words = [0u32; 8];
            for (k, w) in words.iter_mut().enumerate() {
                *w = word(bbase + k * 4)?;
                if *w & LEAF_FLAG == 0 {
                    queue.push_back(branch_target(bbase, *w, bbase + k * 4)?);
                }
            }
            if let Some(slot) = raw_blocks.get_mut(b) {
                *slot = Some(words);
            }
        }
        let blocks_end = root_end + raw_blocks.len() * 32;
        let stream = self.data.get(base + blocks_end..).unwrap_or_default();
        limits.check_elements(stream.len() as u64 / 2, (base + blocks_end) as u64)?;
        let lists: Vec<u16> = stream
            .chunks_exact(2)
            .map(|c| {
                u16::from_be_bytes([
                    c.first().copied().unwrap_or(0),
                    c.get(1).copied().unwrap_or(0),
                ])
            })
            .collect();
        let tail = (stream.len() % 2 == 1).then(|| stream.last().copied().unwrap_or(0));
        let last_zero = lists.iter().rposition(|&v| v == 0);
        let node = |node_base: usize, v: u32, at: usize| -> Result<Node> {
            if v & LEAF_FLAG == 0 {
                return Ok(Node::Branch(
                    ((node_base + v as usize - root_end) / 32) as u32,
                ));
            }
            let t = node_base + (v & !LEAF_FLAG) as usize + 2;
            let ok = t >= blocks_end && (t - blocks_end).is_multiple_of(2);
            let i = t.wrapping_sub(blocks_end) / 2;
            if !ok || last_zero.is_none_or(|z| i > z) {
                return Err(bad(
                    base + at,
                    "octree",
                    format!("leaf word {v:#x} does not point at a terminated prism list"),
                ));
            }
            Ok(Node::Leaf(i as u32))
        };
        let mut octree = Octree {
            root: Vec::with_capacity(root_len),
            blocks: Vec::with_capacity(raw_blocks.len()),
            lists: Vec::new(),
        };
        for (i, v) in root_words.into_iter().enumerate() {
            octree.root.push(node(0, v, i * 4)?);
        }
        for (b, words) in raw_blocks.into_iter().enumerate() {
            let bbase = root_end + b * 32;
            let words = words.ok_or_else(|| {
                bad(
                    base + bbase,
                    "octree",
                    format!("block {b} is never referenced (blocks are not contiguous)"),
                )
            })?;
            let mut nodes = [Node::Leaf(0); 8];
            for (k, (n, w)) in nodes.iter_mut().zip(words).enumerate() {
                *n = node(bbase, w, bbase + k * 4)?;
            }
            octree.blocks.push(nodes);
        }
        octree.lists = lists;
        Ok((octree, tail))
    }

    /// The owned model ([`Kcl::from_view`]); `limits` bound the pools, the octree lists and the blocks walked.
    pub(crate) fn to_model(&self, limits: &Limits) -> Result<Kcl> {
        for n in [
            self.position_count(),
            self.normal_count(),
            self.prism_count(),
        ] {
            limits.check_elements(n as u64, 0)?;
        }
        let positions = (0..self.position_count())
            .map(|i| self.position(i))
            .collect::<Result<_>>()?;
        let normals = (0..self.normal_count())
            .map(|i| self.normal(i))
            .collect::<Result<_>>()?;
        let prisms = (0..self.prism_count())
            .map(|i| self.prism(i))
            .collect::<Result<_>>()?;
        let (octree, tail) = self.octree_with(limits)?;
        Ok(Kcl {
            header: self.header,
            positions,
            normals,
            prisms,
            octree,
            tail,
        })
    }
}
