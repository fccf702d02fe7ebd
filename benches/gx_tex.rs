//! GX texture codec throughput per format in MB/s of RGBA8 (decode and encode of the opaque
//! 256 × 256 `Image::test_pattern`: gradients, a hard edge, a ring, noise), with each format's
//! PSNR printed (CMPR: encoder quality), plus CMPR encoding of the pattern with alpha. Each
//! decode is timed beside gctex's (Dolphin's decoder) on the same bytes.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::gx::tex::{self, EncodeOptions, Image, Palette, PaletteFormat, TexFormat};
use std::hint::black_box;

const SIZE: u32 = 256;

fn codec(c: &mut Criterion) {
    let img = Image::test_pattern(SIZE, SIZE, false).unwrap();
    let alpha = Image::test_pattern(SIZE, SIZE, true).unwrap();
    let opts = EncodeOptions::default();
    let mut g = c.benchmark_group("gx_tex");
    g.throughput(Throughput::Bytes(u64::from(SIZE * SIZE * 4)));
    for f in TexFormat::ALL {
        let name = f.name().unwrap();
        let enc = tex::encode_mips(f, std::slice::from_ref(&img), &opts).unwrap();
        let palette = f
            .is_indexed()
            .then(|| Palette::new(opts.palette_format, &enc.palette));
        let back = tex::decode(f, SIZE, SIZE, &enc.data, palette).unwrap();
        eprintln!(
            "{name}: PSNR {:.2} dB, {} bytes",
            tex::psnr(&img, &back).unwrap(),
            enc.data.len()
        );
        g.bench_function(format!("decode {name}"), |b| {
            b.iter(|| tex::decode(f, SIZE, SIZE, black_box(&enc.data), palette).unwrap())
        });
        // The same bytes through gctex (Dolphin's decoder; GPL, bench/test oracle only).
        let peer = gctex::TextureFormat::from_u32(u32::from(f.0)).unwrap();
        let tlut_format = u32::from(opts.palette_format.0);
        let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
        g.bench_function(format!("decode {name} (gctex)"), |b| {
            b.iter(|| {
                gctex::decode_into(
                    &mut out,
                    black_box(&enc.data),
                    SIZE,
                    SIZE,
                    peer,
                    &enc.palette,
                    tlut_format,
                )
            })
        });
        g.bench_function(format!("encode {name}"), |b| {
            b.iter(|| tex::encode_mips(f, std::slice::from_ref(black_box(&img)), &opts).unwrap())
        });
    }
    g.bench_function("encode CMPR (with alpha)", |b| {
        b.iter(|| tex::encode(TexFormat::CMPR, black_box(&alpha)).unwrap())
    });
    // Palette building alone dominates indexed encoding; RGB565 palettes skip alpha.
    let rgb = EncodeOptions {
        palette_format: PaletteFormat::RGB565,
        ..opts
    };
    g.bench_function("encode C8 (RGB565 palette)", |b| {
        b.iter(|| {
            tex::encode_mips(TexFormat::C8, std::slice::from_ref(black_box(&img)), &rgb).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
