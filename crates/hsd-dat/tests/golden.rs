#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Golden tables: per struct, a value and its bytes (written out field by field from the
//! reference layout, independent of the struct definitions), checked both ways.

use gcio::{Reader, Writer};
use hsd_dat::*;

/// Decodes `bytes` with the given pointer-slot offsets relocated and checks `value`; encodes
/// `value` into zeroes and checks `bytes`.
fn check<T: Struct<u32> + PartialEq + std::fmt::Debug>(
    value: T,
    bytes: &[u8],
    relocated: &[usize],
) {
    assert_eq!(bytes.len(), T::SIZE, "{} size", T::NAME);
    let r = Reader::new(bytes);
    let mut ptr = |f: usize| Ok(relocated.contains(&f).then(|| r.u32(f).unwrap()));
    assert_eq!(T::decode(&r, &mut ptr).unwrap(), value, "{} read", T::NAME);
    let mut out = vec![0u8; T::SIZE];
    let mut seen = Vec::new();
    value.encode(&mut out, &mut |f, p| seen.extend(p.map(|p| (f, p))));
    for (f, p) in seen {
        out[f..f + 4].copy_from_slice(&p.to_be_bytes());
    }
    assert_eq!(out, bytes, "{} write", T::NAME);
}

fn bytes(f: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::new();
    f(&mut w);
    w.into_vec()
}

#[test]
fn scene_structs() {
    check(
        SceneData {
            models: Some(0x10),
            camera: None,
            lights: Some(0),
            fog: None,
        },
        &bytes(|w| {
            w.u32(0x10).u32(0).u32(0).u32(0);
        }),
        &[0, 8],
    );
    check(
        ModelSet {
            joint: Some(0x40),
            anims: Some(0x80),
            matanims: None,
            shapeanims: Some(0xC0),
        },
        &bytes(|w| {
            w.u32(0x40).u32(0x80).u32(0).u32(0xC0);
        }),
        &[0, 4, 0xC],
    );
    check(
        Light {
            class_name: None,
            next: Some(0x20),
            flags: LightFlags::from_bits_retain(0x8005),
            attn_flags: 1,
            color: Rgba([204, 204, 204, 255]),
            position: Some(0x100),
            interest: None,
            param: Some(0x200),
        },
        &bytes(|w| {
            w.u32(0)
                .u32(0x20)
                .u16(0x8005)
                .u16(1)
                .bytes(&[204, 204, 204, 255])
                .u32(0x100)
                .u32(0)
                .u32(0x200);
        }),
        &[4, 0x10, 0x18],
    );
    check(
        Camera {
            class_name: None,
            flags: 1,
            projection: 1,
            viewport: [0, 640, 0, -480],
            scissor: [0, 640, 0, 480],
            eye: Some(0x10),
            interest: Some(0x20),
            roll: 0.5,
            up: Some(0x30),
            near: 0.1,
            far: 1000.0,
            projection_params: [30.0, 1.333, 0.0, 0.0],
        },
        &bytes(|w| {
            w.u32(0).u16(1).u16(1).i16(0).i16(640).i16(0).i16(-480);
            w.u16(0)
                .u16(640)
                .u16(0)
                .u16(480)
                .u32(0x10)
                .u32(0x20)
                .f32(0.5)
                .u32(0x30)
                .f32(0.1)
                .f32(1000.0);
            w.f32(30.0).f32(1.333).f32(0.0).f32(0.0);
        }),
        &[0x18, 0x1C, 0x24],
    );
    check(
        WObj {
            class_name: None,
            position: [1.0, -2.0, 3.5],
            robj: None,
        },
        &bytes(|w| {
            w.u32(0).f32(1.0).f32(-2.0).f32(3.5).u32(0);
        }),
        &[],
    );
    check(
        Fog {
            kind: 2,
            adj: Some(4),
            start: 10.0,
            end: 100.0,
            color: Rgba([1, 2, 3, 4]),
        },
        &bytes(|w| {
            w.u32(2).u32(4).f32(10.0).f32(100.0).bytes(&[1, 2, 3, 4]);
        }),
        &[4],
    );
    check(
        LightSpot {
            cutoff: 45.0,
            spot_func: 3,
            ref_brightness: 0.5,
            ref_distance: 10.0,
            dist_func: 2,
        },
        &bytes(|w| {
            w.f32(45.0).u32(3).f32(0.5).f32(10.0).u32(2);
        }),
        &[],
    );
}

