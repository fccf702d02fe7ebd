//! The validator: each finding cites a rule id catalogued in `docs/rules/msbf.md` (`MSBF-*`).
//!
//! Two rules are ours (the reference has no id for them; see `docs/RULES.md`):
//! [`UNREACHABLE`] (MSBF-019) and [`SPIN`] (MSBF-020).

use gcio::{Diagnostic, Endian, Limits, Severity};

use crate::model::{CONDITION_ARG1, END, Flow, Msbf, Node, SMG2_BUCKETS, SectionKind};
use crate::names::{ConditionType, EventType, FuncParam, YesNo, branch_funcs};
use crate::raw::{FEN1, FLOW_HEADER_SIZE, FLW2, SECTION_HEADER_SIZE, VERSION};

/// Proposed rule: a node no labelled entry reaches (dead data; the game never shows it).
pub const UNREACHABLE: &str = "MSBF-019";
/// Proposed rule: a cycle without a MESSAGE node (the game would loop without waiting for input).
pub const SPIN: &str = "MSBF-020";

/// What the file alone does not tell the validator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// Entries in the MSBT the flows show (MSBF-013 checks message ids against it).
    pub message_count: Option<u32>,
    /// The object (actor class) the flows belong to, e.g. `KinopioBank` (MSBF-012 checks its
    /// branch-function parameters).
    pub object: Option<String>,
}

struct Out {
    d: Vec<Diagnostic>,
}

impl Out {
    fn push(&mut self, sev: Severity, rule: &str, at: Option<usize>, msg: String) {
        self.d
            .push(Diagnostic::new(sev, rule, at.map(|o| o as u64), msg));
    }
}

/// Validates a file with no outside knowledge; one that does not parse is one `MSBF-002` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits.
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match Msbf::parse_with(data, limits) {
        Ok(m) => validate_model(&m),
        Err(e) => vec![Diagnostic::error("MSBF-002", e.offset(), e.to_string())],
    }
}

/// Validates a model with no outside knowledge.
pub fn validate_model(m: &Msbf) -> Vec<Diagnostic> {
    validate_model_for(m, &CheckOptions::default())
}

/// Validates a model; `opts` enables the rules that need the MSBT or the object.
pub fn validate_model_for(m: &Msbf, opts: &CheckOptions) -> Vec<Diagnostic> {
    m.findings(opts)
}

impl Msbf {
    fn findings(&self, opts: &CheckOptions) -> Vec<Diagnostic> {
        let mut o = Out { d: Vec::new() };
        self.check_framing(&mut o);
        let offsets = self.section_offsets();
        let mut flow_at = None;
        for (s, &at) in self.sections.iter().zip(&offsets) {
            if let SectionKind::Flow(_) = s.kind {
                flow_at.get_or_insert(at + SECTION_HEADER_SIZE + FLOW_HEADER_SIZE);
            }
        }
        if let Some(flow) = self.flow() {
            let node_at = |i: usize| flow_at.map(|a| a + i * 12);
            check_nodes(flow, opts, &node_at, &mut o);
            let links_ok = check_links(flow, &node_at, &mut o);
            self.check_labels(flow, &mut o);
            check_graph(self, flow, links_ok, &node_at, &mut o);
        }
        o.d
    }

    fn check_framing(&self, o: &mut Out) {
        use Severity::{Error, Warning};
        if self.endian == Endian::Little {
            o.push(
                Warning,
                "MSBF-001",
                Some(8),
                "byte-order mark is little endian (SMG2 files are big endian)".into(),
            );
        }
        let offsets = self.section_offsets();
        if let Some(v) = self.file_size_field {
            let real = offsets.last().copied().unwrap_or(0) + self.trailing.len();
            o.push(
                Error,
                "MSBF-002",
                Some(0x12),
                format!("file length field {v:#x}, file is {real:#x} bytes"),
            );
        }
        for (s, &at) in self.sections.iter().zip(&offsets) {
            let name = String::from_utf8_lossy(&s.magic()).into_owned();
            if let Some(p) = &s.frame.padding {
                o.push(
                    Error,
                    "MSBF-003",
                    Some(at),
                    format!("{name}: padding {p:02x?} is not 0xAB up to a multiple of 0x10"),
                );
            }
            if s.frame.size_includes_header {
                o.push(
                    Error,
                    "MSBF-004",
                    Some(at + 4),
                    format!("{name}: size field counts the section header"),
                );
            }
            if !s.frame.trailing.is_empty() {
                o.push(
                    Error,
                    "MSBF-004",
                    Some(at + 4),
                    format!(
                        "{name}: size field covers {} bytes after the content",
                        s.frame.trailing.len()
                    ),
                );
            }
        }
        if self.reserved != [0; 3] || self.version != VERSION {
            o.push(
                Warning,
                "MSBF-016",
                Some(0x0A),
                format!(
                    "version bytes {:02x?} {:#x}, expected 00 00 00 03",
                    self.reserved, self.version
                ),
            );
        }
        let magics: Vec<[u8; 4]> = self.sections.iter().map(|s| s.magic()).collect();
        if magics != [FLW2, FEN1] {
            let names: Vec<String> = magics
                .iter()
                .map(|m| String::from_utf8_lossy(m).into_owned())
                .collect();
            o.push(
                Warning,
                "MSBF-018",
                Some(0x20),
                format!(
                    "sections are [{}], writers emit FLW2 then FEN1",
                    names.join(", ")
                ),
            );
        }
    }

