//! Golden table: one broken variant of the sample per rule id, and the id the validator reports.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

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

#[test]
fn each_rule_fires() {
    type Case = (&'static str, fn() -> Vec<String>);
    let cases: Vec<Case> = vec![
        ("TPL-001", || {
            let mut b = build::sample_bytes();
            b.truncate(b.len() - 1);
            tpl::validate(&b).into_iter().map(|d| d.rule).collect()
        }),
        ("TPL-002", || {
            let mut t = c4(8);
            t.images[0].palette.as_mut().unwrap().header.format = 7;
            ids(&t)
        }),
        ("TPL-003", || ids(&c4(2))),
        ("TPL-004", || {
            let mut t = sample();
            t.images[0].header.wrap_s = 3;
            ids(&t)
        }),
        ("TPL-005", || {
            let mut t = sample();
            t.images[1].header.mag_filter = 2;
            ids(&t)
        }),
        ("TPL-006", || {
            let mut t = sample();
            t.size += 4;
            for e in &mut t.images {
                e.header.data_offset += 4;
            }
            for p in t.images.iter_mut().filter_map(|e| e.palette.as_mut()) {
                p.header.data_offset += 4;
            }
            ids(&t)
        }),
        ("TPL-007", || {
            let mut t = sample();
            t.images[0].header.height = 0;
            t.images[0].data = vec![0; t.images[0].header.data_size().unwrap()];
            t.relayout().unwrap();
            ids(&t)
        }),
        ("TPL-008", || {
            let img = Image::test_pattern(4, 4, false).unwrap();
            let mut e = build::entry(&img, TexFormat::RGB565, 1, PaletteFormat::RGB5A3).unwrap();
            e.header.max_lod = 4; // 5 levels of a 4 × 4 texture
            e.data = vec![0; e.header.data_size().unwrap()];
            ids(&build::library(vec![e]).unwrap())
        }),
        ("TPL-009", || {
            let mut t = sample();
            t.fill.push(tpl::Fill {
                offset: t.size,
                bytes: vec![1],
            });
            t.size += 1;
            ids(&t)
        }),
        ("TPL-010", || {
            let mut t = sample();
            t.images[0].palette = t.images[1].palette.clone();
            t.relayout().unwrap();
            ids(&t)
        }),
        ("TPL-011", || {
            let mut t = sample();
            // Image 1's header written twice: image 0 uses the same one.
            t.images.push(t.images[0].clone());
            t.relayout().unwrap();
            let (h, d) = (t.images[0].header_offset, t.images[0].header.data_offset);
            t.images[3].header_offset = h;
            t.images[3].header.data_offset = d;
            ids(&t)
        }),
        ("TPL-012", || ids(&c4(17))),
    ];
    let mut missing = Vec::new();
    for (id, make) in cases {
        let got = make();
        if !got.iter().any(|g| g == id) {
            missing.push(format!("{id}: got {got:?}"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
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
