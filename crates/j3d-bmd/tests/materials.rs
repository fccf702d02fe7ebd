#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! MAT3: typed round trips, resolving and re-deduplicating materials, layouts of retail files.

use gcio::Reader;
use j3d_bmd::mat3::{Mat3, Mat3View, TexCoordGen, cull};
use j3d_bmd::{Bmd, Chunk, Pad, build};

fn sample_mat3() -> (Mat3, Vec<u8>) {
    let m = Mat3::from_materials(&build::materials()).unwrap();
    let b = m.write().unwrap();
    (m, b)
}

fn reparse(b: &[u8]) -> Mat3 {
    match Chunk::from_view(&j3d_bmd::ChunkView {
        magic: *b"MAT3",
        data: Reader::new(b),
    }) {
        Chunk::Mat3(m) => m,
        other => panic!("not typed: {:?}", other.magic()),
    }
}

#[test]
fn built_mat3_round_trips_typed() {
    let (m, b) = sample_mat3();
    assert_eq!(b.len() % 32, 0);
    let back = reparse(&b);
    assert_eq!(back, m);
    assert_eq!(back.write().unwrap(), b);
    assert_eq!(back.materials(), build::materials());
}

#[test]
fn nintendo_dedup_rules() {
    let (m, b) = sample_mat3();
    let t = &m.tables;
    // Pre-seeded lists.
    assert_eq!(
        t.cull.as_deref(),
        Some(&[cull::BACK, cull::FRONT, cull::NONE][..])
    );
    assert_eq!(t.z_comp_loc.as_deref(), Some(&[0, 1][..]));
    assert_eq!(t.dither.as_deref(), Some(&[0, 1][..]));
    // Shared values stored once, in first-use order.
    let swaps = t.swap_tables.as_ref().unwrap();
    assert_eq!(swaps.len(), 2);
    assert_eq!((swaps[0].r, swaps[1].r), (0, 1));
    let mats = build::materials();
    assert_eq!(t.tex_mtx.as_ref().unwrap().len(), 2);
    assert_eq!(m.entries.as_ref().unwrap().len(), mats.len());
    // Empty post tables are absent (offset 0); empty light list points at the next table.
    let v = Mat3View::parse(Reader::new(&b)).unwrap();
    assert_eq!(v.offset(12), 0);
    assert_eq!(v.offset(14), 0);
    assert_eq!(v.len(), mats.len());
    for id in 0..30 {
        assert_eq!(v.offset(id) % 4, 0, "table {id}");
    }
}

#[test]
fn duplicate_materials_share_an_entry_and_edits_rededuplicate() {
    let mut mats = build::materials();
    let mut copy = mats[0].clone();
    copy.name = b"body_copy".to_vec();
    mats.push(copy);
    let mut m = Mat3::from_materials(&mats).unwrap();
    let remap = m.remap.clone().unwrap();
    assert_eq!(remap[3], remap[0]);
    assert_eq!(m.entries.as_ref().unwrap().len(), 3);
    // Edit: the copy becomes front-culled with a new konst colour.
    let mut edited = m.materials();
    edited[3].cull = Some(cull::FRONT);
    edited[3].konst_colors[0] = Some([1, 2, 3, 4]);
    m.set_materials(&edited).unwrap();
    assert_eq!(m.entries.as_ref().unwrap().len(), 4);
    assert_eq!(m.materials(), edited);
    assert_eq!(
        m.tables.konst_colors.as_ref().unwrap().last(),
        Some(&[1, 2, 3, 4])
    );
    // Removing the edit again collapses the tables back.
    m.set_materials(&mats).unwrap();
    assert_eq!(m, Mat3::from_materials(&mats).unwrap());
    assert_eq!(reparse(&m.write().unwrap()), m);
}

#[test]
fn retail_layouts_stay_exact() {
    // Unreferenced default texgen, a repeated swap mode, an absent post table the entries still
    // index, a zero-offset texture table, and SuperBMD padding.
    let (mut m, _) = sample_mat3();
    let identity = TexCoordGen {
        ty: 1,
        src: 4,
        matrix: 0x3C,
        pad: 0xFF,
    };
    m.tables.tex_gens.as_mut().unwrap().push(identity);
    let sm = m.tables.swap_modes.as_ref().unwrap()[0];
    m.tables.swap_modes.as_mut().unwrap().push(sm);
    m.entries.as_mut().unwrap()[0].post_tex_mtx[0] = 0;
    m.pad = Pad::SuperBmd;
    let b = m.write().unwrap();
    assert_eq!(reparse(&b), m);
    // Tables written in a different order, with an empty indirect table at the name table.
    let (mut m, _) = sample_mat3();
    m.indirect = Some(vec![]);
    m.order.retain(|&id| id != 3);
    let at = m.order.iter().position(|&id| id == 2).unwrap();
    m.order.insert(at, 3);
    let b = m.write().unwrap();
    let v = Mat3View::parse(Reader::new(&b)).unwrap();
    assert_eq!(v.offset(3), v.offset(2));
    assert_eq!(reparse(&b), m);
}

