//! GX texture codec throughput per format in MB/s of RGBA8 (decode and encode of the opaque
//! 256 × 256 `Image::test_pattern`: gradients, a hard edge, a ring, noise), with each format's
//! PSNR printed (CMPR: encoder quality), plus CMPR encoding of the pattern with alpha. Each
//! decode is timed beside gctex's (Dolphin's decoder) on the same bytes.
//!
//! Decode vs gctex, interleaved in one run (`gx ratio` lines): every texture level of the real
//! files (`../shared/corpus/real`: standalone BTI, TEX1 of models, BTI/BMD/BDL members of the
//! Galaxy archives; needs `--features gx,rarc`), per format, the synthetic pattern per format, and
//! small levels (`gx ratio small`: the 8 × 8 to 64 × 64 pattern of every format, one size at a time).
//! `decode_into` writes into a buffer the caller owns (as `gctex::decode_into`); `decode` returns
//! a new image (as `gctex::decode`). Both sides get the same bytes, the same dimensions and the
//! same output layout (row-major RGBA8, `width × height × 4` bytes), and both `decode`s allocate
//! a zeroed buffer.
//!
//! Each ratio is given three ways, since the machine is shared: the best wall time of N
//! interleaved calls, the median wall time, and the median thread CPU time (which does not count
//! the time slices of other jobs). The real set is timed two ways: all levels of a format in one
//! pass (several MB of output: the pass streams through the L3 cache, as a batch conversion does),
//! and level by level (each level's calls back to back, its output warm in the L2 cache; the
//! per-level medians summed). Two ceilings are timed on the same buffers: `fill` (memset, whose
//! `rep stosb` writes whole cache lines without reading them first) and a loop of 32-byte stores
//! in address order, the fastest any decoder writing with ordinary stores can go.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

#[path = "common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::gx::tex::{self, EncodeOptions, Image, Palette, PaletteFormat, TexFormat};
use std::cell::RefCell;
use std::hint::black_box;
use std::time::Instant;

/// One texture level as stored.
struct Level {
    format: TexFormat,
    width: u32,
    height: u32,
    data: Vec<u8>,
    palette: Option<(PaletteFormat, Vec<u8>)>,
}

impl Level {
    fn palette(&self) -> Option<Palette<'_>> {
        self.palette.as_ref().map(|(f, d)| Palette::new(*f, d))
    }

    fn gctex_args(&self) -> (gctex::TextureFormat, &[u8], u32) {
        let peer = gctex::TextureFormat::from_u32(u32::from(self.format.0)).unwrap();
        match &self.palette {
            Some((f, d)) => (peer, d, u32::from(f.0)),
            None => (peer, &[], 0),
        }
    }

    fn rgba_len(&self) -> usize {
        self.width as usize * self.height as usize * 4
    }
}

fn be16(d: &[u8], at: usize) -> u32 {
    u32::from(u16::from_be_bytes([d[at], d[at + 1]]))
}

fn be32(d: &[u8], at: usize) -> usize {
    u32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]]) as usize
}

/// Every mip level of the BTI header at `header` (offsets from `base`), as `tests/gx_oracle.rs`
/// finds them: by the documented header bytes, not through our parsers.
fn bti_levels(file: &[u8], header: usize, base: usize, out: &mut Vec<Level>) {
    let Some(h) = file.get(header..header + 32) else {
        return;
    };
    let format = TexFormat(h[0]);
    if format.block().is_none() {
        return;
    }
    let (w, hgt) = (be16(h, 2), be16(h, 4));
    let pal_at = base + be32(h, 12);
    let pal_len = 2 * be16(h, 10) as usize;
    let palette = if format.is_indexed() {
        let Some(p) = file.get(pal_at..pal_at + pal_len) else {
            return;
        };
        Some((PaletteFormat(h[9]), p.to_vec()))
    } else {
        None
    };
    let mut at = base + be32(h, 0x1C).max(32);
    for level in 0..u32::from(h[0x18]).max(1) {
        let (width, height) = tex::level_dims(w, hgt, level);
        let len = tex::level_size(format, width, height).unwrap();
        let Some(data) = file.get(at..at + len) else {
            return;
        };
        out.push(Level {
            format,
            width,
            height,
            data: data.to_vec(),
            palette: palette.clone(),
        });
        at += len;
    }
}

/// Every texture level of the real files (none without the corpus or the `rarc` feature).
fn real_levels() -> Vec<Level> {
    let mut out = Vec::new();
    #[cfg(feature = "rarc")]
    for sub in ["bti", "j3d", "rarc"] {
        for f in common::real_files(sub) {
            let d = &f.bytes;
            if d.starts_with(b"J3D2bmd") || d.starts_with(b"J3D2bdl") {
                let mut at = 0x20;
                while at + 16 <= d.len() {
                    let size = be32(d, at + 4);
                    if &d[at..at + 4] == b"TEX1" {
                        let headers = at + be32(d, at + 0xC);
                        for i in 0..be16(d, at + 8) as usize {
                            let hdr = headers + 32 * i;
                            bti_levels(d, hdr, hdr, &mut out);
                        }
                    }
                    if size == 0 {
                        break;
                    }
                    at += size;
                }
            } else if f.name.to_ascii_lowercase().ends_with(".bti") {
                bti_levels(d, 0, 0, &mut out);
            }
        }
    }
    out
}

