#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Property tests on the archive layer: any block graph writes, reads back to the same pointer
//! graph and rewrites byte for byte; arbitrary and mutated bytes never panic.

use hsd_dat::{Block, Dat, Loc, Slot, Target, fuzz_hsd_dat, parse};
use proptest::prelude::*;

/// (block sizes in words, pointers as (block, word, target block or past-end), roots, reloc order
/// seed, trailing bytes).
fn graph() -> impl Strategy<Value = Dat> {
    (
        prop::collection::vec(
            (
                1usize..12,
                any::<u8>(),
                prop::sample::select(vec![1u32, 4, 8, 32]),
            ),
            1..10,
        ),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
                any::<bool>(),
            ),
            0..24,
        ),
        prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        any::<u64>(),
        prop::collection::vec(any::<u8>(), 0..3),
        any::<[u8; 4]>(),
    )
        .prop_map(|(blocks, ptrs, roots, seed, trailing, version)| {
            let mut dat = Dat {
                version,
                trailing,
                ..Dat::default()
            };
            for (words, fill, align) in &blocks {
                dat.blocks.push(Block::new(vec![*fill; words * 4], *align));
            }
            let n = dat.blocks.len();
            for (b, w, t, past) in ptrs {
                let bi = b.index(n);
                let words = dat.blocks[bi].bytes.len() / 4;
                let at = 4 * w.index(words) as u32;
                let target = if past {
                    Target::End(0)
                } else {
                    Target::block(t.index(n))
                };
                dat.blocks[bi].set_pointer(at, Some(target));
            }
            // Relocation order: a deterministic shuffle of the pointer slots.
            let mut slots: Vec<Loc> = dat
                .blocks
                .iter()
                .enumerate()
                .flat_map(|(b, bl)| {
                    bl.pointers.iter().map(move |p| Loc {
                        block: b,
                        offset: p.at,
                    })
                })
                .collect();
            let mut s = seed;
            for i in (1..slots.len()).rev() {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                slots.swap(i, (s >> 33) as usize % (i + 1));
            }
            dat.relocations = slots.into_iter().map(Slot::Pointer).collect();
            for (k, r) in roots.iter().enumerate() {
                dat.add_root(&format!("root{k}_joint"), Target::block(r.index(n)));
            }
            dat
        })
}

/// The pointer graph as data offsets: (slot, target) in relocation order, and root offsets.
fn offsets(bytes: &[u8]) -> (Vec<(u32, u32)>, Vec<u32>) {
    let a = parse(bytes).unwrap();
    let relocs = a
        .relocations()
        .map(|s| (s, a.data().u32(s as usize).unwrap()))
        .collect();
    (relocs, a.roots().map(|r| r.offset).collect())
}

use hsd_dat::compile::{Detection, Order, compile, compile_as, detect};

proptest! {
    #[test]
    fn any_graph_writes_and_reads_back(dat in graph()) {
        let bytes = dat.write().unwrap();
        let parsed = Dat::parse(&bytes).unwrap();
        let again = parsed.write().unwrap();
        prop_assert_eq!(&again, &bytes);
        // The graph survives: same slots, targets and roots, and the parsed model writes the
        // same graph once its blocks are laid out again.
        let (relocs, roots) = offsets(&bytes);
        let (layout, size) = dat.layout().unwrap();
        let expect: Vec<(u32, u32)> = dat.relocations.iter().map(|s| match s {
            Slot::Pointer(l) => {
                let t = dat.blocks[l.block].pointer(l.offset).unwrap().target;
                let v = match t { Target::In(t) => layout[t.block] + t.offset, Target::End(d) => size + d };
                (layout[l.block] + l.offset, v)
            }
            Slot::Raw(v) => (*v, 0),
        }).collect();
        prop_assert_eq!(relocs, expect);
        let expect_roots: Vec<u32> = dat.roots.iter().map(|r| match r.target { Target::In(l) => layout[l.block] + l.offset, Target::End(d) => size + d }).collect();
        prop_assert_eq!(roots, expect_roots);
        fuzz_hsd_dat(&bytes);
    }

    /// A compiled layout of any graph, in either compiler's order, writes, re-parses byte for
    /// byte, keeps the roots and every pointer count, and is a fixed point of compiling in that
    /// order. `detect` gives that order back (or `Either` when both orders lay it out the
    /// same), so `compile` with detection is a fixed point too. A graph whose new layout would
    /// read worse than the input (structs typed across blocks read other neighbours) is
    /// refused by `compile`'s verification, never returned.
    #[test]
    fn any_graph_compiles(dat in graph()) {
        let parsed = Dat::parse(&dat.write().unwrap()).unwrap();
        for order in [Order::ColosseumXd, Order::Melee] {
            let c = match compile_as(&parsed, Some(order)) {
                Err(e) if e.to_string().contains("compile refused") => continue,
                c => c.unwrap(),
            };
            let out = c.write().unwrap();
            let again = Dat::parse(&out).unwrap();
            prop_assert_eq!(&again.write().unwrap(), &out);
            prop_assert_eq!(again.roots.len(), parsed.roots.len());
            let ptrs = |d: &Dat| d.blocks.iter().map(|b| b.pointers.len()).sum::<usize>();
            prop_assert_eq!(ptrs(&c), ptrs(&parsed));
            prop_assert_eq!(&compile_as(&again, Some(order)).unwrap().write().unwrap(), &out);
            let found = detect(&again).unwrap();
            prop_assert!(
                found == Detection::Compiled(order) || found == Detection::Either,
                "compiled as {:?}, detected {:?}", order, found
            );
            prop_assert_eq!(compile(&again).unwrap().write().unwrap(), out);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..512)) {
        fuzz_hsd_dat(&data);
    }

    #[test]
    fn mutated_samples_never_panic(pos in any::<prop::sample::Index>(), v in any::<u32>(), which in 0usize..3) {
        let mut b = match which {
            0 => hsd_dat::build::mextk_minimal().write().unwrap(),
            1 => hsd_dat::build::melee_joint().unwrap().write().unwrap(),
            _ => hsd_dat::build::xd_model(Default::default()).unwrap().write().unwrap(),
        };
        let i = pos.index(b.len() - 3);
        b[i..i + 4].copy_from_slice(&v.to_be_bytes());
        fuzz_hsd_dat(&b);
    }
}
