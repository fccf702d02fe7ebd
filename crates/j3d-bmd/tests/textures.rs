#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! TEX1 and BTI: typed round trips, shared image data, per-header offsets.

use gcio::Reader;
use j3d_bmd::{Bmd, Bti, BtiHeader, Chunk, ChunkView, Pad, Segment, Tex1, build, gx};

fn reparse(b: &[u8]) -> Tex1 {
    match Chunk::from_view(&ChunkView {
        magic: *b"TEX1",
        data: Reader::new(b),
    }) {
        Chunk::Tex1(t) => t,
        other => panic!("not typed: {:?}", other.magic()),
    }
}

#[test]
fn tex1_round_trips_with_shared_images() {
    let t = build::tex1();
    let b = t.write().unwrap();
    assert_eq!(b.len() % 32, 0);
    let back = reparse(&b);
    assert_eq!(back.write().unwrap(), b);
    assert_eq!(back, t);
    let n = t.set.textures.len();
    assert_eq!(n, 12);
    // The mirrored copy shares the first image: its offset is the first one's minus 0x20 × 11.
    let off = |i: usize| u32::from_be_bytes(b[0x20 + i * 0x20 + 0x1C..][..4].try_into().unwrap());
    assert_eq!(off(0) as usize, off(11) as usize + 11 * 0x20);
    assert_eq!(back.set.image(11), back.set.image(0));
    // Every format present, with exact image sizes.
    let mut formats: Vec<u8> = t.set.textures.iter().map(|t| t.header.format).collect();
    formats.sort_unstable();
    formats.dedup();
    assert_eq!(formats, [0, 1, 2, 3, 4, 5, 6, 8, 9, 0xA, 0xE]);
    for (i, tex) in back.set.textures.iter().enumerate() {
        assert_eq!(
            back.set.image(i).unwrap().len(),
            tex.header.image_size().unwrap()
        );
        if tex.header.palette_count > 0 {
            assert_eq!(
                back.set.palette(i).unwrap().len(),
                tex.header.palette_size()
            );
        }
    }
    // The name table offset points at the name table.
    let names_at = u32::from_be_bytes(b[0x10..0x14].try_into().unwrap()) as usize;
    assert_eq!(&b[names_at..names_at + 2], &12u16.to_be_bytes());
}

#[test]
fn empty_tex1_and_other_pads() {
    let t = Tex1 {
        marker: 0xFFFF,
        ..Tex1::default()
    };
    let b = t.write().unwrap();
    assert_eq!(&b[0x0C..0x10], &[0; 4]);
    assert_eq!(reparse(&b), t);
    for pad in Pad::ALL {
        let t = Tex1 {
            pad,
            ..build::tex1()
        };
        let b = t.write().unwrap();
        assert_eq!(reparse(&b).write().unwrap(), b);
    }
}

#[test]
fn bti_round_trip_and_sharing() {
    let (set, _) = build::textures();
    for i in 0..set.textures.len() {
        let h = set.textures[i].header;
        let bti = Bti::new(h, set.image(i).unwrap(), set.palette(i));
        let b = bti.write().unwrap();
        assert_eq!(u32::from_be_bytes(b[0x1C..0x20].try_into().unwrap()), 0x20);
        let back = Bti::parse(&b).unwrap();
        assert_eq!(back.write().unwrap(), b);
        assert_eq!(back.set.image(0), set.image(i));
        assert_eq!(back.set.palette(0), set.palette(i));
    }
    // Trailing bytes after the data survive.
    let mut b = Bti::new(build::bti_header(1, 8, 1), &[7; 64], None)
        .write()
        .unwrap();
    b.extend_from_slice(b"tail");
    assert_eq!(Bti::parse(&b).unwrap().write().unwrap(), b);
    assert!(Bti::parse(&b[..0x10]).is_err());
    let h = BtiHeader {
        image_offset: 0x1000,
        ..build::bti_header(1, 8, 1)
    };
    let mut w = gcio::Writer::new();
    j3d_bmd::Record::write(&h, &mut w);
    // Image data past the end: the header keeps its offset, nothing decodes.
    let past = Bti::parse(w.as_slice()).unwrap();
    assert_eq!(past.write().unwrap(), w.as_slice());
    assert!(past.decode().is_err());
}

