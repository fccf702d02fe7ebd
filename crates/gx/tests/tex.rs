#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Texture codec: golden blocks with hand-computed pixels, sizes, exact round trips, errors.

use gx::tex::{
    self, EncodeOptions, Image, Palette, PaletteFormat, Rgba, TexFormat, Texture, image_size,
    level_size,
};

/// One hand-made texture: format, size, palette, stored bytes (given as `(offset, bytes)`
/// patches over zeros), and pixels whose values were worked out by hand from the bit layouts.
struct Golden {
    format: TexFormat,
    width: u32,
    height: u32,
    palette: Option<(PaletteFormat, Vec<u8>)>,
    patches: Vec<(usize, Vec<u8>)>,
    pixels: Vec<(u32, u32, Rgba)>,
}

impl Golden {
    fn bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; level_size(self.format, self.width, self.height).unwrap()];
        for (off, p) in &self.patches {
            b[*off..*off + p.len()].copy_from_slice(p);
        }
        b
    }
    fn palette(&self) -> Option<Palette<'_>> {
        self.palette.as_ref().map(|(f, d)| Palette::new(*f, d))
    }
}

fn g(
    format: TexFormat,
    width: u32,
    height: u32,
    patches: Vec<(usize, Vec<u8>)>,
    pixels: Vec<(u32, u32, Rgba)>,
) -> Golden {
    Golden {
        format,
        width,
        height,
        palette: None,
        patches,
        pixels,
    }
}

