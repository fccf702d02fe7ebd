//! KCL collision to OBJ and back: `cargo run --example kcl_obj --features kcl -- in.kcl out.obj`
//! exports the prisms' triangles; `-- in.obj out.kcl` builds a collision file with the default
//! octree settings and prints the validator's findings.

use gcformats::kcl;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        return Err("usage: kcl_obj IN.kcl OUT.obj | IN.obj OUT.kcl".into());
    };
    let data = std::fs::read(input)?;
    if input.to_ascii_lowercase().ends_with(".obj") {
        let tris = kcl::obj::from_obj(std::str::from_utf8(&data)?)?;
        let k = kcl::build::build(&tris, &kcl::build::Options::default())?;
        let bytes = k.write()?;
        for d in kcl::validate(&bytes) {
            println!("{d}");
        }
        println!(
            "{} triangles -> {} prisms, {} bytes",
            tris.len(),
            k.prisms.len(),
            bytes.len()
        );
        std::fs::write(output, bytes)?;
    } else {
        let k = kcl::Kcl::parse(&data)?;
        std::fs::write(output, kcl::obj::to_obj(&k))?;
        println!("{} prisms -> {output}", k.prisms.len());
    }
    Ok(())
}
