#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Texture property tests: exact round trips and arbitrary input never panics.

use gx::tex::{self, EncodeOptions, Image, Palette, PaletteFormat, TexFormat, level_size};
use proptest::prelude::*;

fn lossless() -> impl Strategy<Value = TexFormat> {
    prop::sample::select(vec![
        TexFormat::I4,
        TexFormat::I8,
        TexFormat::IA4,
        TexFormat::IA8,
        TexFormat::RGB565,
        TexFormat::RGBA8,
    ])
}

proptest! {
    /// CMPR blocks decode, re-encode with `encode_exact` and decode to the same pixels in every
    /// sub-block it calls exact.
    #[test]
    fn cmpr_exact_keeps_pixels(
        mut data in proptest::collection::vec(any::<u8>(), 128),
        blends_only in any::<u16>(),
    ) {
        // Sub-blocks with only blend indices (2, 3): both endpoints unseen.
        for (k, sub) in data.chunks_exact_mut(8).enumerate() {
            if blends_only & (1 << k) != 0 {
                sub[4..].iter_mut().for_each(|r| *r = 0xAA | (*r & 0x55));
            }
        }
        let img = tex::decode(TexFormat::CMPR, 16, 16, &data, None).unwrap();
        let exact = tex::cmpr::encode_exact(&img).unwrap();
        let back = tex::decode(TexFormat::CMPR, 16, 16, &exact.data, None).unwrap();
        for i in 0..16u32 {
            let (b, s) = (i / 4, i % 4);
            let (x0, y0) = ((b % 2) * 8 + (s & 1) * 4, (b / 2) * 8 + (s >> 1) * 4);
            let same = (y0..y0 + 4).all(|y| (x0..x0 + 4).all(|x| img.pixel(x, y) == back.pixel(x, y)));
            prop_assert!(same || exact.inexact.contains(&i), "sub-block {}", i);
        }
        prop_assert!(exact.inexact.is_empty(), "{:?} of {:02x?}", exact.inexact, data);
    }

    /// encode(decode(bytes)) == bytes, padding included when decoded at the padded size.
    #[test]
    fn lossless_bytes_round_trip(f in lossless(), w in 1u32..20, h in 1u32..20, seed in any::<u64>()) {
        let len = level_size(f, w, h).unwrap();
        let bytes: Vec<u8> = (0..len as u64).map(|i| (i.wrapping_mul(seed | 1).wrapping_add(seed >> 7) >> 3) as u8).collect();
        let (pw, ph) = f.padded(w, h).unwrap();
        let img = tex::decode(f, pw, ph, &bytes, None).unwrap();
        prop_assert_eq!(tex::encode(f, &img).unwrap(), bytes);
    }

    /// decode(encode(x)) == x for images the format can represent (any decoded image), in
    /// every direct format but CMPR, at unpadded sizes.
    #[test]
    fn representable_images_round_trip(f in prop::sample::select(vec![TexFormat::I4, TexFormat::I8, TexFormat::IA4, TexFormat::IA8, TexFormat::RGB565, TexFormat::RGB5A3, TexFormat::RGBA8]),
                                       w in 0u32..20, h in 0u32..20, bytes in prop::collection::vec(any::<u8>(), 1600)) {
        let img = tex::decode(f, w, h, &bytes, None).unwrap();
        let enc = tex::encode(f, &img).unwrap();
        prop_assert_eq!(tex::decode(f, w, h, &enc, None).unwrap(), img);
    }

    /// Palette formats: index level round trip, and images with few representable colours
    /// come back exactly.
    #[test]
    fn indexed_round_trips(f in prop::sample::select(vec![TexFormat::C4, TexFormat::C8, TexFormat::C14X2]),
                           pf in prop::sample::select(PaletteFormat::ALL.to_vec()),
                           w in 1u32..20, h in 1u32..20,
                           entries in prop::collection::vec(any::<u16>(), 1..16),
                           picks in prop::collection::vec(any::<u8>(), 400)) {
        let len = level_size(f, w, h).unwrap();
        let bytes: Vec<u8> = picks.iter().cycle().take(len).copied().collect();
        let (pw, ph) = f.padded(w, h).unwrap();
        let idx = tex::decode_indices(f, pw, ph, &bytes).unwrap();
        prop_assert_eq!(tex::encode_indices(f, pw, ph, &idx).unwrap(), bytes);

        let pal_bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_be_bytes()).collect();
        let colors = Palette::new(pf, &pal_bytes).colors().unwrap();
        let img = Image::from_fn(w, h, |x, y| colors[picks[(y * w + x) as usize % picks.len()] as usize % colors.len()]).unwrap();
        let opts = EncodeOptions { palette_format: pf, ..Default::default() };
        let enc = tex::encode_mips(f, std::slice::from_ref(&img), &opts).unwrap();
        let back = tex::decode(f, w, h, &enc.data, Some(Palette::new(pf, &enc.palette))).unwrap();
        prop_assert_eq!(back, img);
    }

    /// CMPR never loses badly on smooth content and decodes whatever it encodes.
    #[test]
    fn cmpr_encodes_any_image(w in 1u32..17, h in 1u32..17, bytes in prop::collection::vec(any::<u8>(), 1100)) {
        let img = Image::from_rgba8(w, h, &bytes[..(w * h * 4) as usize]).unwrap();
        let enc = tex::encode(TexFormat::CMPR, &img).unwrap();
        prop_assert_eq!(enc.len(), level_size(TexFormat::CMPR, w, h).unwrap());
        let back = tex::decode(TexFormat::CMPR, w, h, &enc, None).unwrap();
        // Decoding a CMPR image and re-encoding it stays close.
        let again = tex::decode(TexFormat::CMPR, w, h, &tex::encode(TexFormat::CMPR, &back).unwrap(), None).unwrap();
        let opaque = back.pixels().iter().all(|p| p[3] == 255) || back.pixels().iter().all(|p| p[3] == 0);
        if opaque {
            prop_assert!(tex::psnr(&back, &again).unwrap() > 30.0);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        tex::fuzz_decode(&data);
    }
}

#[test]
fn fuzz_seeds() {
    // Shapes the fuzzer starts from: every format, with and without palette and mips.
    for f in 0u8..16 {
        for pf in 0..4 {
            let mut seed = vec![f, pf, 0, 9, 0, 7, 3, 16];
            seed.extend((0..600u32).map(|i| (i * 37 % 251) as u8));
            tex::fuzz_decode(&seed);
        }
    }
    tex::fuzz_decode(&[0xE, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
}
