//! Prints every block of a sysdolphin `.dat` in file order with the kinds the typed graph gives
//! it, its phase and size: the listing the compiler-order rules were derived from.
//!
//! `cargo run -p gcformats-hsd-dat --example dat_layout -- model.dat`

use std::collections::HashMap;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: dat_layout FILE")?;
    let bytes = std::fs::read(path)?;
    let a = hsd_dat::parse(&bytes)?;
    let g = a.graph();
    let mut kinds: HashMap<u32, Vec<String>> = HashMap::new();
    for n in &g.nodes {
        kinds
            .entry(n.offset)
            .or_default()
            .push(format!("{:?}", n.kind));
    }
    let dat = hsd_dat::Dat::parse(&bytes)?;
    let phases = hsd_dat::compile::block_phases(&dat)?;
    let ext = a.extents()?;
    let starts: Vec<u32> = ext.iter().map(|e| e.offset).collect();
    let mut refs: HashMap<u32, Vec<String>> = HashMap::new();
    for slot in a.relocations() {
        if let Ok(t) = a.data().u32(slot as usize) {
            let owner = match starts.binary_search(&slot) {
                Ok(i) => i,
                Err(i) => i.saturating_sub(1),
            };
            let o = starts.get(owner).copied().unwrap_or(0);
            refs.entry(t)
                .or_default()
                .push(format!("{o:#x}+{:#x}", slot - o));
        }
    }
    for (e, (p, _)) in ext.iter().zip(&phases) {
        let k = kinds
            .get(&e.offset)
            .map(|v| v.join(","))
            .unwrap_or_default();
        let r = refs.get(&e.offset).map(|v| v.join(" ")).unwrap_or_default();
        println!(
            "{:#07x} {:6} {:<18} {k:<14} <- {r}",
            e.offset,
            e.size,
            format!("{p:?}")
        );
    }
    Ok(())
}
