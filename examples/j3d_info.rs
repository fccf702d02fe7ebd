//! Prints a J3D model's chunks, skeleton and shapes: `cargo run --example j3d_info --features
//! j3d-bmd -- model.bdl` (without an argument it builds the skinned sample).
#![allow(clippy::unwrap_used)]

use gcformats::j3d_bmd::{self, build};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data = match std::env::args().nth(1) {
        Some(path) => std::fs::read(path)?,
        None => build::skinned_bmd().write()?,
    };
    let view = j3d_bmd::parse(&data)?;
    println!(
        "{} with {} chunks",
        String::from_utf8_lossy(&view.magic()),
        view.chunks().len()
    );
    for c in view.chunks() {
        println!(
            "  {} at {:#x}, {:#x} bytes",
            c.name(),
            c.offset(),
            c.data.len()
        );
    }
    let skel = j3d_bmd::skeleton(&view)?;
    for (i, (p, w)) in skel.parents.iter().zip(&skel.world).enumerate() {
        println!(
            "joint {i}: parent {p:?}, world position ({}, {}, {})",
            w[0][3], w[1][3], w[2][3]
        );
    }
    let mesh = j3d_bmd::geometry(&view)?;
    for s in &mesh.shapes {
        println!(
            "shape {}: matrix type {}, {} vertices, {} triangles",
            s.index,
            s.matrix_type.0,
            s.vertices.len(),
            s.triangles.len()
        );
    }
    for d in j3d_bmd::validate(&data) {
        println!("{d}");
    }
    Ok(())
}
