#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Real textures (J3D TEX1 and BTI in the corpus, loose and inside Yaz0 RARC archives, and the
//! images of HSD models) re-encode from their decoded pixels: the lossless formats to the same bytes, CMPR exactly per sub-block
//! through `cmpr::encode_exact`.

use gx::tex::{
    self, Image, Palette, PaletteFormat, TexFormat, cmpr, level_dims, level_offset, level_size,
};
use j3d_bmd::{Bmd, Bti, TextureSet};

/// One stored texture: where it came from, its shape, image and palette bytes.
struct Real {
    name: String,
    format: TexFormat,
    width: u32,
    height: u32,
    levels: u32,
    palette_format: PaletteFormat,
    image: Vec<u8>,
    palette: Vec<u8>,
}

fn push_set(out: &mut Vec<Real>, name: &str, set: &TextureSet) {
    for (i, t) in set.textures.iter().enumerate() {
        let h = &t.header;
        if let Some(image) = set.image(i) {
            out.push(Real {
                name: format!("{name}#{i}"),
                format: TexFormat(h.format),
                width: u32::from(h.width),
                height: u32::from(h.height),
                levels: u32::from(h.image_count.max(1)),
                palette_format: PaletteFormat(h.palette_format),
                image: image.to_vec(),
                palette: set.palette(i).unwrap_or_default().to_vec(),
            });
        }
    }
}

