//! INF1: loader flags, informative counts and the scene hierarchy.

use gcio::{Context, Error, Limits, Reader, Result, Writer};

use crate::chunk::{header, off, write_chunk};
use crate::{Pad, raw};

bitflags::bitflags! {
    /// J3DLoader flags (u16). Bit names as in C-01 (bit values, not the
    /// enumerated low nibble some tools read); unknown bits are kept.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct LoaderFlags: u16 {
        /// Autodesk Softimage matrix calculation.
        const SOFTIMAGE = 0x0001;
        /// Autodesk Maya matrix calculation.
        const MAYA = 0x0002;
        /// Basic matrix calculation.
        const BASIC = 0x0004;
        /// UseImmidiateMtx.
        const USE_IMMEDIATE_MTX = 0x0010;
        /// UsePostTexMtx.
        const USE_POST_TEX_MTX = 0x0020;
        /// NoMatrixTransform.
        const NO_MATRIX_TRANSFORM = 0x0100;
        /// DoBdlMaterialCalc.
        const DO_BDL_MATERIAL_CALC = 0x2000;
        /// NoBdlMaterialPatch: skips `J3DModelLoader::readPatchedMaterial`.
        const NO_BDL_MATERIAL_PATCH = 0x4000;
    }
}

/// Hierarchy node type (open newtype).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NodeKind(pub u16);

impl NodeKind {
    /// End of the list.
    pub const END: NodeKind = NodeKind(0x00);
    /// Children of the previous node follow.
    pub const OPEN: NodeKind = NodeKind(0x01);
    /// Back to the parent.
    pub const CLOSE: NodeKind = NodeKind(0x02);
    /// Joint (JNT1 index).
    pub const JOINT: NodeKind = NodeKind(0x10);
    /// Material (MAT3 index).
    pub const MATERIAL: NodeKind = NodeKind(0x11);
    /// Shape (SHP1 index).
    pub const SHAPE: NodeKind = NodeKind(0x12);
}

/// One flat hierarchy entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Node {
    /// Node type.
    pub kind: NodeKind,
    /// Index into JNT1/MAT3/SHP1 (0 for structure nodes).
    pub index: u16,
}

/// A node of the hierarchy as a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SceneNode {
    /// Node type (joint, material or shape).
    pub kind: NodeKind,
    /// Index into the chunk the type names.
    pub index: u16,
    /// Nodes opened under this one.
    pub children: Vec<SceneNode>,
}

/// Zero-copy INF1.
#[derive(Debug, Clone, Copy)]
pub struct Inf1View<'a> {
    r: Reader<'a>,
    h: &'a raw::Inf1Header,
    pub(crate) limits: Limits,
}

impl<'a> Inf1View<'a> {
    /// Reads the chunk `r` (which starts at its magic) with the default [`Limits`].
    pub fn parse(r: Reader<'a>) -> Result<Self> {
        Self::parse_with(r, &Limits::default())
    }

    /// Reads the chunk `r` (which starts at its magic); what is read from it later (models, tables) stays within
    /// `limits`.
    pub fn parse_with(r: Reader<'a>, limits: &Limits) -> Result<Self> {
        let h = header(&r, b"INF1").context("INF1")?;
        Ok(Inf1View {
            r,
            h,
            limits: *limits,
        })
    }

    /// The header.
    pub fn header(&self) -> &'a raw::Inf1Header {
        self.h
    }

    /// The chunk's bytes.
    pub fn reader(&self) -> Reader<'a> {
        self.r
    }

    /// Loader flags (unknown bits kept).
    pub fn flags(&self) -> LoaderFlags {
        LoaderFlags::from_bits_retain(self.h.flags.get())
    }

    /// Offset of the node list in the chunk.
    pub fn hierarchy_offset(&self) -> usize {
        off(self.h.hierarchy)
    }

    /// The flat node list up to and including the END node (or the chunk's end).
    pub fn nodes(&self) -> impl Iterator<Item = Result<Node>> + 'a {
        let r = self.r;
        let start = self.hierarchy_offset();
        let mut pos = Some(start);
        std::iter::from_fn(move || {
            let p = pos?;
            if p >= r.len() {
                pos = None;
                return None;
            }
            let n = (|| {
                Ok(Node {
                    kind: NodeKind(r.u16(p)?),
                    index: r.u16(p + 2)?,
                })
            })()
            .context("INF1 > hierarchy");
            pos = match &n {
                Ok(n) if n.kind != NodeKind::END => Some(p + 4),
                _ => None,
            };
            Some(n)
        })
    }
}

