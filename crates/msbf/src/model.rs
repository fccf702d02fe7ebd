//! The owned, editable model: header, sections in file order, FLW2 nodes and branch list, the
//! FEN1 label hash table, and every byte the format does not derive (padding, quirks, unknown
//! sections), so [`Msbf::write`](crate::Msbf::write) reproduces parsed files exactly.

use gcio::Endian;

#[cfg(feature = "json")]
use crate::jsonfmt::{self, is_false, is_zero};
use crate::names::{ConditionType, EventType, NodeType};

/// "No next node" in a next field or a branch-list entry.
pub const END: u16 = 0xFFFF;
/// FEN1 bucket count of SMG2 files (MSBF-015).
pub const SMG2_BUCKETS: u32 = 59;
/// Arg 1 of a CONDITION node in every known file (MSBF-008).
pub const CONDITION_ARG1: u16 = 0x0002;
/// Arg 1 of a MESSAGE node as pymsb and Hack.io write it (meaning unknown).
pub const MESSAGE_ARG1: u16 = 0x0088;

/// A whole MSBF file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Msbf {
    /// Byte order chosen by the byte-order mark (SMG2: big endian).
    pub endian: Endian,
    /// Version byte at 0x0D (3; C-20).
    pub version: u8,
    /// Bytes 0x0A..0x0D (zero; MSBT keeps its text encoding here).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "is_zero", with = "jsonfmt::hex_array")
    )]
    pub reserved: [u8; 3],
    /// Header padding: the u16 at 0x10 then the 10 bytes at 0x16.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "is_zero", with = "jsonfmt::hex_array")
    )]
    pub header_padding: [u8; 12],
    /// The header's file-length field, kept only when it disagrees with the real length.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub file_size_field: Option<u32>,
    /// Sections in file order (writers emit FLW2 then FEN1; MSBF-018).
    pub sections: Vec<Section>,
    /// Bytes after the last section.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty", with = "jsonfmt::hex")
    )]
    pub trailing: Vec<u8>,
}

/// One section: its content and how it was framed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Section {
    /// What the section holds.
    pub kind: SectionKind,
    /// Framing bytes that are not derived from the content.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Frame::is_plain")
    )]
    pub frame: Frame,
}

/// Section content by magic.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum SectionKind {
    /// `FLW2`: the nodes and the branch list.
    Flow(Flow),
    /// `FEN1`: labels of the flows' entry nodes.
    Labels(LabelTable),
    /// Any other section (REF1 and unknown ones), kept as bytes.
    Other {
        /// Section magic.
        #[cfg_attr(feature = "json", serde(with = "jsonfmt::text"))]
        magic: [u8; 4],
        /// Section data (without header and padding).
        #[cfg_attr(feature = "json", serde(with = "jsonfmt::hex"))]
        data: Vec<u8>,
    },
}

/// Section framing: what a writer cannot derive from the content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Frame {
    /// The 8 padding bytes of the section header.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "is_zero", with = "jsonfmt::hex_array")
    )]
    pub header_padding: [u8; 8],
    /// The size field counts the 0x10-byte section header too, as Hack.io writes FEN1 (C-21).
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_false"))]
    pub size_includes_header: bool,
    /// Bytes inside the declared size after the content.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty", with = "jsonfmt::hex")
    )]
    pub trailing: Vec<u8>,
    /// The padding after the section when it is not the usual 0xAB fill to 0x10 (MSBF-003).
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "jsonfmt::hex_opt"
        )
    )]
    pub padding: Option<Vec<u8>>,
}

impl Frame {
    /// True for the framing every writer produces (nothing to remember).
    pub fn is_plain(&self) -> bool {
        *self == Frame::default()
    }
}

/// FLW2: every node of every flow, and the branch list the conditions index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Flow {
    /// Nodes in file order (C-24: kept as found).
    pub nodes: Vec<Node>,
    /// Branch targets: a condition with branch index `b` goes to `branches[b]` when true and
    /// `branches[b + 1]` when false ([`END`] = stop).
    pub branches: Vec<u16>,
    /// The 4 padding bytes after the counts.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "is_zero", with = "jsonfmt::hex_array")
    )]
    pub padding: [u8; 4],
}

