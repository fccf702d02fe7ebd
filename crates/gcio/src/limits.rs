//! Denial-of-service bounds, checked before any allocation or walk sized by file data.

use crate::{Error, ErrorKind, Result};

/// Bounds on the work and memory a parser may spend on one input.
///
/// Every `Vec::with_capacity`, table length or graph walk sized from file data goes through one of the
/// `check_*` methods first, so hostile files fail fast with [`ErrorKind::Limit`] instead of exhausting
/// memory or time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes one allocation may take (decompressed sizes, buffers).
    pub max_alloc_bytes: u64,
    /// Most elements in one table or list.
    pub max_elements: u64,
    /// Most nodes a graph walk may visit.
    pub max_nodes: u64,
    /// Deepest recursion (nesting of directories, joints, calls).
    pub max_depth: u32,
}

impl Default for Limits {
    /// Generous for any real game file (the largest GameCube/Wii files are a few hundred MiB), tight
    /// enough that a fuzzer's 4-byte count of 0xFFFFFFFF is refused.
    fn default() -> Self {
        Limits {
            max_alloc_bytes: 1 << 30,
            max_elements: 1 << 24,
            max_nodes: 1 << 22,
            max_depth: 256,
        }
    }
}

impl Limits {
    /// No bounds beyond what the platform allows; for trusted input only.
    pub const UNLIMITED: Limits = Limits {
        max_alloc_bytes: u64::MAX,
        max_elements: u64::MAX,
        max_nodes: u64::MAX,
        max_depth: u32::MAX,
    };

    /// Checks an allocation of `count` elements of `elem_size` bytes; returns the byte total.
    pub fn check_alloc(&self, count: u64, elem_size: u64, offset: u64) -> Result<usize> {
        let bytes = count
            .checked_mul(elem_size)
            .ok_or_else(|| Error::new(ErrorKind::Overflow("allocation size"), offset))?;
        limit("allocation bytes", bytes, self.max_alloc_bytes, offset)?;
        usize::try_from(bytes)
            .map_err(|_| Error::new(ErrorKind::Overflow("allocation size"), offset))
    }

    /// Checks an element count; returns it as `usize`.
    pub fn check_elements(&self, count: u64, offset: u64) -> Result<usize> {
        limit("elements", count, self.max_elements, offset)?;
        usize::try_from(count).map_err(|_| Error::new(ErrorKind::Overflow("element count"), offset))
    }

    /// Checks the number of nodes visited so far in a graph walk.
    pub fn check_nodes(&self, visited: u64, offset: u64) -> Result<()> {
        limit("graph nodes", visited, self.max_nodes, offset)
    }

    /// Checks a recursion depth.
    pub fn check_depth(&self, depth: u32, offset: u64) -> Result<()> {
        limit("depth", u64::from(depth), u64::from(self.max_depth), offset)
    }
}

fn limit(what: &'static str, requested: u64, max: u64, offset: u64) -> Result<()> {
    if requested > max {
        Err(Error::new(
            ErrorKind::Limit {
                what,
                requested,
                max,
            },
            offset,
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_limits() {
        let l = Limits {
            max_alloc_bytes: 100,
            ..Limits::default()
        };
        assert_eq!(l.check_alloc(10, 10, 0).unwrap(), 100);
        let e = l.check_alloc(11, 10, 8).unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::Limit {
                what: "allocation bytes",
                requested: 110,
                max: 100
            }
        ));
        assert_eq!(e.offset(), Some(8));
        assert!(matches!(
            l.check_alloc(u64::MAX, 2, 0).unwrap_err().kind(),
            ErrorKind::Overflow(_)
        ));
    }

    #[test]
    fn element_node_depth_limits() {
        let l = Limits {
            max_elements: 5,
            max_nodes: 3,
            max_depth: 2,
            ..Limits::default()
        };
        assert_eq!(l.check_elements(5, 0).unwrap(), 5);
        assert!(l.check_elements(6, 0).is_err());
        assert!(l.check_nodes(3, 0).is_ok());
        assert!(l.check_nodes(4, 0).is_err());
        assert!(l.check_depth(2, 0).is_ok());
        assert!(l.check_depth(3, 0).is_err());
        assert!(
            Limits::UNLIMITED
                .check_elements(u64::from(u32::MAX), 0)
                .is_ok()
        );
    }
}
