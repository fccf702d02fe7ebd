#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! One broken variant per rule: for every rule id the validator emits, the smallest change to a
//! built sample model that triggers it (`skinned_bmd`: three joints, two envelopes, one
//! multi-matrix shape in three groups; `rigid_bdl`: one joint, one single-matrix shape, MDL3).
//! Model fields are edited where the writer keeps them; where it would not (offsets, padding,
//! tables out of step), the chunk is written, edited as bytes and stored raw. Each case names the
//! finding (severity and id) it must give, and no other rule may report an error. The workspace
//! test `tests/rules_catalogue.rs` checks that every id `src/` emits has a row here.

use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};
use j3d_bmd::build::{JointSpec, ModelSpec, assemble, broken_variant, rigid_bdl, skinned_bmd};
use j3d_bmd::gx::dl::Opcode;
use j3d_bmd::gx::vtx::{Attr, AttrType};
use j3d_bmd::{
    Bmd, Chunk, DrwKind, IndexAttr, LoaderFlags, MAGIC_BDL4, NodeKind, RawChunk, ShapeMatrixType,
    Tail,
};

fn edited(mut m: Bmd, f: impl FnOnce(&mut Bmd)) -> Vec<u8> {
    f(&mut m);
    m.write().unwrap()
}

fn skinned(f: impl FnOnce(&mut Bmd)) -> Vec<u8> {
    edited(skinned_bmd(), f)
}

fn rigid(f: impl FnOnce(&mut Bmd)) -> Vec<u8> {
    edited(rigid_bdl(), f)
}

/// Replaces chunk `magic` by its bytes (header included) after `f`; the writer sets its size.
fn raw(m: &mut Bmd, magic: &[u8; 4], f: impl FnOnce(&mut Vec<u8>)) {
    let c = m.chunks.iter_mut().find(|c| &c.magic() == magic).unwrap();
    let mut bytes = c.write().unwrap();
    f(&mut bytes);
    *c = Chunk::Raw(RawChunk { bytes });
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes(b[at..at + 2].try_into().unwrap())
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

fn put16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_be_bytes());
}

fn put32(b: &mut [u8], at: usize, v: usize) {
    b[at..at + 4].copy_from_slice(&(v as u32).to_be_bytes());
}

/// A VTX1 format entry: attribute, component count, component type.
fn fmt(attr: u8, count: u8, ty: u8) -> [u8; 16] {
    let mut e = [0; 16];
    e[3] = attr;
    e[7] = count;
    e[11] = ty;
    e
}

/// VTX1 buffer offset of slot `slot` (POS 0, NRM 1, NBT 2, CLR0 3, CLR1 4, TEX0 5, …).
fn buffer_at(slot: usize) -> usize {
    0x0C + 4 * slot
}

/// Inserts `entries` at the head of a raw VTX1's format list, moving the buffers after them.
fn insert_formats(b: &mut Vec<u8>, entries: &[[u8; 16]]) {
    let at = u32_at(b, 8);
    let n = 16 * entries.len();
    b.splice(at..at, entries.iter().flatten().copied());
    for slot in 0..13 {
        let o = u32_at(b, buffer_at(slot));
        if o != 0 {
            put32(b, buffer_at(slot), o + n);
        }
    }
}

/// A colour-1 format no shape reads, its buffer the position buffer (rigid: POS, CLR0 only).
fn extra_clr1(count: u8, ty: u8) -> Vec<u8> {
    rigid(|m| {
        raw(m, b"VTX1", |b| {
            insert_formats(b, &[fmt(Attr::CLR1.0 as u8, count, ty)]);
            let pos = u32_at(b, buffer_at(0));
            put32(b, buffer_at(4), pos);
        })
    })
}

/// The rigid model's one shape with `attrs` as its attribute list and no primitives (so a list
/// that no longer matches the vertex layout decodes nothing).
fn rigid_attrs(attrs: &[(Attr, AttrType)]) -> Vec<u8> {
    rigid(|m| {
        let s = m.shp1_mut().unwrap();
        s.attrs = attrs
            .iter()
            .map(|&(attr, ty)| IndexAttr { attr, ty })
            .collect();
        for g in &mut s.groups {
            g.prims.clear();
            g.tail = Tail::Align32;
        }
    })
}

