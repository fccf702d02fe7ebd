#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! One broken variant per rule: for every rule id the validator emits, the smallest archive that
//! triggers it — a one-joint textured mesh built here, or the Colosseum/XD sample model
//! ([`xd_model`]) with one field changed. Each case names the finding (severity and id) it must
//! give, and no other rule may report an error. The workspace test `tests/rules_catalogue.rs`
//! checks that every id `src/` emits has a row here.

use gcio::Severity::{Error, Info, Warning};
use gcio::{Diagnostic, RuleCase, check_rule_cases};
use gx::dl::{Opcode, PrimitiveBuf, VertexDesc};
use gx::vtx::{Attr, AttrType};
use hsd_dat::build::parts::*;
use hsd_dat::build::{Builder, XdOptions, xd_model};
use hsd_dat::*;

/// Knobs of [`mesh`]: a joint owning one rigid mesh (positions only) drawn with a textured
/// material; every default gives a clean file.
struct Mesh {
    joint_flags: JointFlags,
    rotation: f32,
    render_mode: RenderMode,
    /// TObj flags (coordinates UV, `src` 4 = TEX0 needs a TEX0 attribute: the default is a
    /// reflection map, which ignores `src`).
    tobj_flags: u32,
    pobj_flags: PObjFlags,
    /// PObjs chained on the one DObj.
    pobjs: usize,
    /// Replaces the display list (its bytes, and `n_display`).
    display_list: Option<(Vec<u8>, u16)>,
    /// Image data first in the data block (offset 0).
    pixels_first: bool,
    /// Image data 4-aligned after a 4-byte block.
    pixels_misaligned: bool,
    /// The joint's child is the joint itself.
    self_child: bool,
    /// The I8 image's width and height, and the TObj's wrap modes (S, T).
    image: (u16, u16),
    wrap: (u32, u32),
}

impl Default for Mesh {
    fn default() -> Self {
        Mesh {
            joint_flags: JointFlags::ROOT_OPA | JointFlags::OPA,
            rotation: 0.0,
            render_mode: RenderMode::DIFFUSE | RenderMode::TEX0,
            tobj_flags: 0x0004_0081,
            pobj_flags: PObjFlags::empty(),
            pobjs: 1,
            display_list: None,
            pixels_first: false,
            pixels_misaligned: false,
            self_child: false,
            image: (8, 8),
            wrap: (1, 1),
        }
    }
}

fn mesh_dat(m: Mesh) -> Dat {
    let mut b = Builder::new();
    let early_pix = if m.pixels_first {
        Some(b.bytes(i8_pixels(), 32))
    } else if m.pixels_misaligned {
        b.bytes(vec![0; 4], 4);
        Some(b.bytes(i8_pixels(), 4))
    } else {
        None
    };
    let pos = b.bytes(vec![0; 64], 32);
    let desc = b.vtx_list(&[vtx(9, 3, 1, 3, 8, 6, Some(pos))]);
    let (dl, n) = m.display_list.unwrap_or_else(|| {
        let mut d = VertexDesc::new();
        d.push(Attr::POS, AttrType::INDEX16).unwrap();
        let mut strip = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
        for i in 0..3 {
            strip.push(&d, &[i]);
        }
        display_list(&[strip], &d).unwrap()
    });
    let dl = b.bytes(dl, 32);
    let (w, h) = m.image;
    let pix = early_pix.unwrap_or_else(|| {
        let size = usize::from(w.next_multiple_of(8)) * usize::from(h.next_multiple_of(4));
        let mut pix = i8_pixels();
        pix.resize(size.max(pix.len()), 0x55);
        b.bytes(pix, 32)
    });
    let img = b.put(&Image {
        width: w,
        height: h,
        ..image(pix, 1)
    });
    let t = b.put(&TObj {
        flags: TObjFlags::from_bits_retain(m.tobj_flags),
        wrap_s: m.wrap.0,
        wrap_t: m.wrap.1,
        ..tobj(0, None, img, None)
    });
    let mat = b.put(&material(1));
    let mo = b.put(&mobj(m.render_mode, Some(t), mat, None));
    let mut p = None;
    for _ in 0..m.pobjs {
        p = Some(b.put(&pobj(p, desc, m.pobj_flags, n, dl, None)));
    }
    let d = b.put(&dobj(mo, p.unwrap()));
    let at = b.slot::<Joint<Target>>();
    let mut j = joint(m.joint_flags, [0.0; 3]);
    j.data = Some(d);
    j.rotation = [m.rotation, 0.0, 0.0];
    j.child = m.self_child.then_some(at);
    b.set(at, &j);
    b.root("model_joint", at);
    b.finish()
}

