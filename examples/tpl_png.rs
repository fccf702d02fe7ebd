//! Lists a TPL's images and writes each one's first level as `<out>/<i>.png`.
//!
//! ```text
//! cargo run --example tpl_png --features tpl -- MyIcon.tpl out/
//! ```
#![allow(clippy::print_stdout)]

use gcformats::tpl;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, out] = args.as_slice() else {
        return Err("usage: tpl_png FILE.tpl OUT_DIR".into());
    };
    let data = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let lib = tpl::Tpl::parse(&data).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(out).map_err(|e| format!("{out}: {e}"))?;
    for (i, e) in lib.images.iter().enumerate() {
        let h = &e.header;
        println!(
            "{i}: {}x{} format {:#x}, {} level(s)",
            h.width,
            h.height,
            h.format,
            h.levels()
        );
        let tex = e.texture().ok_or("unknown texture format")?;
        let img = tex.decode_level(0).map_err(|e| e.to_string())?;
        let png = gcformats::gx::png::encode(&img).map_err(|e| e.to_string())?;
        let path = format!("{out}/{i}.png");
        std::fs::write(&path, png).map_err(|e| format!("{path}: {e}"))?;
    }
    for d in tpl::validate(&data) {
        println!("{d}");
    }
    Ok(())
}