/// Best wall, median wall and median thread-CPU seconds per call of one timed function.
#[derive(Clone, Copy)]
struct Timing {
    best: f64,
    median: f64,
    cpu: f64,
}

/// This thread's CPU time in seconds (wall time where there is no such clock).
fn thread_cpu() -> f64 {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }
    #[cfg(not(unix))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
    }
}

/// `n` scaled by `RATIO_RUNS` (1 in criterion's test mode, `-- --test`).
fn runs(n: usize) -> usize {
    if common::test_mode() {
        return 1;
    }
    let scale = std::env::var("RATIO_RUNS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    n * scale
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::MAX)
}

/// Times `fns` interleaved: each round calls every function once, in turn.
fn interleaved(n: usize, fns: &[(&str, &dyn Fn())]) -> Vec<Timing> {
    let mut wall = vec![Vec::with_capacity(n); fns.len()];
    let mut cpu = vec![Vec::with_capacity(n); fns.len()];
    for _ in 0..runs(n) {
        for ((w, c), (_, f)) in wall.iter_mut().zip(cpu.iter_mut()).zip(fns) {
            let c0 = thread_cpu();
            let t = Instant::now();
            f();
            w.push(t.elapsed().as_secs_f64());
            c.push(thread_cpu() - c0);
        }
    }
    wall.iter_mut()
        .zip(cpu.iter_mut())
        .map(|(w, c)| Timing {
            best: w.iter().copied().fold(f64::MAX, f64::min),
            median: median(w),
            cpu: median(c),
        })
        .collect()
}

/// Prints `gx ratio LABEL NAME  MB/s  best× | median× | cpu×` for each timing, against the first.
fn report(label: &str, bytes: usize, names: &[&str], t: &[Timing]) {
    let Some(base) = t.first().copied() else {
        return;
    };
    for (name, t) in names.iter().zip(t) {
        eprintln!(
            "gx ratio {label:22} {name:24} {:9.1} MB/s  {:5.2}x | median {:5.2}x | cpu {:5.2}x",
            bytes as f64 / t.best / 1e6,
            base.best / t.best,
            base.median / t.median,
            base.cpu / t.cpu,
            name = name,
        );
    }
}

/// Same pixels as gctex (tests/gx_oracle.rs checks this too).
fn assert_same(label: &str, levels: &[&Level]) {
    for l in levels {
        let (f, tlut, tf) = l.gctex_args();
        let ours = tex::decode(l.format, l.width, l.height, &l.data, l.palette()).unwrap();
        assert_eq!(
            ours.as_rgba8(),
            gctex::decode(&l.data, l.width, l.height, f, tlut, tf).as_slice(),
            "{label}"
        );
    }
}

fn gctex_into(l: &Level, b: &mut [u8]) {
    let (f, tlut, tf) = l.gctex_args();
    gctex::decode_into(b, black_box(&l.data), l.width, l.height, f, tlut, tf);
}

fn ours_into(l: &Level, b: &mut [u8]) {
    tex::decode_into(
        l.format,
        l.width,
        l.height,
        black_box(&l.data),
        l.palette(),
        b,
    )
    .unwrap();
}

/// A loop of 32-byte stores in address order over `b`: the ceiling of a decoder writing its
/// output with ordinary (read-for-ownership) vector stores.
fn store32(b: &mut [u8]) {
    for (i, c) in b.as_chunks_mut::<32>().0.iter_mut().enumerate() {
        *c = [(i >> 4) as u8; 32];
    }
}

/// `gx ratio` lines for decoding `levels` (one format) in one pass: gctex's and ours, into a
/// caller's buffer and allocating, and the two write ceilings on the same buffers.
fn decode_ratios(label: &str, levels: &[&Level], runs: usize) {
    let bytes: usize = levels.iter().map(|l| l.rgba_len()).sum();
    let bufs = RefCell::new(
        levels
            .iter()
            .map(|l| vec![0u8; l.rgba_len()])
            .collect::<Vec<_>>(),
    );
    assert_same(label, levels);
    let fns: [(&str, &dyn Fn()); 6] = [
        ("gctex decode_into", &|| {
            for (l, b) in levels.iter().zip(bufs.borrow_mut().iter_mut()) {
                gctex_into(l, b);
            }
        }),
        ("gx::tex decode_into", &|| {
            for (l, b) in levels.iter().zip(bufs.borrow_mut().iter_mut()) {
                ours_into(l, b);
            }
        }),
        ("gctex decode", &|| {
            for l in levels {
                let (f, tlut, tf) = l.gctex_args();
                black_box(gctex::decode(
                    black_box(&l.data),
                    l.width,
                    l.height,
                    f,
                    tlut,
                    tf,
                ));
            }
        }),
        ("gx::tex decode", &|| {
            for l in levels {
                black_box(
                    tex::decode(l.format, l.width, l.height, black_box(&l.data), l.palette())
                        .unwrap(),
                );
            }
        }),
        ("fill (memset ceiling)", &|| {
            for b in bufs.borrow_mut().iter_mut() {
                black_box(b).fill(0x55);
            }
        }),
        ("32-byte stores (ceiling)", &|| {
            for b in bufs.borrow_mut().iter_mut() {
                store32(black_box(b));
            }
        }),
    ];
    let names: Vec<&str> = fns.iter().map(|(n, _)| *n).collect();
    report(label, bytes, &names, &interleaved(runs, &fns));
}

