//! The flow as a graph: entry points by label, successors (message/event/entry → next,
//! condition → true and false targets through the branch list), bounded traversals, and the
//! message-less cycles the game would spin in.

use gcio::{Limits, Result, Visited};

use crate::model::{END, Flow, Msbf, Node};

/// An outgoing edge of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// Target node index as stored (may be out of range in a broken file; never [`END`]).
    pub to: u16,
    /// What the edge means.
    pub kind: EdgeKind,
}

/// Why a node leads to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeKind {
    /// The next field of an entry, message or event.
    Next,
    /// A condition's target when it holds (right YesNo button).
    True,
    /// A condition's target when it does not hold (left YesNo button).
    False,
}

/// A flow's start: its label and entry node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The FEN1 label.
    pub label: &'a [u8],
    /// The entry node's index.
    pub node: u32,
}

impl Flow {
    /// The outgoing edges of node `i` (none for an end node or an index out of range). Condition
    /// targets that the branch list does not hold are left out; the validator reports them.
    pub fn edges(&self, i: usize) -> impl Iterator<Item = Edge> + '_ {
        let node = self.nodes.get(i);
        let pair: [Option<Edge>; 2] = match node {
            Some(Node::Condition { branch, .. }) => {
                let b = usize::from(*branch);
                let at = |j: usize, kind| {
                    self.branches
                        .get(j)
                        .filter(|&&t| t != END)
                        .map(|&to| Edge { to, kind })
                };
                [
                    at(b, EdgeKind::True),
                    b.checked_add(1).and_then(|j| at(j, EdgeKind::False)),
                ]
            }
            Some(n) => [
                n.next().filter(|&t| t != END).map(|to| Edge {
                    to,
                    kind: EdgeKind::Next,
                }),
                None,
            ],
            None => [None, None],
        };
        pair.into_iter().flatten()
    }

    /// Successor node indices of node `i` that exist.
    pub fn successors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.nodes.len();
        self.edges(i)
            .map(|e| usize::from(e.to))
            .filter(move |&t| t < n)
    }

    /// For every node, the nodes that lead to it.
    pub fn predecessors(&self) -> Vec<Vec<usize>> {
        let mut pred = vec![Vec::new(); self.nodes.len()];
        for i in 0..self.nodes.len() {
            for t in self.successors(i) {
                if let Some(p) = pred.get_mut(t) {
                    p.push(i);
                }
            }
        }
        pred
    }

    /// Nodes reachable from `start` (itself included) in depth-first order, true branch first.
    pub fn walk(&self, start: usize, limits: &Limits) -> Result<Vec<usize>> {
        let mut seen = Visited::new(*limits);
        let mut out = Vec::new();
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            if i >= self.nodes.len() || !seen.visit(i as u64)? {
                continue;
            }
            out.push(i);
            let succ: Vec<usize> = self.successors(i).collect();
            stack.extend(succ.into_iter().rev());
        }
        Ok(out)
    }

    /// Which nodes some node in `starts` reaches.
    pub fn reachable(&self, starts: impl IntoIterator<Item = usize>) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<usize> = starts.into_iter().collect();
        while let Some(i) = stack.pop() {
            match seen.get_mut(i) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            stack.extend(self.successors(i));
        }
        seen
    }

    /// Strongly connected groups of nodes that form a cycle (more than one node, or a node that
    /// leads to itself), each sorted. Iterative Tarjan, so deep flows cannot overflow the stack.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let n = self.nodes.len();
        let mut t = Tarjan {
            index: vec![usize::MAX; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            work: Vec::new(),
            next: 0,
        };
        let mut out = Vec::new();
        for root in 0..n {
            if get(&t.index, root) != usize::MAX {
                continue;
            }
            t.open(self, root);
            while let Some((v, succ)) = t.work.last_mut() {
                let v = *v;
                if let Some(w) = succ.pop() {
                    if get(&t.index, w) == usize::MAX {
                        t.open(self, w);
                    } else if get(&t.on_stack, w) {
                        let l = get(&t.low, v).min(get(&t.index, w));
                        set(&mut t.low, v, l);
                    }
                    continue;
                }
                t.work.pop();
                if let Some(&(p, _)) = t.work.last() {
                    let l = get(&t.low, p).min(get(&t.low, v));
                    set(&mut t.low, p, l);
                }
                if get(&t.low, v) == get(&t.index, v) {
                    let mut group = Vec::new();
                    while let Some(w) = t.stack.pop() {
                        set(&mut t.on_stack, w, false);
                        group.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if group.len() > 1 || self.successors(v).any(|s| s == v) {
                        group.sort_unstable();
                        out.push(group);
                    }
                }
            }
        }
        out
    }
}

/// State of the iterative strongly-connected-components walk.
struct Tarjan {
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    /// (node, successors still to visit)
    work: Vec<(usize, Vec<usize>)>,
    next: usize,
}

impl Tarjan {
    fn open(&mut self, flow: &Flow, v: usize) {
        set(&mut self.index, v, self.next);
        set(&mut self.low, v, self.next);
        set(&mut self.on_stack, v, true);
        self.next += 1;
        self.stack.push(v);
        let mut succ: Vec<usize> = flow.successors(v).collect();
        succ.reverse();
        self.work.push((v, succ));
    }
}

fn get<T: Copy + Default>(v: &[T], i: usize) -> T {
    v.get(i).copied().unwrap_or_default()
}

fn set<T>(v: &mut [T], i: usize, x: T) {
    if let Some(s) = v.get_mut(i) {
        *s = x;
    }
}

impl Msbf {
    /// The flows' entry points by label, in FEN1 order.
    pub fn entries(&self) -> Vec<Entry<'_>> {
        self.labels()
            .map(|t| {
                t.iter()
                    .map(|(_, l)| Entry {
                        label: &l.name,
                        node: l.node,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The nodes of the flow named `label`, in walk order; `None` for an unknown label.
    pub fn flow_of(&self, label: &[u8], limits: &Limits) -> Option<Result<Vec<usize>>> {
        let node = self.labels()?.get(label)?;
        let flow = self.flow()?;
        Some(flow.walk(node as usize, limits))
    }
}