#[test]
fn samples_have_every_chunk_typed_but_mdl3() {
    for (name, bytes) in build::samples() {
        let m = Bmd::parse(&bytes).unwrap();
        let raw: Vec<_> = m
            .chunks
            .iter()
            .filter(|c| matches!(c, Chunk::Raw(_)))
            .map(|c| c.magic())
            .collect();
        assert!(raw.is_empty(), "{name}: {raw:?}");
        let t = m.tex1().unwrap();
        assert!(t.set.segments.contains(&Segment::Names));
    }
}

#[test]
fn every_sample_texture_decodes_every_level() {
    let (set, _) = build::textures();
    for (i, t) in set.textures.iter().enumerate() {
        let levels = set.decode(i).unwrap();
        assert_eq!(
            levels.len(),
            usize::from(t.header.image_count.max(1)),
            "texture {i}"
        );
        assert_eq!(levels[0].width(), u32::from(t.header.width));
        assert_eq!(levels[0].height(), u32::from(t.header.height));
    }
}

#[test]
fn bti_encode_decode() {
    use gx::tex::{Image, TexFormat, psnr};
    let img = Image::test_pattern(32, 32, true).unwrap();
    // Lossless: RGBA8 comes back exactly, with its mip chain.
    let b = Bti::encode(&img, TexFormat::RGBA8, 3).unwrap();
    let bytes = b.write().unwrap();
    let back = Bti::parse(&bytes).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    let levels = back.decode().unwrap();
    assert_eq!(levels.len(), 3);
    assert_eq!(levels[0], img);
    assert!(j3d_bmd::validate_bti(&bytes).is_empty());
    // CMPR and a palette format decode close to the source.
    let img = Image::test_pattern(32, 32, false).unwrap();
    for f in [TexFormat::CMPR, TexFormat::C8] {
        let b = Bti::encode(&img, f, 1).unwrap();
        let d = Bti::parse(&b.write().unwrap()).unwrap().decode().unwrap();
        assert!(psnr(&img, &d[0]).unwrap_or(f64::INFINITY) > 20.0, "{f:?}");
    }
}

/// A standalone BTI whose header stores image offset 0 (the data follows the 32-byte header) is
/// read, decoded and written back unchanged.
#[test]
fn bti_with_image_offset_zero() {
    let normal = Bti::new(build::bti_header(4, 8, 1), &[0x5A; 128], None)
        .write()
        .unwrap();
    assert_eq!(&normal[0x1C..0x20], &[0, 0, 0, 0x20]);
    let mut zero = normal.clone();
    zero[0x1C..0x20].copy_from_slice(&[0; 4]);
    let b = Bti::parse(&zero).unwrap();
    assert!(b.image_offset_zero);
    assert_eq!(b.set.image(0), Some(&[0x5A; 128][..]));
    assert_eq!(
        b.decode().unwrap(),
        Bti::parse(&normal).unwrap().decode().unwrap()
    );
    assert_eq!(b.write().unwrap(), zero);
    assert!(!Bti::parse(&normal).unwrap().image_offset_zero);
    assert!(
        j3d_bmd::validate_bti(&zero)
            .iter()
            .all(|d| d.severity != gcio::Severity::Error)
    );
}

