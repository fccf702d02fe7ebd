//! Golden tables built in code: the sample BCK's bytes, field by field, and evaluation of the
//! samples at hand-worked frames.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use j3d_anim::{Kind, build, eval};

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}
fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

#[test]
fn sample_bck_bytes() {
    let b = build::sample_bck();
    assert_eq!(&b[..8], b"J3D1bck1");
    assert_eq!(be32(&b, 8) as usize, b.len());
    assert_eq!(be32(&b, 12), 1);
    assert_eq!(&b[0x20..0x24], b"ANK1");
    assert_eq!(
        be32(&b, 0x24) as usize,
        b.len() - 0x20,
        "chunk runs to the file end"
    );
    assert_eq!(b.len() % 32, 0);
    let c = &b[0x20..];
    assert_eq!(
        (c[8], c[9], be16(c, 10)),
        (2, 1, 10),
        "loop, decimal, duration"
    );
    assert_eq!(
        (be16(c, 0x0C), be16(c, 0x0E), be16(c, 0x10), be16(c, 0x12)),
        (2, 1, 2, 7)
    );
    // Joint table right after the 0x24-byte header, padded to 32 with the sentence.
    assert_eq!(be32(c, 0x14), 0x40);
    assert_eq!(&c[0x24..0x30], b"This is padd");
    // 2 joints × 54 bytes = 0x6C → scale table at 0xC0 (32-aligned), etc.
    assert_eq!(be32(c, 0x18), 0xC0);
    assert_eq!(be32(c, 0x1C), 0xE0);
    assert_eq!(be32(c, 0x20), 0x100);
    // Joint 0's translation X track: 2 keys at value index 1, tangent mode 0.
    assert_eq!(
        (be16(c, 0x40 + 12), be16(c, 0x40 + 14), be16(c, 0x40 + 16)),
        (2, 1, 0)
    );
    assert_eq!(f32::from_be_bytes(c[0xC0..0xC4].try_into().unwrap()), 1.0);
    assert_eq!(be16(c, 0xE2) as i16, 8192);
}

/// Pads `v` with the sentence (restarted) up to a multiple of `align` bytes.
fn pad(v: &mut Vec<u8>, align: usize) {
    let sentence = b"This is padding data to alignme";
    let n = (align - v.len() % align) % align;
    v.extend(&sentence[..n]);
}

/// The sample BLK and BLA, worked by hand from the layout in docs/J3D-ANIM.md: 0x18-byte
/// header padded to 32, the cluster entries, padding to 32, the f32 weights, padding to 32.
#[test]
fn sample_cluster_bytes() {
    let mut blk = b"J3D1blk1\0\0\0\x80\0\0\0\x01".to_vec();
    blk.extend([0xFF; 16]);
    blk.extend(b"CLK1\0\0\0\x60");
    // loop 2, 0x09 = 0, duration 10, 0x0C = 1, 7 weights, clusters at 0x20, weights at 0x40.
    blk.extend([2, 0, 0, 10, 0, 1, 0, 7, 0, 0, 0, 0x20, 0, 0, 0, 0x40]);
    pad(&mut blk, 32);
    // Cluster 0: 2 keys at 0, tangent mode 0; cluster 1: constant weights[6].
    blk.extend([0, 2, 0, 0, 0, 0, 0, 1, 0, 6, 0, 0]);
    pad(&mut blk, 32);
    for w in [0.0f32, 0.0, 0.0, 10.0, 1.0, 0.0, 0.5] {
        blk.extend(w.to_be_bytes());
    }
    pad(&mut blk, 32);
    assert_eq!(build::sample(Kind::Blk).write().unwrap(), blk);
    let back = j3d_anim::Anim::parse(&blk).unwrap();
    assert_eq!(back.tables, build::sample(Kind::Blk).tables);
    assert_eq!(back.write().unwrap(), blk);

    let mut bla = b"J3D1bla1\0\0\0\x80\0\0\0\x01".to_vec();
    bla.extend([0xFF; 16]);
    bla.extend(b"CLF1\0\0\0\x60");
    bla.extend([0, 0xFF, 0, 4, 0, 1, 0, 4, 0, 0, 0, 0x20, 0, 0, 0, 0x40]);
    pad(&mut bla, 32);
    // Cluster 0: 4 frames from weights[0]; cluster 1: constant weights[3].
    bla.extend([0, 4, 0, 0, 0, 1, 0, 3]);
    pad(&mut bla, 32);
    for w in [0.0f32, 0.25, 0.5, 1.0] {
        bla.extend(w.to_be_bytes());
    }
    pad(&mut bla, 32);
    assert_eq!(bla.len(), 0x80);
    assert_eq!(build::sample(Kind::Bla).write().unwrap(), bla);
    let back = j3d_anim::Anim::parse(&bla).unwrap();
    assert_eq!(back.tables, build::sample(Kind::Bla).tables);
    assert_eq!(back.write().unwrap(), bla);
}

