//! Prints a KCL file's header, pool sizes, octree shape and validator findings:
//! `cargo run -p gcformats-kcl --example kcl_info -- stage.kcl [--triangles]`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: kcl_info FILE.kcl [--triangles]")?;
    let tris = args.next().as_deref() == Some("--triangles");
    let data = std::fs::read(&path)?;
    let k = kcl::Kcl::parse(&data)?;
    println!("{path}: {} bytes", data.len());
    println!("header: {:?}", k.header);
    println!(
        "positions {}, normals {}, prisms {}, root cells {}, blocks {}, list entries {}",
        k.positions.len(),
        k.normals.len(),
        k.prisms.len(),
        k.octree.root.len(),
        k.octree.blocks.len(),
        k.octree.lists.len()
    );
    let cells = k.cells();
    let depth = cells.iter().map(|c| c.depth).max().unwrap_or(0);
    println!("leaves {}, deepest {depth}", cells.len());
    if tris {
        for (i, (t, a)) in k.triangles().iter().enumerate() {
            println!("prism {i} attr {a}: {t:?}");
        }
    }
    for d in kcl::validate(&data) {
        println!("{d}");
    }
    Ok(())
}
