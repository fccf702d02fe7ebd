#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Real textures (J3D TEX1 and BTI in the corpus, loose and inside Yaz0 RARC archives) re-encode
//! from their decoded pixels: the lossless formats to the same bytes, CMPR exactly per sub-block
//! through `cmpr::encode_exact`.

use gx::tex::{
    self, Image, Palette, PaletteFormat, TexFormat, cmpr, level_dims, level_offset, level_size,
};
use j3d_bmd::{Bmd, Bti, BtiHeader, TextureSet};

/// One stored texture: where it came from, its header, image and palette bytes.
struct Real {
    name: String,
    header: BtiHeader,
    image: Vec<u8>,
    palette: Vec<u8>,
}

fn push_set(out: &mut Vec<Real>, name: &str, set: &TextureSet) {
    for (i, t) in set.textures.iter().enumerate() {
        if let Some(image) = set.image(i) {
            out.push(Real {
                name: format!("{name}#{i}"),
                header: t.header,
                image: image.to_vec(),
                palette: set.palette(i).unwrap_or_default().to_vec(),
            });
        }
    }
}

fn push_file(out: &mut Vec<Real>, name: &str, data: &[u8]) -> bool {
    if j3d_bmd::detect(data).is_some()
        && let Ok(m) = Bmd::parse(data)
    {
        if let Some(t) = m.tex1() {
            push_set(out, name, &t.set);
        }
        return true;
    }
    if name.ends_with(".bti")
        && let Ok(b) = Bti::parse(data)
    {
        push_set(out, name, &b.set);
        return true;
    }
    false
}

/// Every texture of the corpus (J3D models and BTI files, loose and in archives).
fn corpus() -> Vec<Real> {
    let mut out = Vec::new();
    let mut files = 0;
    let here = env!("CARGO_MANIFEST_DIR");
    for sub in ["real/j3d", "real/bti"] {
        if let Some(dir) = gcio::corpus::dir(here, sub, "gx real textures") {
            for p in gcio::corpus::files(&dir) {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                files += usize::from(push_file(&mut out, &name, &std::fs::read(&p).unwrap()));
            }
        }
    }
    if let Some(dir) = gcio::corpus::dir(here, "real/rarc", "gx real textures in archives") {
        for (file, member, data) in
            gcio::corpus::members(&dir, |b| rarc::layer::members(b).ok().flatten())
        {
            let file = file.rsplit('/').next().unwrap_or_default().to_string();
            files += usize::from(push_file(&mut out, &format!("{file}:{member}"), &data));
        }
    }
    eprintln!("{} textures from {files} files", out.len());
    out
}

/// Each level of `t`: (level bytes, padded width, height), decoded at the padded size.
fn levels(t: &Real) -> Vec<(&[u8], u32, u32, Image)> {
    let h = &t.header;
    let f = TexFormat(h.format);
    let (w, ht) = (u32::from(h.width), u32::from(h.height));
    let palette = Palette::new(PaletteFormat(h.palette_format), &t.palette);
    (0..u32::from(h.image_count.max(1)))
        .map(|l| {
            let (lw, lh) = level_dims(w, ht, l);
            let off = level_offset(f, w, ht, l).unwrap();
            let bytes = &t.image[off..off + level_size(f, lw, lh).unwrap()];
            let (pw, ph) = f.padded(lw, lh).unwrap();
            let pal = f.is_indexed().then_some(palette);
            (bytes, pw, ph, tex::decode(f, pw, ph, bytes, pal).unwrap())
        })
        .collect()
}

#[test]
fn cmpr_re_encodes_exactly() {
    let all = corpus();
    let (mut textures, mut identical, mut subs, mut exact, mut same_subs) = (0, 0, 0, 0, 0);
    for t in all
        .iter()
        .filter(|t| TexFormat(t.header.format) == TexFormat::CMPR)
    {
        textures += 1;
        let mut all_same = true;
        for (bytes, w, h, img) in levels(t) {
            let enc = cmpr::encode_exact(&img).unwrap();
            let back = tex::decode(TexFormat::CMPR, w, h, &enc.data, None).unwrap();
            let blocks_x = w.div_ceil(8);
            let n = bytes.len() / 8;
            subs += n;
            exact += n - enc.inexact.len();
            for i in 0..n {
                same_subs += usize::from(enc.data[8 * i..8 * i + 8] == bytes[8 * i..8 * i + 8]);
                if enc.inexact.contains(&(i as u32)) {
                    continue;
                }
                let (b, s) = (i as u32 / 4, i as u32 % 4);
                let x0 = (b % blocks_x) * 8 + (s & 1) * 4;
                let y0 = (b / blocks_x) * 8 + (s >> 1) * 4;
                for y in y0..y0 + 4 {
                    for x in x0..x0 + 4 {
                        assert_eq!(
                            back.pixel(x, y),
                            img.pixel(x, y),
                            "{} sub-block {i}",
                            t.name
                        );
                    }
                }
            }
            all_same &= enc.data == bytes;
        }
        identical += usize::from(all_same);
    }
    eprintln!(
        "CMPR: {textures} textures, {identical} byte-identical; {subs} sub-blocks, {exact} exact, {same_subs} byte-identical"
    );
    // 68 textures, 135,632 sub-blocks when the corpus is complete.
    assert!(textures >= 60, "{textures}");
    // Inexact: both endpoints appear in no texel. Not byte-identical: the unused second endpoint
    // of flat sub-blocks and the encoders' two ways of writing flat black.
    assert!(exact * 1000 >= subs * 999, "{exact} of {subs}");
    assert!(same_subs * 100 >= subs * 97, "{same_subs} of {subs}");
}

#[test]
fn lossless_formats_re_encode_to_the_same_bytes() {
    let all = corpus();
    let mut counts: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let mut alpha7 = 0;
    for t in &all {
        let f = TexFormat(t.header.format);
        if f == TexFormat::CMPR {
            continue;
        }
        let mut same = true;
        for (bytes, w, h, img) in levels(t) {
            let enc = if f.is_indexed() {
                let idx = tex::decode_indices(f, w, h, bytes).unwrap();
                tex::encode_indices(f, w, h, &idx).unwrap()
            } else {
                tex::encode(f, &img).unwrap()
            };
            if enc != bytes && f == TexFormat::RGB5A3 {
                // The one ambiguity: an alpha-7 A3RGB444 texel decodes like an RGB555 one, and
                // the encoder writes the RGB555 form.
                for (a, b) in enc.chunks_exact(2).zip(bytes.chunks_exact(2)) {
                    if a != b {
                        assert_eq!(b[0] & 0xF0, 0x70, "{}", t.name);
                        alpha7 += 1;
                    }
                }
                continue;
            }
            same &= enc == bytes;
        }
        let c = counts.entry(f.name().unwrap()).or_default();
        c.0 += 1;
        c.1 += usize::from(same);
        assert!(same, "{}: {} does not re-encode", t.name, f.name().unwrap());
    }
    eprintln!(
        "lossless re-encoding (textures, identical): {counts:?}; RGB5A3 alpha-7 texels: {alpha7}"
    );
    assert!(counts.values().map(|c| c.0).sum::<usize>() >= 80);
}
