#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Layout facts of Nintendo's and SuperBMD's J3D writers, as golden tables built in code: the
//! per-table alignments SHP1/EVP1 keep, MDL3 packet placement, the MAT3 name-table alignment, and
//! that models written with any of them come back typed and byte-identical.

use gcio::Reader;
use j3d_bmd::*;
use proptest::prelude::*;

/// Retail SHP1 (Galaxy 2, Sunshine, Pikmin 2, Double Dash): shapes right after the 0x2C header,
/// remap right after them, 4 then 32 before the attribute lists (the name table's position even
/// without names), weights right after, primitives on 32, the small tables right after.
const RETAIL_SHP1: [u8; 8] = [4, 2, 4, 32, 2, 32, 4, 4];
/// Retail EVP1: joint indices right after the sizes, even at an odd offset.
const RETAIL_EVP1: [u8; 4] = [1, 1, 4, 4];

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// Every chunk of `b` typed and `b` rewritten identically.
fn assert_typed_round_trip(b: &[u8]) {
    let v = parse(b).unwrap();
    for c in v.chunks() {
        assert_eq!(Chunk::raw_reason(c), None, "{}", c.name());
    }
    assert_eq!(Bmd::parse(b).unwrap().write().unwrap(), b);
}

fn retail(mut m: Bmd) -> Bmd {
    for c in &mut m.chunks {
        match c {
            Chunk::Shp1(s) => s.aligns = RETAIL_SHP1,
            Chunk::Evp1(e) => e.aligns = RETAIL_EVP1,
            _ => {}
        }
    }
    m
}

fn chunk<'a>(b: &'a [u8], magic: &[u8; 4]) -> &'a [u8] {
    let v = parse(b).unwrap();
    let c = v.chunks().iter().find(|c| &c.magic == magic).unwrap();
    let at = c.offset() as usize;
    &b[at..at + c.data.len()]
}

#[test]
fn golden_retail_shp1() {
    let b = retail(build::skinned_bmd()).write().unwrap();
    let s = chunk(&b, b"SHP1");
    let offsets: Vec<u32> = (0..8).map(|k| u32_at(s, 0x0C + 4 * k)).collect();
    let n = u32::from(u16::from_be_bytes([s[8], s[9]]));
    // Shapes at 0x2C, remap right after; no names; attributes on 32.
    assert_eq!(offsets[0], 0x2C);
    assert_eq!(offsets[1], 0x2C + 0x28 * n);
    assert_eq!(offsets[2], 0);
    let remap_end = offsets[1] + 2 * n;
    assert_eq!(offsets[3], remap_end.next_multiple_of(32));
    // The gap: padding to 4 (the name table's place), then padding to 32, each a fresh run.
    let gap = &s[remap_end as usize..offsets[3] as usize];
    let to4 = (remap_end.next_multiple_of(4) - remap_end) as usize;
    assert_eq!(&gap[..to4], &NINTENDO_PAD[..to4]);
    assert_eq!(&gap[to4..], &NINTENDO_PAD[..gap.len() - to4]);
    assert_eq!(offsets[5] % 32, 0);
    assert_typed_round_trip(&b);
    let back = Bmd::parse(&b).unwrap();
    assert_eq!(back.shp1().unwrap().aligns[3], 32);
    assert_eq!(back.shp1().unwrap().write().unwrap(), s);
}