/// The first level of every image an HSD file's TObjs and texture animations use.
fn push_hsd(out: &mut Vec<Real>, name: &str, data: &[u8]) {
    let a = hsd_dat::parse(data).unwrap();
    let d = a.data();
    for (i, t) in a.textures(&a.graph()).iter().enumerate() {
        let img: hsd_dat::Image = a.read(t.image).unwrap();
        let (format, width, height) = (
            TexFormat(img.format as u8),
            u32::from(img.width),
            u32::from(img.height),
        );
        let size = level_size(format, width, height).unwrap();
        let image = d.bytes(img.data.unwrap() as usize, size).unwrap().to_vec();
        let (palette_format, palette) = match t.palette {
            Some(p) => {
                let pal: hsd_dat::Palette = a.read(p).unwrap();
                let n = usize::from(pal.n_entries) * 2;
                let bytes = d.bytes(pal.data.unwrap() as usize, n).unwrap().to_vec();
                (PaletteFormat(pal.format as u8), bytes)
            }
            None => (PaletteFormat(0), Vec::new()),
        };
        out.push(Real {
            name: format!("{name}#{i}"),
            format,
            width,
            height,
            levels: 1,
            palette_format,
            image,
            palette,
        });
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

/// Every texture of the corpus (J3D models and BTI files, loose and in archives, HSD images);
/// `None` without the corpus.
fn corpus(who: &str) -> Option<Vec<Real>> {
    let real = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real", who)?;
    let mut out = Vec::new();
    let mut files = 0;
    for p in ["j3d", "bti"]
        .iter()
        .flat_map(|d| gcio::corpus::files(&real.join(d)))
    {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        files += usize::from(push_file(&mut out, &name, &std::fs::read(&p).unwrap()));
    }
    for p in gcio::corpus::files(&real.join("hsd")) {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        push_hsd(&mut out, &name, &std::fs::read(&p).unwrap());
        files += 1;
    }
    for (file, member, data) in gcio::corpus::members(&real.join("rarc"), |b| {
        rarc::layer::members(b).ok().flatten()
    }) {
        let file = file.rsplit('/').next().unwrap_or_default().to_string();
        files += usize::from(push_file(&mut out, &format!("{file}:{member}"), &data));
    }
    eprintln!("{} textures from {files} files", out.len());
    // The corpus's 4 J3D models, 1 BTI, 6 HSD files and 23 models and BTIs in archives.
    assert_eq!((files, out.len()), (34, 302));
    Some(out)
}

/// Each level of `t`: (level bytes, padded width, height), decoded at the padded size.
fn levels(t: &Real) -> Vec<(&[u8], u32, u32, Image)> {
    let f = t.format;
    let (w, ht) = (t.width, t.height);
    let palette = Palette::new(t.palette_format, &t.palette);
    (0..t.levels)
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

/// CMPR tallies of one family of files.
#[derive(Debug, Default)]
struct Cmpr {
    textures: usize,
    identical: usize,
    subs: usize,
    exact: usize,
    same: usize,
    /// Byte-identical with each texture's own flat form (`cmpr::flat_form`).
    same_own: usize,
}

#[test]
fn cmpr_re_encodes_exactly() {
    let Some(all) = corpus("gx CMPR re-encoding") else {
        return;
    };
    // J3D/BTI (Nintendo's encoders), HSD (HAL's).
    let mut tally = [Cmpr::default(), Cmpr::default()];
    for t in all.iter().filter(|t| t.format == TexFormat::CMPR) {
        let hal = t.name.contains(".dat#");
        let c = &mut tally[usize::from(hal)];
        let flat = if hal {
            cmpr::Flat::Hal
        } else {
            cmpr::Flat::Black
        };
        c.textures += 1;
        let mut all_same = true;
        for (bytes, w, h, img) in levels(t) {
            let own = cmpr::flat_form(bytes).unwrap_or(flat);
            let enc_own = cmpr::encode_exact_with(&img, own).unwrap();
            c.same_own += enc_own
                .data
                .chunks_exact(8)
                .zip(bytes.chunks_exact(8))
                .filter(|(a, b)| a == b)
                .count();
            let enc = cmpr::encode_exact_with(&img, flat).unwrap();
            let back = tex::decode(TexFormat::CMPR, w, h, &enc.data, None).unwrap();
            let blocks_x = w.div_ceil(8);
            let n = bytes.len() / 8;
            c.subs += n;
            c.exact += n - enc.inexact.len();
            for i in 0..n {
                c.same += usize::from(enc.data[8 * i..8 * i + 8] == bytes[8 * i..8 * i + 8]);
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
        c.identical += usize::from(all_same);
    }
    assert_eq!(tally.each_ref().map(|c| c.textures), [68, 77]);
    for (family, c) in ["J3D/BTI", "HSD"].iter().zip(&tally) {
        eprintln!(
            "CMPR {family}: {} textures, {} byte-identical; {} sub-blocks, {} exact, {} byte-identical ({} with each texture's flat form)",
            c.textures, c.identical, c.subs, c.exact, c.same, c.same_own
        );
        assert!(
            c.exact * 1000 >= c.subs * 999,
            "{family}: {} of {}",
            c.exact,
            c.subs
        );
    }
    // Not byte-identical: the unused second endpoint of flat sub-blocks (Nintendo's encoders
    // mostly write black, some one blue step; HSD files made by other tools than HAL's, such
    // as Chibi-Robo's, one blue step up in three-colour mode), flat black's two forms. HSD
    // files are encoded with `Flat::Hal` (89.1 % byte-identical with `Flat::Black`, 97.7 %),
    // and with the form each texture's own flat sub-blocks show (`flat_form`, what the HSD
    // export records) 99.2 %: cb_plug's blue steps, the rest blended flat sub-blocks.
    let [j3d, hsd] = &tally;
    assert!(
        hsd.same_own * 1000 >= hsd.subs * 991,
        "{} of {}",
        hsd.same_own,
        hsd.subs
    );
    assert!(
        j3d.same * 100 >= j3d.subs * 97,
        "{} of {}",
        j3d.same,
        j3d.subs
    );
    assert!(
        hsd.same * 1000 >= hsd.subs * 976,
        "{} of {}",
        hsd.same,
        hsd.subs
    );
}

#[test]
fn lossless_formats_re_encode_to_the_same_bytes() {
    let Some(all) = corpus("gx lossless re-encoding") else {
        return;
    };
    let mut counts: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let mut alpha7 = 0;
    for t in &all {
        let f = t.format;
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
    assert_eq!(counts.values().map(|c| c.0).sum::<usize>(), 157);
}
