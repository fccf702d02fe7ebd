//! The owned model: header values, the three pools and the octree as found (layout facts kept).

use crate::geom::{Vec3, add, cross, dot, scale};

/// Header values that are not offsets (the writer derives the four section offsets).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    /// How deep each prism reaches behind its face (along the face normal), in world units.
    pub prism_thickness: f32,
    /// The octree area's smallest corner.
    pub area_min: Vec3,
    /// Per-axis masks: a coordinate (relative to `area_min`, as an integer) with any of these bits
    /// set is outside the area. `!(extent - 1)` for a power-of-two extent.
    pub area_masks: [u32; 3],
    /// log2 of a root cell's edge length.
    pub block_width_shift: u32,
    /// log2 of the root grid's cell count along x.
    pub area_x_blocks_shift: u32,
    /// log2 of the root grid's cell count along x times y.
    pub area_xy_blocks_shift: u32,
    /// Mario Kart Wii's 0x3C-byte header adds a sphere radius; Galaxy's 0x38-byte header has none.
    pub sphere_radius: Option<f32>,
}

impl Header {
    /// Header size in bytes (0x38, or 0x3C with a sphere radius).
    pub fn size(&self) -> usize {
        if self.sphere_radius.is_some() {
            0x3C
        } else {
            0x38
        }
    }

    /// Root grid cell counts per axis, from the masks and the block shift (`None` when a count
    /// would not fit in 32 bits).
    pub fn root_counts(&self) -> Option<[u32; 3]> {
        let mut out = [0; 3];
        for (o, m) in out.iter_mut().zip(self.area_masks) {
            *o = (!m).checked_shr(self.block_width_shift)?.checked_add(1)?;
        }
        Some(out)
    }

    /// Number of root cells (`None` on overflow).
    pub fn root_len(&self) -> Option<usize> {
        let [x, y, z] = self.root_counts()?;
        (x as usize)
            .checked_mul(y as usize)?
            .checked_mul(z as usize)
    }
}

/// One collision triangle, stored the game's way: a corner, a face normal, three edge normals and
/// the distance from the corner to the opposite edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prism {
    /// Distance from the first corner to the third edge, along the third edge normal.
    pub height: f32,
    /// Index of the first corner in [`Kcl::positions`].
    pub pos: u16,
    /// Index of the face normal in [`Kcl::normals`].
    pub face_normal: u16,
    /// Indices of the three outward edge normals in [`Kcl::normals`].
    pub edge_normals: [u16; 3],
    /// Collision attribute: the row of the `.pa` table beside the file.
    pub attribute: u16,
}

/// An octree node: a branch (eight children) or a leaf (a prism list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// Eight children: index into [`Octree::blocks`].
    Branch(u32),
    /// A leaf: index into [`Octree::lists`] of the list's first entry (the list runs to the next 0).
    /// Lists are shared between leaves, and an empty leaf may point at another list's terminator.
    Leaf(u32),
}

/// The spatial octree as laid out: the root grid, the branch blocks in file order (breadth first
/// in every file seen) and the stream of 0-terminated, 1-based prism index lists.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Octree {
    /// One node per root cell, x fastest, then y, then z.
    pub root: Vec<Node>,
    /// Branch blocks of eight children (index bit 0 = x, bit 1 = y, bit 2 = z upper half).
    pub blocks: Vec<[Node; 8]>,
    /// The list stream: 1-based prism indices, each list ended by 0.
    pub lists: Vec<u16>,
}

/// A whole KCL file.
#[derive(Debug, Clone, PartialEq)]
pub struct Kcl {
    /// Header values.
    pub header: Header,
    /// Position pool.
    pub positions: Vec<Vec3>,
    /// Normal pool (face and edge normals, shared).
    pub normals: Vec<Vec3>,
    /// Prisms; leaf lists refer to them 1-based.
    pub prisms: Vec<Prism>,
    /// The octree.
    pub octree: Octree,
    /// A trailing odd byte after the list stream (kept verbatim; `None` in every file seen).
    pub tail: Option<u8>,
}

impl Kcl {
    /// Parses `data` into the owned model with the default [`gcio::Limits`].
    pub fn parse(data: &[u8]) -> gcio::Result<Kcl> {
        Kcl::parse_with(data, &gcio::Limits::default())
    }

    /// Parses `data` into the owned model; `limits` bound the pools, the octree lists and the blocks walked.
    pub fn parse_with(data: &[u8], limits: &gcio::Limits) -> gcio::Result<Kcl> {
        Kcl::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view (walks the octree under `limits`).
    pub fn from_view(v: &crate::View<'_>, limits: &gcio::Limits) -> gcio::Result<Kcl> {
        v.to_model(limits)
    }

    /// Parts kept as bytes, named like every model's `raw_parts()` in the workspace: only an odd
    /// trailing byte, never seen in a real file.
    pub fn raw_parts(&self) -> Vec<String> {
        self.tail
            .map(|b| format!("odd byte {b:#04x} after the list stream"))
            .into_iter()
            .collect()
    }

    /// The triangle of prism `i` (0-based), rebuilt from its corner, normals and height the way the
    /// game does; `None` when an index is out of range.
    pub fn triangle(&self, i: usize) -> Option<[Vec3; 3]> {
        let p = self.prisms.get(i)?;
        let a = *self.positions.get(usize::from(p.pos))?;
        let n = *self.normals.get(usize::from(p.face_normal))?;
        let [e1, e2, e3] = p
            .edge_normals
            .map(|e| self.normals.get(usize::from(e)).copied());
        let (e1, e2, e3) = (e1?, e2?, e3?);
        let ca = cross(e1, n);
        let cb = cross(e2, n);
        let b = add(a, scale(cb, p.height / dot(cb, e3)));
        let c = add(a, scale(ca, p.height / dot(ca, e3)));
        Some([a, b, c])
    }

    /// Every prism's triangle (prisms with an out-of-range index are skipped).
    pub fn triangles(&self) -> Vec<([Vec3; 3], u16)> {
        (0..self.prisms.len())
            .filter_map(|i| Some((self.triangle(i)?, self.prisms.get(i)?.attribute)))
            .collect()
    }

    /// The prism list (0-based indices) a leaf points at; stops at the terminator or the stream end.
    pub fn leaf_list(&self, start: u32) -> Vec<u16> {
        self.octree
            .lists
            .iter()
            .skip(start as usize)
            .take_while(|&&v| v != 0)
            .map(|v| v - 1)
            .collect()
    }
}