#[test]
fn golden_retail_evp1() {
    let m = Evp1 {
        marker: 0xFFFF,
        envelopes: vec![Envelope {
            pairs: vec![(0, 0.25), (1, 0.75)],
        }],
        ibms: vec![
            [
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0]
            ];
            2
        ],
        pad: Pad::Nintendo,
        aligns: RETAIL_EVP1,
    };
    let b = m.write().unwrap();
    // sizes 0x1C, joints 0x1D (odd: packed), weights 0x24, matrices 0x2C — as the retail
    // Galaxy 2 SamboHead.bdl stores one two-joint envelope.
    let offsets: Vec<u32> = (0..4).map(|k| u32_at(&b, 0x0C + 4 * k)).collect();
    assert_eq!(offsets, [0x1C, 0x1D, 0x24, 0x2C]);
    assert_eq!(&b[0x1C..0x24], &[2, 0, 0, 0, 1, b'T', b'h', b'i']);
    let back = Evp1::from_view(&Evp1View::parse(Reader::new(&b)).unwrap()).unwrap();
    assert_eq!(back.aligns, RETAIL_EVP1);
    assert_eq!(back, m);
}

#[test]
fn golden_mdl3_packets_on_32() {
    let b = build::rigid_bdl().write().unwrap();
    let c = chunk(&b, b"MDL3");
    let n = usize::from(u16::from_be_bytes([c[8], c[9]]));
    let table = u32_at(c, 0x0C) as usize;
    assert_eq!(table, 0x40);
    for i in 0..n {
        let e = table + 8 * i;
        let start = e + u32_at(c, e) as usize;
        assert_eq!(start % 32, 0, "packet {i} starts on 32");
        assert_eq!(u32_at(c, e + 4) % 32, 0, "packet {i} size");
    }
    // The gap after the packet table is one padding run; after the name table the chunk's
    // padding to 32 is one run too.
    let first = table + 8 * n;
    let gap = &c[first..first.next_multiple_of(32)];
    assert_eq!(gap, &NINTENDO_PAD[..gap.len()]);
    let names = u32_at(c, 0x20) as usize;
    let t = NameTable::parse(Reader::new(c), names).unwrap();
    let end = names + t.byte_len();
    assert_eq!(&c[end..], &NINTENDO_PAD[..c.len() - end]);
    assert_typed_round_trip(&b);
}

#[test]
fn golden_superbmd_mat3_names_on_8() {
    let mut m = build::skinned_bmd();
    let mat = m.mat3_mut().unwrap();
    mat.pad = Pad::SuperBmd;
    mat.name_align = Some(8);
    let b = m.write().unwrap();
    let c = chunk(&b, b"MAT3");
    let names = u32_at(c, 0x14) as usize;
    let t = NameTable::parse(Reader::new(c), names).unwrap();
    let end = names + t.byte_len();
    let next = (0..30)
        .map(|k| u32_at(c, 0x0C + 4 * k) as usize)
        .filter(|&o| o > names)
        .min()
        .unwrap();
    assert_eq!(next, end.next_multiple_of(8));
    assert_eq!(&c[end..next], &SUPERBMD_PAD[..next - end]);
    assert_typed_round_trip(&b);
    let back = Bmd::parse(&b).unwrap();
    let want = if end.is_multiple_of(4) && next == end.next_multiple_of(4) {
        None
    } else {
        Some(8)
    };
    assert_eq!(back.mat3().unwrap().name_align, want);
}

/// `m` with its TEX1 replaced by one without textures whose name table starts on `names_align`.
fn with_empty_tex1(mut m: Bmd, names_align: u8, pad: Pad) -> Bmd {
    let t = Tex1 {
        marker: 0xFFFF,
        names: Some(NameTable::new(Vec::<&[u8]>::new())),
        names_align,
        pad,
        ..Tex1::default()
    };
    for c in &mut m.chunks {
        if let Chunk::Tex1(x) = c {
            *x = t.clone();
        }
    }
    m
}