#[test]
fn joint_mesh_structs() {
    check(
        Joint {
            class_name: None,
            flags: JointFlags::from_bits_retain(0x4000_0002 | 1 << 31),
            child: Some(0x40),
            next: None,
            data: Some(0),
            rotation: [0.0, 1.5, -0.25],
            scale: [1.0; 3],
            translation: [0.0, 10.0, 0.0],
            inverse_bind: Some(0x300),
            robj: None,
        },
        &bytes(|w| {
            w.u32(0).u32(0xC000_0002).u32(0x40).u32(0).u32(0);
            w.f32(0.0)
                .f32(1.5)
                .f32(-0.25)
                .f32(1.0)
                .f32(1.0)
                .f32(1.0)
                .f32(0.0)
                .f32(10.0)
                .f32(0.0);
            w.u32(0x300).u32(0);
        }),
        &[8, 0x10, 0x38],
    );
    check(
        DObj {
            class_name: None,
            next: Some(0x10),
            mobj: Some(0x20),
            pobj: Some(0x30),
        },
        &bytes(|w| {
            w.u32(0).u32(0x10).u32(0x20).u32(0x30);
        }),
        &[4, 8, 0xC],
    );
    check(
        PObj {
            class_name: None,
            next: None,
            vtx_desc: Some(0x60),
            flags: PObjFlags::ENVELOPE | PObjFlags::CULLBACK,
            n_display: 3,
            display_list: Some(0x100),
            link: Some(0x200),
        },
        &bytes(|w| {
            w.u32(0)
                .u32(0)
                .u32(0x60)
                .u16(0xA000)
                .u16(3)
                .u32(0x100)
                .u32(0x200);
        }),
        &[8, 0x10, 0x14],
    );
    check(
        VtxDesc {
            attr: 9,
            attr_type: 3,
            comp_cnt: 1,
            comp_type: 3,
            frac: 8,
            pad: 0,
            stride: 6,
            array: Some(0),
        },
        &bytes(|w| {
            w.u32(9).u32(3).u32(1).u32(3).u8(8).u8(0).u16(6).u32(0);
        }),
        &[0x14],
    );
    check(
        Envelope {
            joint: Some(0x44),
            weight: 0.5,
        },
        &bytes(|w| {
            w.u32(0x44).f32(0.5);
        }),
        &[0],
    );
    check(
        ShapeSet {
            flags: 1,
            nb_shape: 2,
            nb_vertex_index: 3,
            vertex_desc: Some(4),
            vertex_idx_list: Some(8),
            nb_normal_index: -1,
            normal_desc: None,
            normal_idx_list: None,
        },
        &bytes(|w| {
            w.u16(1).u16(2).i32(3).u32(4).u32(8).i32(-1).u32(0).u32(0);
        }),
        &[8, 0xC],
    );
    check(
        Matrix {
            m: [
                [1.0, 0.0, 0.0, -1.0],
                [0.0, 1.0, 0.0, -2.0],
                [0.0, 0.0, 1.0, -3.0],
            ],
        },
        &bytes(|w| {
            for v in [
                1.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, -2.0, 0.0, 0.0, 1.0, -3.0,
            ] {
                w.f32(v);
            }
        }),
        &[],
    );
    check(
        RObj {
            next: None,
            flags: RObjFlags::from_bits_retain(0xC000_0006),
            value: Word::Ptr(0x80),
        },
        &bytes(|w| {
            w.u32(0).u32(0xC000_0006).u32(0x80);
        }),
        &[8],
    );
    check(
        RObj {
            next: None,
            flags: RObjFlags::from_bits_retain(0xA000_0000),
            value: Word::Value(0x3F80_0000),
        },
        &bytes(|w| {
            w.u32(0).u32(0xA000_0000).u32(0x3F80_0000);
        }),
        &[],
    );
}

#[test]
fn material_structs() {
    check(
        MObj {
            class_name: None,
            render_mode: RenderMode::from_bits_retain(0x4000_0015),
            tobj: Some(0x10),
            material: Some(0x20),
            render_desc: None,
            pe: Some(0x30),
        },
        &bytes(|w| {
            w.u32(0)
                .u32(0x4000_0015)
                .u32(0x10)
                .u32(0x20)
                .u32(0)
                .u32(0x30);
        }),
        &[8, 0xC, 0x14],
    );
    check(
        Material {
            ambient: Rgba([1, 2, 3, 4]),
            diffuse: Rgba([5, 6, 7, 8]),
            specular: Rgba([9; 4]),
            alpha: 1.0,
            shininess: 50.0,
        },
        &bytes(|w| {
            w.bytes(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9])
                .f32(1.0)
                .f32(50.0);
        }),
        &[],
    );
    check(
        PixelEngine {
            flags: PeFlags::from_bits_retain(0x31),
            ref0: 1,
            ref1: 2,
            dst_alpha: 3,
            blend_type: 4,
            src_factor: 5,
            dst_factor: 6,
            logic_op: 7,
            z_comp: 8,
            alpha_comp0: 9,
            alpha_op: 10,
            alpha_comp1: 11,
        },
        &[0x31, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        &[],
    );
    check(
        TObj {
            class_name: None,
            next: None,
            id: 1,
            src: 5,
            rotate: [0.0; 3],
            scale: [2.0, 2.0, 1.0],
            translate: [0.5, 0.0, 0.0],
            wrap_s: 1,
            wrap_t: 2,
            repeat_s: 3,
            repeat_t: 4,
            flags: TObjFlags::from_bits_retain(0x0004_0010),
            blending: 1.0,
            mag_filter: 1,
            image: Some(0x100),
            palette: Some(0x120),
            lod: None,
            tev: Some(0x140),
        },
        &bytes(|w| {
            w.u32(0).u32(0).u32(1).u32(5);
            for v in [0.0, 0.0, 0.0, 2.0, 2.0, 1.0, 0.5, 0.0, 0.0] {
                w.f32(v);
            }
            w.u32(1)
                .u32(2)
                .u8(3)
                .u8(4)
                .u16(0)
                .u32(0x0004_0010)
                .f32(1.0)
                .u32(1);
            w.u32(0x100).u32(0x120).u32(0).u32(0x140);
        }),
        &[0x4C, 0x50, 0x58],
    );
    check(
        Image {
            data: Some(0x400),
            width: 64,
            height: 32,
            format: 0xE,
            mipmap: 1,
            min_lod: 0.0,
            max_lod: 3.0,
        },
        &bytes(|w| {
            w.u32(0x400)
                .u16(64)
                .u16(32)
                .u32(0xE)
                .u32(1)
                .f32(0.0)
                .f32(3.0);
        }),
        &[0],
    );
    check(
        Palette {
            data: Some(0x600),
            format: 2,
            tlut_name: 0,
            n_entries: 16,
        },
        &bytes(|w| {
            w.u32(0x600).u32(2).u32(0).u16(16);
        }),
        &[0],
    );
    check(
        TexLod {
            min_filter: 5,
            lod_bias: -0.5,
            bias_clamp: 1,
            edge_lod: 0,
            max_anisotropy: 2,
        },
        &bytes(|w| {
            w.u32(5).f32(-0.5).u8(1).u8(0).u16(0).u32(2);
        }),
        &[],
    );
}