/// One FLW2 node, typed by its u16 type. Unused arguments are kept for byte-exact writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(tag = "type", rename_all = "snake_case"))]
pub enum Node {
    /// Start of a flow (type 4); a FEN1 label names it.
    Entry {
        /// First real node (arg 1).
        next: u16,
        /// Arg 0.
        arg0: u16,
        /// Arg 2.
        arg2: u16,
        /// Arg 3.
        arg3: u16,
        /// Arg 4.
        arg4: u16,
    },
    /// Shows a text box (type 1).
    Message {
        /// MSBT entry index (arg 2).
        message_id: u16,
        /// Next node (arg 3).
        next: u16,
        /// Arg 0.
        arg0: u16,
        /// Arg 1 ([`MESSAGE_ARG1`] in known files).
        arg1: u16,
        /// Arg 4.
        arg4: u16,
    },
    /// Branches (type 2).
    Condition {
        /// What is tested (arg 2).
        condition: ConditionType,
        /// The test's parameter (arg 3): YesNo kind, branch-function argument, ...
        param: u16,
        /// Index into the branch list (arg 4): true target, then false target.
        branch: u16,
        /// Arg 0.
        arg0: u16,
        /// Arg 1 ([`CONDITION_ARG1`]; MSBF-008).
        arg1: u16,
    },
    /// Fires an event (type 3).
    Event {
        /// What happens (arg 1).
        event: EventType,
        /// Next node (arg 2).
        next: u16,
        /// The event's parameter (arg 4).
        param: u16,
        /// Arg 0.
        arg0: u16,
        /// Arg 3.
        arg3: u16,
    },
    /// A node of an undocumented type (MSBF-005), kept as stored.
    Other {
        /// The type.
        kind: NodeType,
        /// The five arguments.
        args: [u16; 5],
    },
}

impl Node {
    /// A node from its stored type and arguments (exact inverse of [`Node::to_raw`]).
    pub fn from_raw(kind: u16, a: [u16; 5]) -> Node {
        let [a0, a1, a2, a3, a4] = a;
        match NodeType(kind) {
            NodeType::ENTRY => Node::Entry {
                next: a1,
                arg0: a0,
                arg2: a2,
                arg3: a3,
                arg4: a4,
            },
            NodeType::MESSAGE => Node::Message {
                message_id: a2,
                next: a3,
                arg0: a0,
                arg1: a1,
                arg4: a4,
            },
            NodeType::CONDITION => Node::Condition {
                condition: ConditionType(a2),
                param: a3,
                branch: a4,
                arg0: a0,
                arg1: a1,
            },
            NodeType::EVENT => Node::Event {
                event: EventType(a1),
                next: a2,
                param: a4,
                arg0: a0,
                arg3: a3,
            },
            kind => Node::Other { kind, args: a },
        }
    }

    /// The stored type and arguments.
    pub fn to_raw(&self) -> (u16, [u16; 5]) {
        match *self {
            Node::Entry {
                next,
                arg0,
                arg2,
                arg3,
                arg4,
            } => (NodeType::ENTRY.0, [arg0, next, arg2, arg3, arg4]),
            Node::Message {
                message_id,
                next,
                arg0,
                arg1,
                arg4,
            } => (NodeType::MESSAGE.0, [arg0, arg1, message_id, next, arg4]),
            Node::Condition {
                condition,
                param,
                branch,
                arg0,
                arg1,
            } => (
                NodeType::CONDITION.0,
                [arg0, arg1, condition.0, param, branch],
            ),
            Node::Event {
                event,
                next,
                param,
                arg0,
                arg3,
            } => (NodeType::EVENT.0, [arg0, event.0, next, arg3, param]),
            Node::Other { kind, args } => (kind.0, args),
        }
    }

    /// The node's type.
    pub fn kind(&self) -> NodeType {
        NodeType(self.to_raw().0)
    }

