//! Graphviz output (`gcf convert a.msbf a.dot`): one box per node, labels as entry points,
//! condition edges marked with the answer they take.

use std::fmt::Write as _;

use crate::graph::EdgeKind;
use crate::model::{Msbf, Node};
use crate::names::{ConditionType, YesNo};

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One line describing a node.
pub fn describe(i: usize, n: &Node) -> String {
    match *n {
        Node::Entry { .. } => format!("{i}: entry"),
        Node::Message { message_id, .. } => format!("{i}: message {message_id}"),
        Node::Condition {
            condition, param, ..
        } if condition == ConditionType::YES_NO => format!("{i}: YesNo {}", YesNo(param)),
        Node::Condition {
            condition, param, ..
        } => format!("{i}: {condition}? ({param})"),
        Node::Event { event, param, .. } => format!("{i}: event {event} ({param})"),
        Node::Other { kind, args } => format!("{i}: type {} {args:?}", kind.0),
    }
}

impl Msbf {
    /// The flows as a Graphviz `digraph`.
    pub fn to_dot(&self) -> String {
        let mut s = String::from(
            "digraph msbf {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
        );
        for (k, e) in self.entries().iter().enumerate() {
            let name = esc(&gcio::text::Encoding::ShiftJis.to_text(e.label));
            let _ = writeln!(s, "  label{k} [label=\"{name}\", shape=plaintext];");
            let _ = writeln!(s, "  label{k} -> n{};", e.node);
        }
        let Some(flow) = self.flow() else {
            s.push_str("}\n");
            return s;
        };
        let n = flow.nodes.len();
        for (i, node) in flow.nodes.iter().enumerate() {
            let shape = match node {
                Node::Condition { .. } => "diamond",
                Node::Event { .. } => "hexagon",
                Node::Entry { .. } => "oval",
                _ => "box",
            };
            let _ = writeln!(
                s,
                "  n{i} [label=\"{}\", shape={shape}];",
                esc(&describe(i, node))
            );
            let yes_no = node.is_yes_no();
            for e in flow.edges(i) {
                let label = match (e.kind, yes_no) {
                    (EdgeKind::Next, _) => "",
                    (EdgeKind::True, true) => "yes",
                    (EdgeKind::False, true) => "no",
                    (EdgeKind::True, false) => "true",
                    (EdgeKind::False, false) => "false",
                };
                if usize::from(e.to) >= n {
                    let _ = writeln!(
                        s,
                        "  missing{} [label=\"missing node {}\", color=red];",
                        e.to, e.to
                    );
                    let _ = writeln!(
                        s,
                        "  n{i} -> missing{} [label=\"{label}\", color=red];",
                        e.to
                    );
                } else {
                    let _ = writeln!(s, "  n{i} -> n{} [label=\"{label}\"];", e.to);
                }
            }
        }
        s.push_str("}\n");
        s
    }
}