/// Owned INF1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inf1 {
    /// Loader flags.
    pub flags: LoaderFlags,
    /// The u16 at 0x0A (0xFFFF).
    pub marker: u16,
    /// SHP1 matrix-group-data count (informative; J3D-010).
    pub matrix_group_count: u32,
    /// VTX1 position count (informative; J3D-009).
    pub vertex_count: u32,
    /// Flat node list, normally ending with an END node.
    pub nodes: Vec<Node>,
    /// Padding style.
    pub pad: Pad,
}

impl Inf1 {
    /// Copies a view.
    pub fn from_view(v: &Inf1View<'_>) -> Result<Self> {
        let nodes = v.nodes().collect::<Result<Vec<_>>>()?;
        Ok(Inf1 {
            flags: v.flags(),
            marker: v.h.pad.get(),
            matrix_group_count: v.h.matrix_group_count.get(),
            vertex_count: v.h.vertex_count.get(),
            nodes,
            pad: Pad::default(),
        })
    }

    /// The hierarchy as a tree (roots first), nesting bounded by the default [`Limits`]. Fails
    /// on unbalanced open/close nodes.
    pub fn tree(&self) -> Result<Vec<SceneNode>> {
        self.tree_with(&Limits::default())
    }

    /// [`Inf1::tree`] with the caller's `limits` bounding the nesting depth.
    pub fn tree_with(&self, limits: &Limits) -> Result<Vec<SceneNode>> {
        tree_of(&self.nodes, limits)
    }

    /// Replaces the flat list by `tree`, with OPEN/CLOSE around children and a final END.
    pub fn set_tree(&mut self, tree: &[SceneNode]) {
        fn emit(out: &mut Vec<Node>, nodes: &[SceneNode]) {
            for n in nodes {
                out.push(Node {
                    kind: n.kind,
                    index: n.index,
                });
                if !n.children.is_empty() {
                    out.push(Node {
                        kind: NodeKind::OPEN,
                        index: 0,
                    });
                    emit(out, &n.children);
                    out.push(Node {
                        kind: NodeKind::CLOSE,
                        index: 0,
                    });
                }
            }
        }
        self.nodes.clear();
        emit(&mut self.nodes, tree);
        self.nodes.push(Node::default());
    }

    /// Writes the chunk.
    pub fn write(&self) -> Result<Vec<u8>> {
        write_chunk(*b"INF1", self.pad, |w: &mut Writer| {
            w.u16(self.flags.bits())
                .u16(self.marker)
                .u32(self.matrix_group_count)
                .u32(self.vertex_count)
                .u32(0x18);
            for n in &self.nodes {
                w.u16(n.kind.0).u16(n.index);
            }
            Ok(())
        })
    }
}