/// A texture whose image is another texture's second mip level, and a BTI whose palette starts
/// inside its image: the game reads both through their offsets, so they parse, stay typed,
/// decode and write back unchanged (the parser used to refuse overlapping texture data).
#[test]
fn overlapping_texture_data_stays_typed() {
    let rgba: Vec<[u8; 4]> = (0..16 * 16u32)
        .map(|i| [(i * 7) as u8, (i * 3) as u8, i as u8, 255])
        .collect();
    let img = gx::tex::Image::new(16, 16, rgba).unwrap();
    let big = Bti::encode(&img, gx::tex::TexFormat::RGB565, 2).unwrap();
    let level0 = gx::tex::image_size(gx::tex::TexFormat::RGB565, 16, 16, 1).unwrap();
    let mut set = big.set.clone();
    // Header 1 sits 0x20 after header 0: its image is header 0's level 1.
    set.textures.push(j3d_bmd::Texture {
        header: BtiHeader {
            image_offset: (0x20 + level0) as u32,
            ..build::bti_header(gx::tex::TexFormat::RGB565.0, 8, 1)
        },
        image: None,
        palette: None,
    });
    let t = Tex1 {
        marker: 0xFFFF,
        set,
        pad: Pad::Nintendo,
        ..Tex1::default()
    };
    let b = t.write().unwrap();
    let view = ChunkView {
        magic: *b"TEX1",
        data: Reader::new(&b),
    };
    assert_eq!(Chunk::raw_reason(&view), None);
    let back = reparse(&b);
    assert_eq!(back.write().unwrap(), b);
    let levels = back.set.decode(0).unwrap();
    assert_eq!(back.set.decode(1).unwrap()[0], levels[1]);

    // BTI: C8 image whose palette offset points 0x20 bytes into the image.
    let mut h = build::bti_header(gx::tex::TexFormat::C8.0, 8, 1);
    h.palette_enable = 1;
    h.palette_count = 16;
    let mut bytes = Bti::new(h, &[3; 64], None).write().unwrap();
    bytes[0x0C..0x10].copy_from_slice(&0x40u32.to_be_bytes());
    let bti = Bti::parse(&bytes).unwrap();
    assert_eq!(bti.write().unwrap(), bytes);
    assert_eq!(bti.set.palette(0), Some(&[3; 32][..]));
    let found = j3d_bmd::validate_bti(&bytes);
    assert!(
        found
            .iter()
            .any(|d| d.rule == "J3D-074" && d.severity == gcio::Severity::Info),
        "{found:?}"
    );
    assert!(bti.decode().is_ok());
}

/// `encode_like` keeps the original's format, palette format, level count and sampling settings;
/// only the size follows the new image. `loses_colour` flags colour stored as grey.
#[test]
fn encode_like_keeps_the_originals_settings() {
    let px = |w: u32, h: u32, grey: bool| {
        let p = (0..w * h)
            .map(|i| {
                let v = (i * 5) as u8;
                if grey {
                    [v, v, v, 255]
                } else {
                    [v, 255 - v, v / 2, 200]
                }
            })
            .collect();
        gx::tex::Image::new(w, h, p).unwrap()
    };
    let like = BtiHeader {
        wrap_s: 2,
        wrap_t: 0,
        min_filter: 3,
        mag_filter: 0,
        min_lod: 8,
        max_lod: 24,
        lod_bias: -50,
        max_aniso: 2,
        edge_lod: 1,
        alpha: 2,
        palette_format: gx::tex::PaletteFormat::RGB565.0,
        ..build::bti_header(gx::tex::TexFormat::C8.0, 64, 4)
    };
    let b = Bti::encode_like(&px(32, 16, false), &like).unwrap();
    let h = *b.header().unwrap();
    assert_eq!((h.width, h.height, h.image_count), (32, 16, 4));
    let expect = BtiHeader {
        width: 32,
        height: 16,
        palette_enable: 1,
        palette_count: h.palette_count,
        ..like
    };
    assert_eq!(h, expect);
    assert_eq!(b.decode().unwrap().len(), 4);
    let back = Bti::parse(&b.write().unwrap()).unwrap();
    assert_eq!(back.header(), Some(&h));
    // A 2×2 image yields the same level count (levels stop halving at 1×1) and keeps max LOD.
    let small = Bti::encode_like(&px(2, 2, true), &like).unwrap();
    assert_eq!(small.header().unwrap().max_lod, 24);

    let i8 = build::bti_header(gx::tex::TexFormat::I8.0, 8, 1);
    assert!(j3d_bmd::loses_colour(&px(8, 8, false), &i8));
    assert!(!j3d_bmd::loses_colour(&px(8, 8, true), &i8));
    assert!(!j3d_bmd::loses_colour(&px(8, 8, false), &like));
    let ia8_palette = BtiHeader {
        palette_format: gx::tex::PaletteFormat::IA8.0,
        ..like
    };
    assert!(j3d_bmd::loses_colour(&px(8, 8, false), &ia8_palette));
}