#[test]
fn samples_have_typed_mat3() {
    let bmd = build::skinned_bmd().write().unwrap();
    let m = Bmd::parse(&bmd).unwrap();
    let mat = m.mat3().expect("typed MAT3");
    assert_eq!(mat.materials(), build::materials());
    let v = j3d_bmd::parse(&bmd).unwrap();
    let mv = v.mat3().unwrap().unwrap();
    assert_eq!(mv.len(), 3);
    assert_eq!(mv.entry(usize::from(mv.remap(2).unwrap())).unwrap().mode, 4);
    assert_eq!(mv.names().unwrap().unwrap().name(1).unwrap(), "leaf_mat");
}

#[test]
fn unaligned_tables() {
    for align in [1u8, 2, 8, 16, 32] {
        let (mut m, _) = sample_mat3();
        m.align = align;
        let b = m.write().unwrap();
        let v = Mat3View::parse(Reader::new(&b)).unwrap();
        let back = Mat3::from_view(&v, Pad::Nintendo, align).unwrap();
        assert_eq!(back, m, "align {align}");
    }
}

#[test]
fn mdl3_typed_and_regenerated() {
    use j3d_bmd::mdl3::{Command, Mdl3};
    let bdl = build::rigid_bdl();
    let bytes = bdl.write().unwrap();
    let m = Bmd::parse(&bytes).unwrap();
    let mdl = m.mdl3().expect("typed MDL3");
    // Regenerating from the file's own MAT3 + TEX1 reproduces its MDL3.
    let mats = m.mat3().unwrap().materials();
    let regen = Mdl3::from_materials(&mats, &m.tex1().unwrap().set).unwrap();
    assert_eq!(&regen, mdl);
    assert_eq!(regen.write().unwrap(), mdl.write().unwrap());
    // Commands carry named registers; packets are 32-byte aligned.
    let p = &mdl.packets[0];
    assert!(p.commands.iter().any(|c| c.name() == Some("TX_SETIMAGE0")));
    assert!(p.commands.iter().any(|c| c.name() == Some("TEV_REGISTERL")));
    assert!(p.commands.iter().any(|c| c.name() == Some("PE_ZMODE")));
    assert!(matches!(
        p.commands.last(),
        Some(Command::Xf { addr: 0x100A, .. })
    ));
    let mut w = gcio::Writer::new();
    j3d_bmd::mdl3::encode(&p.commands, &mut w).unwrap();
    assert_eq!((w.position() + p.tail.len()) % 32, 0);
    // An edited material changes its packet only.
    let mut edited = mats.clone();
    edited[1].z_mode.as_mut().unwrap().write = 0;
    let again = Mdl3::from_materials(&edited, &m.tex1().unwrap().set).unwrap();
    assert_eq!(again.packets[0], mdl.packets[0]);
    assert_ne!(again.packets[1], mdl.packets[1]);
}

/// Non-info findings of `bytes` as (rule, severity, message).
fn findings(bytes: &[u8]) -> Vec<(String, gcio::Severity, String)> {
    j3d_bmd::validate(bytes)
        .into_iter()
        .filter(|d| d.severity != gcio::Severity::Info)
        .map(|d| (d.rule, d.severity, d.message))
        .collect()
}