/// The real levels one at a time: gctex's and our `decode_into` interleaved on each level (its
/// buffer warm), per-level best and medians summed over the levels.
fn per_level_ratios(label: &str, levels: &[&Level], runs: usize) {
    let bytes: usize = levels.iter().map(|l| l.rgba_len()).sum();
    let mut sum = [Timing {
        best: 0.0,
        median: 0.0,
        cpu: 0.0,
    }; 3];
    for l in levels {
        let buf = RefCell::new(vec![0u8; l.rgba_len()]);
        // Small levels: enough calls per timing that the clock's own cost stays out of it.
        let reps = (1 << 16) / l.rgba_len().max(1) + 1;
        let fns: [(&str, &dyn Fn()); 3] = [
            ("gctex decode_into", &|| {
                for _ in 0..reps {
                    gctex_into(l, &mut buf.borrow_mut());
                }
            }),
            ("gx::tex decode_into", &|| {
                for _ in 0..reps {
                    ours_into(l, &mut buf.borrow_mut());
                }
            }),
            ("32-byte stores (ceiling)", &|| {
                for _ in 0..reps {
                    store32(black_box(&mut buf.borrow_mut()));
                }
            }),
        ];
        for (s, t) in sum.iter_mut().zip(interleaved(runs, &fns)) {
            let r = reps as f64;
            s.best += t.best / r;
            s.median += t.median / r;
            s.cpu += t.cpu / r;
        }
    }
    report(
        label,
        bytes,
        &[
            "gctex decode_into",
            "gx::tex decode_into",
            "32-byte stores (ceiling)",
        ],
        &sum,
    );
}

/// The formats to time: all, or those named in `GX_FORMATS` (comma-separated, e.g. `RGBA8,I8`).
fn formats() -> Vec<TexFormat> {
    let only = std::env::var("GX_FORMATS").unwrap_or_default();
    TexFormat::ALL
        .into_iter()
        .filter(|f| only.is_empty() || only.split(',').any(|n| Some(n) == f.name()))
        .collect()
}

fn real(_: &mut Criterion) {
    let levels = real_levels();
    if levels.is_empty() {
        return;
    }
    for f in formats() {
        let of: Vec<&Level> = levels.iter().filter(|l| l.format == f).collect();
        if of.is_empty() {
            continue;
        }
        let px: usize = of.iter().map(|l| l.rgba_len() / 4).sum();
        eprintln!(
            "real {}: {} levels, {px} pixels",
            f.name().unwrap(),
            of.len()
        );
        let name = f.name().unwrap();
        decode_ratios(&format!("real {name}"), &of, 40);
        per_level_ratios(&format!("real {name} per level"), &of, 20);
    }
}

const SIZE: u32 = 256;

/// Square sizes of the small-level rows: every mip chain ends in levels this small.
const SMALL: [u32; 4] = [8, 16, 32, 64];

/// `gx ratio small FORMAT N×N` lines: the `N × N` test pattern of every format encoded by
/// `gx::tex`, timed as the real levels are one by one (`decode_into`, output warm, enough calls
/// per timing for the clock's cost to vanish): the per-call set-up of both decoders shows here.
fn small(_: &mut Criterion) {
    let opts = EncodeOptions::default();
    for f in formats() {
        let name = f.name().unwrap();
        for s in SMALL {
            let img = Image::test_pattern(s, s, false).unwrap();
            let enc = tex::encode_mips(f, std::slice::from_ref(&img), &opts).unwrap();
            let level = Level {
                format: f,
                width: s,
                height: s,
                data: enc.data,
                palette: f
                    .is_indexed()
                    .then(|| (opts.palette_format, enc.palette.clone())),
            };
            let label = format!("small {name} {s}x{s}");
            assert_same(&label, &[&level]);
            per_level_ratios(&label, &[&level], 40);
        }
    }
}

fn codec(c: &mut Criterion) {
    let img = Image::test_pattern(SIZE, SIZE, false).unwrap();
    let alpha = Image::test_pattern(SIZE, SIZE, true).unwrap();
    let opts = EncodeOptions::default();
    let mut g = c.benchmark_group("gx_tex");
    g.throughput(Throughput::Bytes(u64::from(SIZE * SIZE * 4)));
    for f in formats() {
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
        let level = Level {
            format: f,
            width: SIZE,
            height: SIZE,
            data: enc.data.clone(),
            palette: f
                .is_indexed()
                .then(|| (opts.palette_format, enc.palette.clone())),
        };
        decode_ratios(&format!("pattern {name}"), &[&level], 100);
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

criterion_group!(benches, real, small, codec);
criterion_main!(benches);