    /// An entry node pointing at `next`.
    pub fn entry(next: u16) -> Node {
        Node::from_raw(NodeType::ENTRY.0, [0, next, 0, 0, 0])
    }

    /// A message node as pymsb and Hack.io write it.
    pub fn message(message_id: u16, next: u16) -> Node {
        Node::from_raw(NodeType::MESSAGE.0, [0, MESSAGE_ARG1, message_id, next, 0])
    }

    /// A condition node using branch-list entries `branch` and `branch + 1`.
    pub fn condition(condition: ConditionType, param: u16, branch: u16) -> Node {
        Node::from_raw(
            NodeType::CONDITION.0,
            [0, CONDITION_ARG1, condition.0, param, branch],
        )
    }

    /// An event node.
    pub fn event(event: EventType, param: u16, next: u16) -> Node {
        Node::from_raw(NodeType::EVENT.0, [0, event.0, next, 0, param])
    }

    /// The next field of an entry, message or event node (may be [`END`]); `None` for conditions
    /// and unknown types.
    pub fn next(&self) -> Option<u16> {
        match *self {
            Node::Entry { next, .. } | Node::Message { next, .. } | Node::Event { next, .. } => {
                Some(next)
            }
            Node::Condition { .. } | Node::Other { .. } => None,
        }
    }

    /// Mutable access to the next field (see [`Node::next`]).
    pub fn next_mut(&mut self) -> Option<&mut u16> {
        match self {
            Node::Entry { next, .. } | Node::Message { next, .. } | Node::Event { next, .. } => {
                Some(next)
            }
            Node::Condition { .. } | Node::Other { .. } => None,
        }
    }

    /// True for a YesNo condition (MSBF-010 applies).
    pub fn is_yes_no(&self) -> bool {
        matches!(self, Node::Condition { condition, .. } if *condition == ConditionType::YES_NO)
    }
}

/// FEN1: the LMS label hash table mapping flow labels to entry-node indices (MSBF-014).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct LabelTable {
    /// Buckets in index order, labels in stored order; the bucket count is `buckets.len()`.
    pub buckets: Vec<Vec<Label>>,
    /// The section's bytes when its layout is not the one writers produce (labels out of bucket
    /// order, gaps, odd offsets). Written back verbatim while `buckets` still matches them.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "jsonfmt::hex_opt"
        )
    )]
    pub raw: Option<Vec<u8>>,
}

/// One flow label.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Label {
    /// The label's bytes (ASCII in game files).
    #[cfg_attr(feature = "json", serde(with = "jsonfmt::text"))]
    pub name: Vec<u8>,
    /// Index of the ENTRY node it starts (a u32 on disk).
    pub node: u32,
}

/// The LMS label hash: `h = h * 0x492 + byte` with u32 wrap-around.
pub fn label_hash(name: &[u8]) -> u32 {
    name.iter().fold(0u32, |h, &b| {
        h.wrapping_mul(0x492).wrapping_add(u32::from(b))
    })
}

impl Default for LabelTable {
    fn default() -> Self {
        LabelTable::new(SMG2_BUCKETS)
    }
}

impl LabelTable {
    /// An empty table with `bucket_count` buckets (SMG2: [`SMG2_BUCKETS`]).
    pub fn new(bucket_count: u32) -> Self {
        LabelTable {
            buckets: vec![Vec::new(); bucket_count as usize],
            raw: None,
        }
    }

    /// The bucket `name` belongs in; `None` for a table without buckets.
    pub fn bucket_of(&self, name: &[u8]) -> Option<usize> {
        let n = u32::try_from(self.buckets.len()).ok().filter(|&n| n > 0)?;
        usize::try_from(label_hash(name) % n).ok()
    }

    /// Adds a label in its hash bucket, after the labels already there. Returns false (and adds
    /// nothing) for a table without buckets.
    pub fn insert(&mut self, name: impl Into<Vec<u8>>, node: u32) -> bool {
        let name = name.into();
        match self.bucket_of(&name).and_then(|b| self.buckets.get_mut(b)) {
            Some(bucket) => {
                bucket.push(Label { name, node });
                true
            }
            None => false,
        }
    }