fn golden() -> Vec<Golden> {
    let grey = |i: u8| [i, i, i, i];
    let red = [255, 0, 0, 255];
    let blue = [0, 0, 255, 255];
    vec![
        // I4: two pixels per byte, high nibble left; 8 pixels (4 bytes) per block row; blocks 8x8.
        g(
            TexFormat::I4,
            16,
            8,
            vec![(0, vec![0x0F, 0, 0, 0x8A, 0x12]), (32, vec![0xF0])],
            vec![
                (0, 0, grey(0)),
                (1, 0, grey(255)),
                (6, 0, grey(0x88)),
                (7, 0, grey(0xAA)),
                (0, 1, grey(0x11)),
                (1, 1, grey(0x22)),
                (8, 0, grey(255)),
                (9, 0, grey(0)),
            ],
        ),
        // I8 8x4 blocks: the second block of a 16x8 image is x 8..16 of rows 0..4, the third rows 4..8.
        g(
            TexFormat::I8,
            16,
            8,
            vec![
                (0, (0..32).map(|i| i * 8).collect()),
                (32, vec![7]),
                (64, vec![9]),
                (95, vec![0xEE]),
            ],
            vec![
                (3, 2, grey(152)),
                (7, 3, grey(248)),
                (8, 0, grey(7)),
                (0, 4, grey(9)),
                (7, 7, grey(0xEE)),
                (15, 7, grey(0)),
            ],
        ),
        // IA4: high nibble alpha, low nibble intensity.
        g(
            TexFormat::IA4,
            8,
            4,
            vec![(0, vec![0x3C, 0xF0])],
            vec![(0, 0, [0xCC, 0xCC, 0xCC, 0x33]), (1, 0, [0, 0, 0, 0xFF])],
        ),
        // IA8: alpha byte, intensity byte.
        g(
            TexFormat::IA8,
            4,
            4,
            vec![(0, vec![0x80, 0x40]), (30, vec![0x01, 0xFE])],
            vec![
                (0, 0, [0x40, 0x40, 0x40, 0x80]),
                (3, 3, [0xFE, 0xFE, 0xFE, 1]),
            ],
        ),
        // RGB565, big-endian; 5/6-bit channels expand by bit replication.
        g(
            TexFormat::RGB565,
            4,
            4,
            vec![(0, vec![0xF8, 0x00, 0x07, 0xE0, 0x00, 0x1F, 0x84, 0x10])],
            vec![
                (0, 0, red),
                (1, 0, [0, 255, 0, 255]),
                (2, 0, blue),
                (3, 0, [0x84, 0x82, 0x84, 255]),
                (0, 1, [0, 0, 0, 255]),
            ],
        ),
        // RGB5A3: top bit set = RGB555 opaque; clear = A3 RGB444.
        g(
            TexFormat::RGB5A3,
            4,
            4,
            vec![(0, vec![0xFC, 0x00, 0x7F, 0x00, 0x3A, 0x5F, 0x00, 0x00])],
            vec![
                (0, 0, red),
                (1, 0, red),
                (2, 0, [0xAA, 0x55, 0xFF, 0x6D]),
                (3, 0, [0, 0, 0, 0]),
            ],
        ),
        // RGBA8: 16 AR pairs then 16 GB pairs per 4x4 block.
        g(
            TexFormat::RGBA8,
            4,
            4,
            vec![
                (0, vec![0x11, 0x22]),
                (32, vec![0x33, 0x44]),
                (10, vec![0xA0, 0xA1]),
                (42, vec![0xA2, 0xA3]),
            ],
            vec![
                (0, 0, [0x22, 0x33, 0x44, 0x11]),
                (1, 1, [0xA1, 0xA2, 0xA3, 0xA0]),
                (2, 0, [0, 0, 0, 0]),
            ],
        ),
        // C4 with an RGB565 palette: index nibbles, high first.
        Golden {
            palette: Some((PaletteFormat::RGB565, vec![0xF8, 0x00, 0x00, 0x1F])),
            ..g(
                TexFormat::C4,
                8,
                8,
                vec![(0, vec![0x01, 0x10])],
                vec![(0, 0, red), (1, 0, blue), (2, 0, blue), (3, 0, red)],
            )
        },
        // C8 with an IA8 palette.
        Golden {
            palette: Some((PaletteFormat::IA8, vec![0, 0, 0, 0, 0x80, 0x10])),
            ..g(
                TexFormat::C8,
                8,
                4,
                vec![(0, vec![2, 1])],
                vec![(0, 0, [0x10, 0x10, 0x10, 0x80]), (1, 0, [0, 0, 0, 0])],
            )
        },
        // C14X2 with an RGB5A3 palette: the top two bits of each index are ignored.
        Golden {
            palette: Some((PaletteFormat::RGB5A3, vec![0x80, 0x00, 0xFC, 0x00])),
            ..g(
                TexFormat::C14X2,
                4,
                4,
                vec![(0, vec![0xC0, 0x01, 0x40, 0x00])],
                vec![(0, 0, red), (1, 0, [0, 0, 0, 255])],
            )
        },
        // CMPR: sub-blocks TL, TR, BL, BR; big-endian RGB565 endpoints; 2-bit indices, MSB first.
        g(
            TexFormat::CMPR,
            8,
            8,
            vec![
                // TL: c0 > c1: four colours, the middle two are 5/8 + 3/8 blends.
                (0, vec![0xF8, 0x00, 0x00, 0x1F, 0x1B]),
                // TR: c0 <= c1: third colour is the average, index 3 the average with alpha 0.
                (8, vec![0x00, 0x1F, 0xF8, 0x00, 0xE4]),
                // BL: all zero: c0 == c1 == black, three-colour mode.
                // BR: white/black, last row 01 00 00 00.
                (24, vec![0xFF, 0xFF, 0x00, 0x00, 0, 0, 0, 0x40]),
            ],
            vec![
                (0, 0, red),
                (1, 0, blue),
                (2, 0, [159, 0, 95, 255]),
                (3, 0, [95, 0, 159, 255]),
                (4, 0, [127, 0, 127, 0]),
                (5, 0, [127, 0, 127, 255]),
                (6, 0, red),
                (7, 0, blue),
                (0, 4, [0, 0, 0, 255]),
                (4, 7, [0, 0, 0, 255]),
                (5, 7, [255, 255, 255, 255]),
            ],
        ),
    ]
}

#[test]
fn golden_decode() {
    for case in golden() {
        let img = tex::decode(
            case.format,
            case.width,
            case.height,
            &case.bytes(),
            case.palette(),
        )
        .unwrap();
        for &(x, y, want) in &case.pixels {
            assert_eq!(
                img.pixel(x, y),
                Some(want),
                "{:?} at ({x}, {y})",
                case.format.name()
            );
        }
    }
}

