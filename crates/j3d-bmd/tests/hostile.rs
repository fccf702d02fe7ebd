#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Hostile input: cycles in the hierarchy, indices past tables, overflowing counts → errors with
//! offsets (or validator findings), never panics; fuzz seeds replayed.

use j3d_bmd::*;

fn chunk_offset(b: &[u8], magic: &[u8; 4]) -> usize {
    parse(b).unwrap().chunk(magic).unwrap().offset() as usize
}

#[test]
fn truncated_and_oversized_chunks_error_with_offsets() {
    let b = build::skinned_bmd().write().unwrap();
    let e = parse(&b[..0x30]).unwrap_err();
    assert_eq!(e.offset(), Some(0x20));
    assert!(e.to_string().starts_with("chunk 0"), "{e}");
    let mut big = b.clone();
    big[0x24..0x28].copy_from_slice(&0xFFFF_FFF0u32.to_be_bytes());
    assert!(parse(&big).is_err());
    let mut tiny = b.clone();
    tiny[0x24..0x28].copy_from_slice(&4u32.to_be_bytes());
    assert!(parse(&tiny).unwrap_err().to_string().contains("below 8"));
    let mut count = b.clone();
    count[0x0C..0x10].copy_from_slice(&u32::MAX.to_be_bytes());
    // A huge chunk count is bounded by the data: the walk stops at the end, the count is kept.
    let m = Bmd::parse(&count).unwrap();
    assert_eq!(m.stale_count, Some(u32::MAX));
    assert_eq!(m.write().unwrap(), count);
    assert!(validate(&count).iter().any(|d| d.rule == "J3D-003"));
}

#[test]
fn hierarchy_cycles_and_unbalanced_nodes() {
    let mut b = build::skinned_bmd().write().unwrap();
    let inf = chunk_offset(&b, b"INF1") + 0x18;
    // root OPEN root: the joint reappears under itself; then an unmatched CLOSE.
    let nodes: [(u16, u16); 5] = [(0x10, 0), (1, 0), (0x10, 0), (2, 0), (2, 0)];
    for (i, (k, v)) in nodes.iter().enumerate() {
        b[inf + 4 * i..inf + 4 * i + 2].copy_from_slice(&k.to_be_bytes());
        b[inf + 4 * i + 2..inf + 4 * i + 4].copy_from_slice(&v.to_be_bytes());
    }
    let d = validate(&b);
    assert!(d.iter().any(|d| d.rule == "J3D-013"), "{d:#?}");
    assert!(d.iter().any(|d| d.rule == "J3D-015"), "{d:#?}");
    let v = parse(&b).unwrap();
    let s = skeleton(&v).unwrap();
    assert_eq!(s.parents.len(), 3);
    assert_eq!(Bmd::parse(&b).unwrap().write().unwrap(), b);
}

#[test]
fn indices_past_tables() {
    let mut b = build::skinned_bmd().write().unwrap();
    let drw = chunk_offset(&b, b"DRW1");
    let ids = drw + u32::from_be_bytes(b[drw + 0x10..drw + 0x14].try_into().unwrap()) as usize;
    b[ids..ids + 2].copy_from_slice(&99u16.to_be_bytes());
    let d = validate(&b);
    assert!(d.iter().any(|d| d.rule == "J3D-038"), "{d:#?}");
    // The shape group's matrix table points at DRW1 entries; geometry still resolves what exists.
    let _ = geometry(&parse(&b).unwrap());
    let mut b = build::skinned_bmd().write().unwrap();
    let shp = chunk_offset(&b, b"SHP1");
    let shapes = shp + u32::from_be_bytes(b[shp + 0x0C..shp + 0x10].try_into().unwrap()) as usize;
    b[shapes + 2..shapes + 4].copy_from_slice(&0x7FFFu16.to_be_bytes());
    let e = geometry(&parse(&b).unwrap()).unwrap_err();
    assert!(e.to_string().starts_with("SHP1 > shape 0"), "{e}");
    assert!(e.offset().is_some());
    assert!(validate(&b).iter().any(|d| d.rule == "J3D-052"));
}