/// Pikmin 2's texture-less TEX1 (`flower_red.bmd`): header, Nintendo padding to 32, the empty
/// name table at 0x20, padding to 64 — twice the 32 bytes of a TEX1 whose names follow the header.
#[test]
fn golden_empty_tex1_names_on_32() {
    // The model needs no texture: its materials may point at none for this layout check.
    let b = with_empty_tex1(build::skinned_bmd(), 32, Pad::Nintendo)
        .write()
        .unwrap();
    let c = chunk(&b, b"TEX1");
    let want = [
        &b"TEX1\0\0\0\x40\0\0\xFF\xFF\0\0\0\0\0\0\0\x20"[..],
        &NINTENDO_PAD[..12],
        &[0, 0, 0xFF, 0xFF],
        &NINTENDO_PAD[..28],
    ]
    .concat();
    assert_eq!(c, want.as_slice());
    assert_typed_round_trip(&b);
    let back = Bmd::parse(&b).unwrap();
    assert!(back.raw_parts().is_empty());
    assert_eq!(back.tex1().unwrap().names_align, 32);
    // The writers' default: names right after the header, 32 bytes in all.
    let b = with_empty_tex1(build::skinned_bmd(), 0, Pad::Nintendo)
        .write()
        .unwrap();
    assert_eq!(u32_at(chunk(&b, b"TEX1"), 4), 0x20);
    assert_eq!(u32_at(chunk(&b, b"TEX1"), 0x10), 0x14);
    assert_typed_round_trip(&b);
}

/// SuperBMD's MDL3 (Galaxy 2 mod `RedCoin.bdl`): the name table is the zero count alone, the
/// chunk's padding (`Model made with…`) starting where the 0xFFFF marker would be.
#[test]
fn golden_superbmd_mdl3_count_only_names() {
    let mut m = build::rigid_bdl();
    let mdl = m.mdl3_mut().unwrap();
    mdl.pad = Pad::SuperBmd;
    mdl.names = Some(NameTable::new(Vec::<&[u8]>::new()));
    mdl.names_count_only = true;
    let b = m.write().unwrap();
    let c = chunk(&b, b"MDL3");
    let names = u32_at(c, 0x20) as usize;
    assert_eq!(&c[names..names + 2], &[0, 0]);
    assert_eq!(&c[names + 2..], &SUPERBMD_PAD[..c.len() - names - 2]);
    assert_typed_round_trip(&b);
    let back = Bmd::parse(&b).unwrap();
    assert!(back.raw_parts().is_empty());
    assert!(back.mdl3().unwrap().names_count_only);
    // A table that gained names is written whole.
    let mut edited = back.clone();
    edited.mdl3_mut().unwrap().names = Some(NameTable::new(["m"]));
    let b = edited.write().unwrap();
    let c = chunk(&b, b"MDL3");
    let names = u32_at(c, 0x20) as usize;
    assert_eq!(&c[names..names + 4], &[0, 1, 0xFF, 0xFF]);
    assert_typed_round_trip(&b);
}