#[test]
fn sample_evaluation() {
    let a = build::sample(Kind::Bck);
    let p = eval::joint(&a, 0, 2.5).unwrap();
    assert!(
        (p.translation[0] - 2.5).abs() < 1e-5,
        "slope-1 keys are a straight line"
    );
    assert!(
        (p.rotation[1] - 90.0).abs() < 1e-4,
        "8192 units × 2 × 180 / 32768 = 90°"
    );
    assert_eq!(p.scale, [1.0; 3]);
    // Repeat loop: t = 12.5 shows frame 2.5.
    assert!((eval::pose(&a, 12.5)[0].translation[0] - 2.5).abs() < 1e-5);
    let brk = build::sample(Kind::Brk);
    // R keys (0, 0, 0) → (4, 255, 0): flat Hermite at t = 0.5 is the midpoint.
    assert!((eval::color(&brk, false, 0, 2.0).unwrap()[0] - 127.5).abs() < 1e-3);
    let btp = build::sample(Kind::Btp);
    assert_eq!(eval::pattern(&btp, 0, 0.9), Some(1));
    assert_eq!(eval::pattern(&btp, 0, 1.0), Some(2));
    let bva = build::sample(Kind::Bva);
    assert_eq!(eval::visible(&bva, 1, 0.5), Some(false));
    assert_eq!(eval::visible(&bva, 1, 1.0), Some(true));
    assert_eq!(eval::visible(&bva, 0, 3.0), Some(true));
    let blk = build::sample(Kind::Blk);
    assert!((eval::weight(&blk, 0, 5.0).unwrap() - 0.5).abs() < 1e-6);
    assert_eq!(eval::weights(&build::sample(Kind::Bla), 2.6), [1.0, 1.0]);
    let bca = build::sample(Kind::Bca);
    assert_eq!(eval::joint(&bca, 0, 2.9).unwrap().translation[0], 2.0);
}

#[test]
fn every_sample_round_trips_and_validates_clean() {
    for (name, bytes) in build::samples() {
        let a = j3d_anim::Anim::parse(&bytes).unwrap();
        assert_eq!(a.write().unwrap(), bytes, "{name}");
        assert!(a.raw_parts().is_empty(), "{name}");
        assert_eq!(j3d_anim::validate(&bytes), Vec::new(), "{name}");
        let j = j3d_anim::to_json(&a).unwrap();
        assert_eq!(j3d_anim::from_json(&j).unwrap(), a, "{name}");
    }
}

/// NaN (with its payload), infinities and -0.0 in f32 and triple tables survive JSON as bits.
#[test]
fn non_finite_floats_survive_json() {
    let odd = [
        f32::from_bits(0x7FC0_1234),
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
    ];
    for (name, bytes) in build::samples() {
        let mut a = j3d_anim::Anim::parse(&bytes).unwrap();
        let mut touched = false;
        for t in &mut a.tables {
            match &mut t.data {
                j3d_anim::Data::F32(v) => {
                    for (x, o) in v.iter_mut().zip(odd) {
                        *x = o;
                        touched = true;
                    }
                }
                j3d_anim::Data::Vec3(v) => {
                    if let Some(first) = v.first_mut() {
                        *first = [odd[0], odd[1], odd[3]];
                        touched = true;
                    }
                }
                _ => {}
            }
        }
        if !touched {
            continue;
        }
        let out = a.write().unwrap();
        let text = serde_json::to_string(&j3d_anim::to_json(&a).unwrap()).unwrap();
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        let again = j3d_anim::from_json(&back).unwrap().write().unwrap();
        assert_eq!(again, out, "{name}");
    }
}
