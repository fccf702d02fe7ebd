//! The pane tree and the group tree as typed graphs, derived from the section order: a `pas1`
//! makes the pane before it the parent of the panes up to the matching `pae1` (groups likewise
//! with `grs1`/`gre1`); group members are the panes of the same name.

use crate::json::Name;
use crate::model::{Brlyt, Pane, Section};

/// A pane of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneNode {
    /// Index of its section in [`Brlyt::sections`].
    pub section: usize,
    /// Its parent pane (index into [`Tree::panes`]); `None` for a top-level pane.
    pub parent: Option<usize>,
    /// Its children in drawing order.
    pub children: Vec<usize>,
    /// The groups it is a member of (indices into [`Tree::groups`]).
    pub groups: Vec<usize>,
}

/// A group of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupNode {
    /// Index of its section.
    pub section: usize,
    /// Its parent group.
    pub parent: Option<usize>,
    /// Its child groups.
    pub children: Vec<usize>,
    /// Its members, resolved: the pane of each name (`None` when no pane has it).
    pub members: Vec<Option<usize>>,
}

/// Where the order of nesting markers is not what the loader expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nesting {
    /// A `pas1`/`grs1` with no pane/group before it (section index).
    StartWithoutParent(usize),
    /// A `pae1`/`gre1` with no open level.
    EndWithoutStart(usize),
    /// Levels still open at the end (how many).
    Unclosed(usize),
}

/// The graphs of a layout.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    /// Every pane in file order.
    pub panes: Vec<PaneNode>,
    /// Every group in file order.
    pub groups: Vec<GroupNode>,
    /// Nesting faults (panes first, then groups).
    pub faults: Vec<Nesting>,
}

impl Tree {
    /// The top-level panes (the loader takes the first as the root).
    pub fn roots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.panes.len()).filter(|&i| self.panes.get(i).is_some_and(|p| p.parent.is_none()))
    }

    /// Depth-first order from `pane` (itself first), the order the game draws.
    pub fn walk(&self, pane: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut todo = vec![pane];
        while let Some(p) = todo.pop() {
            out.push(p);
            if let Some(n) = self.panes.get(p) {
                todo.extend(n.children.iter().rev());
            }
        }
        out
    }
}

impl Brlyt {
    /// The pane and group graphs.
    pub fn tree(&self) -> Tree {
        let mut t = Tree::default();
        let (mut stack, mut last): (Vec<usize>, Option<usize>) = (Vec::new(), None);
        let (mut gstack, mut glast): (Vec<usize>, Option<usize>) = (Vec::new(), None);
        for (i, s) in self.sections.iter().enumerate() {
            match s {
                Section::PaneStart => match last {
                    Some(p) => stack.push(p),
                    None => t.faults.push(Nesting::StartWithoutParent(i)),
                },
                Section::PaneEnd => {
                    last = stack.pop();
                    if last.is_none() {
                        t.faults.push(Nesting::EndWithoutStart(i));
                    }
                }
                Section::GroupStart => match glast {
                    Some(g) => gstack.push(g),
                    None => t.faults.push(Nesting::StartWithoutParent(i)),
                },
                Section::GroupEnd => {
                    glast = gstack.pop();
                    if glast.is_none() {
                        t.faults.push(Nesting::EndWithoutStart(i));
                    }
                }
                Section::Group(_) => {
                    let id = t.groups.len();
                    let parent = gstack.last().copied();
                    if let Some(g) = parent.and_then(|p| t.groups.get_mut(p)) {
                        g.children.push(id);
                    }
                    t.groups.push(GroupNode {
                        section: i,
                        parent,
                        children: Vec::new(),
                        members: Vec::new(),
                    });
                    glast = Some(id);
                }
                _ if s.pane().is_some() => {
                    let id = t.panes.len();
                    let parent = stack.last().copied();
                    if let Some(p) = parent.and_then(|p| t.panes.get_mut(p)) {
                        p.children.push(id);
                    }
                    t.panes.push(PaneNode {
                        section: i,
                        parent,
                        children: Vec::new(),
                        groups: Vec::new(),
                    });
                    last = Some(id);
                }
                _ => {}
            }
        }
        if !stack.is_empty() || !gstack.is_empty() {
            t.faults.push(Nesting::Unclosed(stack.len() + gstack.len()));
        }
        for gi in 0..t.groups.len() {
            let Some(Section::Group(g)) =
                t.groups.get(gi).and_then(|g| self.sections.get(g.section))
            else {
                continue;
            };
            let members: Vec<Option<usize>> =
                g.panes.iter().map(|n| self.find_pane(&t, n)).collect();
            for p in members.iter().flatten() {
                if let Some(p) = t.panes.get_mut(*p) {
                    p.groups.push(gi);
                }
            }
            if let Some(g) = t.groups.get_mut(gi) {
                g.members = members;
            }
        }
        t
    }

    /// The first pane (file order) whose name matches `name` as the game compares names.
    pub fn find_pane(&self, tree: &Tree, name: &Name) -> Option<usize> {
        tree.panes
            .iter()
            .position(|p| self.pane_of(p).is_some_and(|q| q.name.key() == name.key()))
    }

    /// The pane record of a node.
    pub fn pane_of(&self, node: &PaneNode) -> Option<&Pane> {
        self.sections.get(node.section).and_then(Section::pane)
    }
}