/// Builds the tree of a flat list; depth is bounded by `limits`.
pub fn tree_of(nodes: &[Node], limits: &Limits) -> Result<Vec<SceneNode>> {
    // Stack of open child lists; the last node of each list is the parent of an OPEN.
    let mut stack: Vec<Vec<SceneNode>> = vec![Vec::new()];
    for (i, n) in nodes.iter().enumerate() {
        let bad = |m: &str| Error::invalid(i as u64 * 4, format!("node {i}: {m}")).context("INF1");
        match n.kind {
            NodeKind::END => break,
            NodeKind::OPEN => {
                if stack.last().is_none_or(Vec::is_empty) {
                    return Err(bad("open without a previous node"));
                }
                limits.check_depth(stack.len() as u32, i as u64)?;
                stack.push(Vec::new());
            }
            NodeKind::CLOSE => {
                let children = stack.pop().ok_or_else(|| bad("close past the root"))?;
                let parent = stack
                    .last_mut()
                    .and_then(|l| l.last_mut())
                    .ok_or_else(|| bad("close past the root"))?;
                parent.children.extend(children);
            }
            kind => {
                if let Some(l) = stack.last_mut() {
                    l.push(SceneNode {
                        kind,
                        index: n.index,
                        children: Vec::new(),
                    });
                }
            }
        }
    }
    if stack.len() != 1 {
        return Err(
            Error::message(format!("{} open node(s) never closed", stack.len() - 1))
                .context("INF1"),
        );
    }
    Ok(stack.pop().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(kind: u16, index: u16) -> Node {
        Node {
            kind: NodeKind(kind),
            index,
        }
    }

    #[test]
    fn golden_inf1() {
        let m = Inf1 {
            flags: LoaderFlags::from_bits_retain(0x8002),
            marker: 0xFFFF,
            matrix_group_count: 2,
            vertex_count: 8,
            nodes: vec![
                n(0x10, 0),
                n(1, 0),
                n(0x11, 0),
                n(1, 0),
                n(0x12, 0),
                n(2, 0),
                n(2, 0),
                n(0, 0),
            ],
            pad: Pad::Nintendo,
        };
        let bytes = m.write().unwrap();
        let mut expect = b"INF1\0\0\0\x40\x80\x02\xFF\xFF\0\0\0\x02\0\0\0\x08\0\0\0\x18".to_vec();
        for (k, i) in [
            (0x10u16, 0u16),
            (1, 0),
            (0x11, 0),
            (1, 0),
            (0x12, 0),
            (2, 0),
            (2, 0),
            (0, 0),
        ] {
            expect.extend_from_slice(&k.to_be_bytes());
            expect.extend_from_slice(&i.to_be_bytes());
        }
        expect.extend_from_slice(&crate::NINTENDO_PAD[..8]);
        assert_eq!(bytes, expect);
        let v = Inf1View::parse(Reader::new(&bytes)).unwrap();
        assert_eq!(Inf1::from_view(&v).unwrap(), m);
        let tree = m.tree().unwrap();
        assert_eq!(tree.len(), 1);
        assert_eq!(tree[0].children[0].children[0].kind, NodeKind::SHAPE);
        let mut again = m.clone();
        again.set_tree(&tree);
        assert_eq!(again.nodes, m.nodes);
    }

    #[test]
    fn unbalanced_trees_fail() {
        assert!(tree_of(&[n(1, 0)], &Limits::default()).is_err());
        assert!(tree_of(&[n(0x10, 0), n(2, 0)], &Limits::default()).is_err());
        assert!(tree_of(&[n(0x10, 0), n(1, 0), n(0x10, 1)], &Limits::default()).is_err());
        let deep: Vec<Node> = (0..600).flat_map(|_| [n(0x10, 0), n(1, 0)]).collect();
        assert!(tree_of(&deep, &Limits::default()).is_err());
    }

    #[test]
    fn tree_with_honours_the_callers_limits() {
        let nested = Inf1 {
            flags: LoaderFlags::empty(),
            marker: 0xFFFF,
            matrix_group_count: 0,
            vertex_count: 0,
            nodes: vec![
                n(0x10, 0),
                n(1, 0),
                n(0x10, 1),
                n(1, 0),
                n(0x11, 0),
                n(2, 0),
                n(2, 0),
            ],
            pad: Pad::Nintendo,
        };
        assert!(nested.tree().is_ok());
        let tiny = Limits {
            max_depth: 1,
            ..Limits::default()
        };
        let e = nested.tree_with(&tiny).unwrap_err();
        assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    }
}