const POS: (Attr, AttrType) = (Attr::POS, AttrType::INDEX16);
const CLR0: (Attr, AttrType) = (Attr::CLR0, AttrType::INDEX8);
const END: (Attr, AttrType) = (Attr::NULL, AttrType::NONE);

fn node(m: &mut Bmd, kind: NodeKind, index: u16) -> &mut j3d_bmd::Node {
    m.inf1_mut()
        .unwrap()
        .nodes
        .iter_mut()
        .find(|n| n.kind == kind && n.index == index)
        .unwrap()
}

fn append4(m: &mut Bmd, magic: &[u8; 4]) {
    raw(m, magic, |b| b.extend_from_slice(&[0; 4]));
}

const CASES: &[RuleCase<'_, Vec<u8>>] = &[
    // Container.
    (
        "magic J3D2bmdX",
        || skinned(|m| m.magic = *b"J3D2bmdX"),
        Error,
        "J3D-001",
    ),
    (
        "stale file size",
        || skinned(|m| m.stale_size = Some(0x20)),
        Warning,
        "J3D-002",
    ),
    (
        "chunk count 9 in a BMD",
        || skinned(|m| m.stale_count = Some(9)),
        Error,
        "J3D-003",
    ),
    (
        "BDL magic without MDL3",
        || {
            skinned(|m| {
                m.magic = *MAGIC_BDL4;
                m.stale_count = Some(9);
            })
        },
        Error,
        "J3D-004",
    ),
    (
        "tag block not SVR3",
        || skinned(|m| m.tag = [0xFF; 16]),
        Info,
        "J3D-005",
    ),
    (
        "INF1 size 4",
        || {
            let mut b = skinned(|_| {});
            put32(&mut b, 0x24, 4);
            b
        },
        Error,
        "J3D-006",
    ),
    (
        "INF1 marker 0",
        || skinned(|m| m.inf1_mut().unwrap().marker = 0),
        Warning,
        "J3D-007",
    ),
    (
        "TEX1 before MAT3",
        || skinned(|m| m.chunks.swap(6, 7)),
        Warning,
        "J3D-008",
    ),
    (
        "chunk size 0x3C",
        || skinned(|m| append4(m, b"JNT1")),
        Warning,
        "J3D-077",
    ),
    // INF1.
    (
        "vertex count one too many",
        || skinned(|m| m.inf1_mut().unwrap().vertex_count += 1),
        Warning,
        "J3D-009",
    ),
    (
        "matrix group count one too many",
        || skinned(|m| m.inf1_mut().unwrap().matrix_group_count += 1),
        Warning,
        "J3D-010",
    ),
    (
        "node type 0x13",
        || skinned(|m| node(m, NodeKind::MATERIAL, 0).kind = NodeKind(0x13)),
        Error,
        "J3D-011",
    ),
    (
        "hierarchy without an END node",
        || {
            // The END node and the padding after it become material nodes up to the chunk end.
            skinned(|m| {
                raw(m, b"INF1", |b| {
                    let mut p = u32_at(b, 0x14);
                    while u16_at(b, p) != 0 {
                        p += 4;
                    }
                    while p < b.len() {
                        b[p..p + 4].copy_from_slice(&[0, 0x11, 0, 0]);
                        p += 4;
                    }
                })
            })
        },
        Error,
        "J3D-012",
    ),
    (
        "close before the first open",
        || skinned(|m| node(m, NodeKind::OPEN, 0).kind = NodeKind::CLOSE),
        Error,
        "J3D-013",
    ),
    (
        "shape node 99",
        || skinned(|m| node(m, NodeKind::SHAPE, 0).index = 99),
        Error,
        "J3D-014",
    ),
    (
        "joint 1 twice, joint 2 never",
        || skinned(|m| node(m, NodeKind::JOINT, 2).index = 1),
        Warning,
        "J3D-015",
    ),
    (
        "INF1 size not a multiple of 32",
        || skinned(|m| append4(m, b"INF1")),
        Error,
        "J3D-016",
    ),
    (
        "loader flag 0x0008",
        || {
            skinned(|m| {
                let i = m.inf1_mut().unwrap();
                i.flags = LoaderFlags::from_bits_retain(i.flags.bits() | 0x0008);
            })
        },
        Warning,
        "J3D-017",
    ),
    // VTX1.
    (
        "POS described twice",
        || {
            rigid(|m| {
                raw(m, b"VTX1", |b| {
                    let pos: [u8; 16] = b[u32_at(b, 8)..][..16].try_into().unwrap();
                    insert_formats(b, &[pos]);
                })
            })
        },
        Error,
        "J3D-018",
    ),
    (
        "format list without 0xFF",
        || {
            // The list, less its end marker, moved to the end of the chunk.
            rigid(|m| {
                raw(m, b"VTX1", |b| {
                    let at = u32_at(b, 8);
                    let list: Vec<u8> = b[at..at + 32].to_vec();
                    let end = b.len();
                    b.extend_from_slice(&list);
                    put32(b, 8, end);
                })
            })
        },
        Error,
        "J3D-019",
    ),
    (
        "format for attribute 0x15",
        || rigid(|m| raw(m, b"VTX1", |b| insert_formats(b, &[fmt(0x15, 0, 0)]))),
        Error,
        "J3D-020",
    ),
    (
        "CLR1 buffer without a format",
        || {
            rigid(|m| {
                raw(m, b"VTX1", |b| {
                    let pos = u32_at(b, buffer_at(0));
                    put32(b, buffer_at(4), pos);
                })
            })
        },
        Error,
        "J3D-021",
    ),
    (
        "a model with no vertex arrays",
        || {
            assemble(&ModelSpec {
                joints: vec![JointSpec {
                    name: "root".into(),
                    parent: None,
                    translation: [0.0; 3],
                }],
                rigid: vec![0],
                ..ModelSpec::default()
            })
            .write()
            .unwrap()
        },
        Error,
        "J3D-022",
    ),
    (
        "colour component count 2",
        || extra_clr1(2, 5),
        Error,
        "J3D-023",
    ),
    ("colour type 6", || extra_clr1(1, 6), Error, "J3D-024"),
    (
        "colour type RGB565 (2 bytes)",
        || extra_clr1(1, 0),
        Error,
        "J3D-025",
    ),
    (
        "colour type RGBX8 (4 bytes, not RGBA8)",
        || extra_clr1(1, 2),
        Warning,
        "J3D-025",
    ),
    (
        "position index past the buffer",
        || broken_variant("index_past_buffer").unwrap(),
        Error,
        "J3D-027",
    ),
    // EVP1.
    (
        "weight-count table past the chunk",
        || skinned(|m| raw(m, b"EVP1", |b| put32(b, 0x0C, 0x10000))),
        Error,
        "J3D-028",
    ),
    (
        "weight table four bytes before the end",
        || {
            skinned(|m| {
                raw(m, b"EVP1", |b| {
                    let end = b.len() - 4;
                    put32(b, 0x14, end);
                })
            })
        },
        Error,
        "J3D-029",
    ),
    (
        "envelope names joint 9",
        || skinned(|m| m.evp1_mut().unwrap().envelopes[0].pairs[0].0 = 9),
        Error,
        "J3D-030",
    ),
    (
        "room for one inverse bind matrix",
        || {
            skinned(|m| {
                raw(m, b"EVP1", |b| {
                    let at = b.len() - 0x30;
                    put32(b, 0x18, at);
                })
            })
        },
        Error,
        "J3D-031",
    ),
    (
        "weight table at +2",
        || {
            skinned(|m| {
                raw(m, b"EVP1", |b| {
                    let at = u32_at(b, 0x14) + 2;
                    put32(b, 0x14, at);
                })
            })
        },
        Error,
        "J3D-032",
    ),
    (
        "EVP1 not padded",
        || skinned(|m| append4(m, b"EVP1")),
        Error,
        "J3D-033",
    ),
    (
        "weights summing to 1.2",
        || skinned(|m| m.evp1_mut().unwrap().envelopes[0].pairs[0].1 = 0.7),
        Warning,
        "J3D-034",
    ),
    // DRW1.
    (
        "id list one byte before the end",
        || {
            skinned(|m| {
                raw(m, b"DRW1", |b| {
                    let end = b.len() - 1;
                    put32(b, 0x10, end);
                })
            })
        },
        Error,
        "J3D-035",
    ),
    (
        "entry type 2",
        || skinned(|m| m.drw1_mut().unwrap().entries[0].kind = DrwKind(2)),
        Error,
        "J3D-036",
    ),
    (
        "joint entry after the envelopes",
        || {
            skinned(|m| {
                let e = m.drw1_mut().unwrap().entries.last_mut().unwrap();
                e.kind = DrwKind::JOINT;
            })
        },
        Error,
        "J3D-037",
    ),
    (
        "envelope entry 9",
        || skinned(|m| m.drw1_mut().unwrap().entries[3].id = 9),
        Error,
        "J3D-038",
    ),
    (
        "last envelope listed once",
        || {
            skinned(|m| {
                m.drw1_mut().unwrap().entries.pop();
            })
        },
        Info,
        "J3D-039",
    ),
    (
        "DRW1 not padded",
        || skinned(|m| append4(m, b"DRW1")),
        Error,
        "J3D-040",
    ),
    // JNT1.
    (
        "two JNT1 chunks",
        || {
            skinned(|m| {
                let i = m.chunks.iter().position(|c| &c.magic() == b"JNT1").unwrap();
                let j = m.chunks[i].clone();
                m.chunks.insert(i, j);
                m.stale_count = Some(8);
            })
        },
        Error,
        "J3D-041",
    ),
    (
        "name table past the chunk",
        || skinned(|m| raw(m, b"JNT1", |b| put32(b, 0x14, 0x10000))),
        Error,
        "J3D-042",
    ),
    (
        "joint pad byte 0",
        || skinned(|m| m.jnt1_mut().unwrap().joints[0].pad = 0),
        Warning,
        "J3D-043",
    ),
    (
        "scale inheritance byte 2",
        || skinned(|m| m.jnt1_mut().unwrap().joints[0].scale_compensate = 2),
        Error,
        "J3D-044",
    ),
    (
        "rotation -0x8000",
        || skinned(|m| m.jnt1_mut().unwrap().joints[0].rotation[0] = i16::MIN),
        Warning,
        "J3D-045",
    ),
    (
        "joint box 10 units short",
        || broken_variant("joint_bounds_too_small").unwrap(),
        Warning,
        "J3D-046",
    ),
    (
        "spine joint bounds all zero",
        || {
            skinned(|m| {
                let j = &mut m.jnt1_mut().unwrap().joints[1];
                j.radius = 0.0;
                j.bbox = [0.0; 6];
            })
        },
        Info,
        "J3D-046",
    ),
    (
        "remap entry 99",
        || skinned(|m| m.jnt1_mut().unwrap().remap[0] = 99),
        Error,
        "J3D-047",
    ),
    (
        "joint name key off by one",
        || {
            skinned(|m| {
                let t = m.jnt1_mut().unwrap().names.as_mut().unwrap();
                t.entries[0].key ^= 1;
            })
        },
        Warning,
        "J3D-078",
    ),
    (
        "two joint names for three joints",
        || {
            skinned(|m| {
                let t = m.jnt1_mut().unwrap().names.as_mut().unwrap();
                t.entries.pop();
            })
        },
        Error,
        "J3D-078",
    ),
    // SHP1.
    (
        "shape matrix type 5",
        || rigid(|m| m.shp1_mut().unwrap().shapes[0].matrix_type = ShapeMatrixType(5)),
        Error,
        "J3D-049",
    ),
    (
        "shape pad byte 0",
        || rigid(|m| m.shp1_mut().unwrap().shapes[0].pad = 0),
        Warning,
        "J3D-050",
    ),
    (
        "four unused matrix data entries",
        || {
            rigid(|m| {
                let s = m.shp1_mut().unwrap();
                let d = s.matrix_data[0];
                s.matrix_data.extend([d; 4]);
            })
        },
        Error,
        "J3D-051",
    ),
    (
        "shape claims two groups of one",
        || rigid(|m| m.shp1_mut().unwrap().shapes[0].group_count = 2),
        Error,
        "J3D-052",
    ),
    (
        "attribute list without 0xFF",
        || {
            // The list, less its end marker, moved to the end of the chunk (the table's end).
            rigid(|m| {
                raw(m, b"SHP1", |b| {
                    let at = u32_at(b, 0x18);
                    let list = b[at..at + 16].to_vec();
                    let end = b.len();
                    b.extend_from_slice(&list);
                    put32(b, 0x18, end);
                })
            })
        },
        Error,
        "J3D-053",
    ),
    (
        "POS indexed twice",
        || rigid_attrs(&[POS, CLR0, POS, END]),
        Error,
        "J3D-054",
    ),
    (
        "no POS indexer",
        || rigid_attrs(&[CLR0, END]),
        Error,
        "J3D-055",
    ),
    (
        "multi-matrix groups without PNMTXIDX",
        || {
            skinned(|m| {
                let s = m.shp1_mut().unwrap();
                s.attrs.remove(0);
                for g in &mut s.groups {
                    g.prims.clear();
                    g.tail = Tail::Align32;
                }
            })
        },
        Error,
        "J3D-056",
    ),
    (
        "multi shape of one-matrix groups without PNMTXIDX",
        || rigid(|m| m.shp1_mut().unwrap().shapes[0].matrix_type = ShapeMatrixType::MULTI),
        Info,
        "J3D-056",
    ),
    (
        "CLR0 direct",
        || rigid_attrs(&[POS, (Attr::CLR0, AttrType::DIRECT), END]),
        Error,
        "J3D-057",
    ),
    (
        "end marker with index type 1",
        || {
            rigid(|m| {
                raw(m, b"SHP1", |b| {
                    let end = u32_at(b, 0x18) + 16; // after POS and CLR0
                    put32(b, end + 4, 1);
                })
            })
        },
        Error,
        "J3D-058",
    ),
    (
        "TEX0MTXIDX",
        || rigid_attrs(&[(Attr(1), AttrType::DIRECT), POS, CLR0, END]),
        Info,
        "J3D-059",
    ),
    (
        "quad strip",
        || {
            rigid(|m| {
                let p = &mut m.shp1_mut().unwrap().groups[0].prims[0];
                p.op = Opcode(Opcode::QUAD_STRIP.0 | (p.op.0 & 7));
            })
        },
        Error,
        "J3D-060",
    ),
    (
        "line strip",
        || {
            rigid(|m| {
                let p = &mut m.shp1_mut().unwrap().groups[0].prims[0];
                p.op = Opcode(Opcode::LINE_STRIP.0 | (p.op.0 & 7));
            })
        },
        Warning,
        "J3D-060",
    ),
    (
        "group without its padding",
        || broken_variant("missing_primitive_padding").unwrap(),
        Error,
        "J3D-061",
    ),
    (
        "group size 32 past its padding",
        || broken_variant("group_size_past_padding").unwrap(),
        Error,
        "J3D-062",
    ),
    (
        "eleven matrices",
        || broken_variant("eleven_matrices").unwrap(),
        Error,
        "J3D-063",
    ),
    (
        "first group keeps slot 0",
        || broken_variant("group_starts_with_ffff").unwrap(),
        Error,
        "J3D-064",
    ),
    (
        "weight index 50",
        || skinned(|m| m.shp1_mut().unwrap().weights[0] = 50),
        Error,
        "J3D-065",
    ),
    (
        "group weights start at 50",
        || skinned(|m| m.shp1_mut().unwrap().matrix_data[2].start = 50),
        Error,
        "J3D-066",
    ),
    (
        "single-matrix group DRW1 index 5",
        || rigid(|m| m.shp1_mut().unwrap().matrix_data[0].drw = 5),
        Error,
        "J3D-067",
    ),
    (
        "PNMTXIDX 1",
        || skinned(|m| m.shp1_mut().unwrap().groups[0].prims[0].data[0] = 1),
        Error,
        "J3D-068",
    ),
    (
        "attribute offset 0x100",
        || {
            rigid(|m| {
                raw(m, b"SHP1", |b| {
                    let shape = u32_at(b, 0x0C);
                    put16(b, shape + 4, 0x100);
                })
            })
        },
        Error,
        "J3D-069",
    ),
    (
        "strip of 10 vertices read as triangles",
        || {
            rigid(|m| {
                let p = &mut m.shp1_mut().unwrap().groups[0].prims[0];
                p.op = Opcode(Opcode::TRIANGLES.0 | (p.op.0 & 7));
            })
        },
        Error,
        "J3D-070",
    ),
    // TEX1, MAT3, MDL3.
    (
        "500 texture headers",
        || skinned(|m| raw(m, b"TEX1", |b| put16(b, 8, 500))),
        Error,
        "J3D-073",
    ),
    (
        "one texture name short",
        || {
            skinned(|m| {
                raw(m, b"TEX1", |b| {
                    let names = u32_at(b, 0x10);
                    let n = u16_at(b, names);
                    put16(b, names, n - 1);
                })
            })
        },
        Error,
        "J3D-075",
    ),
    (
        "texture 1's image starts inside texture 0's",
        || {
            skinned(|m| {
                raw(m, b"TEX1", |b| {
                    // Header 1 sits 0x20 after header 0: the same offset lands 0x20 further in.
                    let table = u32_at(b, 0x0C);
                    let image0 = u32_at(b, table + 0x1C);
                    put32(b, table + 0x20 + 0x1C, image0);
                })
            })
        },
        Info,
        "J3D-074",
    ),
    (
        "texture 0 repeats over 24 texels along S",
        || {
            skinned(|m| {
                raw(m, b"TEX1", |b| {
                    let table = u32_at(b, 0x0C);
                    put16(b, table + 2, 24);
                })
            })
        },
        Warning,
        "J3D-082",
    ),
    (
        "a standalone BTI 1032 texels wide (I4, one row, all its data)",
        || {
            let mut set = j3d_bmd::TextureSet::default();
            let header = j3d_bmd::BtiHeader {
                width: 1032,
                height: 1,
                wrap_s: 0,
                wrap_t: 0,
                ..j3d_bmd::build::bti_header(0, 8, 1)
            };
            set.push(header, &[0x5A; 4128], None);
            let bti = j3d_bmd::Bti {
                set,
                image_offset_zero: false,
            };
            bti.write().unwrap()
        },
        Error,
        "J3D-082",
    ),
    (
        "texture number 99",
        || broken_variant("texture_number_past_tex1").unwrap(),
        Error,
        "J3D-076",
    ),
    (
        "image offset past TEX1",
        || broken_variant("image_past_tex1").unwrap(),
        Error,
        "J3D-079",
    ),
    (
        "material remap entry 99",
        || skinned(|m| m.mat3_mut().unwrap().remap.as_mut().unwrap()[0] = 99),
        Error,
        "J3D-080",
    ),
    (
        "one MDL3 packet short",
        || {
            rigid(|m| {
                raw(m, b"MDL3", |b| {
                    let n = u16_at(b, 8);
                    put16(b, 8, n - 1);
                })
            })
        },
        Error,
        "J3D-081",
    ),
    (
        "MDL3 konst colour differs",
        || broken_variant("mdl3_konst_differs").unwrap(),
        Warning,
        "J3D-081",
    ),
];

#[test]
fn the_base_models_are_clean() {
    for b in [skinned(|_| {}), rigid(|_| {})] {
        let d = j3d_bmd::validate(&b);
        assert!(d.is_empty(), "{d:#?}");
    }
}

#[test]
fn every_rule_has_a_broken_variant() {
    // Models, and a standalone BTI where a TEX1 fixture has no room for a case's data.
    let validate = |b: &Vec<u8>| {
        if b.starts_with(b"J3D") {
            j3d_bmd::validate(b)
        } else {
            j3d_bmd::validate_bti(b)
        }
    };
    if let Err(e) = check_rule_cases(CASES, validate) {
        panic!("{e}");
    }
}
