//! Decodes a `.bti` texture (every GX format, palettes, mips) to PNG: `cargo run --example
//! bti_to_png --features j3d-bmd -- in.bti out.png [level]`. Without arguments it converts the
//! built-in C8 sample to `bti_sample.png` in the temp directory.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use gcformats::j3d_bmd::{Bti, build};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (data, out) = match args.as_slice() {
        [input, output, ..] => (std::fs::read(input).expect("read input"), output.into()),
        _ => {
            let (set, _) = build::textures();
            let t = &set.textures[3];
            let bti = Bti::new(t.header, set.image(3).unwrap(), set.palette(3));
            (
                bti.write().unwrap(),
                std::env::temp_dir().join("bti_sample.png"),
            )
        }
    };
    let level: usize = args.get(2).and_then(|l| l.parse().ok()).unwrap_or(0);
    let bti = Bti::parse(&data).expect("parse BTI");
    let h = bti.header().copied().unwrap_or_default();
    let levels = bti.decode().expect("decode");
    let img = &levels[level.min(levels.len() - 1)];
    println!(
        "format {:#x}, {}x{}, {} level(s); writing level {} ({}x{}) to {}",
        h.format,
        h.width,
        h.height,
        levels.len(),
        level,
        img.width(),
        img.height(),
        std::path::Path::new(&out).display()
    );
    let png = gcformats::j3d_bmd::gx::png::encode(img).expect("encode PNG");
    std::fs::write(&out, png).expect("write output");
}