/// Lossless formats: encode(decode(bytes)) == bytes; indexed ones at the index level; CMPR's
/// encoder reproduces the golden pixels.
#[test]
fn golden_encode() {
    for case in golden() {
        let bytes = case.bytes();
        let img =
            tex::decode(case.format, case.width, case.height, &bytes, case.palette()).unwrap();
        match case.format {
            f if f.is_indexed() => {
                let idx = tex::decode_indices(f, case.width, case.height, &bytes).unwrap();
                assert_eq!(
                    tex::encode_indices(f, case.width, case.height, &idx).unwrap(),
                    bytes
                );
            }
            TexFormat::CMPR => {
                let again = tex::encode(TexFormat::CMPR, &img).unwrap();
                let back = tex::decode(TexFormat::CMPR, 8, 8, &again, None).unwrap();
                assert!(
                    tex::psnr(&img, &back).unwrap() > 40.0,
                    "{}",
                    tex::psnr(&img, &back).unwrap()
                );
            }
            TexFormat::RGB5A3 => {
                // 0x7F00 (A3 alpha 7 = opaque red) aliases RGB555 red: the encoder writes 0xFC00.
                let mut want = bytes.clone();
                want[2..4].copy_from_slice(&[0xFC, 0x00]);
                assert_eq!(tex::encode(TexFormat::RGB5A3, &img).unwrap(), want);
            }
            f => assert_eq!(tex::encode(f, &img).unwrap(), bytes, "{:?}", f.name()),
        }
    }
}

#[test]
fn sizes() {
    let table: &[(TexFormat, u32, u32, u32, usize)] = &[
        (TexFormat::I4, 1, 1, 1, 32),
        (TexFormat::I4, 16, 16, 1, 128),
        (TexFormat::I8, 10, 6, 1, 4 * 32),
        (TexFormat::RGBA8, 1, 1, 1, 64),
        (TexFormat::RGBA8, 8, 8, 4, 4 * 64 + 64 + 64 + 64),
        (TexFormat::CMPR, 64, 32, 3, 1024 + 256 + 64),
        (TexFormat::C14X2, 4, 4, 2, 64),
        (
            TexFormat::RGB565,
            32,
            32,
            6,
            2048 + 512 + 128 + 32 + 32 + 32,
        ),
    ];
    for &(f, w, h, mips, size) in table {
        assert_eq!(
            image_size(f, w, h, mips).unwrap(),
            size,
            "{:?} {w}x{h} {mips}",
            f.name()
        );
    }
    assert_eq!(
        tex::level_offset(TexFormat::CMPR, 64, 32, 2).unwrap(),
        1024 + 256
    );
    assert_eq!(TexFormat::CMPR.padded(9, 3).unwrap(), (16, 8));
    assert_eq!(TexFormat::RGBA8.bits_per_pixel(), Some(32));
    assert_eq!(TexFormat::I4.bits_per_pixel(), Some(4));
    assert!(image_size(TexFormat(7), 4, 4, 1).is_err());
    assert_eq!(TexFormat::from_name("rgba32"), Some(TexFormat::RGBA8));
    assert_eq!(TexFormat::from_name("cmpr"), Some(TexFormat::CMPR));
    assert_eq!(
        PaletteFormat::from_name("rgb5a3"),
        Some(PaletteFormat::RGB5A3)
    );
    assert_eq!(TexFormat(0xB).name(), None);
}

