//! Prints what a sysdolphin `.dat` holds: header, roots and their types, struct counts, joints,
//! meshes and textures, then the validator's findings.
//!
//! `cargo run --example dat_info --features hsd-dat -- model.dat` (without a path it builds the
//! XD-style sample model).

use std::collections::BTreeMap;

use gcformats::hsd_dat::{self, build, parse};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bytes = match std::env::args().nth(1) {
        Some(p) => std::fs::read(p)?,
        None => build::xd_model(build::XdOptions::default())?.write()?,
    };
    let a = parse(&bytes)?;
    let h = a.header();
    println!(
        "file_size {:#x}, data {:#x}, {} relocations, {} roots, {} externs",
        h.file_size.get(),
        a.data_size(),
        h.nb_reloc.get(),
        h.nb_public.get(),
        h.nb_extern.get()
    );
    for r in a.roots() {
        println!(
            "root {:<24} @ {:#07x}  {:?}",
            String::from_utf8_lossy(r.name),
            r.offset,
            r.kind()
        );
    }
    let g = a.graph();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for n in &g.nodes {
        *counts.entry(format!("{:?}", n.kind)).or_default() += 1;
    }
    println!("structs: {counts:?}");
    let world = a.world_matrices(&g);
    for (i, j) in g.joints.iter().enumerate() {
        let t = world.get(i).map(|m| m.map(|r| r[3])).unwrap_or_default();
        println!(
            "joint {i:3} @ {:#07x} parent {:?} flags {:?} world pos {t:?}",
            j.offset, j.parent, j.joint.flags
        );
    }
    for p in &g.pobjs {
        let m = a.mesh(&g, p)?;
        println!(
            "mesh @ {:#07x} on joint {}: {:?}, {} vertices, {} triangles, {} palette slots",
            p.offset,
            p.joint,
            p.pobj.flags.kind(),
            m.vertices.len(),
            m.triangles.len(),
            m.palette.len()
        );
    }
    for &i in &g.images {
        let img: hsd_dat::Image = a.read(i)?;
        println!(
            "image @ {i:#07x}: {}x{} GX format {}",
            img.width, img.height, img.format
        );
    }
    for e in &g.errors {
        println!("graph error: {e}");
    }
    for d in hsd_dat::validate_view(&a) {
        println!("{d}");
    }
    Ok(())
}