#[test]
fn mdl3_consistency_compares_decoded_registers() {
    use j3d_bmd::mdl3::Command;
    let bdl = build::rigid_bdl();
    assert!(findings(&bdl.write().unwrap()).is_empty());
    // Same register values in another order, with TEV_REGISTERH repeated as Nintendo's SDK
    // writes it and an extra register the regenerator does not derive: still consistent.
    let mut m = bdl.clone();
    let p = &mut m.mdl3_mut().unwrap().packets[0];
    let n = p.commands.len();
    p.commands[..n - 1].reverse();
    let h = p
        .commands
        .iter()
        .find(|c| matches!(c, Command::Bp { reg: 0xE1, .. }))
        .unwrap()
        .clone();
    p.commands.insert(0, h.clone());
    p.commands.push(h);
    p.commands.push(Command::Bp {
        reg: 0xC0,
        value: 0x08F2F0,
    });
    p.tail.clear();
    let mut w = gcio::Writer::new();
    j3d_bmd::mdl3::encode(&p.commands, &mut w).unwrap();
    p.tail = vec![0; (32 - w.position() % 32) % 32];
    assert!(findings(&m.write().unwrap()).is_empty());
    // A changed konst colour: exactly one J3D-081 warning naming material and register.
    let bytes = &build::broken_variant("mdl3_konst_differs").unwrap();
    let d = findings(bytes);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].0, "J3D-081");
    assert_eq!(d[0].1, gcio::Severity::Warning);
    assert!(d[0].2.starts_with("material 0 ("), "{}", d[0].2);
    assert!(d[0].2.contains("TEV_KREGISTER"), "{}", d[0].2);
    // A changed TEV colour register (no konst bit) is found the same way.
    let mut m = bdl.clone();
    let tev = m.mdl3_mut().unwrap().packets[0]
        .commands
        .iter_mut()
        .find_map(|c| match c {
            Command::Bp {
                reg: 0xE0..=0xE7,
                value,
            } if *value & 1 << 23 == 0 => Some(value),
            _ => None,
        })
        .expect("material 0 sets a TEV colour");
    *tev ^= 0x10;
    let d = findings(&m.write().unwrap());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(d[0].2.contains("TEV_REGISTER"), "{}", d[0].2);
    // A packet that does not set a derived register at all.
    let mut m = bdl.clone();
    m.mdl3_mut().unwrap().packets[1]
        .commands
        .retain(|c| !matches!(c, Command::Bp { reg: 0x40, .. }));
    let d = findings(&m.write().unwrap());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(d[0].2.contains("does not set it"), "{}", d[0].2);
    // A packet count that differs from the material count is an error under the same rule.
    let mut m = bdl;
    let mdl = m.mdl3_mut().unwrap();
    mdl.packets.pop();
    mdl.subpackets.pop();
    mdl.matrix.pop();
    mdl.unknown.pop();
    mdl.indices.pop();
    let d = findings(&m.write().unwrap());
    assert!(
        d.iter()
            .any(|x| x.0 == "J3D-081" && x.1 == gcio::Severity::Error),
        "{d:#?}"
    );
    assert!(d.iter().all(|x| x.0 == "J3D-081"), "{d:#?}");
}

#[test]
fn register_state_follows_bp_mask() {
    use j3d_bmd::mdl3::{Command, Register, registers};
    let cmds = [
        Command::Bp {
            reg: 0xF6,
            value: 0x00_1234,
        },
        Command::Bp {
            reg: 0xFE,
            value: 0x00_00F0,
        },
        Command::Bp {
            reg: 0xF6,
            value: 0xFF_FFFF,
        },
        Command::Bp {
            reg: 0xE0,
            value: 1 << 23 | 5,
        },
        Command::Bp {
            reg: 0xE0,
            value: 7,
        },
        Command::Xf {
            addr: 0x100A,
            values: vec![1, 2],
        },
    ];
    assert_eq!(
        registers(&cmds),
        vec![
            (Register::Bp(0xF6), 0x00_12F4, 0xFF_FFFF),
            (Register::Konst(0xE0), 1 << 23 | 5, 0xFF_FFFF),
            (Register::Bp(0xE0), 7, 0xFF_FFFF),
            (Register::Xf(0x100A), 1, u32::MAX),
            (Register::Xf(0x100B), 2, u32::MAX),
        ]
    );
}

/// `patch` rewrites the derived bits of every write to a register the regenerated packet sets
/// (within a BP_MASK), leaves other registers, bits and the command list alone, and reports a
/// register no stored command writes.
#[test]
fn patch_rewrites_derived_bits_in_place() {
    use j3d_bmd::mdl3::{Command, Register, patch};
    let bp = |reg, value| Command::Bp { reg, value };
    let mut stored = vec![
        // TX_SETMODE0 slot 0 twice, once behind a mask that lets only bits 0-3 through.
        bp(0x80, 0x7A_0000),
        bp(0xFE, 0x00_000F),
        bp(0x80, 0x00_0000),
        // Konst colour 0 and a register the regenerator does not derive.
        bp(0xE0, 1 << 23 | 0x0AA),
        bp(0xC0, 0x08_F2F0),
        Command::Xf {
            addr: 0x100A,
            values: vec![1, 2],
        },
    ];
    let expected = [
        bp(0x80, 0x00_0005),
        bp(0xE0, 1 << 23 | 0x0BB),
        Command::Xf {
            addr: 0x100B,
            values: vec![0xFF00_00FF],
        },
        bp(0x40, 0x17),
    ];
    let left = patch(&mut stored, &expected);
    assert_eq!(
        stored,
        vec![
            // Bits 17-23 (outside derived_bits 0x01FEFF) stay, bits 0-7 and 9-16 follow.
            bp(0x80, 0x7A_0005),
            bp(0xFE, 0x00_000F),
            bp(0x80, 0x00_0005),
            bp(0xE0, 1 << 23 | 0x0BB),
            bp(0xC0, 0x08_F2F0),
            Command::Xf {
                addr: 0x100A,
                values: vec![1, 0xFF00_00FF],
            },
        ]
    );
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0].register, Register::Bp(0x40));
    assert_eq!(left[0].found, None);
}
