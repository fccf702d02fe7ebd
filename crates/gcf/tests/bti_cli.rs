//! `gcf convert x.png y.bti`: `-o like=orig.bti` keeps the original's format, wrap, filters, LOD
//! settings and mip count; option keys the conversion does not take are refused with the valid
//! ones listed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod support;

use support::gcf_text as gcf;

use std::path::{Path, PathBuf};

use j3d_bmd::gx::tex::{Image, PaletteFormat, TexFormat};
use j3d_bmd::{Bti, BtiHeader, build};
use support::scratch as temp_dir;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A 16×8 colour gradient as PNG.
fn write_png(dir: &Path) -> PathBuf {
    let px = (0..16 * 8u32)
        .map(|i| [(i * 2) as u8, (255 - i) as u8, (i * 7) as u8, 255])
        .collect();
    let img = Image::new(16, 8, px).unwrap();
    let p = dir.join("new.png");
    std::fs::write(&p, j3d_bmd::gx::png::encode(&img).unwrap()).unwrap();
    p
}

/// An original whose every kept setting differs from what a plain PNG → BTI conversion writes
/// (CMPR, 1 level, repeat, linear filters, LOD 0).
fn original() -> BtiHeader {
    BtiHeader {
        wrap_s: 2,
        wrap_t: 0,
        min_filter: 3,
        mag_filter: 0,
        min_lod: 8,
        max_lod: 16,
        lod_bias: -30,
        max_aniso: 1,
        palette_format: PaletteFormat::RGB565.0,
        ..build::bti_header(TexFormat::C8.0, 32, 3)
    }
}

#[test]
fn like_keeps_format_wrap_filters_lod_and_mips() {
    let dir = temp_dir("like");
    let png = write_png(&dir);
    let px = (0..32 * 32u32).map(|i| [i as u8, 0, 0, 255]).collect();
    let orig = Bti::encode_like(&Image::new(32, 32, px).unwrap(), &original()).unwrap();
    let orig_path = dir.join("orig.bti");
    std::fs::write(&orig_path, orig.write().unwrap()).unwrap();

    let out = dir.join("new.bti");
    let like = format!("like={}", s(&orig_path));
    let (ok, text) = gcf(&["convert", s(&png), s(&out), "-o", &like]);
    assert!(ok, "{text}");
    let made = Bti::parse(&std::fs::read(&out).unwrap()).unwrap();
    let h = *made.header().unwrap();
    let o = original();
    assert_eq!((h.width, h.height), (16, 8));
    assert_eq!(h.format, TexFormat::C8.0);
    assert_eq!(h.palette_format, o.palette_format);
    assert_eq!((h.wrap_s, h.wrap_t), (o.wrap_s, o.wrap_t));
    assert_eq!((h.min_filter, h.mag_filter), (o.min_filter, o.mag_filter));
    assert_eq!(
        (h.min_lod, h.max_lod, h.lod_bias),
        (o.min_lod, o.max_lod, o.lod_bias)
    );
    assert_eq!(h.max_aniso, o.max_aniso);
    assert_eq!(h.image_count, 3);
    // The three levels are regenerated from the PNG: 16×8, 8×4, 4×2.
    let levels = made.decode().unwrap();
    let sizes: Vec<_> = levels.iter().map(|l| (l.width(), l.height())).collect();
    assert_eq!(sizes, [(16, 8), (8, 4), (4, 2)]);

    // Without like= the defaults apply: CMPR, one level, repeat.
    let plain = dir.join("plain.bti");
    let (ok, text) = gcf(&["convert", s(&png), s(&plain)]);
    assert!(ok, "{text}");
    let p = *Bti::parse(&std::fs::read(&plain).unwrap())
        .unwrap()
        .header()
        .unwrap();
    assert_eq!(
        (p.format, p.image_count, p.wrap_s),
        (TexFormat::CMPR.0, 1, 1)
    );

    // --format overrides the original's format; the rest is still kept.
    let rgb = dir.join("rgb.bti");
    let (ok, text) = gcf(&[
        "convert",
        s(&png),
        s(&rgb),
        "-o",
        &like,
        "--format",
        "rgb5a3",
    ]);
    assert!(ok, "{text}");
    let r = *Bti::parse(&std::fs::read(&rgb).unwrap())
        .unwrap()
        .header()
        .unwrap();
    assert_eq!(
        (r.format, r.image_count, r.wrap_s),
        (TexFormat::RGB5A3.0, 3, 2)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_option_keys_are_refused_with_the_valid_ones() {
    let dir = temp_dir("keys");
    let png = write_png(&dir);
    let out = dir.join("x.bti");
    let (ok, text) = gcf(&["convert", s(&png), s(&out), "-o", "mips=3"]);
    assert!(!ok, "{text}");
    assert!(text.contains("mips"), "{text}");
    assert!(text.contains("format, like"), "{text}");
    assert!(!out.exists());
    // A key another conversion takes is no key of this one either.
    let (ok, text) = gcf(&["convert", s(&png), s(&out), "-o", "fps=30"]);
    assert!(!ok && text.contains("fps"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn colour_into_a_grey_format_is_noted() {
    let dir = temp_dir("grey");
    let png = write_png(&dir);
    for (format, grey) in [("i8", true), ("ia4", true), ("rgb5a3", false)] {
        let out = dir.join(format!("{format}.bti"));
        let run = support::run(&["convert", s(&png), s(&out), "--format", format]);
        run.succeeds();
        assert_eq!(
            run.stderr.contains("colour stored as grey"),
            grey,
            "{format}: {}",
            run.stderr
        );
        assert!(out.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