    /// Looks a label up the way the game does: hash, then scan its bucket.
    pub fn get(&self, name: &[u8]) -> Option<u32> {
        let bucket = self.buckets.get(self.bucket_of(name)?)?;
        bucket.iter().find(|l| l.name == name).map(|l| l.node)
    }

    /// Every label with its bucket index, in stored order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Label)> {
        self.buckets
            .iter()
            .enumerate()
            .flat_map(|(b, labels)| labels.iter().map(move |l| (b, l)))
    }

    /// Number of labels.
    pub fn len(&self) -> usize {
        self.buckets.iter().map(Vec::len).sum()
    }

    /// True when there are no labels.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Msbf {
    /// The parts this model keeps as stored bytes rather than typed values: sections other than
    /// FLW2 and FEN1 (REF1 and unknown ones), and a FEN1 whose stored layout the canonical label
    /// writer would not reproduce ([`LabelTable::raw`]). Empty for a flow file of the two known
    /// sections in the writers' layout.
    pub fn raw_parts(&self) -> Vec<String> {
        self.sections
            .iter()
            .filter_map(|s| match &s.kind {
                SectionKind::Other { magic, .. } => {
                    Some(format!("section {}", String::from_utf8_lossy(magic)))
                }
                SectionKind::Labels(l) if l.raw.is_some() => Some("FEN1 (stored layout)".into()),
                _ => None,
            })
            .collect()
    }

    /// An empty SMG2 file: big endian, version 3, an empty FLW2 and a 59-bucket FEN1.
    pub fn new() -> Self {
        Msbf {
            endian: Endian::Big,
            version: crate::raw::VERSION,
            reserved: [0; 3],
            header_padding: [0; 12],
            file_size_field: None,
            sections: vec![
                Section::new(SectionKind::Flow(Flow::default())),
                Section::new(SectionKind::Labels(LabelTable::default())),
            ],
            trailing: Vec::new(),
        }
    }

    /// The first FLW2 section.
    pub fn flow(&self) -> Option<&Flow> {
        self.sections.iter().find_map(|s| match &s.kind {
            SectionKind::Flow(f) => Some(f),
            _ => None,
        })
    }

    /// The first FLW2 section, mutably.
    pub fn flow_mut(&mut self) -> Option<&mut Flow> {
        self.sections.iter_mut().find_map(|s| match &mut s.kind {
            SectionKind::Flow(f) => Some(f),
            _ => None,
        })
    }

    /// The first FEN1 section.
    pub fn labels(&self) -> Option<&LabelTable> {
        self.sections.iter().find_map(|s| match &s.kind {
            SectionKind::Labels(l) => Some(l),
            _ => None,
        })
    }

    /// The first FEN1 section, mutably.
    pub fn labels_mut(&mut self) -> Option<&mut LabelTable> {
        self.sections.iter_mut().find_map(|s| match &mut s.kind {
            SectionKind::Labels(l) => Some(l),
            _ => None,
        })
    }

    /// The model as pretty JSON (`gcf convert a.msbf a.json`).
    #[cfg(feature = "json")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// A model from its JSON form.
    #[cfg(feature = "json")]
    pub fn from_json(text: &str) -> gcio::Result<Msbf> {
        serde_json::from_str(text).map_err(|e| {
            gcio::Error::without_offset(gcio::ErrorKind::Invalid(format!(
                "JSON line {} column {}: {e}",
                e.line(),
                e.column()
            )))
        })
    }
}

impl Default for Msbf {
    fn default() -> Self {
        Msbf::new()
    }
}

impl Section {
    /// A section with plain framing.
    pub fn new(kind: SectionKind) -> Self {
        Section {
            kind,
            frame: Frame::default(),
        }
    }

    /// The section's magic.
    pub fn magic(&self) -> [u8; 4] {
        match &self.kind {
            SectionKind::Flow(_) => crate::raw::FLW2,
            SectionKind::Labels(_) => crate::raw::FEN1,
            SectionKind::Other { magic, .. } => *magic,
        }
    }
}