#[test]
fn errors_not_panics() {
    // Short data: offset-carrying out-of-bounds error at the texture's file offset.
    let e = Texture::new(TexFormat::RGBA8, 8, 8, &[0; 100])
        .at(0x40)
        .decode()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "256 bytes at offset 0x40 past end (size 0xa4)"
    );
    // Unknown format.
    assert!(tex::decode(TexFormat(0xF), 4, 4, &[0; 64], None).is_err());
    // Missing palette, index past the palette.
    assert!(tex::decode(TexFormat::C8, 8, 4, &[0; 32], None).is_err());
    let pal = [0u8; 4];
    let mut data = [0u8; 32];
    data[5] = 2;
    let e = Texture::new(TexFormat::C8, 8, 4, &data)
        .with_palette(Palette::new(PaletteFormat::RGB565, &pal))
        .at(0x100)
        .decode()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "C8 mip level 0: palette index 2 past the palette's 2 entries at offset 0x100"
    );
    // Unknown palette format, odd-sized images, oversize, bad pixel count.
    assert!(
        tex::decode(
            TexFormat::C4,
            8,
            8,
            &[0; 32],
            Some(Palette::new(PaletteFormat(9), &pal))
        )
        .is_err()
    );
    assert!(tex::decode(TexFormat::I8, 70000, 1, &[0; 32], None).is_err());
    assert!(Image::new(2, 2, vec![[0; 4]; 3]).is_err());
    assert!(tex::encode(TexFormat::C8, &Image::filled(4, 4, [0; 4]).unwrap()).is_err());
    assert!(tex::encode_indices(TexFormat::I8, 1, 1, &[0]).is_err());
    let levels = [
        Image::filled(8, 8, [0; 4]).unwrap(),
        Image::filled(3, 4, [0; 4]).unwrap(),
    ];
    assert!(tex::encode_mips(TexFormat::I8, &levels, &EncodeOptions::default()).is_err());
    // Empty images are fine.
    assert_eq!(
        tex::decode(TexFormat::I8, 0, 5, &[], None)
            .unwrap()
            .pixels()
            .len(),
        0
    );
    assert!(
        tex::encode(TexFormat::CMPR, &Image::filled(0, 0, [0; 4]).unwrap())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn padding_replicates_edges_and_round_trips_when_decoded_padded() {
    let img = Image::from_fn(5, 3, |x, y| [x as u8 * 50, y as u8 * 80, 7, 255]).unwrap();
    let bytes = tex::encode(TexFormat::RGBA8, &img).unwrap();
    let (pw, ph) = TexFormat::RGBA8.padded(5, 3).unwrap();
    let padded = tex::decode(TexFormat::RGBA8, pw, ph, &bytes, None).unwrap();
    assert_eq!(padded.pixel(7, 3), img.pixel(4, 2));
    assert_eq!(tex::encode(TexFormat::RGBA8, &padded).unwrap(), bytes);
    assert_eq!(
        tex::decode(TexFormat::RGBA8, 5, 3, &bytes, None).unwrap(),
        img
    );
}

fn test_image(w: u32, h: u32) -> Image {
    Image::test_pattern(w, h, false).unwrap()
}

#[test]
fn cmpr_quality() {
    let img = test_image(64, 64);
    let enc = tex::encode(TexFormat::CMPR, &img).unwrap();
    let back = tex::decode(TexFormat::CMPR, 64, 64, &enc, None).unwrap();
    let p = tex::psnr(&img, &back).unwrap();
    assert!(p > 33.0, "CMPR PSNR {p:.2} dB");
    // Solid RGB565-representable colours are exact; transparency survives.
    let solid = Image::from_fn(8, 8, |x, _| {
        if x < 4 {
            [0, 0, 0, 0]
        } else {
            [0xFF, 0x82, 0x84, 255]
        }
    })
    .unwrap();
    let enc = tex::encode(TexFormat::CMPR, &solid).unwrap();
    let back = tex::decode(TexFormat::CMPR, 8, 8, &enc, None).unwrap();
    assert_eq!(back.pixel(5, 5), solid.pixel(5, 5));
    assert_eq!(back.pixel(0, 0).unwrap()[3], 0);
}

#[test]
fn cmpr_exact_reproduces_nintendo_style_blocks() {
    // Four sub-blocks as Nintendo's encoders write them: a flat colour with a black second
    // endpoint; flat black; four-colour with both blends; three-colour with transparent texels
    // averaging a black endpoint no texel shows.
    let block: Vec<u8> = [
        [0xFA, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
        [0x00; 8],
        [0xF8, 0x00, 0x00, 0x1F, 0x1B, 0x1B, 0xE4, 0x1B],
        [0x00, 0x00, 0xDE, 0xDB, 0x55, 0xFF, 0xFF, 0xFF],
    ]
    .concat();
    let img = tex::decode(TexFormat::CMPR, 8, 8, &block, None).unwrap();
    let exact = tex::cmpr::encode_exact(&img).unwrap();
    assert_eq!(exact.data, block);
    assert!(exact.inexact.is_empty());
    // A smooth gradient is no CMPR output: inexact sub-blocks get the fitting encoder's bytes.
    let img = test_image(16, 8);
    let exact = tex::cmpr::encode_exact(&img).unwrap();
    let fitted = tex::encode(TexFormat::CMPR, &img).unwrap();
    assert!(!exact.inexact.is_empty());
    for &i in &exact.inexact {
        let i = i as usize * 8;
        assert_eq!(exact.data[i..i + 8], fitted[i..i + 8]);
    }
}

#[test]
fn palette_quantisation() {
    let img = test_image(64, 64);
    for (f, min_psnr) in [
        (TexFormat::C8, 30.0),
        (TexFormat::C4, 20.0),
        (TexFormat::C14X2, 38.0),
    ] {
        let opts = EncodeOptions {
            palette_format: PaletteFormat::RGB565,
            ..Default::default()
        };
        let enc = tex::encode_mips(f, std::slice::from_ref(&img), &opts).unwrap();
        assert!(enc.palette_entries() <= f.max_palette_entries());
        let back = tex::decode(
            f,
            64,
            64,
            &enc.data,
            Some(Palette::new(PaletteFormat::RGB565, &enc.palette)),
        )
        .unwrap();
        let p = tex::psnr(&img, &back).unwrap();
        assert!(p > min_psnr, "{:?} PSNR {p:.2}", f.name());
    }
    // Capped palette size.
    let opts = EncodeOptions {
        max_palette_entries: Some(5),
        ..Default::default()
    };
    let enc = tex::encode_mips(TexFormat::C8, &[img], &opts).unwrap();
    assert_eq!(enc.palette_entries(), 5);
}

#[test]
fn mips_share_one_palette_and_decode_per_level() {
    let img = test_image(32, 16);
    let chain = img.mip_chain(6);
    assert_eq!(
        chain
            .iter()
            .map(|l| (l.width(), l.height()))
            .collect::<Vec<_>>(),
        [(32, 16), (16, 8), (8, 4), (4, 2), (2, 1), (1, 1)]
    );
    for f in TexFormat::ALL {
        let enc = tex::encode_mips(f, &chain, &EncodeOptions::default()).unwrap();
        assert_eq!(enc.data.len(), image_size(f, 32, 16, 6).unwrap());
        let mut t = Texture::new(f, 32, 16, &enc.data).with_mips(6);
        if f.is_indexed() {
            t = t.with_palette(Palette::new(PaletteFormat::RGB5A3, &enc.palette));
        }
        let levels = t.decode().unwrap();
        assert_eq!(levels.len(), 6);
        for (a, b) in chain.iter().zip(&levels) {
            assert_eq!((a.width(), a.height()), (b.width(), b.height()));
        }
    }
}

#[test]
fn chosen_formats() {
    let f = |img: Image| tex::choose_format(&img);
    let grey = |a: u8| Image::from_fn(4, 4, move |x, _| [x as u8, x as u8, x as u8, a]).unwrap();
    let colour = |a: u8| Image::from_fn(4, 4, move |x, _| [x as u8, 0, 0, a]).unwrap();
    assert_eq!(f(grey(255)), TexFormat::I8);
    assert_eq!(f(grey(254)), TexFormat::IA8);
    assert_eq!(f(colour(255)), TexFormat::CMPR);
    assert_eq!(f(colour(0)), TexFormat::RGB5A3);
}

#[test]
fn suggested_formats() {
    let f = |img: Image| tex::suggest_format(&img);
    assert_eq!(
        f(Image::from_fn(4, 4, |x, _| [x as u8; 4]).unwrap()),
        TexFormat::I8
    );
    assert_eq!(
        f(Image::from_fn(4, 4, |x, _| [x as u8, x as u8, x as u8, 255]).unwrap()),
        TexFormat::IA8
    );
    assert_eq!(
        f(Image::from_fn(4, 4, |x, _| [x as u8, 0, 0, 255 * (x as u8 % 2)]).unwrap()),
        TexFormat::CMPR
    );
    assert_eq!(
        f(Image::from_fn(4, 4, |x, _| [x as u8, 0, 0, 100]).unwrap()),
        TexFormat::RGB5A3
    );
}

#[test]
fn images_from_png_layouts() {
    let px = |img: Image| img.pixels().to_vec();
    assert_eq!(
        px(Image::from_channels(2, 1, 1, &[5, 6]).unwrap()),
        [[5, 5, 5, 255], [6, 6, 6, 255]]
    );
    assert_eq!(
        px(Image::from_channels(1, 1, 2, &[5, 9]).unwrap()),
        [[5, 5, 5, 9]]
    );
    assert_eq!(
        px(Image::from_channels(1, 1, 3, &[1, 2, 3]).unwrap()),
        [[1, 2, 3, 255]]
    );
    assert_eq!(
        px(Image::from_rgba8(1, 1, &[1, 2, 3, 4]).unwrap()),
        [[1, 2, 3, 4]]
    );
    assert_eq!(
        Image::from_rgba8(1, 1, &[1, 2, 3, 4]).unwrap().as_rgba8(),
        [1, 2, 3, 4]
    );
    assert!(Image::from_channels(1, 1, 3, &[1, 2]).is_err());
    assert!(Image::from_channels(1, 1, 5, &[0; 5]).is_err());
    assert!(Image::from_channels(2, 1, 3, &[1, 2, 3]).is_err());
}

/// The `_with` forms bound their buffers by the caller's limits: what the defaults accept, a
/// 64-byte budget (16 pixels) refuses with a limit error.
#[test]
fn with_forms_honour_the_callers_limits() {
    use gx::tex::{Image, TexFormat};
    let tiny = gcio::Limits {
        max_alloc_bytes: 64,
        ..gcio::Limits::default()
    };
    let is_limit = |e: gcio::Error| matches!(e.kind(), gcio::ErrorKind::Limit { .. });
    let img = Image::from_fn(8, 8, |x, y| [x as u8, y as u8, 0, 255]).unwrap();
    assert!(is_limit(
        Image::from_fn_with(8, 8, &tiny, |_, _| [0; 4]).unwrap_err()
    ));
    assert!(is_limit(
        Image::filled_with(8, 8, [0; 4], &tiny).unwrap_err()
    ));
    let data = gx::tex::encode(TexFormat::RGBA8, &img).unwrap();
    assert_eq!(
        gx::tex::decode(TexFormat::RGBA8, 8, 8, &data, None).unwrap(),
        img
    );
    let e = gx::tex::decode_with(TexFormat::RGBA8, 8, 8, &data, None, &tiny).unwrap_err();
    assert!(is_limit(e));
    let indices = gx::tex::encode_indices(TexFormat::C8, 8, 8, &[7; 64]).unwrap();
    assert_eq!(
        gx::tex::decode_indices(TexFormat::C8, 8, 8, &indices).unwrap(),
        vec![7; 64]
    );
    let e = gx::tex::decode_indices_with(TexFormat::C8, 8, 8, &indices, &tiny).unwrap_err();
    assert!(is_limit(e));
}

/// An image with a colour table encodes as C8 with that table as its palette, in its order and
/// with its duplicate entries, each pixel at its own index and the padding at index 0; one that
/// its palette format cannot hold exactly, or a mip chain, is quantised as before.
#[test]
fn colour_table_is_the_palette() {
    let colors: Vec<Rgba> = vec![[0, 0, 0, 255], [255, 255, 255, 255], [0, 0, 0, 255]];
    let indices: Vec<u8> = (0..30u8).map(|i| (i * 5 + i / 3) % 3).collect();
    let img = Image::indexed(10, 3, colors, indices.clone()).unwrap();
    let opts = EncodeOptions {
        palette_format: PaletteFormat::RGB565,
        max_palette_entries: Some(256),
    };
    let e = tex::encode_mips(TexFormat::C8, std::slice::from_ref(&img), &opts).unwrap();
    assert_eq!(e.palette, [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]);
    let back = Texture::new(TexFormat::C8, 16, 4, &e.data)
        .indices(0)
        .unwrap();
    for y in 0..4 {
        for x in 0..16 {
            let want = if x < 10 && y < 3 {
                u16::from(indices[y * 10 + x])
            } else {
                0
            };
            assert_eq!(back[y * 16 + x], want, "({x}, {y})");
        }
    }
    // Not exact in RGB565: quantised (two distinct colours, no duplicate).
    let odd = Image::indexed(10, 3, vec![[1, 2, 3, 255], [250, 9, 9, 255]], vec![1; 30]).unwrap();
    let q = tex::encode_mips(TexFormat::C8, &[odd], &opts).unwrap();
    assert_eq!(q.palette_entries(), 1);
    // A mip chain keeps the table (level 0 exact, its indices as they were); the lower level
    // takes each texel's nearest entry, its blends of black and white included.
    let chain = img.mip_chain(2);
    let m = tex::encode_mips(TexFormat::C8, &chain, &opts).unwrap();
    assert_eq!(m.palette, e.palette);
    assert_eq!(&m.data[..e.data.len()], e.data);
    let level1 = Texture::new(TexFormat::C8, 16, 4, &m.data)
        .indices(1)
        .unwrap();
    let pal = [[0u8, 0, 0, 255], [255, 255, 255, 255]];
    for (i, p) in chain[1].pixels().iter().enumerate() {
        let (x, y) = (i % 5, i / 5);
        let near = |c: [u8; 4]| {
            (0..3)
                .map(|k| (i32::from(c[k]) - i32::from(p[k])).pow(2))
                .sum::<i32>()
        };
        let want = if near(pal[1]) < near(pal[0]) { 1 } else { 0 };
        assert_eq!(level1[y * 8 + x], want, "level 1 ({x}, {y}) {p:?}");
    }
}

/// An opaque RGB565 colour as GX expands it.
fn rgb565(c: u16) -> [u8; 4] {
    let (r, g, b) = ((c >> 11) as u8, ((c >> 5) & 0x3F) as u8, (c & 0x1F) as u8);
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
        0xFF,
    ]
}

/// Flat sub-blocks in HAL's form: the colour one green step darker in four-colour mode, or one
/// red step brighter in three-colour mode when its green is 0, and white as (black, white) in
/// three-colour mode at index 1; the J3D form is (colour, black).
#[test]
fn flat_sub_blocks_in_hals_form() {
    for (c, hal) in [(0x1234u16, 0x1214u16), (0x7000, 0x7800), (0xF800, 0x0000)] {
        let img = Image::filled(8, 8, rgb565(c)).unwrap();
        let j3d = tex::cmpr::encode_exact(&img).unwrap().data;
        let h = tex::cmpr::encode_exact_with(&img, tex::cmpr::Flat::Hal)
            .unwrap()
            .data;
        let [a, b] = c.to_be_bytes();
        assert_eq!(&j3d[..8], [a, b, 0, 0, 0, 0, 0, 0], "{c:#06x}");
        let [x, y] = hal.to_be_bytes();
        assert_eq!(&h[..8], [a, b, x, y, 0, 0, 0, 0], "{c:#06x}");
    }
    let white = Image::filled(8, 8, [0xFF; 4]).unwrap();
    let h = tex::cmpr::encode_exact_with(&white, tex::cmpr::Flat::Hal)
        .unwrap()
        .data;
    assert_eq!(&h[..8], [0, 0, 0xFF, 0xFF, 0x55, 0x55, 0x55, 0x55]);
}

/// The flat forms other HSD tools write, read from 20XX's public Melee archives (one form per
/// texture, 172,781 flat sub-blocks): (colour, black) with black as (white, black) at index
/// 1; one green step darker with colours lacking green as (one green step up, colour) at
/// index 1; one blue step up in three-colour mode. `flat_form` finds each from the stored
/// bytes, and a texture re-encodes to them.
#[test]
fn flat_forms_of_other_tools() {
    use tex::cmpr::{Flat, encode_exact_with, flat_form};
    // (colour, form, stored sub-block head, row byte)
    let cases: [(u16, Flat, [u16; 2], u8); 9] = [
        (0x3082, Flat::BlackWhite, [0x3082, 0x0000], 0x00),
        (0x0000, Flat::BlackWhite, [0xFFFF, 0x0000], 0x55),
        (0x3082, Flat::GreenStep, [0x3082, 0x3062], 0x00),
        (0x0000, Flat::GreenStep, [0x0020, 0x0000], 0x55),
        (0xFFFF, Flat::GreenStep, [0xFFFF, 0xFFDF], 0x00),
        (0x49E9, Flat::BlueUp, [0x49E9, 0x49EA], 0x00),
        (0x0000, Flat::BlueUp, [0x0000, 0x0001], 0x00),
        (0xFFFF, Flat::BlueUp, [0x0000, 0xFFFF], 0x55),
        (0x0000, Flat::Black, [0x0000, 0x0000], 0x00),
    ];
    for (c, form, [c0, c1], row) in cases {
        let img = Image::filled(8, 8, rgb565(c)).unwrap();
        let data = encode_exact_with(&img, form).unwrap().data;
        let [a, b] = c0.to_be_bytes();
        let [x, y] = c1.to_be_bytes();
        assert_eq!(
            &data[..8],
            [a, b, x, y, row, row, row, row],
            "{c:#06x} {form:?}"
        );
        // A texture of such sub-blocks (and a two-colour one, which no form decides) names
        // its form: the first of `Flat::ALL` writing most of them.
        let mut stored = data.clone();
        stored.extend([0xF8, 0x00, 0x00, 0x1F, 0x50, 0x50, 0x50, 0x50]);
        let found = flat_form(&stored).unwrap();
        assert_eq!(
            encode_exact_with(&img, found).unwrap().data,
            data,
            "{c:#06x} {form:?} read as {found:?}"
        );
    }
    assert_eq!(
        flat_form(&[0xF8, 0x00, 0x00, 0x1F, 0x50, 0x50, 0x50, 0x50]),
        None
    );
}

/// Where the three-colour average and a four-colour blend give a texel equally (endpoints
/// equally close), HSD's encoders write the average: 4,024 sub-blocks of near-white
/// `(ffdf, ffff)` averages among 20XX's archives, 9,000 more of other colours. Nintendo's J3D
/// form keeps the blend.
#[test]
fn hsd_forms_prefer_the_average() {
    use tex::cmpr::{Flat, encode_exact_with};
    // Entry 2 of (0xFFDF, 0xFFFF) in three-colour mode: green (0xFB + 0xFF) / 2 = 0xFD.
    let img = Image::filled(8, 8, [0xFF, 0xFD, 0xFF, 0xFF]).unwrap();
    for form in [Flat::Hal, Flat::GreenStep, Flat::BlueUp, Flat::BlackWhite] {
        let data = encode_exact_with(&img, form).unwrap().data;
        assert_eq!(
            &data[..8],
            [0xFF, 0xDF, 0xFF, 0xFF, 0xAA, 0xAA, 0xAA, 0xAA],
            "{form:?}"
        );
    }
    let j3d = encode_exact_with(&img, Flat::Black).unwrap().data;
    assert!(u16::from_be_bytes([j3d[0], j3d[1]]) > u16::from_be_bytes([j3d[2], j3d[3]]));
}

/// GX's sampled sizes: at most 1024 a side, the nearest power of two (by ratio) where the
/// texture wraps.
#[test]
fn sampled_sizes() {
    for (w, h, repeat, want) in [
        (300, 200, [true, true], (256, 256)),
        (300, 200, [false, false], (300, 200)),
        (2048, 16, [false, false], (1024, 16)),
        (3000, 5, [true, false], (1024, 5)),
        (384, 8, [true, true], (512, 8)),
        (360, 8, [true, true], (256, 8)),
        (64, 46, [false, false], (64, 46)),
    ] {
        assert_eq!(
            gx::tex::sampled_size(w, h, repeat),
            want,
            "{w}×{h} {repeat:?}"
        );
    }
}

/// `resized`: 2 × 2 boxes while at least twice the target (a halving is `half`), bilinear at
/// texel centres otherwise, the same image at its own size.
#[test]
fn resized_images() {
    let img = Image::from_fn(8, 6, |x, y| [(x * 30) as u8, (y * 40) as u8, 7, 255]).unwrap();
    assert_eq!(img.resized(8, 6).unwrap(), img);
    assert_eq!(img.resized(4, 3).unwrap(), img.half());
    // 2 × 1 → 4 × 1: centres at 0.25 and 0.75 of the way between the two texels.
    let two = Image::from_fn(2, 1, |x, _| [if x == 0 { 0 } else { 200 }, 0, 0, 255]).unwrap();
    let four = two.resized(4, 1).unwrap();
    let reds: Vec<u8> = four.pixels().iter().map(|p| p[0]).collect();
    assert_eq!(reds, [0, 50, 150, 200]);
}