    fn check_labels(&self, flow: &Flow, o: &mut Out) {
        use Severity::{Error, Warning};
        let Some(t) = self.labels() else { return };
        if t.buckets.len() != SMG2_BUCKETS as usize {
            o.push(
                Warning,
                "MSBF-015",
                None,
                format!(
                    "FEN1 has {} buckets, SMG2 uses {SMG2_BUCKETS}",
                    t.buckets.len()
                ),
            );
        }
        let mut labelled = vec![false; flow.nodes.len()];
        for (b, l) in t.iter() {
            let name = gcio::text::Encoding::ShiftJis.to_text(&l.name);
            if let Some(want) = t.bucket_of(&l.name).filter(|&w| w != b) {
                o.push(
                    Warning,
                    "MSBF-014",
                    None,
                    format!("label {name:?} is in bucket {b}, its hash puts it in {want}"),
                );
            }
            match usize::try_from(l.node)
                .ok()
                .and_then(|i| flow.nodes.get(i).map(|n| (i, n)))
            {
                Some((i, Node::Entry { .. })) => {
                    if let Some(x) = labelled.get_mut(i) {
                        *x = true;
                    }
                }
                Some((i, n)) => o.push(
                    Error,
                    "MSBF-006",
                    None,
                    format!(
                        "label {name:?} names node {i}, a {} node, not an entry",
                        n.kind()
                    ),
                ),
                None => o.push(
                    Error,
                    "MSBF-006",
                    None,
                    format!(
                        "label {name:?} names node {}, past the {} nodes",
                        l.node,
                        flow.nodes.len()
                    ),
                ),
            }
        }
        for (i, n) in flow.nodes.iter().enumerate() {
            if matches!(n, Node::Entry { .. }) && !labelled.get(i).copied().unwrap_or(true) {
                o.push(
                    Warning,
                    "MSBF-006",
                    None,
                    format!("entry node {i} has no label"),
                );
            }
        }
    }
}

fn check_nodes(flow: &Flow, opts: &CheckOptions, at: &dyn Fn(usize) -> Option<usize>, o: &mut Out) {
    use Severity::{Error, Warning};
    let funcs: Vec<_> = opts
        .object
        .as_deref()
        .map(|obj| branch_funcs(obj).collect())
        .unwrap_or_default();
    for (i, n) in flow.nodes.iter().enumerate() {
        match *n {
            Node::Other { kind, .. } => o.push(
                Error,
                "MSBF-005",
                at(i),
                format!("node {i} has type {}, not 1..4", kind.0),
            ),
            Node::Condition {
                condition,
                param,
                arg1,
                ..
            } => {
                if arg1 != CONDITION_ARG1 {
                    o.push(
                        Warning,
                        "MSBF-008",
                        at(i).map(|a| a + 4),
                        format!("condition node {i} has arg 1 = {arg1:#x}, not 2"),
                    );
                }
                if !condition.is_known() {
                    o.push(
                        Error,
                        "MSBF-011",
                        at(i).map(|a| a + 6),
                        format!(
                            "condition node {i} has unknown condition type {:#x}",
                            condition.0
                        ),
                    );
                } else if condition == ConditionType::YES_NO && !YesNo(param).is_known() {
                    o.push(
                        Error,
                        "MSBF-011",
                        at(i).map(|a| a + 8),
                        format!("YesNo node {i} has unknown YesNo kind {param:#x}"),
                    );
                } else if condition == ConditionType::BRANCH_FUNC
                    && !funcs.is_empty()
                    && !funcs.iter().any(|f| f.param.allows(param))
                {
                    let docs: Vec<String> = funcs
                        .iter()
                        .map(|f| match f.param {
                            FuncParam::Zero => format!("{}: 0", f.function),
                            FuncParam::Range(a, b) => format!("{}: {a}..={b}", f.function),
                            FuncParam::Any => format!("{}: any", f.function),
                        })
                        .collect();
                    o.push(
                        Warning,
                        "MSBF-012",
                        at(i).map(|a| a + 8),
                        format!(
                            "BranchFunc node {i} passes {param}; documented: {}",
                            docs.join(", ")
                        ),
                    );
                }
            }
            Node::Event { event, .. } if !EventType::is_known(event) => {
                o.push(
                    Error,
                    "MSBF-011",
                    at(i).map(|a| a + 4),
                    format!("event node {i} has unknown event type {:#x}", event.0),
                );
            }
            Node::Message { message_id, .. } => {
                if let Some(count) = opts.message_count.filter(|&c| u32::from(message_id) >= c) {
                    o.push(
                        Error,
                        "MSBF-013",
                        at(i).map(|a| a + 6),
                        format!("message node {i} shows entry {message_id}, the MSBT has {count}"),
                    );
                }
            }
            _ => {}
        }
    }
}