#[test]
fn fuzz_seeds_replay() {
    let mut seeds: Vec<Vec<u8>> = build::samples().into_iter().map(|(_, b)| b).collect();
    seeds.push(Vec::new());
    seeds.push(b"J3D2bdl4\0\0\0\x20\0\0\0\x09SVR3".to_vec());
    let b = build::rigid_bdl().write().unwrap();
    for cut in [0x21, 0x40, 0x100, b.len() - 1] {
        seeds.push(b[..cut].to_vec());
    }
    for s in seeds {
        fuzz_bmd(&s);
    }
}

#[test]
fn other_padding_styles_and_alignments_stay_typed() {
    for pad in Pad::ALL {
        for align in [1u8, 4, 16, 32] {
            let mut m = build::skinned_bmd();
            for c in &mut m.chunks {
                match c {
                    Chunk::Inf1(x) => x.pad = pad,
                    Chunk::Vtx1(x) => (x.pad, x.align) = (pad, align),
                    Chunk::Evp1(x) => (x.pad, x.aligns) = (pad, Evp1::uniform_aligns(align)),
                    Chunk::Drw1(x) => (x.pad, x.align) = (pad, align),
                    Chunk::Jnt1(x) => (x.pad, x.align) = (pad, align),
                    Chunk::Shp1(x) => (x.pad, x.aligns) = (pad, Shp1::uniform_aligns(align)),
                    Chunk::Mat3(x) => (x.pad, x.align) = (pad, align),
                    _ => {}
                }
            }
            let b = m.write().unwrap();
            let back = Bmd::parse(&b).unwrap();
            assert_eq!(back.write().unwrap(), b);
            let raw = back
                .chunks
                .iter()
                .filter(|c| matches!(c, Chunk::Raw(_)))
                .count();
            let built_raw = m
                .chunks
                .iter()
                .filter(|c| matches!(c, Chunk::Raw(_)))
                .count();
            let why: Vec<_> = parse(&b)
                .unwrap()
                .chunks()
                .iter()
                .filter_map(|c| Chunk::raw_reason(c).map(|r| format!("{}: {r}", c.name())))
                .collect();
            assert_eq!(raw, built_raw, "{pad:?} align {align}: {why:?}");
            // Shapes right after the 0x2C header with natural alignment (SuperBMD-like layout).
            if align == 1 {
                let shp = chunk_offset(&b, b"SHP1");
                assert_eq!(&b[shp + 0x0C..shp + 0x10], &[0, 0, 0, 0x2C]);
            }
            assert!(geometry(&parse(&b).unwrap()).unwrap().triangle_count() == 96);
        }
    }
}

#[test]
fn unknown_layout_falls_back_to_raw() {
    let mut b = build::skinned_bmd().write().unwrap();
    let jnt = chunk_offset(&b, b"JNT1");
    // A name-table key that does not match its hash is kept as found.
    let names = jnt + u32::from_be_bytes(b[jnt + 0x14..jnt + 0x18].try_into().unwrap()) as usize;
    b[names + 4] ^= 0xFF;
    let m = Bmd::parse(&b).unwrap();
    assert!(m.jnt1().is_some());
    assert_eq!(m.write().unwrap(), b);
    assert!(validate(&b).iter().any(|d| d.rule == "J3D-078"));
    // A gap the canonical writer would not produce keeps the chunk raw but byte-exact.
    let mut b = build::skinned_bmd().write().unwrap();
    let drw = chunk_offset(&b, b"DRW1");
    b[drw + 0x3F] = 0x42;
    let m = Bmd::parse(&b).unwrap();
    assert!(m.drw1().is_none());
    assert_eq!(m.write().unwrap(), b);
}

