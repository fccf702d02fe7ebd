//! Bounded graph walks: a visited set that also enforces [`Limits::max_nodes`].

use std::collections::HashSet;

use crate::{Error, ErrorKind, Limits, Result};

/// Tracks the nodes (by file offset or index) a graph walk has seen.
///
/// Every walk over file-controlled links (pointer graphs, directory trees, jump targets, linked
/// lists) goes through one, so cycles end and hostile fan-out is capped.
#[derive(Debug, Clone)]
pub struct Visited {
    seen: HashSet<u64>,
    limits: Limits,
}

impl Visited {
    /// An empty set bounded by `limits`.
    pub fn new(limits: Limits) -> Self {
        Visited {
            seen: HashSet::new(),
            limits,
        }
    }

    /// Marks `node`; returns `Ok(true)` the first time, `Ok(false)` when already seen, and a limit
    /// error once more than `max_nodes` distinct nodes were visited.
    pub fn visit(&mut self, node: u64) -> Result<bool> {
        if self.seen.contains(&node) {
            return Ok(false);
        }
        self.limits.check_nodes(self.seen.len() as u64 + 1, node)?;
        self.seen.insert(node);
        Ok(true)
    }

    /// Like [`visit`](Self::visit), but a repeat is an [`ErrorKind::Cycle`] error (for structures that
    /// must be trees or simple lists).
    pub fn visit_once(&mut self, node: u64) -> Result<()> {
        if self.visit(node)? {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::Cycle { offset: node }, node))
        }
    }

    /// Whether `node` was visited.
    pub fn contains(&self, node: u64) -> bool {
        self.seen.contains(&node)
    }

    /// Number of distinct nodes visited.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// True before the first visit.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visits_and_cycles() {
        let mut v = Visited::new(Limits {
            max_nodes: 2,
            ..Limits::default()
        });
        assert!(v.is_empty());
        assert!(v.visit(10).unwrap());
        assert!(!v.visit(10).unwrap());
        assert!(matches!(
            v.visit_once(10).unwrap_err().kind(),
            ErrorKind::Cycle { offset: 10 }
        ));
        v.visit_once(20).unwrap();
        assert!(v.contains(20));
        assert_eq!(v.len(), 2);
        assert!(matches!(
            v.visit(30).unwrap_err().kind(),
            ErrorKind::Limit { .. }
        ));
    }
}
