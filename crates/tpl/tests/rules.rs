//! Golden table: one broken variant of the sample per rule id, and the finding (severity and id)
//! the validator must give for it (`gcio::check_rule_cases`: no other rule may report an error).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};
use gx::tex::{Image, PaletteFormat, TexFormat};
use tpl::{Tpl, build};

fn sample() -> Tpl {
    build::sample()
}

fn ids(t: &Tpl) -> Vec<String> {
    tpl::validate(&t.write().unwrap_or_else(|e| panic!("{e}")))
        .into_iter()
        .map(|d| d.rule)
        .collect()
}

fn c4(entries: u16) -> Tpl {
    let img = Image::from_fn(8, 8, |x, _| [(x * 30) as u8, 0, 0, 255]).unwrap();
    let mut e = build::entry(&img, TexFormat::C4, 1, PaletteFormat::RGB565).unwrap();
    let p = e.palette.as_mut().unwrap();
    p.data.resize(usize::from(entries) * 2, 0);
    p.header.entries = entries;
    build::library(vec![e]).unwrap()
}

/// The sample with one edit, written.
fn edited(f: fn(&mut Tpl)) -> Vec<u8> {
    let mut t = sample();
    f(&mut t);
    bytes(&t)
}

fn bytes(t: &Tpl) -> Vec<u8> {
    t.write().unwrap_or_else(|e| panic!("{e}"))
}

const CASES: &[RuleCase<'static, Vec<u8>>] = &[
    (
        "file cut short",
        || {
            let mut b = build::sample_bytes();
            b.truncate(b.len() - 1);
            b
        },
        Error,
        "TPL-001",
    ),
    (
        "palette format 7",
        || {
            let mut t = c4(8);
            t.images[0].palette.as_mut().unwrap().header.format = 7;
            bytes(&t)
        },
        Error,
        "TPL-002",
    ),
    ("index past the palette", || bytes(&c4(2)), Error, "TPL-003"),
    (
        "wrap mode 3",
        || edited(|t| t.images[0].header.wrap_s = 3),
        Warning,
        "TPL-004",
    ),
    (
        "magnification filter 2",
        || edited(|t| t.images[1].header.mag_filter = 2),
        Warning,
        "TPL-005",
    ),
    (
        "texels 4 bytes off the 32-byte boundary",
        || {
            edited(|t| {
                t.size += 4;
                for e in &mut t.images {
                    e.header.data_offset += 4;
                }
                for p in t.images.iter_mut().filter_map(|e| e.palette.as_mut()) {
                    p.header.data_offset += 4;
                }
            })
        },
        Warning,
        "TPL-006",
    ),
    (
        "height 0",
        || {
            edited(|t| {
                t.images[0].header.height = 0;
                t.images[0].data = vec![0; t.images[0].header.data_size().unwrap()];
                t.relayout().unwrap();
            })
        },
        Error,
        "TPL-007",
    ),
    (
        "5 levels of a 4 × 4 texture",
        || {
            let img = Image::test_pattern(4, 4, false).unwrap();
            let mut e = build::entry(&img, TexFormat::RGB565, 1, PaletteFormat::RGB5A3).unwrap();
            e.header.max_lod = 4;
            e.data = vec![0; e.header.data_size().unwrap()];
            bytes(&build::library(vec![e]).unwrap())
        },
        Warning,
        "TPL-008",
    ),
    (
        "non-zero trailing byte",
        || {
            edited(|t| {
                t.fill.push(tpl::Fill {
                    offset: t.size,
                    bytes: vec![1],
                });
                t.size += 1;
            })
        },
        Info,
        "TPL-009",
    ),
    (
        "palette on a direct format",
        || {
            edited(|t| {
                t.images[0].palette = t.images[1].palette.clone();
                t.relayout().unwrap();
            })
        },
        Info,
        "TPL-010",
    ),
    (
        "two images share one header",
        || {
            edited(|t| {
                // Image 0's header written twice: a fourth image uses the same one.
                t.images.push(t.images[0].clone());
                t.relayout().unwrap();
                let (h, d) = (t.images[0].header_offset, t.images[0].header.data_offset);
                t.images[3].header_offset = h;
                t.images[3].header.data_offset = d;
            })
        },
        Info,
        "TPL-011",
    ),
    (
        "17 C4 palette entries",
        || bytes(&c4(17)),
        Warning,
        "TPL-012",
    ),
];

#[test]
fn each_rule_fires() {
    if let Err(e) = check_rule_cases(CASES, |b| tpl::validate(b)) {
        panic!("{e}");
    }
    assert!(ids(&sample()).is_empty());
}

#[test]
fn errors_name_structure_and_offset() {
    let mut b = build::sample_bytes();
    // Image 1's texel offset past the end.
    let h = u32::from_be_bytes(b[0x14..0x18].try_into().unwrap()) as usize;
    b[h + 8..h + 12].copy_from_slice(&0xFFFF_0000u32.to_be_bytes());
    let e = tpl::Tpl::parse(&b).unwrap_err().to_string();
    assert!(e.contains("image 1") && e.contains("texel data"), "{e}");
    assert!(e.contains("0xffff0000"), "{e}");
}
