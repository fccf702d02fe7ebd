//! Smoke test.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use gpl_facial::*;
#[test]
fn smoke() {
    for b in [build::birdo_block(), build::luigi_block()] {
        let v = BlockView::parse(&b).unwrap();
        for d in v.validate() {
            println!("{d}");
        }
        let m = Block::parse(&b).unwrap();
        assert_eq!(m.write().unwrap(), b);
    }
}