/// MSBF-007 and MSBF-009; true when every link resolves.
fn check_links(flow: &Flow, at: &dyn Fn(usize) -> Option<usize>, o: &mut Out) -> bool {
    use Severity::Error;
    let n = flow.nodes.len();
    let before = o.d.len();
    for (i, node) in flow.nodes.iter().enumerate() {
        if let Some(next) = node.next().filter(|&t| t != END && usize::from(t) >= n) {
            o.push(
                Error,
                "MSBF-007",
                at(i),
                format!(
                    "node {i} ({}) goes to node {next}, past the {n} nodes",
                    node.kind()
                ),
            );
        }
        if let Node::Condition { branch, .. } = *node {
            let b = usize::from(branch);
            if b % 2 != 0 || b + 1 >= flow.branches.len() {
                o.push(
                    Error,
                    "MSBF-009",
                    at(i).map(|a| a + 10),
                    format!(
                        "condition node {i} uses branch index {b}: must be even with {b} + 1 < {}",
                        flow.branches.len()
                    ),
                );
            }
        }
    }
    for (j, &t) in flow.branches.iter().enumerate() {
        if t != END && usize::from(t) >= n {
            o.push(
                Error,
                "MSBF-007",
                None,
                format!("branch-list entry {j} goes to node {t}, past the {n} nodes"),
            );
        }
    }
    o.d.len() == before
}

fn check_graph(
    m: &Msbf,
    flow: &Flow,
    links_ok: bool,
    at: &dyn Fn(usize) -> Option<usize>,
    o: &mut Out,
) {
    use Severity::{Error, Warning};
    let pred = flow.predecessors();
    for (i, n) in flow.nodes.iter().enumerate() {
        if !n.is_yes_no() {
            continue;
        }
        for &p in pred.get(i).map(Vec::as_slice).unwrap_or_default() {
            if let Some(pn) = flow
                .nodes
                .get(p)
                .filter(|pn| !matches!(pn, Node::Message { .. }))
            {
                o.push(Error, "MSBF-010", at(i), format!("YesNo node {i} follows node {p} ({}), not a message node (the game crashes)", pn.kind()));
            }
        }
    }
    // Reachability means something only when every link resolves; a broken link is reported
    // once, at its source, not again at every node it cuts off.
    if links_ok {
        let starts = m
            .entries()
            .into_iter()
            .filter_map(|e| usize::try_from(e.node).ok());
        let seen = flow.reachable(starts);
        for (i, s) in seen.iter().enumerate() {
            if !s {
                o.push(
                    Warning,
                    UNREACHABLE,
                    at(i),
                    format!("node {i} is not reachable from any label"),
                );
            }
        }
    }
    for group in flow.cycles() {
        if !group
            .iter()
            .any(|&i| matches!(flow.nodes.get(i), Some(Node::Message { .. })))
        {
            let first = group.first().copied();
            o.push(
                Error,
                SPIN,
                first.and_then(at),
                format!("nodes {group:?} loop without a message (the game would spin)"),
            );
        }
    }
}
