#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The compiler-order builder: every sample rebuilds into an archive that re-parses to the same
//! structs, a compiled archive is a fixed point (BNB 100 %), and the BNB of each rebuild against
//! its original is printed (`cargo test -p hsd-dat --test compile -- --nocapture`).

use hsd_dat::Dat;
use hsd_dat::compare::{bnb, compare};
use hsd_dat::compile::compile;

#[test]
fn samples_rebuild() {
    for (name, bytes) in hsd_dat::build::samples().unwrap() {
        let Ok(dat) = Dat::parse(&bytes) else {
            continue;
        };
        if name.contains("broken") {
            continue;
        }
        let Ok(c) = compile(&dat) else {
            eprintln!("{name}: does not compile");
            continue;
        };
        let out = c.write().unwrap();
        // Re-parses, byte for byte, to an archive with the same structs.
        let again = Dat::parse(&out).unwrap();
        assert_eq!(again.write().unwrap(), out, "{name}");
        let cmp = compare(&bytes, &out).unwrap();
        assert_eq!(cmp.nbn_percent(), 100.0, "{name}: {:?}", cmp.nbn);
        // Compiler order is a fixed point: rebuilding a compiled archive changes nothing.
        let twice = compile(&again).unwrap().write().unwrap();
        assert_eq!(bnb(&out, &twice), 100.0, "{name}");
        assert_eq!(twice, out, "{name}");
        eprintln!(
            "{name}: BNB {:.2} % NBN {:.2} % ({} -> {} bytes)",
            cmp.bnb,
            cmp.nbn_percent(),
            bytes.len(),
            out.len()
        );
        for r in &cmp.regions {
            eprintln!("  {:?} {:?} {:.2}", r.phase, r.bytes, r.bnb);
        }
    }
}
