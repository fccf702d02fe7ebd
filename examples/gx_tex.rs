//! Decodes a raw GX texture to a PAM image (netpbm RGBA, viewable with most image tools):
//! `cargo run --example gx_tex --features gx -- FORMAT WIDTH HEIGHT in.bin out.pam [PALFMT pal.bin]`.
//! Without arguments it encodes the built-in test pattern as CMPR, decodes it and reports PSNR.

use gcformats::gx::tex::{self, Image, Palette, PaletteFormat, TexFormat};

fn write_pam(path: &str, img: &Image) -> std::io::Result<()> {
    let header = format!(
        "P7\nWIDTH {}\nHEIGHT {}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
        img.width(),
        img.height()
    );
    std::fs::write(path, [header.as_bytes(), img.as_rgba8()].concat())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [format, width, height, input, output, rest @ ..] = args.as_slice() else {
        let img = Image::test_pattern(128, 128, false)?;
        for format in TexFormat::ALL {
            let enc = tex::encode_mips(format, std::slice::from_ref(&img), &Default::default())?;
            let pal = Palette::new(PaletteFormat::RGB5A3, &enc.palette);
            let back = tex::decode(format, 128, 128, &enc.data, Some(pal))?;
            println!(
                "{:6}: {:6} bytes, PSNR {:.2} dB",
                format.name().unwrap_or("?"),
                enc.data.len(),
                tex::psnr(&img, &back)?
            );
        }
        return Ok(());
    };
    let format = TexFormat::from_name(format).ok_or("unknown texture format")?;
    let data = std::fs::read(input)?;
    let pal_data = match rest {
        [_, path] => std::fs::read(path)?,
        _ => Vec::new(),
    };
    let palette = match rest.first() {
        Some(name) => Some(Palette::new(
            PaletteFormat::from_name(name).ok_or("unknown palette format")?,
            &pal_data,
        )),
        None => None,
    };
    let img = tex::decode(format, width.parse()?, height.parse()?, &data, palette)?;
    write_pam(output, &img)?;
    println!("wrote {}x{} {output}", img.width(), img.height());
    Ok(())
}
