//! `gx::tex` decoding against an independent implementation: the crates.io crate `gctex` (a Rust
//! port of Dolphin's texture decoder; GPL-2.0-or-later, so a dev-dependency of this test only and
//! never linked into a library or the CLI). Every format and palette format must give the same
//! RGBA8 pixels on random data of awkward sizes, and on every texture of the shared real files
//! (standalone BTI, BTI members of the Galaxy archives, TEX1 chunks of BMD/BDL models). The real
//! textures are found by reading the documented header bytes here, not through our parsers.
#![cfg(all(feature = "gx", feature = "rarc"))]
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::expect_used,
    clippy::panic,
    missing_docs
)]

use std::path::PathBuf;

use gcformats::gx::tex::{self, Palette, PaletteFormat, TexFormat};

fn oracle_format(f: TexFormat) -> gctex::TextureFormat {
    gctex::TextureFormat::from_u32(u32::from(f.0)).expect("every GX format is known to gctex")
}

/// Decodes with both implementations and asserts equal pixels; `what` names the texture.
fn agree(
    what: &str,
    f: TexFormat,
    w: u32,
    h: u32,
    data: &[u8],
    pal: Option<(PaletteFormat, &[u8])>,
) {
    let ours = tex::decode(f, w, h, data, pal.map(|(pf, d)| Palette::new(pf, d)))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let (tlut, tlut_format) = pal.map_or((&[][..], 0), |(pf, d)| (d, u32::from(pf.0)));
    let theirs = gctex::decode(data, w, h, oracle_format(f), tlut, tlut_format);
    let ours = ours.as_rgba8();
    if ours != theirs.as_slice() {
        let px = ours
            .chunks(4)
            .zip(theirs.chunks(4))
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{what}: {} {w}x{h} differs first at pixel {px} ({}, {}): ours {:?}, gctex {:?}",
            f.name().unwrap_or("?"),
            px as u32 % w,
            px as u32 / w,
            &ours[px * 4..px * 4 + 4],
            &theirs[px * 4..px * 4 + 4]
        );
    }
}

/// xorshift64*: reproducible pseudo-random bytes without a dependency.
fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

#[test]
fn every_format_matches_gctex_on_random_blocks() {
    // Block-aligned, odd and one-pixel sizes: the untiling of partial blocks is where decoders differ.
    let sizes = [(8, 8), (16, 4), (13, 7), (1, 1), (33, 17), (64, 64)];
    let mut seed = 1;
    for f in TexFormat::ALL {
        for (w, h) in sizes {
            seed += 1;
            let len = tex::level_size(f, w, h).unwrap();
            let data = random_bytes(seed, len);
            if f.is_indexed() {
                let entries = match f {
                    TexFormat::C4 => 16,
                    TexFormat::C8 => 256,
                    _ => 1 << 14,
                };
                for pf in PaletteFormat::ALL {
                    let pal = random_bytes(seed ^ 0xFF, entries * 2);
                    agree("random", f, w, h, &data, Some((pf, &pal)));
                }
            } else {
                agree("random", f, w, h, &data, None);
            }
        }
    }
}

fn real() -> Option<PathBuf> {
    gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "real",
        "gx oracle on real textures",
    )
}

fn be16(d: &[u8], at: usize) -> u32 {
    u32::from(u16::from_be_bytes([d[at], d[at + 1]]))
}

fn be32(d: &[u8], at: usize) -> usize {
    u32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]]) as usize
}

/// Checks every mip level of the texture whose 32-byte BTI header is at `header` in `file`; image
/// and palette offsets count from `base` (the header itself in TEX1 and in BTI files). An image
/// offset of 0 in a standalone BTI means "right after the header". Returns the levels checked.
fn check_bti_header(what: &str, file: &[u8], header: usize, base: usize) -> usize {
    let h = &file[header..header + 32];
    let f = TexFormat(h[0]);
    let (w, hgt) = (be16(h, 2), be16(h, 4));
    let pal_format = PaletteFormat(h[9]);
    let pal_entries = be16(h, 10) as usize;
    let pal_at = base + be32(h, 12);
    let mips = u32::from(h[0x18]).max(1);
    let image_at = base + be32(h, 0x1C).max(32);
    let pal = f
        .is_indexed()
        .then(|| (pal_format, &file[pal_at..pal_at + 2 * pal_entries]));
    let mut at = image_at;
    for level in 0..mips {
        let (lw, lh) = tex::level_dims(w, hgt, level);
        let len = tex::level_size(f, lw, lh).unwrap();
        if at + len > file.len() {
            break;
        }
        agree(
            &format!("{what} level {level}"),
            f,
            lw,
            lh,
            &file[at..at + len],
            pal,
        );
        at += len;
    }
    mips as usize
}

/// Every texture in a BMD/BDL's TEX1 chunk (chunks follow the 0x20-byte file header).
fn check_tex1(what: &str, model: &[u8]) -> usize {
    let mut at = 0x20;
    let mut n = 0;
    while at + 8 <= model.len() {
        let size = be32(model, at + 4);
        if &model[at..at + 4] == b"TEX1" {
            let count = be16(model, at + 8) as usize;
            let headers = at + be32(model, at + 0xC);
            for i in 0..count {
                let hdr = headers + 32 * i;
                n += check_bti_header(&format!("{what} texture {i}"), model, hdr, hdr);
            }
        }
        if size == 0 {
            break;
        }
        at += size;
    }
    n
}

fn check_file(what: &str, data: &[u8]) -> usize {
    if data.starts_with(b"Yaz0") {
        return check_file(what, &gcformats::yaz0::decode(data).unwrap());
    }
    if data.starts_with(b"RARC") {
        let v = gcformats::rarc::parse(data).unwrap();
        let (_, files) = v.walk().unwrap();
        return files
            .iter()
            .map(|f| {
                check_file(
                    &format!("{what}:{}", f.path),
                    &v.decompressed(&f.entry).unwrap(),
                )
            })
            .sum();
    }
    if data.starts_with(b"J3D2bmd") || data.starts_with(b"J3D2bdl") {
        return check_tex1(what, data);
    }
    let lower = what.to_ascii_lowercase();
    if lower.ends_with(".bti") {
        return check_bti_header(what, data, 0, 0);
    }
    0
}

#[test]
fn real_textures_match_gctex() {
    let Some(root) = real() else { return };
    let files: Vec<PathBuf> = ["bti", "j3d", "rarc"]
        .iter()
        .flat_map(|sub| gcformats::gcio::corpus::files(&root.join(sub)))
        .collect();
    let levels: usize = files
        .iter()
        .map(|p| check_file(&p.display().to_string(), &std::fs::read(p).unwrap()))
        .sum();
    // The shared set holds a standalone BTI, four retail models and Galaxy archives full of
    // textures: far more than 100 levels; fewer means the walk above lost them.
    assert!(levels > 100, "only {levels} texture levels found");
}