#[test]
fn animation_structs() {
    check(
        AObj {
            flags: AObjFlags::LOOP,
            end_frame: 59.0,
            fobj: Some(0x10),
            obj_id: Word::Value(0),
        },
        &bytes(|w| {
            w.u32(1 << 29).f32(59.0).u32(0x10).u32(0);
        }),
        &[8],
    );
    check(
        FObj {
            next: None,
            length: 11,
            start_frame: 0.0,
            track: 2,
            frac_value: 0x20 | 4,
            frac_slope: 0,
            pad: 0,
            data: Some(0x40),
        },
        &bytes(|w| {
            w.u32(0)
                .u32(11)
                .f32(0.0)
                .u8(2)
                .u8(0x24)
                .u8(0)
                .u8(0)
                .u32(0x40);
        }),
        &[0x10],
    );
    check(
        AnimJoint {
            child: Some(4),
            next: None,
            aobj: Some(8),
            robj_anim: None,
            flags: 1,
        },
        &bytes(|w| {
            w.u32(4).u32(0).u32(8).u32(0).u32(1);
        }),
        &[0, 8],
    );
    check(
        TexAnim {
            next: None,
            id: 0,
            aobj: Some(0x10),
            image_table: Some(0x20),
            palette_table: None,
            n_images: 3,
            n_palettes: 0,
        },
        &bytes(|w| {
            w.u32(0).u32(0).u32(0x10).u32(0x20).u32(0).u16(3).u16(0);
        }),
        &[8, 0xC],
    );
    check(
        BoundBoxHeader {
            anim_set_count: 2,
            pad: 0,
            first_frame_count: 10,
        },
        &bytes(|w| {
            w.u16(2).u16(0).u32(10);
        }),
        &[],
    );
}

#[test]
fn unrelocated_nonzero_pointer_is_an_error() {
    let b = bytes(|w| {
        w.u32(0x10).u32(0).u32(0).u32(0);
    });
    let r = Reader::new(&b);
    let mut none = |_: usize| Ok(None);
    assert!(<SceneData as Struct<u32>>::decode(&r, &mut none).is_err());
}

/// `n_display` counts 32-byte units in 16 bits: a display list past 2 MiB is an error, not a
/// count that wraps (the PObj would draw a truncated list), and one just within is written.
#[test]
fn display_list_length_is_bounded() {
    use gx::dl::{Opcode, PrimitiveBuf, VertexDesc};
    use gx::vtx::{Attr, AttrType};
    let mut desc = VertexDesc::new();
    desc.push(Attr::POS, AttrType::INDEX16).unwrap();
    let strip = |n: u32| {
        let mut p = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
        for i in 0..n {
            p.push(&desc, &[i]);
        }
        p
    };
    // 3 header bytes + 2 per vertex; a strip holds at most 65,535 vertices.
    let fits: Vec<PrimitiveBuf> = (0..15).map(|_| strip(65_535)).collect();
    let (dl, n) = hsd_dat::build::parts::display_list(&fits, &desc).unwrap();
    assert_eq!(usize::from(n) * 32, dl.len());
    let past: Vec<PrimitiveBuf> = (0..16).map(|_| strip(65_535)).collect();
    let e = hsd_dat::build::parts::display_list(&past, &desc).unwrap_err();
    assert!(e.to_string().contains("n_display"), "{e}");
}