#[test]
fn overlapping_groups_cannot_amplify() {
    let mut b = build::grid_bmd(8, 40).write().unwrap();
    let shp = chunk_offset(&b, b"SHP1");
    let word = |b: &[u8], at: usize| u32::from_be_bytes(b[at..at + 4].try_into().unwrap()) as usize;
    let (prims, defs) = (word(&b, shp + 0x20), word(&b, shp + 0x28));
    let total = word(&b, shp + 0x24) - prims;
    // Every group claims the whole primitive region.
    for k in 0..3 {
        let at = shp + defs + 8 * k;
        b[at..at + 4].copy_from_slice(&(total as u32).to_be_bytes());
        b[at + 4..at + 8].copy_from_slice(&0u32.to_be_bytes());
    }
    let e = geometry(&parse(&b).unwrap()).unwrap_err();
    assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    assert!(validate(&b).iter().any(|d| d.rule == "J3D-062"));
    let m = Bmd::parse(&b).unwrap();
    assert!(m.shp1().is_none(), "overlapping groups keep SHP1 raw");
    assert_eq!(m.write().unwrap(), b);
}

#[test]
fn shapes_sharing_groups_cannot_multiply_work() {
    let mut m = build::grid_bmd(8, 200);
    let shp = m.shp1_mut().unwrap();
    let first = shp.shapes[0];
    shp.shapes = vec![first; 2000];
    shp.remap = (0..2000).collect();
    let b = m.write().unwrap();
    let t = std::time::Instant::now();
    let e = geometry(&parse(&b).unwrap()).unwrap_err();
    assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    assert!(
        validate(&b)
            .iter()
            .any(|d| d.rule == "J3D-052" || d.rule == "J3D-062")
    );
    assert_eq!(Bmd::parse(&b).unwrap().write().unwrap(), b);
    assert!(t.elapsed().as_secs() < 20);
}

#[test]
fn bti_and_mat3_fuzz_seeds_replay() {
    let (set, _) = build::textures();
    for i in 0..set.textures.len() {
        let b = j3d_bmd::Bti::new(
            set.textures[i].header,
            set.image(i).unwrap(),
            set.palette(i),
        )
        .write()
        .unwrap();
        for cut in [0, 0x10, 0x20, b.len() / 2, b.len()] {
            j3d_bmd::fuzz_bti(&b[..cut]);
        }
    }
    // Found by cargo-fuzz: a 255-level header overflowed the mip-size shift.
    j3d_bmd::fuzz_bti(&[
        0x0a, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 0,
    ]);
    // Found by cargo-fuzz: image offset 0 with an image that does not fit after the header;
    // the header must come back with its 0, not the 32 the reader tried.
    let mut zero = vec![0u8; 32];
    zero[2..5].copy_from_slice(&[0xff, 0xff, 0xff]);
    zero[0x0D] = 0x2A;
    zero[0x15] = 0x28;
    j3d_bmd::fuzz_bti(&zero);
    let mat = j3d_bmd::Mat3::from_materials(&build::materials())
        .unwrap()
        .write()
        .unwrap();
    for cut in [0, 8, 0x84, 0x100, mat.len() / 2, mat.len()] {
        j3d_bmd::fuzz_mat3(&mat[..cut]);
    }
    for i in (0..mat.len()).step_by(7) {
        let mut m = mat.clone();
        m[i] ^= 0x41;
        j3d_bmd::fuzz_mat3(&m);
    }
}