fn mesh(m: Mesh) -> Vec<u8> {
    mesh_dat(m).write().unwrap()
}

fn xd(o: XdOptions) -> Vec<u8> {
    xd_model(o).unwrap().write().unwrap()
}

/// The XD sample with the data-block bytes at the offset `at` picks (from its graph) replaced.
fn xd_poke(at: impl Fn(&Graph) -> u32, bytes: &[u8]) -> Vec<u8> {
    let mut f = xd(XdOptions::default());
    let off = 0x20 + at(&parse(&f).unwrap().graph()) as usize;
    f[off..off + bytes.len()].copy_from_slice(bytes);
    f
}

fn node(g: &Graph, kind: Kind) -> u32 {
    g.nodes.iter().find(|n| n.kind == kind).unwrap().offset
}

/// Data offset of every block of a built [`Dat`], as the writer lays them out.
fn block_offsets(dat: &Dat) -> Vec<u32> {
    let mut at = 0u32;
    dat.blocks
        .iter()
        .map(|b| {
            at = at.next_multiple_of(b.align.max(1));
            let start = at;
            at += b.bytes.len() as u32;
            start
        })
        .collect()
}

/// The XD sample with `f` applied to the block holding the struct at the data offset `at` picks.
fn xd_block(at: impl Fn(&Archive, &Graph) -> u32, f: impl FnOnce(&mut Dat, usize)) -> Vec<u8> {
    let mut dat = xd_model(XdOptions::default()).unwrap();
    let bytes = dat.write().unwrap();
    let a = parse(&bytes).unwrap();
    let want = at(&a, &a.graph());
    let i = block_offsets(&dat).iter().position(|&o| o == want).unwrap();
    f(&mut dat, i);
    dat.write().unwrap()
}

/// Offset of the first root's entry in the root table.
fn root_table(f: &[u8]) -> usize {
    let word = |at: usize| u32::from_be_bytes(f[at..at + 4].try_into().unwrap()) as usize;
    0x20 + word(4) + 4 * word(8)
}

fn findings(f: &[u8]) -> Vec<Diagnostic> {
    validate(f)
}