fn aligns<const N: usize>() -> impl Strategy<Value = [u8; N]> {
    proptest::array::uniform(prop::sample::select(vec![1u8, 2, 4, 8, 16, 32]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A texture-less TEX1 whose name table sits on any alignment, padded in any style, and an
    /// MDL3 with a full or count-only empty name table come back typed and identical.
    #[test]
    fn empty_tex1_and_mdl3_name_layouts_round_trip_typed(
        names_align in prop::sample::select(vec![0u8, 1, 2, 4, 8, 16, 32]),
        pad in prop::sample::select(Pad::ALL.to_vec()),
        count_only: bool,
    ) {
        let mut m = with_empty_tex1(build::rigid_bdl(), names_align, pad);
        let mdl = m.mdl3_mut().unwrap();
        mdl.pad = pad;
        mdl.names = Some(NameTable::new(Vec::<&[u8]>::new()));
        mdl.names_count_only = count_only;
        let b = m.write().unwrap();
        let back = Bmd::parse(&b).unwrap();
        prop_assert!(back.raw_parts().is_empty(), "{:?}", back.raw_parts());
        prop_assert_eq!(back.write().unwrap(), b);
    }

    /// Models whose SHP1/EVP1 tables use any alignments, padded in any style, come back typed
    /// and identical (the detected alignments may differ where several explain a gap).
    #[test]
    fn any_table_alignments_round_trip_typed(
        shp in aligns::<8>(),
        evp in aligns::<4>(),
        pad in prop::sample::select(Pad::ALL.to_vec()),
        which in 0usize..3,
    ) {
        let mut m = match which {
            0 => build::skinned_bmd(),
            1 => build::rigid_bdl(),
            _ => build::grid_bmd(3, 2),
        };
        for c in &mut m.chunks {
            match c {
                // Primitives must start on 32 (GX display lists).
                Chunk::Shp1(s) => (s.aligns, s.pad) = ([shp[0], shp[1], shp[2], shp[3], shp[4], 32, shp[6], shp[7]], pad),
                Chunk::Evp1(e) => (e.aligns, e.pad) = (evp, pad),
                _ => {}
            }
        }
        let b = m.write().unwrap();
        let v = parse(&b).unwrap();
        for c in v.chunks() {
            prop_assert_eq!(Chunk::raw_reason(c), None, "{}", c.name());
        }
        let back = Bmd::parse(&b).unwrap();
        prop_assert_eq!(back.write().unwrap(), b.clone());
        // Same geometry either way.
        prop_assert_eq!(
            geometry(&v).unwrap().triangle_count(),
            geometry(&parse(&m.write().unwrap()).unwrap()).unwrap().triangle_count()
        );
    }
}

mod common;

/// The edits the real-model test makes, on real-looking (retail-layout) built models.
#[test]
fn edits_on_retail_layout_models_change_only_their_bytes() {
    for (name, m) in [
        ("skinned", build::skinned_bmd()),
        ("rigid bdl", build::rigid_bdl()),
        ("grid", build::grid_bmd(4, 3)),
    ] {
        let b = retail(m).write().unwrap();
        let synced = common::check_edits(name, &b);
        // The BDL's materials use texture 0 and colour 0: syncing must reach their packets.
        assert_eq!(synced > 0, b.starts_with(b"J3D2bdl"), "{name}: {synced}");
    }
}

/// Nintendo's padding, byte for byte: a gap of N bytes holds the first N bytes of the sentence
/// other J3D tools document (`"This is padding data to alignme"`, 31 bytes, the
/// longest gap before a 32-byte boundary). Hand-typed here, so a writer whose sentence drifts
/// fails even where the builders' samples (padded by the same writer) would not notice.
#[test]
fn nintendo_padding_is_the_documented_sentence() {
    let sentence = b"This is padding data to alignme";
    for used in 1..=32usize {
        let mut w = gcio::Writer::new();
        w.fill(0xEE, used);
        Pad::Nintendo.align(&mut w, 32);
        let out = w.into_vec();
        let gap = (32 - used % 32) % 32;
        assert_eq!(out.len(), used + gap, "{used}");
        assert_eq!(&out[used..], &sentence[..gap], "{used}");
    }
}

/// A packet whose commands go on past BP and XF (here a CP register load, 0x08) is kept typed:
/// the game sends packets to the GPU undecoded, so the decoded commands end there and the rest
/// is the packet's tail (the parser used to refuse the command and keep MDL3 raw).
#[test]
fn mdl3_packet_with_other_gx_commands_stays_typed() {
    let mut m = build::rigid_bdl();
    let p = &mut m.mdl3_mut().unwrap().packets[0];
    let cp = [0x08, 0x50, 0, 0, 0x12, 0x34];
    assert!(p.tail.len() >= cp.len());
    p.tail[..cp.len()].copy_from_slice(&cp);
    let commands = p.commands.clone();
    let b = m.write().unwrap();
    assert_typed_round_trip(&b);
    let back = Bmd::parse(&b).unwrap();
    let q = &back.mdl3().unwrap().packets[0];
    assert_eq!(q.commands, commands);
    assert_eq!(&q.tail[..cp.len()], &cp);
}