#[test]
fn mdl3_packets_sharing_bytes_are_refused() {
    // Every packet entry points at the same packet: decoding them all would multiply the work.
    let mut m = j3d_bmd::build::rigid_bdl();
    let bytes = m.write().unwrap();
    let v = j3d_bmd::parse(&bytes).unwrap();
    let mdl = v.chunk(b"MDL3").unwrap();
    let start = mdl.offset() as usize;
    let table = mdl.data.u32(0x0C).unwrap() as usize;
    let n = mdl.data.u16(8).unwrap() as usize;
    let first = mdl.data.u32(table).unwrap() as usize;
    let size = mdl.data.u32(table + 4).unwrap();
    let mut b = bytes.clone();
    for i in 0..n {
        let e = table + 8 * i;
        // Offset relative to the entry, aimed at packet 0; every packet gets the whole chunk.
        let target = table + first;
        let rel = (target - e) as u32;
        b[start + e..start + e + 4].copy_from_slice(&rel.to_be_bytes());
        let whole = (mdl.data.len() - target) as u32;
        b[start + e + 4..start + e + 8].copy_from_slice(&whole.max(size).to_be_bytes());
    }
    let chunk = j3d_bmd::parse(&b).unwrap().chunk(b"MDL3").unwrap();
    assert!(j3d_bmd::Mdl3::parse(chunk.data, j3d_bmd::Pad::Nintendo).is_err());
    // The model still parses (MDL3 stays raw) and the validator reports instead of looping.
    m = Bmd::parse(&b).unwrap();
    assert!(m.mdl3().is_none());
    assert!(validate(&b).iter().any(|d| d.rule == "J3D-006"));
}

/// A NaN in a texture matrix is a value like any other: the MAT3 fuzz body compares floats by
/// bits, so it does not report the material as changed (issue 25).
#[test]
fn mat3_fuzz_body_compares_floats_by_bits() {
    let mut mats = build::materials();
    let t = mats
        .iter_mut()
        .find_map(|m| m.tex_mtx.iter_mut().flatten().next())
        .expect("a material with a texture matrix");
    t.effect[0] = f32::NAN;
    t.center[1] = -0.0;
    let bytes = Mat3::from_materials(&mats).unwrap().write().unwrap();
    j3d_bmd::fuzz_mat3(&bytes);
}

/// Replays the PNG → BTI fuzz body (`j3d_bmd::fuzz_png_bti`) on reproducible inputs.
#[test]
fn png_bti_fuzz_replay() {
    for input in gcio::replay_inputs(100) {
        j3d_bmd::fuzz_png_bti(&input);
    }
    // Longer inputs: real pixels for every format and mip count.
    for f in 0..10u8 {
        let mut input = vec![37, 21, f, f];
        input.extend((0..600u32).map(|i| (i * 7 + u32::from(f)) as u8));
        j3d_bmd::fuzz_png_bti(&input);
    }
}

/// Replays the glTF import fuzz body (`j3d_bmd::fuzz_import`: a sample's glb with its JSON or
/// binary chunk edited) on reproducible inputs: never panics; what imports validates clean.
#[test]
fn import_fuzz_replay() {
    for input in gcio::replay_inputs(1500) {
        j3d_bmd::fuzz_import(&input);
    }
}

/// Caller limits reach every chunk: a model that parses with the defaults fails with a limit
/// error (not a panic, not a default-bounded success) when the caller allows fewer elements or
/// bytes than it holds.
#[test]
fn caller_limits_bound_the_model() {
    use gcio::{ErrorKind, Limits};
    for (name, bytes) in build::samples() {
        let Ok(model) = j3d_bmd::Bmd::parse(&bytes) else {
            continue;
        };
        assert!(
            j3d_bmd::Bmd::parse_with(&bytes, &Limits::default()).is_ok_and(|m| m == model),
            "{name}"
        );
        let tight = Limits {
            max_elements: 1,
            max_alloc_bytes: 8,
            ..Limits::default()
        };
        let Err(err) = j3d_bmd::Bmd::parse_with(&bytes, &tight) else {
            panic!("{name}: parsed within 1 element / 8 bytes");
        };
        assert!(
            matches!(err.kind(), ErrorKind::Limit { .. }),
            "{name}: {err}"
        );
    }
}