const CASES: &[RuleCase<'_, Vec<u8>>] = &[
    (
        "32 bytes after the symbol table",
        || {
            xd(XdOptions {
                trailing_padding: 0x20,
                ..XdOptions::default()
            })
        },
        Error,
        "HSD-001",
    ),
    (
        "root symbol offset past the symbol table",
        || {
            let mut f = mesh(Mesh::default());
            let at = root_table(&f) + 4;
            f[at..at + 4].copy_from_slice(&0x1000u32.to_be_bytes());
            f
        },
        Error,
        "HSD-002",
    ),
    (
        "relocation of slot 2 (not 4-aligned)",
        || {
            let mut dat = mesh_dat(Mesh::default());
            dat.relocations.push(Slot::Raw(2));
            dat.write().unwrap()
        },
        Error,
        "HSD-003",
    ),
    (
        // In an untyped root's block, so the graph walk does not follow it.
        "relocated pointer past the data block",
        || {
            let mut dat = mesh_dat(Mesh::default());
            let mut b = Block::new(vec![0; 4], 4);
            b.set_pointer(0, Some(Target::End(0x40)));
            let i = dat.push_block(b);
            dat.add_root("extra", Target::block(i));
            dat.write().unwrap()
        },
        Warning,
        "HSD-003",
    ),
    (
        "image data at data offset 0",
        || {
            mesh(Mesh {
                pixels_first: true,
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-004",
    ),
    (
        "two roots named model_joint",
        || {
            // A second, empty joint under the same name.
            let mut dat = mesh_dat(Mesh::default());
            let j = dat.push_block(Block::new(vec![0; 0x40], 4));
            dat.add_root("model_joint", Target::block(j));
            dat.write().unwrap()
        },
        Error,
        "HSD-005",
    ),
    (
        "root name not ASCII",
        || {
            let mut dat = mesh_dat(Mesh::default());
            dat.roots[0].name = "modèl_joint".as_bytes().to_vec();
            dat.write().unwrap()
        },
        Warning,
        "HSD-005",
    ),
    (
        "extern chain looping back on itself",
        || {
            // Header + 8 data bytes (slot 0 → 4, slot 4 → 0), one root, one extern at 0.
            let sym = b"r\0e\0";
            let size = 0x20 + 8 + 16 + sym.len();
            let mut f = Vec::new();
            for v in [size as u32, 8, 0, 1, 1, 0, 0, 0] {
                f.extend_from_slice(&v.to_be_bytes());
            }
            f.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0]);
            for v in [0u32, 0, 0, 2] {
                f.extend_from_slice(&v.to_be_bytes());
            }
            f.extend_from_slice(sym);
            f
        },
        Error,
        "HSD-006",
    ),
    (
        "scene_data without bound_box",
        || {
            let mut b = Builder::new();
            let j = b.put(&joint(JointFlags::empty(), [0.0; 3]));
            let ms = b.put(&model_set(j, None, None));
            let models = b.ptr_array(&[ms]);
            let sd = b.put(&scene_data(models, None, None));
            b.root("scene_data", sd);
            b.finish().write().unwrap()
        },
        Info,
        "HSD-007",
    ),
    (
        "11 palette slots",
        || {
            xd(XdOptions {
                extra_palette_slots: 8,
                ..XdOptions::default()
            })
        },
        Error,
        "HSD-008",
    ),
    (
        "PNMTXIDX 4 (not slot × 3)",
        || {
            xd(XdOptions {
                pnmtxidx_override: Some(4),
                ..XdOptions::default()
            })
        },
        Error,
        "HSD-009",
    ),
    (
        "weighted bone without its inverse bind matrix",
        || {
            // Bone B: the skeleton's last joint; its IBM pointer dropped.
            xd_block(
                |_, g| g.joints.last().unwrap().offset,
                |dat, i| dat.blocks[i].set_pointer(0x38, None),
            )
        },
        Error,
        "HSD-010",
    ),
    (
        "200 PObjs in one model",
        || {
            mesh(Mesh {
                pobjs: POBJ_WARN,
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-011",
    ),
    (
        "240 PObjs in one model",
        || {
            mesh(Mesh {
                pobjs: POBJ_CRASH,
                ..Mesh::default()
            })
        },
        Error,
        "HSD-011",
    ),
    (
        "n_display 0xFFFF runs past the data block",
        || {
            let mut d = VertexDesc::new();
            d.push(Attr::POS, AttrType::INDEX16).unwrap();
            let mut strip = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
            for i in 0..3 {
                strip.push(&d, &[i]);
            }
            let (dl, _) = display_list(&[strip], &d).unwrap();
            mesh(Mesh {
                display_list: Some((dl, 0xFFFF)),
                ..Mesh::default()
            })
        },
        Error,
        "HSD-012",
    ),
    (
        "PObj type bits 3",
        || {
            mesh(Mesh {
                pobj_flags: PObjFlags::from_bits_retain(0x3000),
                ..Mesh::default()
            })
        },
        Error,
        "HSD-013",
    ),
    (
        "display list opcode 0x01",
        || {
            let mut dl = vec![0; 32];
            dl[0] = 0x01;
            mesh(Mesh {
                display_list: Some((dl, 1)),
                ..Mesh::default()
            })
        },
        Error,
        "HSD-014",
    ),
    (
        "n_display one block too many",
        || {
            let mut d = VertexDesc::new();
            d.push(Attr::POS, AttrType::INDEX16).unwrap();
            let mut strip = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
            for i in 0..3 {
                strip.push(&d, &[i]);
            }
            let (mut dl, n) = display_list(&[strip], &d).unwrap();
            dl.resize(dl.len() + 32, 0);
            mesh(Mesh {
                display_list: Some((dl, n + 1)),
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-014",
    ),
    (
        "vertex list terminator of attribute type 1",
        || {
            let mut f = mesh(Mesh::default());
            let g = parse(&f).unwrap().graph();
            let term = 0x20 + g.pobjs[0].pobj.vtx_desc.unwrap() as usize + 0x18 + 4;
            f[term..term + 4].copy_from_slice(&1u32.to_be_bytes());
            f
        },
        Info,
        "HSD-015",
    ),
    (
        "SKELETON without an inverse bind matrix",
        || {
            mesh(Mesh {
                joint_flags: JointFlags::ROOT_OPA
                    | JointFlags::OPA
                    | JointFlags::SKELETON
                    | JointFlags::SKELETON_ROOT,
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-017",
    ),
    (
        "mesh owner in no render pass",
        || {
            mesh(Mesh {
                joint_flags: JointFlags::empty(),
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-018",
    ),
    (
        "translucent material outside Colosseum/XD",
        || {
            mesh(Mesh {
                render_mode: RenderMode::DIFFUSE | RenderMode::TEX0 | RenderMode::XLU,
                ..Mesh::default()
            })
        },
        Info,
        "HSD-019",
    ),
    (
        "translucent material in the XD model",
        || {
            xd_block(
                |_, g| node(g, Kind::MObj),
                |dat, i| {
                    let b = &mut dat.blocks[i];
                    let mode = u32::from_be_bytes(b.bytes[4..8].try_into().unwrap())
                        | RenderMode::XLU.bits();
                    b.bytes[4..8].copy_from_slice(&mode.to_be_bytes());
                },
            )
        },
        Warning,
        "HSD-019",
    ),
    (
        "mesh owner weighted by an envelope",
        || {
            xd(XdOptions {
                weight_mesh_owner: true,
                ..XdOptions::default()
            })
        },
        Warning,
        "HSD-020",
    ),
    (
        "root joint rotated 0.5 rad in Colosseum/XD's layout",
        || xd_poke(|g| g.joints[0].offset + 0x14, &0.5f32.to_be_bytes()),
        Error,
        "HSD-021",
    ),
    (
        "root joint rotated 0.5 rad elsewhere (Melee draws it turned)",
        || {
            mesh(Mesh {
                rotation: 0.5,
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-021",
    ),
    (
        "five non-zero weights in one palette slot",
        || {
            // The 0.5 A + 0.5 B envelope becomes A, B, A, B, A at 0.2 each.
            xd_block(
                |a, g| {
                    let list = g.pobjs[0].pobj.link.unwrap();
                    a.pointer(list + 4).unwrap().unwrap()
                },
                |dat, i| {
                    let (a, b) = {
                        let blk = &dat.blocks[i];
                        (
                            blk.pointer(0).unwrap().target,
                            blk.pointer(8).unwrap().target,
                        )
                    };
                    let mut blk = Block::new(vec![0; 8 * 6], 4);
                    for k in 0..5u32 {
                        let j = if k % 2 == 0 { a } else { b };
                        blk.set_pointer(8 * k, Some(j));
                        let w = 8 * k as usize + 4;
                        blk.bytes[w..w + 4].copy_from_slice(&0.2f32.to_be_bytes());
                    }
                    dat.blocks[i] = blk;
                },
            )
        },
        Error,
        "HSD-022",
    ),
    (
        "joint with USE_QUATERNION",
        || {
            mesh(Mesh {
                joint_flags: JointFlags::ROOT_OPA | JointFlags::OPA | JointFlags::USE_QUATERNION,
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-023",
    ),
    (
        "FObj length one byte short of its keys",
        || {
            let mut f = xd(XdOptions::default());
            let g = parse(&f).unwrap().graph();
            let at = 0x20 + node(&g, Kind::FObj) as usize + 4;
            let len = u32::from_be_bytes(f[at..at + 4].try_into().unwrap());
            f[at..at + 4].copy_from_slice(&(len - 1).to_be_bytes());
            f
        },
        Error,
        "HSD-024",
    ),
    (
        "UV texture on a mesh without TEX0",
        || {
            mesh(Mesh {
                tobj_flags: 0x0004_0010,
                ..Mesh::default()
            })
        },
        Error,
        "HSD-025",
    ),
    (
        "a 2048 × 8 texture",
        || {
            mesh(Mesh {
                image: (2048, 8),
                ..Mesh::default()
            })
        },
        Error,
        "HSD-033",
    ),
    (
        "a 12 × 8 texture repeated along S",
        || {
            mesh(Mesh {
                image: (12, 8),
                wrap: (1, 0),
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-033",
    ),
    (
        "animation end frame 9 → 19 under a 10-frame bound box",
        || xd_poke(|g| node(g, Kind::AObj) + 4, &19.0f32.to_be_bytes()),
        Error,
        "HSD-026",
    ),
    (
        "image data at offset 4",
        || {
            mesh(Mesh {
                pixels_misaligned: true,
                ..Mesh::default()
            })
        },
        Warning,
        "HSD-030",
    ),
    (
        "joint whose child is itself",
        || {
            mesh(Mesh {
                self_child: true,
                ..Mesh::default()
            })
        },
        Error,
        "HSD-032",
    ),
];

#[test]
fn the_base_files_are_clean() {
    for f in [mesh(Mesh::default()), xd(XdOptions::default())] {
        let d = findings(&f);
        assert!(d.is_empty(), "{d:#?}");
    }
}

#[test]
fn every_rule_has_a_broken_variant() {
    if let Err(e) = check_rule_cases(CASES, |f| findings(f)) {
        panic!("{e}");
    }
}
